// The pull-request bot's progress comment as data: who asked and where (ProgressContext), what a finished
// run did (FinishedRun), and the text made of them (ProgressText). The github layer fills the data and
// posts the text; present/progress-comment.ts makes the text; the action hands that maker to the github
// layer, which sits beside present/ and may not import it.
import type { ModelUsageReport } from '../network/model-meter.js';
import type { ReplyRead } from './reply.js';

/** Starts every progress comment, so that the bot never takes its own comment for a request. */
export const PROGRESS_MARKER = '<!-- worktree-sandbox:progress -->';

export interface ProgressContext {
  /** The trigger (`/fix`) or the event that started the run. */
  what: string;
  requester: string;
  runUrl: string;
  /** The branch the run works on, as people know it (`feature`, or `owner:feature` for a fork). */
  branch: string;
  headSha?: string;
}

export interface CommitLine {
  sha: string;
  subject: string;
  /** Set when the commit is on GitHub (pushed). */
  url?: string;
}

export interface FinishedRun {
  exitCode: number;
  timedOut: boolean;
  oomKilled: boolean;
  durationMs: number;
  /** The first changed files (the report keeps at most 1,000) and how many changed in all. */
  filesChanged: string[];
  filesChangedCount: number;
  diffStat: string;
  commits: CommitLine[];
  /** Older commits than those in `commits` were left out (the list is capped). */
  moreCommits?: boolean;
  pushed: boolean;
  /** Where the commits went (`origin/feature`), when pushed. */
  pushedTo?: string;
  /** Why not, when not pushed. */
  pushReason?: string;
  /** The commits were meant to be pushed and were not (rejected, failed). */
  pushFailed?: boolean;
  patch?: { path: string; text: string };
  tail: string[];
  /** What the secret scan found in the tail and masked (run/tail-scan.ts), by rule: for the job summary. */
  tailFound?: string[];
  /** What the command wrote to SANDBOX_REPLY_FILE: untrusted text (run/reply.ts). */
  reply?: ReplyRead;
  /** What the proxy metered of model APIs (its totals and the budget's verdict are shown). */
  modelUsage?: ModelUsageReport;
}

/** The progress comment's bodies; `clean` is the run's redaction, applied to each part before it is cut. */
export interface ProgressText {
  running(ctx: ProgressContext): string;
  finished(ctx: ProgressContext, run: FinishedRun, clean: (text: string) => string): string;
  /** The main step failed before the run could end (an error, not the command's exit code). */
  failed(ctx: ProgressContext, message: string, clean: (text: string) => string): string;
  /** The job ended before the main step finished the comment: cancelled, timed out or killed. */
  stopped(ctx: ProgressContext | undefined): string;
  /** The body of the pull request an issue's run opens: it closes the issue and holds the reply. */
  issuePullRequest(
    issueNumber: number,
    run: Pick<FinishedRun, 'reply'>,
    clean: (text: string) => string,
  ): string;
}
