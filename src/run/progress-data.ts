// The bot's progress comment as data (who asked, what the run did) and the text made of it: github/ fills
// the one and posts the other, made by present/ (its neighbour, which it may not import) and handed in.
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

export interface FinishedRun {
  exitCode: number;
  timedOut: boolean;
  oomKilled: boolean;
  durationMs: number;
  /** The first changed files (the report keeps at most 1,000) and how many changed in all. */
  filesChanged: string[];
  filesChangedCount: number;
  diffStat: string;
  /** `url`: set when the commit is on GitHub (pushed). */
  commits: Array<{ sha: string; subject: string; url?: string }>;
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
  /** The pull request an issue's run opened or updated. */
  pullRequest?: { number: number; htmlUrl: string };
}

/** How a bot run started, and on what (an issue's summary ends with the pull request it opened). */
export interface RunStart {
  prNumber?: number;
  issueNumber?: number;
  /** A comment's trigger (`/fix`); else `event` started the run. */
  trigger?: string;
  event: string;
}

/** What a bot run shows (present/bot-summary.ts); `clean` (the run's redaction) goes before each cut. */
export interface ProgressText {
  running(ctx: ProgressContext): string;
  finished(ctx: ProgressContext, run: FinishedRun, clean: (text: string) => string): string;
  failed(ctx: ProgressContext, message: string, clean: (text: string) => string): string;
  stopped(ctx: ProgressContext | undefined): string;
  issuePullRequestBody(issueNumber: number, run: FinishedRun, clean: (text: string) => string): string;
  /** The job summary: of a run, of one whose push the secret scan held back, of an event that starts none. */
  summary(ctx: ProgressContext, start: RunStart, run: FinishedRun): string;
  blockedSummary(ctx: ProgressContext, start: RunStart, findings: number): string;
  noRunSummary(reason: string): string;
}
