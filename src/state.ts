// What the main step leaves for the post step (GITHUB_STATE), and which of the two is running.
// As in actions/checkout: the flag is saved when the module first loads in the main step.
import * as core from '@actions/core';
import type { EngineName } from './docker.js';
import type { SandboxLocation } from './sandbox.js';
import type { WorktreeReport } from './report.js';
import type { CleanupPolicy } from './settings.js';
import type { ProgressContext } from './github/progress.js';

export const isPost = core.getState('isPost') === 'true';
if (!isPost) core.saveState('isPost', 'true');

export interface RunState {
  engine: EngineName;
  image: string;
  cleanup: CleanupPolicy;
  location: SandboxLocation;
  /** Set once the sandbox exists (created or reused). */
  ready?: boolean;
  startSha?: string;
  container?: string;
  /** The git guard's record while the command runs (the post step finishes it if main could not). */
  guardDir?: string;
  /** The last report of the main step, when it got that far. */
  report?: WorktreeReport;
  /** PR progress comment to finish if the main step did not (comment-triggered runs). */
  progress?: {
    commentId: number;
    owner: string;
    repo: string;
    triggerCommentId?: number;
    finished?: boolean;
    /** What the comment says about the run, for the post step to finish it. */
    context?: ProgressContext;
  };
}

const KEY = 'run';
let current: RunState | undefined;

export function saveRunState(update: Partial<RunState> & (RunState | object)): void {
  current = { ...(current ?? {}), ...update } as RunState;
  core.saveState(KEY, JSON.stringify(current));
}

export function loadRunState(): RunState | undefined {
  const raw = core.getState(KEY);
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as RunState;
  } catch {
    return undefined;
  }
}
