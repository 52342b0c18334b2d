import { describe, expect, it } from '@jest/globals';
import type { GitHubApi } from './api.js';
import { finishStoppedProgress, PullRequestFeedback } from './feedback.js';
import type { Ui } from '../ui/ui.js';

function recordingApi(calls: string[]): GitHubApi {
  const record =
    (name: string) =>
    async (...args: unknown[]) => {
      calls.push(
        `${name} ${args.filter((a) => typeof a === 'number' || a === 'eyes' || a === 'confused').join(' ')}`,
      );
      return 900;
    };
  return new Proxy({} as GitHubApi, { get: (_t, name) => record(String(name)) });
}

const ui = { info: () => undefined, warning: () => undefined } as unknown as Ui;
const repository = { owner: 'o', repo: 'r' };
const ctx = { what: '/fix', requester: 'alice', runUrl: 'https://x/run', branch: 'b' };

describe('feedback on a comment on a line of the diff', () => {
  it('reacts on the review comment and replies in its thread, then edits that reply', async () => {
    const calls: string[] = [];
    const saved: unknown[] = [];
    const feedback = new PullRequestFeedback(
      recordingApi(calls),
      ui,
      { repository, issueNumber: 7, triggerCommentId: 42, reviewThreadId: 40 },
      (s) => saved.push(s),
    );
    await feedback.react('eyes');
    await feedback.start(ctx, 'running');
    await feedback.finish(ctx, 'done', 'rocket');
    expect(calls).toEqual([
      'reactToReviewComment 42 eyes',
      'replyInReviewThread 7 40',
      'updateReviewComment 900',
      'reactToReviewComment 42',
    ]);
    expect(saved.at(-1)).toMatchObject({
      progress: { commentId: 900, inReviewThread: true, finished: true },
    });
  });

  it('is finished by the post step in the thread, with a confused reaction on the review comment', async () => {
    const calls: string[] = [];
    await finishStoppedProgress(
      recordingApi(calls),
      { commentId: 900, owner: 'o', repo: 'r', triggerCommentId: 42, inReviewThread: true },
      'stopped',
      ui,
    );
    expect(calls).toEqual(['updateReviewComment 900', 'reactToReviewComment 42 confused']);
  });

  it('stays on the conversation for a comment there', async () => {
    const calls: string[] = [];
    await finishStoppedProgress(
      recordingApi(calls),
      { commentId: 901, owner: 'o', repo: 'r', triggerCommentId: 43 },
      'stopped',
      ui,
    );
    expect(calls).toEqual(['updateComment 901', 'react 43 confused']);
  });
});
