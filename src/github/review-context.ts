// What the command learns about a comment on a line of the diff, as data for SANDBOX_CONTEXT_FILE: where
// the comment sits, the diff hunk and the earlier comments of its thread. Pure. Every text in it is
// untrusted and of any size: the file stays within fixed bounds and says what it left out.
import type { ReviewThreadComment } from './api.js';
import type { RunRequest } from './request.js';

/** The most earlier comments of a thread the file holds, and their authors and bodies in bytes. */
export const MAX_THREAD_COMMENTS = 20;
export const MAX_THREAD_BYTES = 64 * 1024;
export const MAX_HUNK_BYTES = 64 * 1024;

export interface ContextComment {
  author: string;
  body: string;
}

/** Comments kept within a count and a byte budget, newest kept first, and what was left out. */
export interface BoundedComments {
  kept: ContextComment[];
  /** Older comments left out (count or bytes). */
  leftOut: number;
  /** Bodies cut short to fit the bytes. */
  bodiesCut: number;
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

/** The longest prefix of `text` within `maxBytes` of UTF-8 that splits no character. */
export function cutToBytes(text: string, maxBytes: number): { text: string; cut: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return { text, cut: false };
  let end = Math.max(0, maxBytes);
  // Back to the first byte of a character: a continuation byte is 10xxxxxx.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return { text: bytes.subarray(0, end).toString('utf8'), cut: true };
}

/**
 * Keeps the newest comments first (the latest word matters most), at most `maxCount`, with authors and
 * bodies within `maxBytes` in all; the last one kept may be cut short. Returned oldest first.
 */
export function boundComments(
  comments: readonly ContextComment[],
  maxCount: number,
  maxBytes: number,
): BoundedComments {
  const kept: ContextComment[] = [];
  let budget = maxBytes;
  let bodiesCut = 0;
  for (let i = comments.length - 1; i >= 0 && kept.length < maxCount; i--) {
    const author = cutToBytes(comments[i].author, 100).text;
    const room = budget - Buffer.byteLength(author, 'utf8');
    if (room <= 0) break;
    const body = cutToBytes(comments[i].body, room);
    if (body.cut) bodiesCut++;
    kept.push({ author, body: body.text });
    budget = room - Buffer.byteLength(body.text, 'utf8');
    if (body.cut) break;
  }
  return { kept: kept.reverse(), leftOut: comments.length - kept.length, bodiesCut };
}

export function reviewCommentContext(
  request: RunRequest,
  thread: readonly ReviewThreadComment[] | { error: string },
): ReviewCommentContext {
  const rc = request.reviewComment!;
  // Only what came before the trigger: the thread may already hold later replies.
  const earlier = !('error' in thread)
    ? thread.filter((c) => c.id < rc.id).map((c) => ({ author: c.author, body: c.body }))
    : [];
  const bounded = boundComments(earlier, MAX_THREAD_COMMENTS, MAX_THREAD_BYTES);
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
    thread: bounded.kept,
    cut: {
      diff_hunk: hunk.cut,
      thread_comments_left_out: bounded.leftOut,
      thread_bodies_cut: bounded.bodiesCut,
    },
  };
  if ('error' in thread) context.thread_error = cutToBytes(thread.error, 1000).text;
  return context;
}
