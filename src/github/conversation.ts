// A conversation that goes on: which run this is on a pull request or an issue, and what the bot replied
// there before, for the context file. The bot knows its own replies by two things together: the hidden
// progress marker they start with, and their author being the account this run's own progress comment
// was written as (the token's identity, learned from the list itself: no call, and no guess at a login).
// A comment anyone else writes that copies the marker is not the bot's, and does not count. Pure; every
// reply stays untrusted text (it quotes what a command wrote), bounded in count and bytes.
import type { IssueCommentInfo } from './api-comments.js';
import type { GitHubApi } from './api.js';
import { PROGRESS_MARKER, type RunRequest } from './request.js';
import { cutToBytes, keepNewest } from '../ui/bounded-text.js';

export const MAX_EARLIER_REPLIES = 10;
export const MAX_EARLIER_REPLY_BYTES = 32 * 1024;

/** A comment of either list: the conversation's (`issue`) or the diff's (`review`). */
export type ListedComment = IssueCommentInfo & { kind: 'issue' | 'review' };

/** This run's own progress comment: where it was made. */
export interface OwnComment {
  kind: 'issue' | 'review';
  id: number;
}

export interface ConversationContext {
  /** 1 for the first run on this pull request or issue, 2 for the next... */
  run: number;
  /** The bot's own earlier replies here, newest first (progress comments, as they read now). */
  earlier_replies: Array<{ created_at: string; body: string }>;
  cut: { earlier_replies_left_out: number; earlier_replies_cut: number };
  /** Set when the earlier replies could not be read or told apart (then `run` is 1). */
  earlier_replies_error?: string;
}

/** The comments written as the same account as `own`, that start with the progress marker, before it. */
export function botReplies(comments: readonly ListedComment[], own: OwnComment): ListedComment[] | string {
  const mine = comments.find((c) => c.kind === own.kind && c.id === own.id);
  if (!mine) return "this run's progress comment is not among the comments read";
  if (!mine.author) return "this run's progress comment names no author";
  return comments
    .filter(
      (c) =>
        c !== mine &&
        c.author === mine.author &&
        c.authorType === mine.authorType &&
        c.body.startsWith(PROGRESS_MARKER) &&
        // A run that started later (another job on the same branch) is not an earlier one.
        c.createdAt <= mine.createdAt,
    )
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id - b.id));
}

/** The context's conversation part; `own` undefined: this run could make no progress comment. */
export function conversationContext(
  comments: readonly ListedComment[] | { error: string },
  own: OwnComment | undefined,
): ConversationContext {
  const replies =
    'error' in comments
      ? `the comments could not be read: ${comments.error}`
      : own
        ? botReplies(comments, own)
        : 'this run made no progress comment to know its own account by';
  if (typeof replies === 'string')
    return {
      run: 1,
      earlier_replies: [],
      cut: { earlier_replies_left_out: 0, earlier_replies_cut: 0 },
      earlier_replies_error: cutToBytes(replies, 1000).text,
    };
  const bounded = keepNewest(
    replies.map((r) => ({ created_at: cutToBytes(r.createdAt, 40).text, body: r.body })),
    MAX_EARLIER_REPLIES,
    MAX_EARLIER_REPLY_BYTES,
  );
  return {
    run: replies.length + 1,
    earlier_replies: bounded.kept,
    cut: { earlier_replies_left_out: bounded.leftOut, earlier_replies_cut: bounded.bodiesCut },
  };
}

/** Merges the conversation part into a context (its `cut` too). */
export function withConversation<T extends { cut: object }>(
  context: T,
  conversation: ConversationContext,
): T & ConversationContext {
  const { cut, ...rest } = conversation;
  return { ...context, ...rest, cut: { ...context.cut, ...cut } };
}

/**
 * Reads what the bot said before on pull request or issue `number` (a pull request's review comments
 * too), after this run made its own progress comment. A failure to read is said in the context, never
 * fatal.
 */
export async function readConversation(
  api: Pick<GitHubApi, 'issueComments' | 'reviewComments'>,
  number: number,
  isPullRequest: boolean,
  own: OwnComment | undefined,
  warn: (message: string) => void,
): Promise<ConversationContext> {
  if (!own) return conversationContext([], undefined);
  try {
    const comments: ListedComment[] = (await api.issueComments(number)).map((c) => ({
      ...c,
      kind: 'issue' as const,
    }));
    if (isPullRequest)
      for (const c of await api.reviewComments(number)) comments.push({ ...c, kind: 'review' });
    return conversationContext(comments, own);
  } catch (error) {
    warn(`Could not read the bot's earlier replies on #${number}: ${(error as Error).message}`);
    return conversationContext({ error: (error as Error).message }, own);
  }
}

/** This run's progress comment, when it made one: a reply in a review thread, or on the conversation. */
export function ownComment(id: number | undefined, inReviewThread: boolean): OwnComment | undefined {
  return id === undefined ? undefined : { kind: inReviewThread ? 'review' : 'issue', id };
}

/** The context of a comment on a pull request's conversation: where it was made. */
export function commentContext(request: RunRequest): {
  event: string;
  pull_request: number | null;
  comment_id: number | null;
  cut: object;
} {
  return {
    event: request.event,
    pull_request: request.prNumber ?? null,
    comment_id: request.comment?.id ?? null,
    cut: {},
  };
}
