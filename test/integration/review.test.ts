// A review submitted with /fix as the first word of its body (pull_request_review), in process, against a
// fake GitHub, real git and the real container engine: the same gates as a comment, the review's comments
// read through the API and handed to the command with the body as a JSON file it reads (and commits here,
// so that origin holds what the command saw), and the feedback in one progress comment on the pull request.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runForPullRequest } from '../../src/github/pr-run.js';
import { parseSettings, type RunSettings } from '../../src/settings/settings.js';
import { everythingShown, recordingIo } from '../support/bot-io.js';
import { decodedText } from '../support/cmark.js';
import { TEST_IMAGE } from '../support/env.js';
import { FakeGitHub } from '../support/fake-github.js';
import { makePullRequestRepos, refOf, type PullRequestRepos } from '../support/pull-requests.js';
import { git, tempDir } from '../support/repo.js';
import { REPO, reviewEvent, type Person } from '../support/webhooks.js';

/** What a reader sees of text the action rendered inert (character references, zero-width breaks). */
const readAs = (text: string) => decodedText(text).replace(/[\u200b\u200d]/g, '');
const TOKEN = 'ghs_fakeTokenForReviewBodyTests01';
const FULL = `${REPO.owner}/${REPO.name}`;
const SERVER = 'https://github.example';
const api = (p: string) => `/repos/${FULL}${p}`;
const alice: Person = { login: 'alice', association: 'MEMBER' };

// What a shell, the runner's workflow commands, Markdown and HTML would each act on.
const HOSTILE_ARGS = 'use consts `id` $(touch /tmp/wts-rv-pwned)\n::error::args @admin </details>';
const HOSTILE_PATH = 'src/`$(touch /tmp/wts-rv-pwned)`\n::error::path @admin </details>.ts';
const HOSTILE_HUNK =
  '@@ -1,2 +1,2 @@\n-```\n+$(touch /tmp/wts-rv-pwned) `id` ::error::hunk @octocat </details>\r\n::warning::cr';
const HOSTILE_BODY = 'this one ::error::comment\n```\n$(touch /tmp/wts-rv-pwned)\n``` @octocat </details>';
const SEE = 'cp "$SANDBOX_CONTEXT_FILE" context-seen.json && cp "$SANDBOX_PROMPT_FILE" prompt-seen.txt';

let fake: FakeGitHub;
let repos: PullRequestRepos;
let work: string;

beforeEach(async () => {
  fake = await FakeGitHub.start(FULL, TOKEN);
  repos = makePullRequestRepos();
  work = tempDir('wts-review-body-');
  fake.permissions.set('alice', { permission: 'write', role_name: 'write' });
  fake.pulls.set(repos.number, {
    number: repos.number,
    state: 'open',
    headRef: repos.branch,
    headSha: repos.headSha,
    headRepo: FULL,
  });
});

afterEach(async () => {
  await fake.close();
  fs.rmSync(repos.root, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
});

function settingsFor(inputs: Record<string, string>): RunSettings {
  const all: Record<string, string> = {
    command: 'true',
    image: TEST_IMAGE,
    isolation: 'disk',
    'worktree-root': path.join(work, 'sandboxes'),
    'repository-path': repos.parent,
    trigger: '/fix',
    push: 'true',
    token: TOKEN,
    ...inputs,
  };
  return parseSettings((name) => all[name] ?? '', {
    ...process.env,
    GITHUB_SERVER_URL: SERVER,
  }) as RunSettings;
}

async function runBot(payload: unknown, inputs: Record<string, string> = {}) {
  const { io, recorded } = recordingIo({
    eventName: 'pull_request_review',
    payload,
    work,
    repository: FULL,
    apiUrl: fake.url,
    serverUrl: SERVER,
  });
  const outcome = await runForPullRequest(settingsFor(inputs), io);
  return { outcome, ...recorded, shown: everythingShown(recorded) };
}

/** A comment of review `reviewId` on a line of the diff, as the review's list answers it. */
function seedComment(
  reviewId: number,
  id: number,
  fields: { path: string; line: number | null; diffHunk: string; body: string; startLine?: number },
  pr = repos.number,
) {
  fake.reviewComments.set(id, {
    id,
    issue: pr,
    history: [fields.body],
    author: 'alice',
    reviewId,
    ...fields,
  });
}

function seenOnOrigin(ref: string, file: string): string {
  return git(repos.origin, 'show', `${ref}:${file}`);
}

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

    expect(run.outcome?.command.exitCode).toBe(0);
    const pushed = refOf(repos.origin, `refs/heads/${repos.branch}`);
    expect(pushed).toBe(run.outcome?.report.headSha);
    expect(seenOnOrigin(pushed, 'prompt-seen.txt')).toBe(HOSTILE_ARGS);
    const raw = git(repos.origin, 'cat-file', 'blob', `${pushed}:context-seen.json`);
    expect(JSON.parse(raw)).toEqual({
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
    const progress = [...fake.comments.values()];
    expect(progress).toHaveLength(1);
    expect(fake.log).toEqual([
      `GET ${api('/collaborators/alice/permission')}`,
      `GET ${api(`/pulls/${repos.number}`)}`,
      `GET ${api(`/pulls/${repos.number}/reviews/71/comments`)}`,
      `POST ${api(`/issues/${repos.number}/comments`)}`,
      `GET ${api(`/issues/${repos.number}/comments`)}`,
      `GET ${api(`/pulls/${repos.number}/comments`)}`,
      `PATCH ${api(`/issues/comments/${progress[0].id}`)}`,
    ]);
    expect(fake.calls[2].query).toMatchObject({ per_page: '100', page: '1' });
    expect(fake.reactions).toEqual([]);
    expect(fake.reviewReactions).toEqual([]);
    expect(progress[0].issue).toBe(repos.number);
    expect(progress[0].history[0]).toContain('⏳ `/fix` is running');
    expect(progress[0].body).toContain('✅ `/fix` finished');
    expect(run.state.progress).toMatchObject({ commentId: progress[0].id, triggerCommentId: undefined });
    expect(run.outputs).toMatchObject({ triggered: 'true', 'pr-number': '7', args: HOSTILE_ARGS });

    // The body, path, hunk and comment went nowhere else: not the log, the summary, the comment or the API.
    const sent = JSON.stringify(fake.calls.map((c) => c.body ?? {}));
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
    const pushed = refOf(repos.origin, `refs/heads/${repos.branch}`);
    const seen = JSON.parse(seenOnOrigin(pushed, 'context-seen.json')) as {
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
    const reads = fake.calls.filter((c) => c.path === api(`/pulls/${repos.number}/reviews/81/comments`));
    expect(reads.map((c) => c.query.page)).toEqual(['1', '2']);
  });

  it('goes on without the comments when GitHub will not list them, and says so', async () => {
    fake.faults.push({ method: 'GET', path: api(`/pulls/${repos.number}/reviews/91/comments`), status: 404 });
    const run = await runBot(reviewEvent({ body: '/fix', author: alice, reviewId: 91 }), { command: SEE });
    expect(run.outcome?.command.exitCode).toBe(0);
    const pushed = refOf(repos.origin, `refs/heads/${repos.branch}`);
    expect(JSON.parse(seenOnOrigin(pushed, 'context-seen.json'))).toMatchObject({
      comments: [],
      comments_error: expect.stringContaining('fault') as unknown,
    });
    expect(run.warnings.join('\n')).toContain("Could not read the review's comments");
  });

  it("runs on a fork's pull request: the patch is offered, and the progress comment says so", async () => {
    fake.pulls.set(repos.forkNumber, {
      number: repos.forkNumber,
      state: 'open',
      headRef: 'main',
      headSha: repos.forkHeadSha,
      headRepo: 'someone/hello-world',
      headCloneUrl: repos.fork,
      maintainerCanModify: true,
    });
    fake.pushAccess.set('someone/hello-world', false);
    seedComment(95, 951, { path: 'a.ts', line: 1, diffHunk: '@@', body: 'here' }, repos.forkNumber);
    const payload = reviewEvent({
      body: '/fix',
      author: alice,
      reviewId: 95,
      number: repos.forkNumber,
      headRepo: 'someone/hello-world',
    });
    const forkMain = refOf(repos.fork, 'refs/heads/main');
    const run = await runBot(payload, { command: SEE });

    expect(run.outcome?.command.exitCode).toBe(0);
    expect(run.outcome?.push).toMatchObject({ pushed: false });
    expect(refOf(repos.fork, 'refs/heads/main')).toBe(forkMain);
    const patch = fs.readFileSync(run.outputs['patch-path'], 'utf8');
    expect(patch).toContain('+++ b/context-seen.json');
    expect(patch).toContain('"review_id": 95');
    const progress = [...fake.comments.values()];
    expect(progress).toHaveLength(1);
    expect(progress[0].issue).toBe(repos.forkNumber);
    expect(progress[0].body).toContain(
      'not pushed: the pull request comes from the fork someone/hello-world',
    );
    expect(fake.reactions).toEqual([]);
  });
});

describe('who may ask with a review', () => {
  it('refuses an untrusted reviewer without a word to GitHub (a review takes no reaction)', async () => {
    const mallory: Person = { login: 'mallory', association: 'CONTRIBUTOR' };
    const run = await runBot(reviewEvent({ body: '/fix', author: mallory }));
    expect(run.outcome).toBeUndefined();
    expect(fake.calls).toEqual([]);
    expect(run.outputs.triggered).toBe('false');
    expect(readAs(run.summary)).toContain('not allowed: @mallory is CONTRIBUTOR of the repository');
  });

  it('refuses a read-only collaborator after asking the API', async () => {
    fake.permissions.set('rita', { permission: 'read', role_name: 'read' });
    const rita: Person = { login: 'rita', association: 'COLLABORATOR' };
    const run = await runBot(reviewEvent({ body: '/fix', author: rita }));
    expect(run.outcome).toBeUndefined();
    expect(fake.log).toEqual([`GET ${api('/collaborators/rita/permission')}`]);
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
    expect(fake.calls).toEqual([]);
    expect(run.outputs.triggered).toBe('false');
  });
});
