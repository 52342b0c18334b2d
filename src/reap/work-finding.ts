// What counts as work, from the separate checks: pure, so that "a check that could not run is never
// clean" is a rule in one place.
import type { WorkFinding } from './gates.js';

export type CheckResult<T> = { value: T } | { error: string };

export interface WorkChecks {
  /** A merge, rebase... left half-done in the worktree. */
  operation?: string;
  /** Entries of `git status --porcelain` (tracked changes, untracked files that are not ignored). */
  uncommitted: CheckResult<number>;
  /** HEAD is on no remote. */
  unpushed: CheckResult<boolean>;
}

export function summarizeWork(checks: WorkChecks): WorkFinding {
  const found: string[] = [];
  const failed: string[] = [];
  if (checks.operation) found.push(checks.operation);
  if ('error' in checks.uncommitted) failed.push(checks.uncommitted.error);
  else if (checks.uncommitted.value > 0) found.push(`${checks.uncommitted.value} uncommitted file(s)`);
  if ('error' in checks.unpushed) failed.push(checks.unpushed.error);
  else if (checks.unpushed.value) found.push('commits on no remote');
  if (found.length) return { state: 'work', detail: found.join(', ') };
  if (failed.length) return { state: 'unknown', detail: failed.join('; ') };
  return { state: 'clean' };
}

/** Entries in `git status --porcelain=v1 -z` output (a rename or copy carries its source as an extra field). */
export function countPorcelainEntries(output: string): number {
  const fields = output.split('\0').filter(Boolean);
  let count = 0;
  for (let i = 0; i < fields.length; i++) {
    count++;
    if (fields[i][0] === 'R' || fields[i][0] === 'C') i++;
  }
  return count;
}
