// What the pull request sees of a run: reactions on the comment that asked for it and one progress
// comment, created at the start and rewritten at the end; for a comment on a line of the diff, that
// progress comment is a reply in the same review thread, where the reviewer looks. Feedback never decides the run's fate: an API
// call that fails (a read-only token on a fork's pull_request event) becomes a warning.
import type { ProgressContext } from '../run/progress-data.js';
import type { RunState } from '../run/run-state.js';
import type { Ui } from '../ui/ui.js';
import type { GitHubApi, Reaction, RepositoryName } from './api.js';

/** The progress comment, as the main step leaves it for the post step (which finishes it if need be). */
export interface ProgressState {
  commentId: number;
  owner: string;
  repo: string;
  triggerCommentId?: number;
  /** The progress comment is a reply in a review thread, and the trigger a review comment. */
  inReviewThread?: boolean;
  finished?: boolean;
  /** What the comment says about the run, for the post step to finish it. */
  context?: ProgressContext;
}

/**
 * What the action saves between its main and post steps: run mode's state (RunState, run/run-state.ts) plus
 * the pull-request bot's progress comment.
 */
export type PullRequestRunState = RunState & { progress?: ProgressState };

export interface FeedbackTarget {
  repository: RepositoryName;
  /** The pull request to comment on (none: a push without a pull request). */
  issueNumber?: number;
  /** The comment that asked for the run. */
  triggerCommentId?: number;
  /** The trigger is a comment on a line of the diff: the progress comment is a reply in its thread. */
  reviewThreadId?: number;
}

export class PullRequestFeedback {
  private commentId?: number;

  constructor(
    private readonly api: GitHubApi,
    private readonly ui: Ui,
    private readonly target: FeedbackTarget,
    private readonly save: (state: Partial<PullRequestRunState>) => void,
  ) {}

  async react(content: Reaction): Promise<void> {
    const id = this.target.triggerCommentId;
    if (id)
      await this.attempt(`add a ${content} reaction`, () =>
        this.target.reviewThreadId ? this.api.reactToReviewComment(id, content) : this.api.react(id, content),
      );
  }

  /** Creates the progress comment (`body`: present/progress-comment.ts) and records it for the post step. */
  async start(ctx: ProgressContext, body: string): Promise<void> {
    const issue = this.target.issueNumber;
    if (!issue) return;
    const thread = this.target.reviewThreadId;
    const id = await this.attempt('create the progress comment', () =>
      thread ? this.api.replyInReviewThread(issue, thread, body) : this.api.createComment(issue, body),
    );
    if (id === undefined) return;
    this.commentId = id;
    this.save({ progress: this.progressState(ctx, false) });
    this.ui.info(`Progress comment ${id} created on #${issue}.`);
  }

  /** Rewrites the progress comment with the outcome, adds the final reaction, and tells post it is done. */
  async finish(ctx: ProgressContext, body: string, reaction: Reaction): Promise<void> {
    const id = this.commentId;
    if (id !== undefined) {
      await this.attempt('update the progress comment', () =>
        this.target.reviewThreadId
          ? this.api.updateReviewComment(id, body)
          : this.api.updateComment(id, body),
      );
      this.save({ progress: this.progressState(ctx, true) });
    }
    await this.react(reaction);
  }

  get progressCommentId(): number | undefined {
    return this.commentId;
  }

  private progressState(ctx: ProgressContext, finished: boolean): ProgressState {
    return {
      commentId: this.commentId!,
      owner: this.target.repository.owner,
      repo: this.target.repository.repo,
      triggerCommentId: this.target.triggerCommentId,
      inReviewThread: this.target.reviewThreadId ? true : undefined,
      finished,
      context: ctx,
    };
  }

  private async attempt<T>(what: string, call: () => Promise<T>): Promise<T | undefined> {
    try {
      return await call();
    } catch (error) {
      this.ui.warning(`Could not ${what} on the pull request: ${(error as Error).message}`);
      return undefined;
    }
  }
}

/** Post step: the main step ended without finishing the progress comment (cancelled, killed, failed). */
export async function finishStoppedProgress(api: GitHubApi, progress: ProgressState, body: string, ui: Ui) {
  if (progress.inReviewThread) await api.updateReviewComment(progress.commentId, body);
  else await api.updateComment(progress.commentId, body);
  ui.info(`Progress comment ${progress.commentId} marked as stopped.`);
  const trigger = progress.triggerCommentId;
  if (trigger) {
    await (
      progress.inReviewThread ? api.reactToReviewComment(trigger, 'confused') : api.react(trigger, 'confused')
    ).catch((error: Error) => ui.warning(`Could not add a reaction: ${error.message}`));
  }
}
