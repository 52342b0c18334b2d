// What the command learns about a comment on a line of the diff, as data for SANDBOX_CONTEXT_FILE: where
// the comment sits, the diff hunk and the earlier comments of its thread. Pure. Every text in it is
// untrusted and of any size: the file stays within fixed bounds and says what it left out.
import type { ReviewThreadComment } from './api.js';
import { cutToBytes, keepNewest } from '../ui/bounded-text.js';
import type { RunRequest } from './request.js';

/** The most earlier comments of a thread the file holds, and their authors and bodies in bytes. */
export const MAX_THREAD_COMMENTS = 20;
export const MAX_THREAD_BYTES = 64 * 1024;
export const MAX_HUNK_BYTES = 64 * 1024;

export interface ContextComment {
  author: string;
  body: string;
}

export interface ReviewCommentContext {
  event: 'pull_request_review_comment';
  pull_request: number;
  comment_id: number;
  path: string;
  line: number | null;
  start_line: number | null;
  side: string | null;
  commit_id: string;
  outdated: boolean;
  diff_hunk: string;
  /** Earlier comments of the same thread, oldest first. */
  thread: ContextComment[];
  /** What the bounds left out; all zero or false when nothing was. */
  cut: { diff_hunk: boolean; thread_comments_left_out: number; thread_bodies_cut: number };
  /** Set when the thread could not be read (the run goes on without it). */
  thread_error?: string;
}

export function reviewCommentContext(
  request: RunRequest,
  thread: readonly ReviewThreadComment[] | { error: string },
): ReviewCommentContext {
  const rc = request.reviewComment!;
  // Only what came before the trigger: the thread may already hold later replies.
  const earlier = !('error' in thread)
    ? thread
        .filter((c) => c.id < rc.id)
        .map((c) => ({ author: cutToBytes(c.author, 100).text, body: c.body }))
    : [];
  // Authors count against the bytes too; the thread reads oldest first.
  const bounded = keepNewest(earlier, MAX_THREAD_COMMENTS, MAX_THREAD_BYTES, (c) =>
    Buffer.byteLength(c.author, 'utf8'),
  );
  const hunk = cutToBytes(rc.diffHunk, MAX_HUNK_BYTES);
  const context: ReviewCommentContext = {
    event: 'pull_request_review_comment',
    pull_request: request.prNumber!,
    comment_id: rc.id,
    path: rc.path,
    line: rc.line,
    start_line: rc.startLine,
    side: rc.side,
    commit_id: rc.commitId,
    outdated: rc.outdated,
    diff_hunk: hunk.text,
    thread: bounded.kept.reverse(),
    cut: {
      diff_hunk: hunk.cut,
      thread_comments_left_out: bounded.leftOut,
      thread_bodies_cut: bounded.bodiesCut,
    },
  };
  if ('error' in thread) context.thread_error = cutToBytes(thread.error, 1000).text;
  return context;
}
