// The filesystem fast path of the check for work, against git itself: it may say "clean" only where
// `git status` says clean, and must leave every other case to git.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { proveClean } from '../../src/reap/clean-probe.js';
import { operationInProgress } from '../../src/sandbox/sandbox-files.js';
import { git, makeRepo, tempDir, type TestRepo } from '../support/repo.js';
import { makeDiskSandbox } from '../support/sandboxes.js';

let repo: TestRepo;
let root: string;
let n = 0;

beforeAll(() => {
  repo = makeRepo({
    files: { 'README.md': '# test\n', 'src/app.js': 'console.log("hi")\n', 'bin/run.sh': '#!/bin/sh\n' },
  });
  root = tempDir('wts-probe-');
  fs.chmodSync(path.join(repo.parent, 'bin', 'run.sh'), 0o755);
  fs.symlinkSync('src/app.js', path.join(repo.parent, 'link'));
  git(repo.parent, 'add', '-A');
  git(repo.parent, 'commit', '--quiet', '-m', 'exec bit and link');
});
afterAll(() => {
  fs.rmSync(repo.root, { recursive: true, force: true });
  fs.rmSync(root, { recursive: true, force: true });
});

/** A sandbox made by run mode's own code; `admin` is its own .git folder. */
async function worktree(): Promise<{ dir: string; admin: string; tree: string }> {
  const dir = await makeDiskSandbox(repo, root, `exploration-${String(n++).padStart(8, '0')}`);
  return { dir, admin: path.join(dir, '.git'), tree: git(dir, 'rev-parse', 'HEAD^{tree}') };
}

const gitClean = (dir: string) =>
  git(dir, '--no-optional-locks', 'status', '--porcelain', '--untracked-files=all') === '';

describe('proveClean', () => {
  it('proves a fresh worktree clean, by content where the stat data is too recent to trust', async () => {
    const { dir, admin, tree } = await worktree();
    expect(proveClean(dir, admin, tree)).toEqual({ clean: true });
    expect(gitClean(dir)).toBe(true);
  });

  it('still proves it clean once git has refreshed the index (stat data now trusted)', async () => {
    const { dir, admin, tree } = await worktree();
    const past = new Date(Date.now() - 60_000);
    for (const f of ['README.md', 'src/app.js', 'bin/run.sh']) fs.utimesSync(path.join(dir, f), past, past);
    git(dir, 'status', '--porcelain'); // refreshes and rewrites the index (optional locks allowed here)
    expect(proveClean(dir, admin, tree)).toEqual({ clean: true });
  });

  it('accepts a touched file whose content is unchanged', async () => {
    const { dir, admin, tree } = await worktree();
    const future = new Date(Date.now() + 3_600_000);
    fs.utimesSync(path.join(dir, 'README.md'), future, future);
    expect(proveClean(dir, admin, tree)).toEqual({ clean: true });
  });

  it.each<[string, (dir: string) => void]>([
    ['an edit of the same size', (dir) => fs.writeFileSync(path.join(dir, 'README.md'), '# TEST\n')],
    ['an edit of another size', (dir) => fs.appendFileSync(path.join(dir, 'src/app.js'), '// more\n')],
    ['a deleted file', (dir) => fs.rmSync(path.join(dir, 'README.md'))],
    ['a lost exec bit', (dir) => fs.chmodSync(path.join(dir, 'bin/run.sh'), 0o644)],
    ['a new exec bit', (dir) => fs.chmodSync(path.join(dir, 'README.md'), 0o755)],
    [
      'a retargeted link',
      (dir) => (fs.rmSync(path.join(dir, 'link')), fs.symlinkSync('README.md', path.join(dir, 'link'))),
    ],
    [
      'a file where a link was',
      (dir) => (fs.rmSync(path.join(dir, 'link')), fs.writeFileSync(path.join(dir, 'link'), 'src/app.js')),
    ],
    ['an untracked file', (dir) => fs.writeFileSync(path.join(dir, 'notes.txt'), 'x\n')],
    ['an untracked folder', (dir) => fs.mkdirSync(path.join(dir, 'src', 'new'))],
    [
      'a file that may be ignored (only git knows)',
      (dir) => fs.writeFileSync(path.join(dir, 'build.log'), ''),
    ],
    [
      'a staged change',
      (dir) => (fs.writeFileSync(path.join(dir, 'staged.txt'), 's\n'), git(dir, 'add', 'staged.txt')),
    ],
    [
      'a staged edit undone in the work tree',
      (dir) => {
        fs.writeFileSync(path.join(dir, 'README.md'), 'staged\n');
        git(dir, 'add', 'README.md');
        fs.writeFileSync(path.join(dir, 'README.md'), '# test\n');
      },
    ],
    [
      'a folder replaced by a link (never read through)',
      (dir) => (
        fs.rmSync(path.join(dir, 'src'), { recursive: true }),
        fs.symlinkSync(repo.parent + '/src', path.join(dir, 'src'))
      ),
    ],
  ])('leaves %s to git', async (_what, change) => {
    const { dir, admin, tree } = await worktree();
    change(dir);
    const proof = proveClean(dir, admin, tree);
    expect(proof.clean).toBe(false);
  });

  it('never calls clean what git calls dirty, whatever the change', async () => {
    const { dir, admin, tree } = await worktree();
    fs.writeFileSync(path.join(dir, 'src', 'app.js'), 'console.log("ho")\n');
    expect(gitClean(dir)).toBe(false);
    expect(proveClean(dir, admin, tree).clean).toBe(false);
  });

  it('does not read an index that is a link', async () => {
    const { dir, admin, tree } = await worktree();
    fs.renameSync(path.join(admin, 'index'), path.join(admin, 'index.real'));
    fs.symlinkSync(path.join(admin, 'index.real'), path.join(admin, 'index'));
    expect(proveClean(dir, admin, tree)).toEqual({ clean: false, unsure: 'index is a symbolic link' });
  });

  it('does not trust an index that does not match HEAD', async () => {
    const { dir, admin } = await worktree();
    const other = git(repo.parent, 'rev-parse', 'HEAD~1^{tree}');
    expect(proveClean(dir, admin, other)).toMatchObject({ clean: false });
  });

  it('never writes: the index and the admin folder keep their mtimes', async () => {
    const { dir, admin, tree } = await worktree();
    fs.utimesSync(path.join(dir, 'README.md'), new Date(), new Date(Date.now() + 5000));
    const before = [fs.statSync(path.join(admin, 'index')).mtimeMs, fs.statSync(admin).mtimeMs];
    proveClean(dir, admin, tree);
    expect([fs.statSync(path.join(admin, 'index')).mtimeMs, fs.statSync(admin).mtimeMs]).toEqual(before);
  });
});

describe('operationInProgress', () => {
  it('names an operation left half-done', async () => {
    const { admin } = await worktree();
    expect(operationInProgress(admin)).toBeUndefined();
    fs.mkdirSync(path.join(admin, 'rebase-merge'));
    expect(operationInProgress(admin)).toBe('a rebase is in progress');
  });
});
