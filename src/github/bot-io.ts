// Where a bot run meets the outside (the action maps it onto @actions/core; tests record it), and the
// outputs every bot run sets: shared by the pull-request run (pr-run.ts) and the issue run (issue-run.ts).
import type { ProgressText } from '../run/progress-data.js';
import type { Redaction } from '../run/redaction.js';
import type { RunOutcome } from '../run/run.js';
import type { Ui } from '../ui/ui.js';
import type { ApiOptions } from './api-resilience.js';
import type { PullRequestRunState } from './feedback.js';

/** Where a pull-request run meets the outside: the action maps it onto @actions/core; tests record it. */
export interface PrRunIo {
  ui: Ui;
  /** Every decision, for the debug log (ACTIONS_STEP_DEBUG). */
  debug: (message: string) => void;
  env: NodeJS.ProcessEnv;
  /** How the API client retries and paces its calls (tests make the pauses short). */
  api?: ApiOptions;
  setOutput(name: string, value: string): void;
  /** Appends Markdown to the job summary. */
  summary(markdown: string): Promise<void>;
  save: (state: Partial<PullRequestRunState>) => void;
  /** The run's one redaction: every API call passes it (api.ts), the comment's parts before their cuts. */
  redaction: Redaction;
  /** What the run shows (present/bot-summary.ts `botText`): this layer posts it, the action makes it. */
  text: ProgressText;
}

/** A bot run's outcome, with the pull request it worked on or opened (none: a push whose branch has none). */
export type PrRunOutcome = RunOutcome & { pullRequest?: { number: number; htmlUrl: string } };

export function setBotOutputs(
  io: PrRunIo,
  values: { triggered: string; prNumber?: number; issueNumber?: number; commentId?: number; args?: string },
): void {
  io.setOutput('triggered', values.triggered);
  io.setOutput('pr-number', values.prNumber ? String(values.prNumber) : '');
  io.setOutput('issue-number', values.issueNumber ? String(values.issueNumber) : '');
  io.setOutput('comment-id', values.commentId ? String(values.commentId) : '');
  io.setOutput('args', values.args ?? '');
}
