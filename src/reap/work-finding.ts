// What counts as work, from the separate checks: pure, so that "a check that could not run is never
// clean" is a rule in one place.
import type { WorkFinding } from './gates.js';

export type CheckResult<T> = { value: T } | { error: string };

export interface WorkChecks {
  /** A merge, rebase... left half-done in the worktree. */
  operation?: string;
  /** Entries of `git status --porcelain` (tracked changes, untracked files that are not ignored). */
  uncommitted: CheckResult<number>;
  /** Some commit the sandbox names is on none of the parent's branches, tags or remote-tracking refs. */
  unsaved: CheckResult<boolean>;
}

export const UNSAVED = "commits not in the parent's branches, tags or remotes";

export function summarizeWork(checks: WorkChecks): WorkFinding {
  const found: string[] = [];
  const failed: string[] = [];
  if (checks.operation) found.push(checks.operation);
  if ('error' in checks.uncommitted) failed.push(checks.uncommitted.error);
  else if (checks.uncommitted.value > 0) found.push(`${checks.uncommitted.value} uncommitted file(s)`);
  if ('error' in checks.unsaved) failed.push(checks.unsaved.error);
  else if (checks.unsaved.value) found.push(UNSAVED);
  if (found.length) return { state: 'work', detail: found.join(', ') };
  if (failed.length) return { state: 'unknown', detail: [...new Set(failed)].join('; ') };
  return { state: 'clean' };
}
