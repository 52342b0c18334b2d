import * as fs from 'node:fs';
import * as path from 'node:path';
import { emptyCommits, git as gitIn, gitWithInput, tempDir } from '../../test/support/repo.js';
import { recordingGit } from '../../test/support/git-calls.js';
import { checkAgainstParent, countReachable } from './parent-check.js';

// c3 -> c2 -> c1 (c1's parent is saved, so not in the graph); d1 -> c2 (a second tip sharing history)
const graph = new Map<string, string[]>([
  ['c3', ['c2']],
  ['c2', ['c1']],
  ['c1', ['saved']],
  ['d1', ['c2', 'saved']],
]);

describe('countReachable', () => {
  it("counts a sandbox's unsaved commits once each, whatever the number of tips reaching them", () => {
    expect(countReachable(graph, ['c3'], 100)).toEqual({ count: 3, stopped: false });
    expect(countReachable(graph, ['c3', 'd1', 'c2'], 100)).toEqual({ count: 4, stopped: false });
  });

  it('counts nothing for tips that are saved (not in the graph)', () => {
    expect(countReachable(graph, ['saved', 'elsewhere'], 100)).toEqual({ count: 0, stopped: false });
  });

  it('stops at the limit and says the count is a lower bound', () => {
    expect(countReachable(graph, ['c3', 'd1'], 2)).toEqual({ count: 2, stopped: true });
  });
});

describe('checkAgainstParent on a real parent', () => {
  const dir = tempDir('wts-parent-check-');
  const git = (...args: string[]) => gitIn(dir, ...args);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** The verdicts, and the git commands the check ran (their first word). */
  async function check(named: string[], alsoRead: string[] = []) {
    const { git: cli, ran } = await recordingGit();
    const parent = { path: dir, gitDir: path.join(dir, '.git'), objectStores: [] };
    const { verdicts, read } = await checkAgainstParent(
      cli,
      parent,
      [{ key: 's', headOid: named[0], named }],
      alsoRead,
    );
    return { verdict: verdicts.get('s'), read, ran: ran.map((args) => args[0]), args: ran };
  }

  it("reads the parent's configuration only when its remote-tracking refs and tags leave a commit unsaved", async () => {
    git('init', '--quiet', '--initial-branch=main');
    gitWithInput(dir, emptyCommits(['one', 'two']), 'fast-import', '--quiet');
    const [one, two] = git('rev-list', '--reverse', 'main').split('\n');
    git('remote', 'add', 'origin', 'https://example.invalid/r.git');
    git('update-ref', 'refs/remotes/origin/main', one);

    // Saved by origin's ref, which names it: one git process, no walk (the refs read as data), no
    // configuration read.
    const saved = await check([one]);
    expect(saved.verdict).toEqual({ headTree: git('rev-parse', `${one}^{tree}`) });
    expect(saved.ran).toEqual(['cat-file']);

    // On the local branch only, with a remote: unsaved, and the configuration says why.
    const unsaved = await check([two]);
    expect(unsaved.verdict).toMatchObject({ unsaved: { count: 1 }, hasRemote: true });
    expect(unsaved.ran).toEqual(['cat-file', 'rev-list', 'config']);

    // Saved by origin's ref, which reaches it without naming it: git walks.
    git('update-ref', 'refs/remotes/origin/main', two);
    const reached = await check([one]);
    expect(reached.verdict).toEqual({ headTree: git('rev-parse', `${one}^{tree}`) });
    expect(reached.ran).toEqual(['cat-file', 'rev-list']);
    // Where the refs cannot be read for sure as data (here: a ref that is a symbolic link, which git
    // follows), git walks too.
    const link = path.join(dir, '.git', 'refs', 'remotes', 'origin', 'linked');
    fs.symlinkSync(path.join(dir, '.git', 'refs', 'remotes', 'origin', 'main'), link);
    const unsure = await check([two]);
    expect(unsure.verdict).toEqual({ headTree: git('rev-parse', `${two}^{tree}`) });
    expect(unsure.ran).toEqual(['cat-file', 'rev-list']);
    fs.unlinkSync(link);
    git('update-ref', 'refs/remotes/origin/main', one);

    // With no remote, the parent's branches count: walked again with them, saved.
    git('remote', 'remove', 'origin');
    git('update-ref', 'refs/remotes/origin/main', one);
    const branch = await check([two]);
    expect(branch.verdict).toEqual({ headTree: git('rev-parse', `${two}^{tree}`), hasRemote: false });
    expect(branch.ran).toEqual(['cat-file', 'rev-list', 'config', 'rev-list']);

    // A commit the parent lacks is unsaved, and read with what the parent is.
    const lacking = await check([one, 'f'.repeat(40)]);
    expect(lacking.verdict).toMatchObject({ unsaved: { count: 1, atLeast: true }, hasRemote: false });
    expect(lacking.ran).toContain('config');
  });

  it("reads the caller's small files in the same git process, and falls back to one without content past the bound", async () => {
    fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\n');
    git('add', '.gitignore');
    git('commit', '--quiet', '-m', 'ignore');
    const head = git('rev-parse', 'HEAD');
    const tree = git('rev-parse', `${head}^{tree}`);
    git('update-ref', 'refs/remotes/origin/main', head);
    const wanted = [`${tree}:.gitignore`, `${tree}:sub/.gitignore`];

    // One `cat-file --batch`: the head's type and tree (from the commit's content), and both files asked
    // for (the second is not there).
    const small = await check([head], wanted);
    expect(small.verdict).toEqual({ headTree: tree });
    expect(small.args).toEqual([['cat-file', '--batch']]);
    expect(small.read?.get(wanted[0])).toMatchObject({
      oid: git('rev-parse', `${tree}:.gitignore`),
      type: 'blob',
      body: Buffer.from('node_modules/\n'),
    });
    expect(small.read?.get(wanted[1])).toBeNull();

    // A ref that names an object past the bound (a large blob): its type is asked without content, the
    // files are left to the caller, and the verdict is the same as it would be otherwise.
    fs.writeFileSync(path.join(dir, 'large.bin'), Buffer.alloc(200_000, 7));
    const large = git('hash-object', '-w', 'large.bin');
    fs.rmSync(path.join(dir, 'large.bin'));
    const odd = await check([head, large], wanted);
    expect(odd.args).toEqual([
      ['cat-file', '--batch'],
      ['cat-file', '--batch-check'],
    ]);
    expect(odd.read).toBeUndefined();
    expect(odd.verdict).toEqual({
      headTree: tree,
      error: `a ref names ${large.slice(0, 12)}, which is a blob`,
    });
  });
});

describe('a tag of the parent saves what it reaches, as a remote-tracking ref does', () => {
  const dir = tempDir('wts-parent-tags-');
  const git = (...args: string[]) => gitIn(dir, ...args);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function verdict(named: string[]) {
    const { git: cli } = await recordingGit();
    const parent = { path: dir, gitDir: path.join(dir, '.git'), objectStores: [] };
    const { verdicts } = await checkAgainstParent(cli, parent, [{ key: 's', headOid: named[0], named }]);
    return verdicts.get('s');
  }

  it('naming the commit or reaching it, light or annotated, loose or packed; the sandbox records never do', async () => {
    git('init', '--quiet', '--initial-branch=main');
    git('remote', 'add', 'origin', 'https://example.invalid/r.git');
    gitWithInput(dir, emptyCommits(['one', 'two', 'three']), 'fast-import', '--quiet');
    const [three, tree] = git('rev-parse', 'HEAD', 'HEAD^{tree}').split('\n');
    // Three commits on a local branch of a parent with a remote, and the sandbox's own record: unsaved.
    git('update-ref', 'refs/worktree-sandbox/disk/x/head', three);
    expect(await verdict([three])).toMatchObject({ unsaved: { count: 3 }, hasRemote: true });

    git('tag', 'light', three);
    expect(await verdict([three])).toEqual({ headTree: tree });
    git('tag', '-d', 'light');
    git('tag', '-a', '-m', 'annotated', 'v1', `${three}~1`);
    expect(await verdict([three])).toMatchObject({ unsaved: { count: 1 }, hasRemote: true });
    git('pack-refs', '--all');
    git('tag', '-a', '-m', 'annotated', 'v2', three);
    expect(await verdict([three])).toEqual({ headTree: tree });
    git('pack-refs', '--all');
    expect(await verdict([three])).toEqual({ headTree: tree });
  });
});
