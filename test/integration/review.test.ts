// A review submitted with /fix as the first word of its body (pull_request_review), in process, against a
// fake GitHub, real git and the real container engine: the same gates as a comment, the review's comments
// read through the API and handed to the command with the body as a JSON file it reads (and commits here,
// so that origin holds what the command saw), and the feedback in one progress comment on the pull request.
import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import { alice, api, forkPullOpen, inProcessBot, KEEP_WHAT_IT_SAW as SEE, readAs } from '../support/bot.js';
import { refOf } from '../support/pull-requests.js';
import { reviewEvent, type Person } from '../support/webhooks.js';

// What a shell, the runner's workflow commands, Markdown and HTML would each act on.
const HOSTILE_ARGS = 'use consts `id` $(touch /tmp/wts-rv-pwned)\n::error::args @admin </details>';
const HOSTILE_PATH = 'src/`$(touch /tmp/wts-rv-pwned)`\n::error::path @admin </details>.ts';
const HOSTILE_HUNK =
  '@@ -1,2 +1,2 @@\n-```\n+$(touch /tmp/wts-rv-pwned) `id` ::error::hunk @octocat </details>\r\n::warning::cr';
const HOSTILE_BODY = 'this one ::error::comment\n```\n$(touch /tmp/wts-rv-pwned)\n``` @octocat </details>';

const bot = inProcessBot({ work: 'wts-review-body-' });
const runBot = (payload: unknown, inputs?: Record<string, string>) =>
  bot.run('pull_request_review', payload, { inputs });

/** A comment of review `reviewId` on a line of the diff, as the review's list answers it. */
const seedComment = (reviewId: number, id: number, fields: SeedFields, issue?: number) =>
  bot.reviewComment({ id, reviewId, issue, ...fields });
type SeedFields = { path: string; line: number | null; diffHunk: string; body: string; startLine?: number };

describe('a review whose body starts with /fix', () => {
  it('hands its body and its three comments to the command byte for byte, and reports on the pull request', async () => {
    seedComment(71, 701, {
      path: 'src/a.ts',
      line: 3,
      diffHunk: '@@ -1,3 +1,3 @@\n-let a\n+let a',
      body: 'a const',
    });
    seedComment(71, 702, {
      path: HOSTILE_PATH,
      line: 9,
      startLine: 4,
      diffHunk: HOSTILE_HUNK,
      body: HOSTILE_BODY,
    });
    seedComment(71, 703, {
      path: 'README.md',
      line: null,
      diffHunk: '@@ -5 +5 @@\n-old',
      body: 'outdated one',
    });
    // Another review's comment on the same pull request is not this review's.
    seedComment(72, 704, { path: 'other.ts', line: 1, diffHunk: '@@', body: 'not mine' });
    const body = `/fix ${HOSTILE_ARGS}`;
    const payload = reviewEvent({ body, author: alice, reviewId: 71, state: 'changes_requested' });
    const run = await runBot(payload, { command: SEE });

    const kept = bot.keptOnOrigin(run);
    expect(kept.prompt).toBe(HOSTILE_ARGS);
    expect(kept.context).toEqual({
      event: 'pull_request_review',
      pull_request: 7,
      review_id: 71,
      state: 'changes_requested',
      commit_id: payload.review.commit_id,
      body,
      comments: [
        {
          path: 'src/a.ts',
          line: 3,
          start_line: null,
          side: 'RIGHT',
          diff_hunk: '@@ -1,3 +1,3 @@\n-let a\n+let a',
          body: 'a const',
        },
        {
          path: HOSTILE_PATH,
          line: 9,
          start_line: 4,
          side: 'RIGHT',
          diff_hunk: HOSTILE_HUNK,
          body: HOSTILE_BODY,
        },
        {
          path: 'README.md',
          line: null,
          start_line: null,
          side: 'RIGHT',
          diff_hunk: '@@ -5 +5 @@\n-old',
          body: 'outdated one',
        },
      ],
      // A review is a comment run: the first on this pull request, with no earlier reply of the bot.
      run: 1,
      earlier_replies: [],
      cut: {
        body: false,
        comments_left_out: 0,
        comments_cut: 0,
        earlier_replies_left_out: 0,
        earlier_replies_cut: 0,
      },
    });
    expect(fs.existsSync('/tmp/wts-rv-pwned')).toBe(false);

    // One call for the comments; no reaction (a review takes none); one progress comment on the pull request;
    // the bot's earlier replies read from both lists of the pull request once that comment exists.
    const progress = bot.comments();
    expect(progress).toHaveLength(1);
    expect(bot.fake.log).toEqual([
      `GET ${api('/collaborators/alice/permission')}`,
      `GET ${api(`/pulls/${bot.repos.number}`)}`,
      `GET ${api(`/pulls/${bot.repos.number}/reviews/71/comments`)}`,
      `POST ${api(`/issues/${bot.repos.number}/comments`)}`,
      `GET ${api(`/issues/${bot.repos.number}/comments`)}`,
      `GET ${api(`/pulls/${bot.repos.number}/comments`)}`,
      `PATCH ${api(`/issues/comments/${progress[0].id}`)}`,
    ]);
    expect(bot.fake.calls[2].query).toMatchObject({ per_page: '100', page: '1' });
    expect(bot.fake.reactions).toEqual([]);
    expect(bot.fake.reviewReactions).toEqual([]);
    expect(progress[0].issue).toBe(bot.repos.number);
    expect(progress[0].history[0]).toContain('⏳ `/fix` is running');
    expect(progress[0].body).toContain('✅ `/fix` finished');
    expect(run.state.progress).toMatchObject({ commentId: progress[0].id, triggerCommentId: undefined });
    expect(run.outputs).toMatchObject({ triggered: 'true', 'pr-number': '7', args: HOSTILE_ARGS });

    // The body, path, hunk and comment went nowhere else: not the log, the summary, the comment or the API.
    const sent = JSON.stringify(bot.fake.calls.map((c) => c.body ?? {}));
    for (const text of [run.shown, ...progress[0].history, sent]) {
      expect(text).not.toContain('wts-rv-pwned');
      expect(text).not.toContain('::error::');
      for (const raw of ['</details>.ts', '@admin </details>', '@octocat </details>', '@admin', '@octocat'])
        expect(text).not.toContain(raw);
    }
  });

  it('keeps an over-size review within its bounds: the first 50 comments, 64 KiB in all, and says what it cut', async () => {
    const big = 'x'.repeat(10 * 1024);
    for (let i = 1; i <= 130; i++)
      seedComment(81, 800 + i, { path: `f${i}.ts`, line: i, diffHunk: i % 2 ? big : '@@', body: `c${i}` });
    const huge = `/fix ${'y'.repeat(100 * 1024)}`;
    const run = await runBot(reviewEvent({ body: huge, author: alice, reviewId: 81 }), { command: SEE });

    expect(run.outcome?.command.exitCode).toBe(0);
    const pushed = bot.head();
    const seen = JSON.parse(bot.show(pushed, 'context-seen.json')) as {
      body: string;
      comments: Array<{ path: string; body: string; diff_hunk: string }>;
      cut: Record<string, unknown>;
    };
    const texts = seen.comments.reduce((n, c) => n + Buffer.byteLength(c.path + c.body + c.diff_hunk), 0);
    expect(texts).toBeLessThanOrEqual(64 * 1024);
    expect(seen.comments.length).toBeLessThanOrEqual(50);
    expect(seen.comments.map((c) => c.path).slice(0, 3)).toEqual(['f1.ts', 'f2.ts', 'f3.ts']);
    expect(Buffer.byteLength(seen.body)).toBe(64 * 1024);
    expect(seen.cut).toEqual({
      body: true,
      comments_left_out: 130 - seen.comments.length,
      comments_cut: 1,
      earlier_replies_left_out: 0,
      earlier_replies_cut: 0,
    });
    // Read in pages of 100, and no further than the list goes.
    const reads = bot.fake.calls.filter(
      (c) => c.path === api(`/pulls/${bot.repos.number}/reviews/81/comments`),
    );
    expect(reads.map((c) => c.query.page)).toEqual(['1', '2']);
  });

  it('goes on without the comments when GitHub will not list them, and says so', async () => {
    bot.fake.faults.push({
      method: 'GET',
      path: api(`/pulls/${bot.repos.number}/reviews/91/comments`),
      status: 404,
    });
    const run = await runBot(reviewEvent({ body: '/fix', author: alice, reviewId: 91 }), { command: SEE });
    expect(run.outcome?.command.exitCode).toBe(0);
    const pushed = bot.head();
    expect(JSON.parse(bot.show(pushed, 'context-seen.json'))).toMatchObject({
      comments: [],
      comments_error: expect.stringContaining('fault') as unknown,
    });
    expect(run.warnings.join('\n')).toContain("Could not read the review's comments");
  });

  it("runs on a fork's pull request: the patch is offered, and the progress comment says so", async () => {
    forkPullOpen(bot.fake, bot.repos, false);
    seedComment(95, 951, { path: 'a.ts', line: 1, diffHunk: '@@', body: 'here' }, bot.repos.forkNumber);
    const payload = reviewEvent({
      body: '/fix',
      author: alice,
      reviewId: 95,
      number: bot.repos.forkNumber,
      headRepo: 'someone/hello-world',
    });
    const forkMain = refOf(bot.repos.fork, 'refs/heads/main');
    const run = await runBot(payload, { command: SEE });

    expect(run.outcome?.command.exitCode).toBe(0);
    expect(run.outcome?.push).toMatchObject({ pushed: false });
    expect(refOf(bot.repos.fork, 'refs/heads/main')).toBe(forkMain);
    const patch = fs.readFileSync(run.outputs['patch-path'], 'utf8');
    expect(patch).toContain('+++ b/context-seen.json');
    expect(patch).toContain('"review_id": 95');
    const progress = bot.comments();
    expect(progress).toHaveLength(1);
    expect(progress[0].issue).toBe(bot.repos.forkNumber);
    expect(progress[0].body).toContain(
      'not pushed: the pull request comes from the fork someone/hello-world',
    );
    expect(bot.fake.reactions).toEqual([]);
  });
});

describe('who may ask with a review', () => {
  it('refuses an untrusted reviewer without a word to GitHub (a review takes no reaction)', async () => {
    const mallory: Person = { login: 'mallory', association: 'CONTRIBUTOR' };
    const run = await runBot(reviewEvent({ body: '/fix', author: mallory }));
    expect(run.outcome).toBeUndefined();
    expect(bot.fake.calls).toEqual([]);
    expect(run.outputs.triggered).toBe('false');
    expect(readAs(run.summary)).toContain('not allowed: @mallory is CONTRIBUTOR of the repository');
  });

  it('refuses a read-only collaborator after asking the API', async () => {
    bot.fake.permissions.set('rita', { permission: 'read', role_name: 'read' });
    const rita: Person = { login: 'rita', association: 'COLLABORATOR' };
    const run = await runBot(reviewEvent({ body: '/fix', author: rita }));
    expect(run.outcome).toBeUndefined();
    expect(bot.fake.log).toEqual([`GET ${api('/collaborators/rita/permission')}`]);
    expect(readAs(run.summary)).toContain('@rita has read permission on the repository');
  });

  it.each([
    [
      'a bot',
      { login: 'github-actions[bot]', type: 'Bot', association: 'NONE' } as Person,
      '/fix',
      'submitted',
    ],
    ['an edited review', alice, '/fix', 'edited'],
    ['a dismissed review', alice, '/fix', 'dismissed'],
    ['a trigger in a quoted line', alice, '> /fix it', 'submitted'],
    ['a trigger in a code block', alice, '```\n/fix it\n```', 'submitted'],
    ['a trigger in an indented code block', alice, '    /fix it', 'submitted'],
    ['a review with no body', alice, null, 'submitted'],
  ] as const)('ignores %s without a word to GitHub', async (_name, author, body, action) => {
    const run = await runBot(reviewEvent({ body, author, action }));
    expect(run.outcome).toBeUndefined();
    expect(bot.fake.calls).toEqual([]);
    expect(run.outputs.triggered).toBe('false');
  });
});
