// Finding the parent from `repository-path`, on real repositories (git only, no engine): a linked worktree
// given as the path works from its parent; a folder that is no work tree, a repository with no commits, a
// path that is not there, and a git folder kept elsewhere are refused with what is wrong. A run from a
// linked worktree is end to end once in test/integration/run-mode.test.ts (Docker).
import { afterAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { git, makeLocalRepo, tempDir } from '../../test/support/repo.js';
import { createGit } from '../engine/git.js';
import { findParentRepository } from './repository.js';

// Two commits (the linked worktree starts from the first); no origin, which finding the parent never reads.
const repo = makeLocalRepo({ 'README.md': '# test\n', 'src/app.js': 'console.log("hi")\n' });
fs.writeFileSync(path.join(repo.parent, 'CHANGELOG.md'), 'v1\n');
git(repo.parent, 'add', '-A');
git(repo.parent, 'commit', '--quiet', '-m', 'second');
const elsewhere = tempDir('wts-repository-');
afterAll(() => {
  for (const dir of [repo.root, elsewhere]) fs.rmSync(dir, { recursive: true, force: true });
});

describe('findParentRepository', () => {
  it('takes the repository itself, or a folder in it, as the parent, with its HEAD and object store', async () => {
    const cli = await createGit();
    const head = git(repo.parent, 'rev-parse', 'HEAD');
    for (const given of [repo.parent, path.join(repo.parent, 'src')]) {
      const found = await findParentRepository(cli, given);
      expect(found).toEqual({
        path: repo.parent,
        gitDir: path.join(repo.parent, '.git'),
        head,
        objectStores: [path.join(repo.parent, '.git', 'objects')],
        resolvedFrom: undefined,
      });
    }
  });

  it('works from the parent of a linked worktree given as the path, and says so', async () => {
    const linked = path.join(repo.root, 'linked');
    git(repo.parent, 'worktree', 'add', '--quiet', '--detach', linked, 'HEAD~1');
    const found = await findParentRepository(await createGit(), linked);
    expect(found.path).toBe(repo.parent);
    expect(found.gitDir).toBe(path.join(repo.parent, '.git'));
    expect(found.resolvedFrom).toBe(linked);
    // HEAD is the linked worktree's: where the run starts from.
    expect(found.head).toBe(git(repo.parent, 'rev-parse', 'HEAD~1'));
  });

  it('refuses what cannot be a parent, saying what is wrong', async () => {
    const cli = await createGit();
    const plain = path.join(elsewhere, 'plain');
    fs.mkdirSync(plain);
    await expect(findParentRepository(cli, plain)).rejects.toThrow(/is not a git work tree/);
    await expect(findParentRepository(cli, path.join(elsewhere, 'missing'))).rejects.toThrow(
      /does not exist or is not a directory/,
    );
    const empty = path.join(elsewhere, 'empty');
    git(elsewhere, 'init', '--quiet', empty);
    await expect(findParentRepository(cli, empty)).rejects.toThrow(/has no commits yet/);
    const separate = path.join(elsewhere, 'separate');
    git(
      elsewhere,
      'clone',
      '--quiet',
      '--separate-git-dir',
      path.join(elsewhere, 'kept.git'),
      repo.parent,
      separate,
    );
    await expect(findParentRepository(cli, separate)).rejects.toThrow(/only a normal clone/);
  });
});
