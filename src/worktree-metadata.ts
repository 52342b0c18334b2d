// Reading and editing a parent's per-worktree metadata (`<gitDir>/worktrees/<id>/`) directly. This is
// how the host addresses sandboxes whose worktree path it cannot resolve (volume sandboxes), and how
// only the entries we removed ourselves are dropped: never `git worktree prune`, which would also drop
// live volume sandboxes the host sees as "prunable".
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

export const INITIALIZING = 'initializing';

export interface WorktreeEntry {
  id: string;
  adminDir: string;
  /** The worktree's `.git` file path as git recorded it. */
  gitFile: string;
  /** Content of `locked` (the reason, possibly empty), or undefined when not locked. */
  locked?: string;
}

export async function listWorktreeEntries(gitDir: string): Promise<WorktreeEntry[]> {
  const root = path.join(gitDir, 'worktrees');
  let ids: string[];
  try {
    ids = await fs.readdir(root);
  } catch {
    return [];
  }
  const entries = await Promise.all(ids.map((id) => readEntry(root, id)));
  return entries.filter((e): e is WorktreeEntry => e !== undefined);
}

async function readEntry(root: string, id: string): Promise<WorktreeEntry | undefined> {
  const adminDir = path.join(root, id);
  const gitFile = await fs.readFile(path.join(adminDir, 'gitdir'), 'utf8').catch(() => undefined);
  if (gitFile === undefined) return undefined;
  const locked = await fs.readFile(path.join(adminDir, 'locked'), 'utf8').catch(() => undefined);
  return { id, adminDir, gitFile: gitFile.trim(), locked: locked?.trim() };
}

export async function findWorktreeEntry(
  gitDir: string,
  worktreePath: string,
): Promise<WorktreeEntry | undefined> {
  const wanted = path.join(worktreePath, '.git');
  return (await listWorktreeEntries(gitDir)).find((e) => e.gitFile === wanted);
}

/** Locks an entry with a reason, as `git worktree lock --reason` would, without needing its path to resolve. */
export async function lockEntry(entry: WorktreeEntry, reason: string): Promise<void> {
  await fs.writeFile(path.join(entry.adminDir, 'locked'), `${reason}\n`);
}

/**
 * Marks a sandbox as used now (its admin folder's mtime), so that the reaper sees a run as activity even
 * when the run changed nothing git records (files deep in the tree do not move the worktree folder's mtime).
 */
export async function markUsed(entry: WorktreeEntry, now: Date = new Date()): Promise<void> {
  await fs.utimes(entry.adminDir, now, now).catch(() => undefined);
}

/** Drops exactly one entry (unlocking it): the sandbox it described must already be gone. */
export async function dropEntry(gitDir: string, entry: WorktreeEntry): Promise<void> {
  const root = path.join(gitDir, 'worktrees');
  if (path.dirname(entry.adminDir) !== root)
    throw new Error(`refusing to remove ${entry.adminDir}: not a worktree entry of ${gitDir}`);
  await fs.rm(entry.adminDir, { recursive: true, force: true });
  // git removes the folder once its last entry is gone; do the same so the parent looks untouched.
  await fs.rmdir(root).catch(() => undefined);
}
