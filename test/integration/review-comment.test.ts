// A /fix on a line of a pull request's diff (pull_request_review_comment), in process, against a fake
// GitHub, real git and the real container engine: the same gates as a comment on the conversation, the
// feedback in the review thread, and the comment's place, hunk and thread handed to the command as a JSON
// file it reads (and commits here, so that origin holds what the command saw).
import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import { alice, api, forkPullOpen, inProcessBot, KEEP_WHAT_IT_SAW as SEE, readAs } from '../support/bot.js';
import { refOf } from '../support/pull-requests.js';
import { reviewCommentEvent } from '../support/webhooks.js';

// What a shell, the runner's workflow commands, Markdown and HTML would each act on.
const HOSTILE_PATH = 'src/`$(touch /tmp/wts-rc-pwned)`\n::error::path @admin </details>.ts';
const HOSTILE_HUNK =
  '@@ -1,3 +1,3 @@\n-```\n+$(touch /tmp/wts-rc-pwned) `id` ::error::hunk @octocat </details>\r\n::warning::cr';
const HOSTILE_ARGS = 'use a const here $(touch /tmp/wts-rc-pwned)\n::error::args @admin </details>';

const bot = inProcessBot({ work: 'wts-review-' });
const runBot = (payload: unknown, inputs?: Record<string, string>) =>
  bot.run('pull_request_review_comment', payload, { inputs });

/** A comment already on the pull request's diff, as the list of review comments answers it. */
const seedReviewComment = (id: number, author: string, body: string, inReplyTo?: number, issue?: number) =>
  bot.reviewComment({ id, author, body, inReplyTo, issue });

describe('a /fix on a line of the diff', () => {
  it('hands a hostile path, hunk and text to the command byte for byte as files, and answers in the thread', async () => {
    const payload = reviewCommentEvent({
      body: `/fix ${HOSTILE_ARGS}`,
      author: alice,
      commentId: 31,
      path: HOSTILE_PATH,
      line: 3,
      diffHunk: HOSTILE_HUNK,
    });
    seedReviewComment(31, 'alice', payload.comment.body);
    const run = await runBot(payload, { command: SEE });

    const kept = bot.keptOnOrigin(run);
    expect(kept.prompt).toBe(HOSTILE_ARGS);
    expect(kept.context).toEqual({
      event: 'pull_request_review_comment',
      pull_request: 7,
      comment_id: 31,
      path: HOSTILE_PATH,
      line: 3,
      start_line: null,
      side: 'RIGHT',
      commit_id: payload.comment.commit_id,
      outdated: false,
      diff_hunk: HOSTILE_HUNK,
      thread: [],
      run: 1,
      earlier_replies: [],
      cut: {
        diff_hunk: false,
        thread_comments_left_out: 0,
        thread_bodies_cut: 0,
        earlier_replies_left_out: 0,
        earlier_replies_cut: 0,
      },
    });
    expect(fs.existsSync('/tmp/wts-rc-pwned')).toBe(false);

    // The feedback: reactions on the review comment, one reply in its thread, edited at the end.
    const reply = bot.replyTo(31);
    expect(bot.fake.log).toEqual([
      `GET ${api('/collaborators/alice/permission')}`,
      `GET ${api(`/pulls/${bot.repos.number}`)}`,
      `POST ${api('/pulls/comments/31/reactions')}`,
      `POST ${api(`/pulls/${bot.repos.number}/comments/31/replies`)}`,
      // The bot's earlier replies on the pull request: the conversation's and the diff's.
      `GET ${api(`/issues/${bot.repos.number}/comments`)}`,
      `GET ${api(`/pulls/${bot.repos.number}/comments`)}`,
      `PATCH ${api(`/pulls/comments/${reply.id}`)}`,
      `POST ${api('/pulls/comments/31/reactions')}`,
    ]);
    expect(bot.fake.reviewReactions).toEqual([
      { commentId: 31, content: 'eyes' },
      { commentId: 31, content: 'rocket' },
    ]);
    expect(bot.fake.comments.size).toBe(0);
    expect(reply.history).toHaveLength(2);
    expect(reply.history[0]).toContain('⏳ `/fix` is running');
    expect(reply.body).toContain('✅ `/fix` finished');
    expect(run.state.progress).toMatchObject({
      commentId: reply.id,
      triggerCommentId: 31,
      inReviewThread: true,
    });

    // The path and hunk went nowhere else: not the log, the summary, the reply or the API calls.
    const sent = JSON.stringify(bot.fake.calls.map((c) => c.body ?? {}));
    for (const text of [run.shown, reply.body, reply.history[0], sent]) {
      expect(text).not.toContain('wts-rc-pwned');
      expect(text).not.toContain('::error::');
      expect(text).not.toContain('</details>.ts');
    }
  });

  it('gives a multi-line reply in a thread its earlier comments, and replies under the thread', async () => {
    seedReviewComment(40, 'bob', 'why `let`? @carol');
    seedReviewComment(41, 'carol', 'agreed </details>', 40);
    const payload = reviewCommentEvent({
      body: '/fix both lines',
      author: alice,
      commentId: 42,
      line: 9,
      startLine: 4,
      inReplyTo: 40,
    });
    seedReviewComment(42, 'alice', payload.comment.body, 40);
    const run = await runBot(payload, { command: SEE });

    expect(run.outcome?.command.exitCode).toBe(0);
    const pushed = bot.head();
    expect(JSON.parse(bot.show(pushed, 'context-seen.json'))).toMatchObject({
      comment_id: 42,
      line: 9,
      start_line: 4,
      outdated: false,
      thread: [
        { author: 'bob', body: 'why `let`? @carol' },
        { author: 'carol', body: 'agreed </details>' },
      ],
      run: 1,
      cut: { diff_hunk: false, thread_comments_left_out: 0, thread_bodies_cut: 0 },
    });
    // One call for the thread (one more, newest first, for the bot's earlier replies); the reply goes
    // under its first comment (GitHub answers no reply to a reply).
    const lists = bot.fake.calls.filter((c) => c.path === api(`/pulls/${bot.repos.number}/comments`));
    expect(lists.map((c) => c.query.direction ?? 'asc')).toEqual(['asc', 'desc']);
    expect(bot.fake.log).toContain(`POST ${api(`/pulls/${bot.repos.number}/comments/40/replies`)}`);
    expect(bot.fake.reviewReactions.map((r) => r.content)).toEqual(['eyes', 'rocket']);
  });

  it('runs on an outdated comment of a fork: the patch is offered, and the reply in the thread says so', async () => {
    forkPullOpen(bot.fake, bot.repos, false);
    const payload = reviewCommentEvent({
      body: '/fix',
      author: alice,
      commentId: 51,
      number: bot.repos.forkNumber,
      outdated: true,
      headRepo: 'someone/hello-world',
    });
    seedReviewComment(51, 'alice', '/fix', undefined, bot.repos.forkNumber);
    const forkMain = refOf(bot.repos.fork, 'refs/heads/main');
    const run = await runBot(payload, { command: SEE });

    expect(run.outcome?.command.exitCode).toBe(0);
    expect(run.outcome?.push).toMatchObject({ pushed: false });
    expect(refOf(bot.repos.fork, 'refs/heads/main')).toBe(forkMain);
    const patch = fs.readFileSync(run.outputs['patch-path'], 'utf8');
    const seen = /\+\+\+ b\/context-seen\.json\n@@[^\n]*\n((?:\+[^\n]*\n)+)/.exec(patch)![1];
    const context = JSON.parse(seen.replace(/^\+/gm, '')) as Record<string, unknown>;
    expect(context).toMatchObject({ comment_id: 51, outdated: true, line: null, pull_request: 8 });

    const reply = bot.replyTo(51);
    expect(reply.body).toContain('not pushed: the pull request comes from the fork someone/hello-world');
    expect(reply.body).toContain('+++ b/context-seen.json');
    expect(bot.fake.comments.size).toBe(0);
  });
});

describe('who may ask on a line of the diff', () => {
  it('gives an untrusted author a -1 on the review comment and nothing else', async () => {
    const mallory = { login: 'mallory', association: 'CONTRIBUTOR' as const };
    const run = await runBot(reviewCommentEvent({ body: '/fix', author: mallory, commentId: 61 }));
    expect(run.outcome).toBeUndefined();
    expect(bot.fake.log).toEqual([`POST ${api('/pulls/comments/61/reactions')}`]);
    expect(bot.fake.reviewReactions).toEqual([{ commentId: 61, content: '-1' }]);
    expect(readAs(run.summary)).toContain('not allowed: @mallory is CONTRIBUTOR of the repository');
  });

  it('refuses a read-only collaborator after asking the API', async () => {
    bot.fake.permissions.set('rita', { permission: 'read', role_name: 'read' });
    const rita = { login: 'rita', association: 'COLLABORATOR' as const };
    const run = await runBot(reviewCommentEvent({ body: '/fix', author: rita, commentId: 62 }));
    expect(run.outcome).toBeUndefined();
    expect(bot.fake.log).toEqual([
      `GET ${api('/collaborators/rita/permission')}`,
      `POST ${api('/pulls/comments/62/reactions')}`,
    ]);
    expect(readAs(run.summary)).toContain('@rita has read permission on the repository');
  });

  it.each([
    [
      'a bot',
      { login: 'github-actions[bot]', type: 'Bot' as const, association: 'NONE' as const },
      'created',
    ],
    ['an edited comment', alice, 'edited'],
    ['a deleted comment', alice, 'deleted'],
  ] as const)('ignores %s without a word to GitHub', async (_name, author, action) => {
    const run = await runBot(reviewCommentEvent({ body: '/fix', author, action }));
    expect(run.outcome).toBeUndefined();
    expect(bot.fake.calls).toEqual([]);
    expect(run.outputs.triggered).toBe('false');
  });
});
