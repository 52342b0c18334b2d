// What counts as work, from the separate checks: pure, so that "a check that could not run is never
// clean" is a rule in one place.
import { describeUnsaved, type UnsavedCommits } from '../sandbox/saved.js';
import type { HeldWork, WorkFinding } from './gates.js';

export type CheckResult<T> = { value: T } | { error: string };

export interface WorkChecks {
  /** A merge, rebase... left half-done in the worktree. */
  operation?: string;
  /** Entries of `git status --porcelain` (tracked changes, untracked files that are not ignored). */
  uncommitted: CheckResult<number>;
  /** The commits the sandbox names that the parent has not saved (src/sandbox/saved.ts); undefined: none. */
  unsaved: CheckResult<UnsavedCommits | undefined>;
}

export function summarizeWork(checks: WorkChecks): WorkFinding {
  const found: string[] = [];
  const failed: string[] = [];
  const held: HeldWork = {};
  if (checks.operation) {
    found.push(checks.operation);
    held.operation = checks.operation;
  }
  if ('error' in checks.uncommitted) failed.push(checks.uncommitted.error);
  else if (checks.uncommitted.value > 0) {
    found.push(`${checks.uncommitted.value} uncommitted file(s)`);
    held.uncommitted = checks.uncommitted.value;
  }
  if ('error' in checks.unsaved) failed.push(checks.unsaved.error);
  else if (checks.unsaved.value) {
    found.push(describeUnsaved(checks.unsaved.value));
    held.unsaved = checks.unsaved.value;
  }
  if (found.length) return { state: 'work', detail: found.join(', '), held };
  if (failed.length) return { state: 'unknown', detail: [...new Set(failed)].join('; ') };
  return { state: 'clean' };
}
