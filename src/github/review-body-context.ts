// What the command learns about a review submitted with the trigger, as data for SANDBOX_CONTEXT_FILE: the
// review's body and state, and its comments on lines of the diff (path, line, hunk, body), read through
// the API. Every text in it is untrusted and of any size: the file keeps within fixed bounds (the first
// 50 comments, 64 KiB for them all) and says what it left out. A review takes no reaction on GitHub, so
// nothing here is written back.
import type { Ui } from '../ui/ui.js';
import type { GitHubApi, ReviewComment } from './api.js';
import type { RunRequest } from './request.js';
import { cutToBytes } from '../ui/bounded-text.js';

export const MAX_REVIEW_COMMENTS = 50;
/** For the kept comments' paths, hunks and bodies together. */
export const MAX_REVIEW_COMMENT_BYTES = 64 * 1024;
export const MAX_REVIEW_BODY_BYTES = 64 * 1024;
const MAX_PATH_BYTES = 1024;

export interface ReviewBodyComment {
  path: string;
  line: number | null;
  start_line: number | null;
  side: string | null;
  diff_hunk: string;
  body: string;
}

export interface ReviewContext {
  event: 'pull_request_review';
  pull_request: number;
  review_id: number;
  /** `commented`, `changes_requested` or `approved`. */
  state: string;
  commit_id: string;
  /** The whole body, the trigger too. */
  body: string;
  /** The review's comments in GitHub's order. */
  comments: ReviewBodyComment[];
  /** What the bounds left out; all zero or false when nothing was. */
  cut: { body: boolean; comments_left_out: number; comments_cut: number };
  /** Set when the comments could not be read (the run goes on without them). */
  comments_error?: string;
}

/**
 * The first comments, at most `maxCount`, their texts within `maxBytes` in all. The one that does not fit
 * whole is kept cut short (its body before its hunk: what the reviewer wrote matters most), and the rest
 * are left out.
 */
export function boundReviewComments(
  comments: readonly ReviewComment[],
  maxCount = MAX_REVIEW_COMMENTS,
  maxBytes = MAX_REVIEW_COMMENT_BYTES,
): { kept: ReviewBodyComment[]; leftOut: number; cut: number } {
  const kept: ReviewBodyComment[] = [];
  let room = maxBytes;
  let cut = 0;
  for (const c of comments) {
    if (kept.length >= maxCount || room <= 0) break;
    // Each text takes what the ones before it left: the path, then the body, then the hunk.
    const take = (text: string, most = room) => {
      const fitted = cutToBytes(text, Math.min(most, room));
      room -= Buffer.byteLength(fitted.text, 'utf8');
      return fitted;
    };
    const path = take(c.path, MAX_PATH_BYTES);
    const body = take(c.body);
    const hunk = take(c.diffHunk);
    kept.push({
      path: path.text,
      line: c.line,
      start_line: c.startLine,
      side: c.side,
      diff_hunk: hunk.text,
      body: body.text,
    });
    if (body.cut || hunk.cut) {
      cut++;
      break;
    }
    if (path.cut) cut++;
  }
  return { kept, leftOut: comments.length - kept.length, cut };
}

export function reviewContext(
  request: RunRequest,
  comments: readonly ReviewComment[] | { error: string },
): ReviewContext {
  const review = request.review!;
  const bounded = boundReviewComments('error' in comments ? [] : comments);
  const body = cutToBytes(review.body, MAX_REVIEW_BODY_BYTES);
  const context: ReviewContext = {
    event: 'pull_request_review',
    pull_request: request.prNumber!,
    review_id: review.id,
    state: review.state,
    commit_id: review.commitId,
    body: body.text,
    comments: bounded.kept,
    cut: { body: body.cut, comments_left_out: bounded.leftOut, comments_cut: bounded.cut },
  };
  if ('error' in comments) context.comments_error = cutToBytes(comments.error, 1000).text;
  return context;
}

/** Reads the review's comments (one call for each 100) and makes the context; a failure is a warning. */
export async function readReviewContext(api: GitHubApi, request: RunRequest, ui: Ui): Promise<ReviewContext> {
  try {
    return reviewContext(request, await api.commentsOfReview(request.prNumber!, request.review!.id));
  } catch (error) {
    ui.warning(`Could not read the review's comments: ${(error as Error).message}`);
    return reviewContext(request, { error: (error as Error).message });
  }
}
