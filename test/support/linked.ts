// Linked worktrees for the reaper's tests, made by real `git worktree add` in the layout of the seed
// tool's worktree cache (`<root>/<project>/<name>`), then aged by moving their activity signals back in
// time: the folder and the per-worktree index, HEAD and HEAD's reflog in the parent's registration.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { git } from './repo.js';
import { DAY } from './sandboxes.js';

export const LINKED_SIGNAL_FILES = ['index', 'HEAD', 'logs/HEAD'];

/** `git worktree add` of `parent` at `<root>/<project>/<name>` (detached, or on a new branch); its folder. */
export function addLinkedWorktree(
  parent: string,
  root: string,
  project: string,
  name: string,
  options: { branch?: string; ageDays?: number } = {},
): string {
  const dir = path.join(fs.realpathSync(root), project, name);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  if (options.branch) git(parent, 'worktree', 'add', '--quiet', '-b', options.branch, dir);
  else git(parent, 'worktree', 'add', '--quiet', '--detach', dir);
  if (options.ageDays) ageLinked(dir, options.ageDays);
  return dir;
}

/** The registration `.git/worktrees/<id>` that the worktree's `.git` file names. */
export function registrationOf(worktree: string): string {
  return fs
    .readFileSync(path.join(worktree, '.git'), 'utf8')
    .replace(/^gitdir: /, '')
    .trim();
}

/** Moves a linked worktree's activity signals `days` back (its registration's too, while it exists). */
export function ageLinked(worktree: string, days: number): void {
  const when = new Date(Date.now() - days * DAY);
  const admin = registrationOf(worktree);
  for (const p of [worktree, ...LINKED_SIGNAL_FILES.map((f) => path.join(admin, f))])
    if (fs.existsSync(p)) fs.utimesSync(p, when, when);
}

/** The signals as mtimes (ms), to show that a check did not move them. */
export function linkedSignalTimes(worktree: string): number[] {
  const admin = registrationOf(worktree);
  return [worktree, ...LINKED_SIGNAL_FILES.map((f) => path.join(admin, f))].map(
    (p) => fs.statSync(p).mtimeMs,
  );
}
