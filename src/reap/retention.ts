// The retention matrix (docs/reap.md, "The retention matrix"): how long a sandbox may sit unused, decided by its name alone,
// because the name is the one signal that survives where git cannot resolve a worktree's paths.
import { ACTION_DEFAULTS } from '../action-defaults.js';
import { classifyName } from '../sandbox/naming.js';

/** `orphan`: the parent repository is gone or unreadable, so git can check nothing. */
export type RetentionClass = 'transient' | 'persistent' | 'orphan';

export interface RetentionPolicy {
  /** `exploration-*` sandboxes (input `headless-expiry-days`). */
  headlessExpiryDays: number;
  /** Every other name (input `branch-expiry-days`). */
  branchExpiryDays: number;
  /** Sandboxes whose parent is gone (input `orphan-expiry-days`). */
  orphanExpiryDays: number;
}

/** action.yml's defaults (written once, there). */
export const DEFAULT_RETENTION: RetentionPolicy = {
  headlessExpiryDays: Number(ACTION_DEFAULTS['headless-expiry-days']),
  branchExpiryDays: Number(ACTION_DEFAULTS['branch-expiry-days']),
  orphanExpiryDays: Number(ACTION_DEFAULTS['orphan-expiry-days']),
};

export function retentionClass(sandbox: string, orphan: boolean): RetentionClass {
  if (orphan) return 'orphan';
  return classifyName(sandbox);
}

/**
 * Days of inactivity after which a sandbox of this class is stale. An orphan is treated as persistent and
 * never expires sooner than a persistent sandbox: its expiry is its only safety margin, since no check
 * for work can run without the parent.
 */
export function expiryDays(cls: RetentionClass, policy: RetentionPolicy): number {
  switch (cls) {
    case 'transient':
      return policy.headlessExpiryDays;
    case 'persistent':
      return policy.branchExpiryDays;
    case 'orphan':
      return Math.max(policy.orphanExpiryDays, policy.branchExpiryDays);
  }
}

// Age is the time since the last activity. The newest of several signals counts, because a folder's own
// mtime only moves when its direct children are added, removed or renamed: edits deeper in the tree and
// git operations are seen through the worktree's index, HEAD and reflog in its admin folder instead.
export const DAY_MS = 86_400_000;

/** The newest of the signals (epoch ms); undefined when none could be read. */
export function lastActivity(signals: ReadonlyArray<number | undefined>): number | undefined {
  let newest: number | undefined;
  for (const signal of signals) {
    if (signal === undefined || !Number.isFinite(signal)) continue;
    if (newest === undefined || signal > newest) newest = signal;
  }
  return newest;
}

/** Whole days since `lastMs` (a time in the future counts as 0). */
export function ageDays(lastMs: number, nowMs: number): number {
  return Math.max(0, Math.floor((nowMs - lastMs) / DAY_MS));
}

/** Stale once unused for longer than `expiryDays`; an unknown age is never stale. */
export function isExpired(lastMs: number | undefined, nowMs: number, expiryDays: number): boolean {
  if (lastMs === undefined) return false;
  return nowMs - lastMs > expiryDays * DAY_MS;
}

/** An ISO-8601 time (e.g. the `created` label of a volume) as epoch ms; undefined when it is not one. */
export function parseTimestamp(text: string | undefined): number | undefined {
  if (!text || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/.test(text))
    return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}
