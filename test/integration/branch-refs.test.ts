// The branch's refs read as a run starts (readBranchRefs), from the path the run was given, before its
// parent is known: the same answer as the parent's, from a subfolder or a linked worktree; nothing when
// there is no repository; and resolveBranch takes them instead of asking git again.
import { afterAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Git } from '../../src/engine/git.js';
import { readBranchRefs, resolveBranch } from '../../src/sandbox/branch.js';
import { findParentRepository } from '../../src/sandbox/repository.js';
import { git, makeRepo, tempDir } from '../support/repo.js';

const repo = makeRepo();
git(repo.parent, 'branch', 'feature');
const linked = path.join(repo.root, 'linked');
git(repo.parent, 'worktree', 'add', '--quiet', '--detach', linked);
const elsewhere = tempDir();
afterAll(() => {
  fs.rmSync(repo.root, { recursive: true, force: true });
  fs.rmSync(elsewhere, { recursive: true, force: true });
});

describe('readBranchRefs', () => {
  const { git: cli } = Git.checking();
  const feature = git(repo.parent, 'rev-parse', 'feature');
  const main = git(repo.parent, 'rev-parse', 'origin/main');

  it('reads the local and origin refs of the branch, as the parent has them, from any folder of it', async () => {
    const parentRefs = await readBranchRefs(cli, repo.parent, 'feature');
    expect(parentRefs).toEqual(new Map([['refs/heads/feature', feature]]));
    expect(await readBranchRefs(cli, path.join(repo.parent, 'src'), 'feature')).toEqual(parentRefs);
    expect(await readBranchRefs(cli, linked, 'feature')).toEqual(parentRefs);
    expect(await readBranchRefs(cli, linked, 'main')).toEqual(
      new Map([
        ['refs/heads/main', main],
        ['refs/remotes/origin/main', main],
      ]),
    );
  });

  it('is undefined where there is no repository (resolveBranch then asks the parent)', async () => {
    expect(await readBranchRefs(cli, elsewhere, 'feature')).toBeUndefined();
    expect(await readBranchRefs(cli, path.join(elsewhere, 'missing'), 'feature')).toBeUndefined();
  });

  it('resolveBranch plans from the refs read early, and reads them itself when they are missing', async () => {
    const found = await findParentRepository(cli, linked);
    const calls: string[][] = [];
    const counting = Object.create(cli) as Git;
    counting.readRefs = (cwd: string, refs: readonly string[]) => {
      calls.push([...refs]);
      return cli.readRefs(cwd, refs);
    };
    const early = await resolveBranch(counting, found, 'feature', '', readBranchRefs(cli, linked, 'feature'));
    expect(calls).toEqual([]);
    const itself = await resolveBranch(counting, found, 'feature', '', Promise.resolve(undefined));
    expect(calls).toEqual([['refs/heads/feature', 'refs/remotes/origin/feature']]);
    expect(early).toEqual(itself);
    expect(early).toMatchObject({ kind: 'persistent', source: 'local' });
  });
});
