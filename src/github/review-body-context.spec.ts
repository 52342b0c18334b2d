import { describe, expect, it } from '@jest/globals';
import type { ReviewComment } from './api.js';
import type { RunRequest } from './request.js';
import {
  boundReviewComments,
  MAX_REVIEW_BODY_BYTES,
  MAX_REVIEW_COMMENT_BYTES,
  MAX_REVIEW_COMMENTS,
  reviewContext,
} from './review-body-context.js';

const request: RunRequest = {
  event: 'pull_request_review',
  prNumber: 7,
  requester: { login: 'alice', type: 'User', association: 'MEMBER', eventNeedsWrite: false },
  comment: { id: 90, trigger: '/fix', args: 'all of them' },
  review: { id: 90, body: '/fix all of them', state: 'commented', commitId: 'c'.repeat(40) },
};

function comment(id: number, fields: Partial<ReviewComment> = {}): ReviewComment {
  return {
    id,
    author: 'alice',
    path: `src/f${id}.ts`,
    line: id,
    startLine: null,
    side: 'RIGHT',
    diffHunk: `@@ -${id} +${id} @@`,
    body: `comment ${id}`,
    ...fields,
  };
}

const bytes = (c: { path: string; body: string; diff_hunk: string }) =>
  Buffer.byteLength(c.path + c.body + c.diff_hunk, 'utf8');

describe('reviewContext', () => {
  it('holds the review and its comments in order, as data', () => {
    const context = reviewContext(request, [
      comment(1),
      comment(2, { startLine: 1, side: 'LEFT', line: null }),
    ]);
    expect(context).toEqual({
      event: 'pull_request_review',
      pull_request: 7,
      review_id: 90,
      state: 'commented',
      commit_id: 'c'.repeat(40),
      body: '/fix all of them',
      comments: [
        {
          path: 'src/f1.ts',
          line: 1,
          start_line: null,
          side: 'RIGHT',
          diff_hunk: '@@ -1 +1 @@',
          body: 'comment 1',
        },
        {
          path: 'src/f2.ts',
          line: null,
          start_line: 1,
          side: 'LEFT',
          diff_hunk: '@@ -2 +2 @@',
          body: 'comment 2',
        },
      ],
      cut: { body: false, comments_left_out: 0, comments_cut: 0 },
    });
  });

  it('goes on without the comments when they could not be read, and says why', () => {
    const context = reviewContext(request, { error: 'x'.repeat(5000) });
    expect(context.comments).toEqual([]);
    expect(context.comments_error).toHaveLength(1000);
  });

  it('bounds the body', () => {
    const long = {
      ...request,
      review: { ...request.review!, body: `/fix ${'é'.repeat(MAX_REVIEW_BODY_BYTES)}` },
    };
    const context = reviewContext(long, []);
    expect(Buffer.byteLength(context.body, 'utf8')).toBeLessThanOrEqual(MAX_REVIEW_BODY_BYTES);
    expect(context.cut.body).toBe(true);
  });
});

describe('boundReviewComments', () => {
  it('keeps the first 50 and counts the rest', () => {
    const many = Array.from({ length: 120 }, (_, i) => comment(i + 1));
    const bounded = boundReviewComments(many);
    expect(bounded.kept).toHaveLength(MAX_REVIEW_COMMENTS);
    expect(bounded.kept[49].path).toBe('src/f50.ts');
    expect(bounded).toMatchObject({ leftOut: 70, cut: 0 });
  });

  it('keeps paths, bodies and hunks within 64 KiB in all, the body before the hunk, and says what it cut', () => {
    const big = 'x'.repeat(20 * 1024);
    const many = Array.from({ length: 5 }, (_, i) => comment(i + 1, { body: big, diffHunk: big }));
    const bounded = boundReviewComments(many);
    const total = bounded.kept.reduce((sum, c) => sum + bytes(c), 0);
    expect(total).toBeLessThanOrEqual(MAX_REVIEW_COMMENT_BYTES);
    expect(bounded.kept).toHaveLength(2);
    const sizes = bounded.kept.map((c) => [c.body.length, c.diff_hunk.length]);
    // The second keeps its whole body and what is left of its hunk.
    expect(sizes).toEqual([
      [big.length, big.length],
      [big.length, MAX_REVIEW_COMMENT_BYTES - 3 * big.length - 'src/f1.tssrc/f2.ts'.length],
    ]);
    expect(bounded).toMatchObject({ leftOut: 3, cut: 1 });
  });

  it('cuts a path of any size, and never splits a character', () => {
    const bounded = boundReviewComments([comment(1, { path: '😀'.repeat(1000) })]);
    expect(Buffer.byteLength(bounded.kept[0].path, 'utf8')).toBeLessThanOrEqual(1024);
    expect(bounded.kept[0].path).toMatch(/^(😀)+$/u);
    expect(bounded).toMatchObject({ leftOut: 0, cut: 1 });
  });
});
