// The API client against the fake GitHub on 127.0.0.1: transient faults are ridden out, lasting ones are
// not retried. Pauses are scaled down through the client's `delayScale` option, not slept for real.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { FakeGitHub } from '../../test/support/fake-github.js';
import { Redaction } from '../run/redaction.js';
import { connectGitHub, isHeadOf, type GitHubApi } from './api.js';

const TOKEN = 'ghs_fakeTokenForApiTests012345';
const FULL = 'octo-org/hello-world';
const PULL = `/repos/${FULL}/pulls/7`;

let fake: FakeGitHub;
let api: GitHubApi;
let warnings: string[];

beforeEach(async () => {
  fake = await FakeGitHub.start(FULL, TOKEN);
  fake.pulls.set(7, { number: 7, state: 'open', headRef: 'fix', headSha: 'a'.repeat(40), headRepo: FULL });
  warnings = [];
  api = await connectGitHub(
    TOKEN,
    fake.url,
    { owner: 'octo-org', repo: 'hello-world' },
    Redaction.of([{ name: 'token', value: TOKEN }]),
    { delayScale: 0.001, warn: (m) => warnings.push(m) },
  );
});

afterEach(async () => {
  await fake.close();
});

describe('GitHub API calls survive transient faults', () => {
  it('retries a 502 and gets the answer', async () => {
    fake.faults.push({ method: 'GET', path: PULL, status: 502, body: { message: 'Bad Gateway' } });
    const pr = await api.pullRequest(7);
    expect(pr.headRef).toBe('fix');
    expect(fake.calls.map((c) => `${c.status} ${c.method} ${c.path}`)).toEqual([
      `502 GET ${PULL}`,
      `200 GET ${PULL}`,
    ]);
  });

  it('retries a connection dropped without an answer (ECONNRESET)', async () => {
    fake.faults.push({ method: 'GET', path: PULL, drop: true }, { method: 'GET', path: PULL, status: 503 });
    expect((await api.pullRequest(7)).number).toBe(7);
    expect(fake.calls.map((c) => c.status)).toEqual([-1, 503, 200]);
  });

  it('gives up after its retries, with the last error', async () => {
    for (let i = 0; i < 4; i++) fake.faults.push({ method: 'GET', path: PULL, status: 500 });
    await expect(api.pullRequest(7)).rejects.toMatchObject({ status: 500 });
    expect(fake.calls).toHaveLength(4); // the call and 3 retries
  });

  it('waits out a secondary rate limit as long as retry-after says, then retries the write', async () => {
    fake.faults.push({
      method: 'POST',
      path: `/repos/${FULL}/issues/7/comments`,
      status: 403,
      headers: { 'retry-after': '60' },
      body: {
        message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
      },
    });
    const started = Date.now();
    const id = await api.createComment(7, 'hello');
    expect(Date.now() - started).toBeGreaterThanOrEqual(60); // 60 s at the test's 1/1000 scale
    expect(fake.comments.get(id)?.body).toBe('hello');
    expect(fake.calls.map((c) => c.status)).toEqual([403, 201]);
    expect(warnings).toEqual([
      expect.stringMatching(
        /secondary rate limit hit POST \/repos\/{owner}\/{repo}\/issues\/{issue_number}\/comments: waiting 60 s/,
      ),
    ]);
  });

  it('does not retry a rate limit whose reset is too far away', async () => {
    const reset = Math.floor(Date.now() / 1000) + 3600;
    fake.faults.push({
      method: 'GET',
      path: PULL,
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
      body: { message: 'API rate limit exceeded' },
    });
    await expect(api.pullRequest(7)).rejects.toMatchObject({ status: 403 });
    expect(fake.calls).toHaveLength(1);
    expect(warnings[0]).toMatch(/primary rate limit stopped GET .*: not retried/);
  });

  it('does not retry a 404 or a 422', async () => {
    await expect(api.pullRequest(99)).rejects.toMatchObject({ status: 404 });
    expect(await api.permission('nobody')).toEqual({ permission: 'none' });
    fake.faults.push({ method: 'POST', path: `/repos/${FULL}/pulls`, status: 422 });
    await expect(
      api.createPullRequest({ head: 'x', base: 'main', title: 't', body: 'b', draft: false }),
    ).rejects.toMatchObject({ status: 422 });
    expect(fake.calls.map((c) => c.status)).toEqual([404, 404, 422]);
  });
});

describe('a pull request GitHub lists is checked before it is used', () => {
  const listed = (head: { ref: string; repo: { full_name: string } | null }) => [
    {
      number: 66,
      state: 'open',
      body: 'forged',
      html_url: `https://github.com/${FULL}/pull/66`,
      head: { ...head, sha: 'b'.repeat(40) },
      base: { ref: 'main', repo: { full_name: FULL } },
    },
  ];

  it('uses the listed one whose head is the branch of this repository', async () => {
    expect(await api.openPullRequestFor('fix')).toEqual({
      number: 7,
      htmlUrl: `https://github.com/${FULL}/pull/7`,
      body: '',
    });
    // the fake filters as GitHub does: a branch nobody proposes lists nothing
    expect(await api.openPullRequestFor('other')).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it.each([
    ['another branch', { ref: 'main', repo: { full_name: FULL } }],
    ['the same branch of a fork', { ref: 'fix', repo: { full_name: 'evil/hello-world' } }],
    ['a head whose repository was deleted', { ref: 'fix', repo: null }],
  ])('does not use one whose head is %s, and says so', async (_, head) => {
    fake.faults.push({ method: 'GET', path: `/repos/${FULL}/pulls`, status: 200, body: listed(head) });
    expect(await api.openPullRequestFor('fix')).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^GitHub listed pull request 66 as the open one of octo-org:fix, but its head is .*: not used\.$/,
    );
  });

  it('compares branches exactly and repositories without regard to case', () => {
    expect(isHeadOf({ ref: 'fix', repo: 'Octo-Org/Hello-World' }, 'fix', FULL)).toBe(true);
    expect(isHeadOf({ ref: 'Fix', repo: FULL }, 'fix', FULL)).toBe(false);
    expect(isHeadOf({ ref: 'fix', repo: undefined }, 'fix', FULL)).toBe(false);
    expect(isHeadOf({ ref: ['fix'], repo: FULL }, 'fix', FULL)).toBe(false);
  });
});

describe('every request passes the redaction', () => {
  it('masks the token and known secrets in whatever a call sends, bodies and titles alike', async () => {
    const id = await api.createComment(7, `log: ${TOKEN} and ${Buffer.from(TOKEN).toString('base64')}`);
    await api.updateComment(id, `again ${TOKEN}`);
    await api.createPullRequest({
      head: 'other',
      base: 'main',
      title: `t ${TOKEN}`,
      body: TOKEN,
      draft: false,
    });
    const sent = fake.calls.filter((c) => c.method !== 'GET').map((c) => JSON.stringify(c.body));
    expect(sent).toHaveLength(3);
    for (const body of sent) {
      expect(body).not.toContain(TOKEN);
      expect(body).not.toContain(Buffer.from(TOKEN).toString('base64').slice(4, 30));
      expect(body).toContain('***');
    }
    expect(fake.comments.get(id)?.history).toEqual(['log: *** and ***', 'again ***']);
    // The token still authorises the calls: the headers are the client's own.
    expect(fake.calls.every((c) => c.authorization === `token ${TOKEN}`)).toBe(true);
  });
});
