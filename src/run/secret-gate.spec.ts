import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Git } from '../engine/git.js';
import { git as sh, makeLocalRepo } from '../../test/support/repo.js';
import type { Ui } from '../ui/ui.js';
import { silentUi } from '../ui/ui.js';
import { checkCommits, checkReply, SecretScanBlocked, secretGate, type SecretGate } from './secret-gate.js';
import type { SecretScanMode } from '../settings/settings.js';

// Credential formats are put together at run time, so that this file itself holds none (the scan of this
// repository's own history must find nothing: test/unit/secret-scan-history.test.ts).
const GITHUB_TOKEN = ['ghp', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'].join('_');
const AWS_SECRET = ['wJalrXUtnFEMI/K7MDENG/bPxRfiCY', 'RealKeyAbc'].join('');
const PRIVATE_KEY = [
  ['-----BEGIN', 'RSA PRIVATE KEY-----'].join(' '),
  'MIIEpAIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB',
  'aFDrBz9vFqU4yV4Fz5J3hbPbsYqQzJ0V5zMv1ZyO5V5aQ0ZP1b9QTt0T9cw1bZJ1',
  ['-----END', 'RSA PRIVATE KEY-----'].join(' '),
].join('\n');
const CREDENTIAL = 'sk-test-credential-value-0123456789';
const TOKEN = 'ghs_actionTokenValue0123456789abcdef';

// A repository of one commit, no origin: the gate reads commits only.
let repo: { root: string; parent: string };
let git: Git;
beforeAll(async () => {
  repo = makeLocalRepo();
  git = await Git.create();
});
afterAll(() => fs.rmSync(repo.root, { recursive: true, force: true }));

/** Commits `files` (and a message) on top of HEAD; returns [before, after]. */
function commit(files: Record<string, string | null>, message = 'work'): [string, string] {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(repo.parent, name);
    if (content === null) fs.rmSync(file);
    else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
    }
  }
  sh(repo.parent, 'add', '-A');
  sh(repo.parent, 'commit', '--quiet', '--allow-empty', '-m', message);
  // HEAD's one parent is what HEAD was before: both in one git process.
  const [before, after] = sh(repo.parent, 'rev-parse', 'HEAD~1', 'HEAD').split('\n');
  return [before, after];
}

interface Recorded {
  ui: Ui;
  infos: string[];
  warnings: string[];
  masked: string[];
}

function recordingUi(): Recorded {
  const r: Recorded = { ui: silentUi, infos: [], warnings: [], masked: [] };
  r.ui = {
    ...silentUi,
    info: (m) => r.infos.push(m),
    warning: (m) => r.warnings.push(m),
    mask: (s) => r.masked.push(s),
  };
  return r;
}

function gateFor(
  mode: SecretScanMode,
  ui: Ui,
  extra: Partial<SecretGate> = {},
): SecretGate & { blocked: number } {
  const state = { blocked: 0 };
  const gate = secretGate(
    {
      secretScan: mode,
      token: TOKEN,
      network: {
        mode: 'allow',
        rules: [],
        credentials: [
          { host: 'api.example.com', scheme: 'https', ports: [443], header: 'X-Key', value: CREDENTIAL },
        ],
      },
      env: [
        { name: 'SERVICE_PASSWORD', value: 'correct-horse-battery' },
        { name: 'GREETING', value: 'hello-world-greeting' },
      ],
    },
    ui,
    () => state.blocked++,
  );
  return Object.assign(gate, extra, state, {
    onBlocked: () => (gate as SecretGate & { blocked: number }).blocked++,
  });
}

async function blocked(promise: Promise<void>): Promise<SecretScanBlocked> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SecretScanBlocked);
  return error as SecretScanBlocked;
}

const range = ([before, after]: [string, string]) => [after, '--not', before];

describe('checkCommits', () => {
  it('blocks a credentials value written into a new file, naming file, line, commit and rule, never the value', async () => {
    const span = commit({ 'config/new.env': `A=1\nB=2\nAPI=${CREDENTIAL}\n` });
    const r = recordingUi();
    const gate = gateFor('block', r.ui);
    const error = await blocked(checkCommits(git, repo.parent, range(span), gate, 'the push to origin/x'));
    expect(error.message).toContain(
      `added line in config/new.env:3 of ${span[1].slice(0, 12)}: credentials for api.example.com`,
    );
    expect(error.message).toContain('the push to origin/x');
    expect(error.message).not.toContain(CREDENTIAL);
    expect(gate.blocked).toBe(1);
    // Known values and their encodings are masked in the log from the moment the gate exists.
    expect(r.masked).toEqual(expect.arrayContaining([CREDENTIAL, TOKEN, 'correct-horse-battery']));
    expect(r.masked).not.toContain('hello-world-greeting');
  });

  it('blocks the token in a commit message, and an env secret in base64', async () => {
    const encoded = Buffer.from(`user:correct-horse-battery`).toString('base64');
    const span = commit({ 'notes.txt': `auth ${encoded}\n` }, `fix\n\nused ${TOKEN} to test`);
    const error = await blocked(checkCommits(git, repo.parent, range(span), gateFor('block', silentUi), 'p'));
    expect(error.findings.map((f) => f.rule)).toEqual(
      expect.arrayContaining(['token', 'env SERVICE_PASSWORD (base64)']),
    );
    expect(error.message).toContain(`message of ${span[1].slice(0, 12)}, line 3: token`);
    expect(error.message).toContain('notes.txt:1');
  });

  it('blocks well-known credential formats (secretlint), and a comment cannot switch the scan off', async () => {
    const span = commit({
      'src/deploy.js': `// secretlint-disable\nconst gh = "${GITHUB_TOKEN}";\n`,
      'aws.cfg': `[default]\naws_secret_access_key = ${AWS_SECRET}\n`,
      id_rsa: `${PRIVATE_KEY}\n`,
    });
    const error = await blocked(checkCommits(git, repo.parent, range(span), gateFor('block', silentUi), 'p'));
    const rules = error.findings.map(
      (f) => `${f.place.kind === 'file' ? f.place.path : ''}:${f.line} ${f.rule}`,
    );
    expect(rules).toEqual(
      expect.arrayContaining([
        'src/deploy.js:2 @secretlint/secretlint-rule-github (GITHUB_TOKEN)',
        'aws.cfg:2 @secretlint/secretlint-rule-aws (AWSSecretAccessKey)',
        'id_rsa:1 @secretlint/secretlint-rule-privatekey (PrivateKey)',
      ]),
    );
    for (const value of [GITHUB_TOKEN, AWS_SECRET, 'MIIEpAIBAAKCAQEA'])
      expect(error.message).not.toContain(value);
  });

  it("scans files git would call binary, and files the repository's attributes mark -diff", async () => {
    fs.writeFileSync(path.join(repo.parent, '.gitattributes'), 'generated/** -diff\n');
    const blob = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]),
      Buffer.from(`${TOKEN}\n`),
    ]);
    const utf16 = Buffer.from(`key=${CREDENTIAL}\n`, 'utf16le');
    const before = sh(repo.parent, 'rev-parse', 'HEAD');
    fs.mkdirSync(path.join(repo.parent, 'generated'), { recursive: true });
    fs.writeFileSync(path.join(repo.parent, 'generated', 'bundle.js'), `x\nconst k = "${CREDENTIAL}";\n`);
    fs.writeFileSync(path.join(repo.parent, 'image.png'), blob);
    fs.writeFileSync(path.join(repo.parent, 'notes-utf16.txt'), utf16);
    sh(repo.parent, 'add', '-A');
    sh(repo.parent, 'commit', '--quiet', '-m', 'binary');
    const after = sh(repo.parent, 'rev-parse', 'HEAD');
    const error = await blocked(
      checkCommits(git, repo.parent, [after, '--not', before], gateFor('block', silentUi), 'p'),
    );
    const places = error.findings.map(
      (f) => `${f.place.kind === 'file' ? f.place.path : ''}:${f.line} ${f.rule}`,
    );
    expect(places).toEqual(
      expect.arrayContaining([
        'generated/bundle.js:2 credentials for api.example.com',
        'image.png:1 token',
        'notes-utf16.txt:1 credentials for api.example.com',
      ]),
    );
  });

  it('finds a secret that a later commit removed again: it still leaves in the first', async () => {
    const first = commit({ 'tmp.txt': `${CREDENTIAL}\n` });
    const second = commit({ 'tmp.txt': null });
    const error = await blocked(
      checkCommits(git, repo.parent, [second[1], '--not', first[0]], gateFor('block', silentUi), 'p'),
    );
    expect(error.findings).toHaveLength(1);
    expect(error.findings[0].place).toMatchObject({ kind: 'file', path: 'tmp.txt', commit: first[1] });
  });

  it('passes what holds no secret (removed lines are not scanned) and says what it scanned', async () => {
    const span = commit({ 'tmp2.txt': 'nothing to see\nhere\n', 'config/new.env': null });
    const r = recordingUi();
    await checkCommits(git, repo.parent, range(span), gateFor('block', r.ui), 'the push to origin/x');
    expect(r.infos).toEqual([
      'Secret scan of the push to origin/x: nothing found (1 commit(s) with their headers, 1 path name(s), 2 added line(s)).',
    ]);
  });

  it('with warn: findings are warnings, and it goes on', async () => {
    const span = commit({ 'w.txt': `${TOKEN}\n` });
    const r = recordingUi();
    const gate = gateFor('warn', r.ui);
    await checkCommits(git, repo.parent, range(span), gate, 'the push to origin/x');
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toContain(`added line in w.txt:1 of ${span[1].slice(0, 12)}: token`);
    expect(r.warnings[0]).toContain('secret-scan: warn lets it go on');
    expect(r.warnings[0]).not.toContain(TOKEN);
    expect(gate.blocked).toBe(0);
  });

  it('with off: nothing is read', async () => {
    const span = commit({ 'off.txt': `${TOKEN}\n` });
    const r = recordingUi();
    await checkCommits(git, repo.parent, range(span), gateFor('off', r.ui), 'p');
    expect([...r.infos, ...r.warnings]).toEqual([]);
  });

  it('escapes file names: a name cannot break the failure into lines or start a workflow command', async () => {
    const span = commit({ 'evil\n::error::x.txt': `${TOKEN}\n` });
    const error = await blocked(checkCommits(git, repo.parent, range(span), gateFor('block', silentUi), 'p'));
    expect(error.message).not.toMatch(/\n::error::x/);
    // git quotes the name (`\n`, two characters); sandboxText escapes what git leaves as it is.
    expect(error.message).toContain('evil\\n::error::x.txt:1');
  });

  it('reads the commit as stored: author, committer, extra headers, gpgsig, a message in another encoding', async () => {
    const before = sh(repo.parent, 'rev-parse', 'HEAD');
    const tree = sh(repo.parent, 'rev-parse', 'HEAD^{tree}');
    const object = Buffer.concat([
      Buffer.from(
        [
          `tree ${tree}`,
          `parent ${before}`,
          `author A ${TOKEN} <a@example.com> 1700000000 +0000`,
          `committer C <${CREDENTIAL}@example.com> 1700000000 +0000`,
          'encoding ISO-2022-JP',
          `x-${'correct-horse-battery'} note`,
          'gpgsig -----BEGIN PGP SIGNATURE-----',
          ` ${GITHUB_TOKEN}`,
          ' -----END PGP SIGNATURE-----',
          '',
          '\x1b$Bsubject ',
        ].join('\n'),
      ),
      Buffer.from(`${CREDENTIAL}\n`, 'ascii'),
    ]);
    const file = path.join(repo.root, 'raw-commit');
    fs.writeFileSync(file, object);
    const oid = sh(repo.parent, 'hash-object', '-w', '-t', 'commit', '--literally', file);
    const error = await blocked(
      checkCommits(git, repo.parent, [oid, '--not', before], gateFor('block', silentUi), 'p'),
    );
    const of = oid.slice(0, 12);
    for (const place of [
      `author of ${of}: token`,
      `committer of ${of}: credentials for api.example.com`,
      `an extra header of ${of}, line 1: env SERVICE_PASSWORD`,
      `header gpgsig of ${of}, line 2: @secretlint/secretlint-rule-github (GITHUB_TOKEN)`,
      `message of ${of}, line 1: credentials for api.example.com`,
    ])
      expect(error.message).toContain(place);
    for (const value of [TOKEN, CREDENTIAL, GITHUB_TOKEN, 'correct-horse-battery'])
      expect(error.message).not.toContain(value);
  });

  it('reads every path name a commit adds, folders too, and then shows no path', async () => {
    const span = commit({
      [`dir-${CREDENTIAL}/empty.txt`]: '',
      [`${TOKEN}.txt`]: 'x\n',
      'k.txt': `${TOKEN}\n`,
    });
    const error = await blocked(checkCommits(git, repo.parent, range(span), gateFor('block', silentUi), 'p'));
    const of = span[1].slice(0, 12);
    expect(error.message).toContain(`path name in ${of}: credentials for api.example.com`);
    expect(error.message).toContain(`path name in ${of}: token`);
    expect(error.message).toContain(`added line 1 of ${of}, in a file whose path is not shown`);
    expect(error.message).not.toContain('k.txt');
    expect(error.message).not.toContain(CREDENTIAL);
  });

  it('blocks what is larger than its bound under block (not a silent pass); warns under warn', async () => {
    const span = commit({ 'big.txt': 'x'.repeat(200) + '\n'.repeat(2000) });
    const small = { maxBytes: 4096 };
    const error = await blocked(
      checkCommits(git, repo.parent, range(span), gateFor('block', silentUi, small), 'the push to origin/x'),
    );
    expect(error.findings).toEqual([]);
    expect(error.message).toContain("not scanned whole: what it carries is larger than the scan's bound");
    const r = recordingUi();
    await checkCommits(git, repo.parent, range(span), gateFor('warn', r.ui, small), 'p');
    expect(r.warnings.join('\n')).toContain('could not be scanned whole');
  });

  it('refuses a revision that could be read as an option', async () => {
    await expect(
      checkCommits(git, repo.parent, ['--output=/tmp/x'], gateFor('block', silentUi), 'p'),
    ).rejects.toThrow(/not a revision the secret scan takes/);
  });
});

describe('checkReply', () => {
  it('blocks a key in the reply, naming its line', async () => {
    const error = await blocked(
      checkReply(`Done.\nThe key is ${GITHUB_TOKEN}, and ${CREDENTIAL}.\n`, gateFor('block', silentUi)),
    );
    expect(error.message).toContain('reply, line 2: credentials for api.example.com');
    expect(error.message).toContain('reply, line 2: @secretlint/secretlint-rule-github (GITHUB_TOKEN)');
    expect(error.message).not.toContain(CREDENTIAL);
  });

  it('lets a clean reply go, and warns under warn', async () => {
    const r = recordingUi();
    await checkReply('All tests pass.\n', gateFor('block', r.ui));
    expect(r.infos).toEqual(['Secret scan of the reply: nothing found (2 line(s)).']);
    await checkReply(`token: ${TOKEN}`, gateFor('warn', r.ui));
    expect(r.warnings.join('\n')).toContain('reply, line 1: token');
  });
});
