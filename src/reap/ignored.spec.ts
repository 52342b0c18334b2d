// The host's ignore decision against git itself: many generated .gitignore files (committed, at several
// folder levels) and untracked paths in a temporary repository this spec makes; git's own listing of
// untracked files that are not ignored (`git ls-files --others --exclude-standard`, what `git status`
// reports) against the host's (clean-probe's unlisted entries judged by ignored.ts). The host must never
// call ignored a file git reports; where it supports the patterns, both lists must be equal.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { recordingGit } from '../../test/support/git-calls.js';
import { proveClean } from './clean-probe.js';
import {
  GITIGNORE_MAX,
  ignoredRules,
  judgeUntracked,
  judgeUntrackedInParent,
  untrackedFiles,
} from './ignored.js';

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** A small deterministic generator, so that a failure can be run again. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] };
}

const DIRS = ['a', 'b', 'build', 'node_modules', 'src', 'out.d'];
const FILES = ['x.log', 'y.txt', 'z', 'build', 'keep.log', 'a.tmp', '.env', 'out.js'];
const PATTERN_PARTS = [
  'a',
  'b',
  'build',
  'node_modules',
  'src',
  '*.log',
  '*.tmp',
  'z',
  '*',
  '?.txt',
  'x.*',
  'out*',
  '.env',
  '**',
];

function pattern(rng: ReturnType<typeof random>): string {
  const depth = rng.next() < 0.7 ? 1 : 2;
  let p = Array.from({ length: depth }, () => rng.pick(PATTERN_PARTS)).join('/');
  if (rng.next() < 0.2) p = `/${p}`;
  if (rng.next() < 0.3) p = `${p}/`;
  if (rng.next() < 0.25) p = `!${p}`;
  if (rng.next() < 0.1) p = `# ${p}`;
  return p;
}

function scenario(seed: number) {
  const rng = random(seed);
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-ignored-'));
  git(repo, 'init', '--quiet', '--template=', '--initial-branch=main');
  // Tracked folders, each with a file, some with a .gitignore; the top always has one.
  const levels = ['', 'a', 'a/b', 'src', 'build'].filter((d, i) => i === 0 || rng.next() < 0.5);
  const gitignores = new Map<string, string>();
  for (const dir of levels) {
    fs.mkdirSync(path.join(repo, dir), { recursive: true });
    fs.writeFileSync(path.join(repo, dir, 'tracked.md'), 'tracked\n');
    if (dir === '' || rng.next() < 0.25) {
      const text = `${Array.from({ length: 1 + Math.floor(rng.next() * 5) }, () => pattern(rng)).join('\n')}\n`;
      fs.writeFileSync(path.join(repo, dir, '.gitignore'), text);
      gitignores.set(dir, text);
    }
  }
  git(repo, 'add', '-f', '-A');
  git(repo, 'commit', '--quiet', '-m', 'tracked');
  // Untracked files anywhere, in tracked folders and in new ones.
  for (let i = 0; i < 30; i++) {
    const depth = Math.floor(rng.next() * 3);
    const base = rng.next() < 0.5 ? rng.pick(levels) : '';
    const dir = path.join(base, ...Array.from({ length: depth }, () => rng.pick(DIRS)));
    const file = path.join(repo, dir, rng.pick(FILES));
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      if (!fs.existsSync(file)) fs.writeFileSync(file, 'untracked\n');
    } catch {
      /* a file where a folder was wanted: skip */
    }
  }
  return { repo, gitignores };
}

function gitUntracked(repo: string): string[] {
  return git(repo, 'ls-files', '--others', '--exclude-standard', '-z').split('\0').filter(Boolean).sort();
}

describe('ignored.ts against git', () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('never calls ignored a file git reports, and agrees with git wherever it decides (200 generated cases)', () => {
    let decided = 0;
    let unsupported = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const { repo, gitignores } = scenario(seed);
      made.push(repo);
      const tree = git(repo, 'rev-parse', 'HEAD^{tree}').trim();
      const proof = proveClean(repo, path.join(repo, '.git'), tree);
      const rules = ignoredRules(gitignores);
      if ('unsupported' in rules) {
        unsupported++;
        continue;
      }
      const theirs = gitUntracked(repo);
      if (proof.clean) {
        expect({ seed, theirs }).toEqual({ seed, theirs: [] });
        continue;
      }
      expect(proof.untracked).toBeDefined();
      const ours = untrackedFiles(repo, proof.untracked!.unlisted, rules);
      if (!Array.isArray(ours)) {
        unsupported++;
        continue;
      }
      decided++;
      // Safety: everything git reports, the host reports (a file git reports is never called ignored).
      const missing = theirs.filter((f) => !ours.includes(f));
      const extra = ours.filter((f) => !theirs.includes(f));
      const at = JSON.stringify({ seed, gitignores: [...gitignores], missing, extra });
      expect(missing.length ? `called ignored what git reports: ${at}` : 'safe').toBe('safe');
      // And no more: where the host decides, it decides as git does.
      expect(extra.length ? `reported what git ignores: ${at}` : 'same').toBe('same');
    }
    // The generator must exercise the decision, not only the fallback.
    expect(decided).toBeGreaterThanOrEqual(60);
    expect(unsupported).toBeLessThan(140);
  }, 120_000);

  it('leaves to git what the sandbox could have decided itself', () => {
    const { repo } = scenario(7);
    made.push(repo);
    const rules = ignoredRules(new Map([['', 'build/\n']]));
    if ('unsupported' in rules) throw new Error('plain rules');
    fs.writeFileSync(path.join(repo, 'notes.txt'), 'work\n');
    const entries = [{ rel: 'notes.txt', isDir: false }];
    expect(judgeUntracked(repo, entries, rules, false)).toEqual({ ignoredOnly: false, untracked: 1 });
    // Its own info/exclude could ignore it: git decides.
    expect(judgeUntracked(repo, entries, rules, true)).toEqual({
      unsure: 'its own info/exclude may ignore what is untracked',
    });
    // An untracked .gitignore is the sandbox's rule, never the host's.
    fs.mkdirSync(path.join(repo, 'new'));
    fs.writeFileSync(path.join(repo, 'new', '.gitignore'), '*\n');
    expect(judgeUntracked(repo, [{ rel: 'new', isDir: true }], rules, false)).toEqual({
      unsure: 'new/.gitignore is a .gitignore the parent does not vouch for',
    });
    // Ignored build output only: not work, whatever info/exclude says.
    fs.mkdirSync(path.join(repo, 'out', 'build', 'x'), { recursive: true });
    expect(judgeUntracked(repo, [{ rel: 'out/build', isDir: true }], rules, true)).toEqual({
      ignoredOnly: true,
    });
    // Patterns of other forms are left to git.
    for (const odd of ['a\\ b\n', '[abc].log\n', 'x \n', 'build\r\n'])
      expect(ignoredRules(new Map([['', odd]]))).toHaveProperty('unsupported');
  });
});

describe("judgeUntrackedInParent: HEAD's .gitignore files read from the parent", () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A repository with a .gitignore at its top (and in `sub/`), build output and a log untracked. */
  function sandbox(topRules: string, subRules?: string) {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-ignored-parent-'));
    made.push(repo);
    git(repo, 'init', '--quiet', '--template=', '--initial-branch=main');
    fs.mkdirSync(path.join(repo, 'sub'));
    fs.writeFileSync(path.join(repo, '.gitignore'), topRules);
    if (subRules !== undefined) fs.writeFileSync(path.join(repo, 'sub', '.gitignore'), subRules);
    fs.writeFileSync(path.join(repo, 'sub', 'kept.txt'), 'tracked\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '--quiet', '-m', 'rules');
    fs.mkdirSync(path.join(repo, 'sub', 'build'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'sub', 'build', 'out.js'), 'made\n');
    fs.writeFileSync(path.join(repo, 'sub', 'x.log'), 'log\n');
    const headTree = git(repo, 'rev-parse', 'HEAD^{tree}').trim();
    const proof = proveClean(repo, path.join(repo, '.git'), headTree);
    if (proof.clean || !proof.untracked)
      throw new Error(`expected untracked entries: ${JSON.stringify(proof)}`);
    const parent = { path: repo, gitDir: path.join(repo, '.git'), objectStores: [] };
    const question = {
      key: 's',
      worktree: repo,
      gitDir: path.join(repo, '.git'),
      headTree,
      untracked: proof.untracked,
    };
    return { parent, question };
  }

  /** The verdicts, and the git commands run (with their first option). */
  async function judge(topRules: string, subRules?: string) {
    const { parent, question } = sandbox(topRules, subRules);
    const { git: cli, ran } = await recordingGit();
    const verdict = (await judgeUntrackedInParent(cli, parent, [question])).get('s');
    return { verdict, ran: ran.map((args) => args.slice(0, 2).join(' ')) };
  }

  it('reads them in one git process when each is within GITIGNORE_MAX', async () => {
    expect(await judge('build/\n*.log\n')).toEqual({
      verdict: { ignoredOnly: true },
      ran: ['cat-file --batch'],
    });
    expect(await judge('build/\n*.txt\n')).toEqual({
      verdict: { ignoredOnly: false, untracked: 1 },
      ran: ['cat-file --batch'],
    });
  });

  it('asks sizes first when one is larger, and never reads that one', async () => {
    const large = `*.log\n${'#'.repeat(GITIGNORE_MAX)}\n`;
    const { verdict, ran } = await judge('build/\n', large);
    expect(verdict).toEqual({ unsure: 'sub/.gitignore could not be read from the parent' });
    // The top folder's file is read on its own; the larger one is not read at all.
    expect(ran).toEqual([
      'cat-file --batch',
      'cat-file --batch-check=%(objectname) %(objecttype) %(objectsize)',
      'cat-file blob',
    ]);
  });
});

describe('Git.readSmallObjects', () => {
  it('answers by name, in order: content, null for what git lacks; undefined once an object is too large', async () => {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-small-objects-'));
    try {
      git(repo, 'init', '--quiet', '--template=', '--initial-branch=main');
      // Names of many bytes per character: git's line for a missing one is longer in bytes than in characters.
      const folder = Array(5).fill('données-数据'.repeat(8)).join('/');
      fs.mkdirSync(path.join(repo, folder), { recursive: true });
      fs.writeFileSync(path.join(repo, folder, '.gitignore'), 'build/\n');
      fs.writeFileSync(path.join(repo, 'big'), 'x'.repeat(5000));
      git(repo, 'add', '-A');
      git(repo, 'commit', '--quiet', '-m', 'files');
      const tree = git(repo, 'rev-parse', 'HEAD^{tree}').trim();
      const { git: cli } = await recordingGit();
      const names = [`${tree}:${folder}/.gitignore`, `${tree}:${folder}/missing`, `${tree}:${folder}`];
      const found = await cli.readSmallObjects(repo, names, 4096);
      expect(found?.get(names[0])).toEqual({
        oid: git(repo, 'rev-parse', `HEAD:${folder}/.gitignore`).trim(),
        type: 'blob',
        body: Buffer.from('build/\n'),
      });
      expect(found?.get(names[1])).toBeNull();
      expect(found?.get(names[2])?.type).toBe('tree');
      expect(await cli.readSmallObjects(repo, [`${tree}:big`, names[0]], 4096)).toBeUndefined();
      expect(await cli.readSmallObjects(repo, ['a\nb'], 4096)).toBeUndefined();
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });
});
