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
