import { describe, expect, it } from '@jest/globals';
import type { RunRequest } from './request.js';
import { MAX_HUNK_BYTES, reviewCommentContext } from './review-context.js';

const request: RunRequest = {
  event: 'pull_request_review_comment',
  prNumber: 7,
  requester: { login: 'alice', type: 'User', association: 'MEMBER', eventNeedsWrite: false },
  comment: { id: 50, trigger: '/fix', args: 'x' },
  reviewComment: {
    id: 50,
    threadId: 10,
    path: 'a.ts',
    line: 3,
    startLine: 1,
    side: 'RIGHT',
    commitId: 'c'.repeat(40),
    outdated: false,
    diffHunk: '@@ -1 +1 @@',
  },
};

describe('reviewCommentContext', () => {
  it('holds where the comment sits and only the earlier comments of its thread', () => {
    const thread = [
      { id: 10, author: 'bob', body: 'first' },
      { id: 20, author: 'carol', body: 'second', inReplyTo: 10 },
      { id: 50, author: 'alice', body: '/fix x', inReplyTo: 10 },
      { id: 60, author: 'dave', body: 'later', inReplyTo: 10 },
    ];
    expect(reviewCommentContext(request, thread)).toEqual({
      event: 'pull_request_review_comment',
      pull_request: 7,
      comment_id: 50,
      path: 'a.ts',
      line: 3,
      start_line: 1,
      side: 'RIGHT',
      commit_id: 'c'.repeat(40),
      outdated: false,
      diff_hunk: '@@ -1 +1 @@',
      thread: [
        { author: 'bob', body: 'first' },
        { author: 'carol', body: 'second' },
      ],
      cut: { diff_hunk: false, thread_comments_left_out: 0, thread_bodies_cut: 0 },
    });
  });

  it('bounds a hunk of any size and says so; a thread it could not read is said, not guessed', () => {
    const big = { ...request, reviewComment: { ...request.reviewComment!, diffHunk: '+'.repeat(200_000) } };
    const context = reviewCommentContext(big, { error: 'HTTP 502' });
    expect(Buffer.byteLength(context.diff_hunk)).toBe(MAX_HUNK_BYTES);
    expect(context.cut.diff_hunk).toBe(true);
    expect(context.thread).toEqual([]);
    expect(context.thread_error).toBe('HTTP 502');
  });
});
