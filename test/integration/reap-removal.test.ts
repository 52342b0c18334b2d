// Removal is safe: links are removed as links (never followed out of the sandbox), nothing outside
// `<root>/<project>/<sandbox>` is touched, anything under the root that is not a sandbox is only
// reported, entries that cannot be deleted are reported while the rest goes, and a second run finds
// nothing to do.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { reap, type ReapOptions } from '../../src/reap/reap.js';
import type { ReapResult } from '../../src/reap/reap-report.js';
import { assertSandboxPath, removeSandboxTree } from '../../src/reap/remove-tree.js';
import { uniquePrefix } from '../support/docker.js';
import { isRoot } from '../support/env.js';
import { git, makeRepo, tempDir, type TestRepo } from '../support/repo.js';
import { age, makeDiskSandbox, projectDir } from '../support/sandboxes.js';
import { reapOptions } from '../support/reap-options.js';

const cleanup: string[] = [];
const immutable: string[] = [];
afterAll(() => {
  for (const p of immutable) execFileSync('chattr', ['-i', p]);
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
});

function fresh<T extends string | TestRepo>(make: () => T): T {
  const made = make();
  cleanup.push(typeof made === 'string' ? made : made.root);
  return made;
}

function options(root: string): ReapOptions {
  return reapOptions(root, uniquePrefix('reaprm'));
}

const byWhere = (result: ReapResult) => Object.fromEntries(result.sandboxes.map((s) => [s.where, s]));
const removedCount = (result: ReapResult) => result.sandboxes.filter((s) => s.result !== 'kept').length;

describe('safe removal', () => {
  it('removes links as links: a link to a folder outside, to another sandbox, to the parent', async () => {
    const root = fresh(() => tempDir('wts-reap-root-'));
    const outside = fresh(() => tempDir('wts-reap-outside-'));
    fs.writeFileSync(path.join(outside, 'precious.txt'), 'must survive\n');
    const repo = fresh(() => makeRepo());
    const sibling = await makeDiskSandbox(repo, root, 'feature-sibling', {
      branch: 'feature/sibling',
      ageDays: 1,
    });
    // A branch whose committed content links out of the worktree, checked out clean in a stale sandbox.
    git(repo.parent, 'checkout', '--quiet', '-b', 'links');
    fs.symlinkSync(outside, path.join(repo.parent, 'outside'));
    fs.symlinkSync(sibling, path.join(repo.parent, 'sibling'));
    fs.symlinkSync(repo.parent, path.join(repo.parent, 'parent'));
    fs.symlinkSync('../../..', path.join(repo.parent, 'src', 'up'));
    git(repo.parent, 'add', '-A');
    git(repo.parent, 'commit', '--quiet', '-m', 'links');
    git(repo.parent, 'push', '--quiet', 'origin', 'links');
    git(repo.parent, 'checkout', '--quiet', 'main');
    git(repo.parent, 'fetch', '--quiet', 'origin');
    git(repo.parent, 'checkout', '--quiet', '--detach', 'origin/links');
    const linked = await makeDiskSandbox(repo, root, 'exploration-0000111a', { ageDays: 100 });
    git(repo.parent, 'checkout', '--quiet', 'main');
    expect(projectDir(root, repo.parent)).toBe(path.dirname(linked));

    const result = await reap(options(root));
    expect(byWhere(result)[linked]).toMatchObject({ result: 'removed' });
    expect(fs.existsSync(linked)).toBe(false);
    expect(fs.readFileSync(path.join(outside, 'precious.txt'), 'utf8')).toBe('must survive\n');
    expect(fs.existsSync(path.join(sibling, 'README.md'))).toBe(true);
    expect(git(sibling, 'status', '--porcelain')).toBe('');
    expect(git(repo.parent, 'status', '--porcelain')).toBe('');
    expect(git(repo.parent, 'for-each-ref', '--format=%(refname)', 'refs/worktree-sandbox/')).toContain(
      'disk/feature-sibling/head',
    );
  }, 120_000);

  it('reports anything under the root that is not a sandbox, and never deletes it', async () => {
    const root = fresh(() => tempDir('wts-reap-root-'));
    const repo = fresh(() => makeRepo());
    const project = path.dirname(
      await makeDiskSandbox(repo, root, 'feature-real', { branch: 'feature/real', ageDays: 1 }),
    );
    const plain = path.join(project, 'not-a-worktree');
    fs.mkdirSync(plain);
    fs.writeFileSync(path.join(plain, 'data.txt'), 'someone else\n');
    const worktree = path.join(project, 'a-worktree');
    git(repo.parent, 'worktree', 'add', '--quiet', '--detach', worktree, 'HEAD');
    const clone = path.join(project, 'a-clone');
    git(root, 'clone', '--quiet', repo.origin, clone);
    const stray = path.join(fs.realpathSync(root), 'stray.txt');
    fs.writeFileSync(stray, 'stray\n');
    const alias = path.join(project, 'alias');
    fs.symlinkSync(path.join(project, 'feature-real'), alias);
    const projectLink = path.join(fs.realpathSync(root), 'linked-project');
    fs.symlinkSync(project, projectLink);
    for (const p of [plain, clone, stray, worktree]) age(p, 400);

    const result = await reap(options(root));
    const d = byWhere(result);
    expect(d[plain]).toMatchObject({ class: 'not-a-sandbox', result: 'kept' });
    expect(d[plain].reason).toContain('no .git folder');
    // A linked worktree is a sandbox (test/integration/reap-linked.test.ts): its registration's activity
    // signals, which `age` does not move, are new.
    expect(d[worktree]).toMatchObject({ class: 'persistent', result: 'kept' });
    expect(d[worktree].reason).toMatch(/^fresh: 0 of/);
    // A clone has a .git folder but no record in a parent: reported, kept.
    expect(d[clone].reason).toContain('unregistered');
    expect(d[stray].reason).toContain('a file');
    expect(d[alias].reason).toContain('symbolic link');
    expect(d[projectLink].reason).toContain('symbolic link');
    for (const p of [plain, clone, stray, alias, projectLink, worktree]) expect(fs.existsSync(p)).toBe(true);
    // Ours: the note of the parent and the homes are never reported.
    expect(result.sandboxes.map((s) => path.basename(s.where))).not.toEqual(
      expect.arrayContaining(['.home']),
    );
    expect(result.sandboxes.map((s) => path.basename(s.where))).not.toContain('.parent');
    expect(removedCount(result)).toBe(0);
  }, 120_000);

  (isRoot ? it : it.skip)(
    'goes on past entries it may not delete, reports them, and a second run finds nothing to do',
    async () => {
      const root = fresh(() => tempDir('wts-reap-root-'));
      const repo = fresh(() => makeRepo());
      const stuck = await makeDiskSandbox(repo, root, 'exploration-0000571c');
      // An immutable folder: not even root may delete what is in it.
      const locked = path.join(stuck, 'src');
      execFileSync('chattr', ['+i', locked]);
      immutable.push(locked);
      age(stuck, 100);

      const result = await reap(options(root));
      const entry = byWhere(result)[stuck];
      expect(entry.result).toBe('partly removed');
      expect(entry.problems!.map((p) => p.path)).toContain(path.join(locked, 'app.js'));
      expect(entry.problems!.every((p) => p.error === 'EPERM')).toBe(true);
      // Everything else went, the .git folder first: it is no longer a sandbox, and its records are dropped.
      expect(fs.readdirSync(stuck)).toEqual(['src']);
      expect(git(repo.parent, 'for-each-ref', 'refs/worktree-sandbox/')).toBe('');

      const second = await reap(options(root));
      expect(removedCount(second)).toBe(0);
      expect(byWhere(second)[stuck]).toMatchObject({ class: 'not-a-sandbox', result: 'kept' });
    },
    120_000,
  );

  it('refuses to remove anything that is not a real folder two levels under the real root', async () => {
    const root = fresh(() => tempDir('wts-reap-root-'));
    const outside = fresh(() => tempDir('wts-reap-outside-'));
    fs.mkdirSync(path.join(root, 'p', 's', 'deep'), { recursive: true });
    fs.symlinkSync(outside, path.join(root, 'p', 'link'));
    const real = fs.realpathSync(root);
    for (const target of [
      real,
      path.join(real, 'p'),
      path.join(real, 'p', 's', 'deep'),
      path.join(real, 'p', '..', '..'),
      outside,
    ])
      expect(() => assertSandboxPath(root, target)).toThrow(/not a folder/);
    await expect(removeSandboxTree(root, path.join(real, 'p', 'link'))).rejects.toThrow(/symbolic link/);
    expect(fs.existsSync(outside)).toBe(true);
    expect(() => assertSandboxPath(root, path.join(real, 'p', 's'))).not.toThrow();
  }, 120_000);
});
