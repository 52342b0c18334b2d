// Removing a linked worktree's registration in its parent (`<parent>/.git/worktrees/<id>`), once its
// folder is gone: as data, with the removal's own walk (no link followed), and only that registration.
// Not `git worktree prune`, which would judge and drop every other registration of the parent (those of
// worktrees it cannot see from here, too), and would read files that whoever used the worktree wrote.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RemovalProblem } from './remove-walk.js';
import { inlineRemover, type Remover } from './remove-workers.js';
import { lstat, readBounded } from './sandbox-files.js';
import type { LinkedFacts } from './scanned.js';

/**
 * Removes `<parentGitDir>/worktrees/<id>` when it is still a real folder whose `gitdir` file reads as the
 * scan read it (it named this worktree then); the caller holds the parent's repository lock. Returns what
 * was left, and why.
 */
export async function removeRegistration(
  parentGitDir: string,
  linked: LinkedFacts,
  remover: Remover = inlineRemover,
): Promise<RemovalProblem | undefined> {
  const worktrees = path.join(parentGitDir, 'worktrees');
  const admin = path.join(worktrees, linked.id);
  const left = (error: string): RemovalProblem => ({ path: admin, error });
  if (!linked.registered || linked.id.includes('/') || linked.id === '.' || linked.id === '..')
    return left('not a verified registration');
  if (!lstat(worktrees)?.isDirectory()) return left('.git/worktrees is not a folder');
  const st = lstat(admin);
  if (!st) return undefined; // gone already (a person or git pruned it)
  if (!st.isDirectory()) return left('it is not a folder (a symbolic link is never followed)');
  const gitdir = readBounded(path.join(admin, 'gitdir'), 4096);
  if (!('data' in gitdir) || gitdir.data.toString('utf8') !== linked.registered.gitdirText)
    return left('it changed since the scan');
  const walked = await remover.remove(admin, st.dev);
  if (walked.problems.length) return walked.problems[0];
  // As git does when it prunes the last registration: the empty folder goes too.
  try {
    fs.rmdirSync(worktrees);
  } catch {
    /* other registrations are left */
  }
  return undefined;
}
