// origin moving on under a parent repository (made by makeRepo), as a test needs it between runs: the
// parent fetches, so that its origin/<branch> moves and the next run offers it inside the sandbox.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chownTree, git, type TestRepo } from './repo.js';

/**
 * A new commit on origin's `branch`, fetched into the parent: its origin/<branch> moves. As root, who
 * owns everything while it runs (git's transport refuses a repository of another owner); `owner` owns it
 * all again afterwards.
 */
export function moveOrigin(repo: TestRepo, branch: string, owner: { uid: number; gid: number }): void {
  chownTree(repo.root, { uid: 0, gid: 0 });
  const clone = path.join(repo.root, `clone-${Date.now()}`);
  git(repo.root, 'clone', '--quiet', '--branch', branch, repo.origin, clone);
  fs.writeFileSync(path.join(clone, 'upstream.txt'), 'moved on origin\n');
  git(clone, 'add', 'upstream.txt');
  git(clone, 'commit', '--quiet', '-m', 'origin moves');
  git(clone, 'push', '--quiet', 'origin', branch);
  git(repo.parent, 'fetch', '--quiet', 'origin');
  chownTree(repo.root, owner);
}

/** origin gets `branch` at main, fetched into the parent (as moveOrigin, as root). */
export function branchOnOrigin(repo: TestRepo, branch: string, owner: { uid: number; gid: number }): void {
  chownTree(repo.root, { uid: 0, gid: 0 });
  git(repo.parent, 'push', '--quiet', 'origin', `main:refs/heads/${branch}`);
  git(repo.parent, 'fetch', '--quiet', 'origin');
  chownTree(repo.root, owner);
}
