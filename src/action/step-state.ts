// The action's state between its two phases (GITHUB_STATE), and which of the two is running. As in
// actions/checkout: the flag is saved when the module first loads in the main step.
import * as core from '@actions/core';
import type { PullRequestRunState } from '../github/feedback.js';

export const isPost = core.getState('isPost') === 'true';
if (!isPost) core.saveState('isPost', 'true');

const KEY = 'run';
let current: PullRequestRunState | undefined;

export function saveRunState(update: Partial<PullRequestRunState>): void {
  current = { ...(current ?? {}), ...update } as PullRequestRunState;
  core.saveState(KEY, JSON.stringify(current));
}

/** What the main step has saved so far (undefined before anything). */
export function currentRunState(): PullRequestRunState | undefined {
  return current;
}

export function loadRunState(): PullRequestRunState | undefined {
  const raw = core.getState(KEY);
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as PullRequestRunState;
  } catch {
    return undefined;
  }
}
