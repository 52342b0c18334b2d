// The host's ignore decision (ignored.ts) on repositories this spec makes: what it leaves to git, and
// the .gitignore files it reads from the parent (in how many git processes). The same decision against
// git itself over 200 generated cases: test/integration/ignored-against-git.test.ts.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { recordingGit } from '../../test/support/git-calls.js';
import { git, scenario } from '../../test/support/gitignore-cases.js';
import { proveClean } from './clean-probe.js';
import { GITIGNORE_MAX, ignoredRules, judgeUntracked, judgeUntrackedInParent } from './ignored.js';

describe('ignored.ts against git', () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

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
