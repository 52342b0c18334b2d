// What the command learns about an issue it makes a pull request of, as data for SANDBOX_CONTEXT_FILE:
// the issue (title, body, labels), the comment that asked, which run this is on the issue, and the bot's
// own earlier replies there, newest first. Pure. Every text in it is untrusted (the bot's replies too:
// they quote what a command wrote) and bounded; the file says what it left out.
import type { IssueCommentInfo } from './api.js';
import { PROGRESS_MARKER, type RunRequest } from './request.js';
import { cutToBytes } from './review-context.js';

export const MAX_ISSUE_TEXT_BYTES = 64 * 1024;
export const MAX_EARLIER_REPLIES = 10;
export const MAX_EARLIER_REPLY_BYTES = 32 * 1024;

export interface IssueContext {
  event: string;
  /** What asked: `comment`, `label` or `assignment`. */
  trigger: string;
  /** 1 for the first run on this issue, 2 for the next... (from the bot's progress comments on it). */
  run: number;
  issue: { number: number; title: string; body: string; labels: string[] };
  comment: { author: string; body: string } | null;
  /** The bot's own earlier replies on the issue, newest first. */
  earlier_replies: Array<{ body: string }>;
  cut: {
    issue_body: boolean;
    comment_body: boolean;
    earlier_replies_left_out: number;
    earlier_replies_cut: number;
  };
  /** Set when the issue's comments could not be read (the run goes on without them). */
  comments_error?: string;
}

/** The bot's own progress comments: they start with the marker and were written by a bot account. */
export function botReplies(comments: readonly IssueCommentInfo[]): IssueCommentInfo[] {
  return comments.filter((c) => c.authorType === 'Bot' && c.body.trimStart().startsWith(PROGRESS_MARKER));
}

/** The newest replies first, at most `maxCount`, within `maxBytes` in all (the last one kept may be cut). */
export function boundReplies(
  replies: readonly IssueCommentInfo[],
  maxCount = MAX_EARLIER_REPLIES,
  maxBytes = MAX_EARLIER_REPLY_BYTES,
): { kept: Array<{ body: string }>; leftOut: number; cut: number } {
  const kept: Array<{ body: string }> = [];
  let budget = maxBytes;
  let cut = 0;
  for (let i = replies.length - 1; i >= 0 && kept.length < maxCount && budget > 0; i--) {
    const body = cutToBytes(replies[i].body, budget);
    kept.push({ body: body.text });
    budget -= Buffer.byteLength(body.text, 'utf8');
    if (body.cut) {
      cut++;
      break;
    }
  }
  return { kept, leftOut: replies.length - kept.length, cut };
}

export function issueContext(
  request: RunRequest,
  comments: readonly IssueCommentInfo[] | { error: string },
): IssueContext {
  const issue = request.issue!;
  const replies = 'error' in comments ? [] : botReplies(comments);
  const bounded = boundReplies(replies);
  const body = cutToBytes(issue.body, MAX_ISSUE_TEXT_BYTES);
  const said = cutToBytes(issue.commentBody ?? '', MAX_ISSUE_TEXT_BYTES);
  const context: IssueContext = {
    event: request.event,
    trigger: issue.how,
    run: replies.length + 1,
    issue: {
      number: issue.number,
      title: cutToBytes(issue.title, 1024).text,
      body: body.text,
      labels: issue.labels.slice(0, 100).map((l) => cutToBytes(l, 100).text),
    },
    comment: request.comment ? { author: request.requester.login, body: said.text } : null,
    earlier_replies: bounded.kept,
    cut: {
      issue_body: body.cut,
      comment_body: said.cut,
      earlier_replies_left_out: bounded.leftOut,
      earlier_replies_cut: bounded.cut,
    },
  };
  if ('error' in comments) context.comments_error = cutToBytes(comments.error, 1000).text;
  return context;
}

/** The prompt file: the text after the trigger, or for a label or an assignment the title and the body. */
export function issuePrompt(request: RunRequest): string {
  if (request.comment) return request.comment.args;
  const issue = request.issue!;
  return cutToBytes(`${issue.title}\n\n${issue.body}`, MAX_ISSUE_TEXT_BYTES).text;
}
