// The bundle (dist/index.js) as the runner runs it, as the runner user, for a review submitted with /fix
// whose body and comment (path, hunk, body) are hostile: they reach the command through
// $SANDBOX_CONTEXT_FILE and $SANDBOX_PROMPT_FILE byte for byte, and nothing of them reaches the step's
// stdout (where the runner obeys workflow commands), the job summary or GitHub. Main then post, as on a runner.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import { runMainAndPost } from '../support/action.js';
import { removeVolumes, uniquePrefix } from '../support/docker.js';
import { runnerIds, TEST_IMAGE } from '../support/env.js';
import { FakeGitHub } from '../support/fake-github.js';
import { makePullRequestRepos, refOf, type PullRequestRepos } from '../support/pull-requests.js';
import { git, tempDir } from '../support/repo.js';
import { REPO, reviewEvent, writeEvent } from '../support/webhooks.js';

const TOKEN = 'ghs_e2eReviewBodyToken0123456789';
const FULL = `${REPO.owner}/${REPO.name}`;
const HOSTILE_ARGS = 'rename `x` $(touch /tmp/wts-e2e-rv-pwned)\n::error::args @admin </details>';
const HOSTILE_PATH = 'docs/`$(touch /tmp/wts-e2e-rv-pwned)`\n::error::path @admin </details>.md';
const HOSTILE_HUNK = '@@ -1 +1 @@\r\n::error::hunk\n-$(id) `x` @octocat </details>';
const HOSTILE_BODY = '::error::comment\r\n$(touch /tmp/wts-e2e-rv-pwned) @octocat </details>';

let fake: FakeGitHub;
let repos: PullRequestRepos;
let events: string;
let prefix: string;

beforeAll(async () => {
  fake = await FakeGitHub.start(FULL, TOKEN);
  repos = makePullRequestRepos({ owner: runnerIds() });
  events = tempDir('wts-event-');
  prefix = uniquePrefix('rvbot');
  fake.pulls.set(repos.number, {
    number: repos.number,
    state: 'open',
    headRef: repos.branch,
    headSha: repos.headSha,
    headRepo: FULL,
  });
  fake.permissions.set('alice', { permission: 'write', role_name: 'write' });
});

afterAll(async () => {
  await fake.close();
  removeVolumes(prefix);
  fs.rmSync(repos.root, { recursive: true, force: true });
  fs.rmSync(events, { recursive: true, force: true });
});

describe('the bundle on a pull_request_review event', () => {
  it('gives the command the hostile body and comment as data only, and reports on the pull request', async () => {
    fake.reviewComments.set(4200, {
      id: 4200,
      issue: 7,
      body: HOSTILE_BODY,
      history: [],
      author: 'alice',
      reviewId: 420,
      path: HOSTILE_PATH,
      line: 1,
      diffHunk: HOSTILE_HUNK,
    });
    const payload = reviewEvent({
      body: `/fix ${HOSTILE_ARGS}`,
      author: { login: 'alice', association: 'MEMBER' },
      reviewId: 420,
      state: 'changes_requested',
    });
    const { main, post } = await runMainAndPost({
      asRunner: true,
      inputs: {
        image: TEST_IMAGE,
        'repository-path': repos.parent,
        'volume-prefix': prefix,
        trigger: '/fix',
        token: TOKEN,
        command: 'cp "$SANDBOX_CONTEXT_FILE" context-seen.json && cp "$SANDBOX_PROMPT_FILE" prompt-seen.txt',
        push: 'true',
        cleanup: 'always',
      },
      env: {
        GITHUB_EVENT_NAME: 'pull_request_review',
        GITHUB_EVENT_PATH: writeEvent(events, payload),
        GITHUB_REPOSITORY: FULL,
        GITHUB_API_URL: fake.url,
        GITHUB_SERVER_URL: 'https://ghes.example',
        GITHUB_RUN_ID: '99',
        GITHUB_WORKSPACE: repos.parent,
      },
    });
    expect({ main: main.code, post: post.code }).toEqual({ main: 0, post: 0 });

    const pushed = refOf(repos.origin, `refs/heads/${repos.branch}`);
    const show = (file: string) =>
      git(repos.origin, '-c', 'safe.directory=*', 'cat-file', 'blob', `${pushed}:${file}`);
    const seen = JSON.parse(show('context-seen.json')) as {
      body: string;
      state: string;
      comments: Array<{ path: string; diff_hunk: string; body: string }>;
    };
    expect(seen.body).toBe(`/fix ${HOSTILE_ARGS}`);
    expect(seen.state).toBe('changes_requested');
    expect(seen.comments).toMatchObject([
      { path: HOSTILE_PATH, diff_hunk: HOSTILE_HUNK, body: HOSTILE_BODY },
    ]);
    expect(show('prompt-seen.txt')).toBe(HOSTILE_ARGS);
    expect(fs.existsSync('/tmp/wts-e2e-rv-pwned')).toBe(false);

    const progress = [...fake.comments.values()];
    expect(progress).toHaveLength(1);
    expect(progress[0].body).toContain('✅ `/fix` finished');
    expect(fake.reactions).toEqual([]);
    expect(fake.reviewReactions).toEqual([]);
    const everything = [main.stdout, main.stderr, post.stdout, main.summary, JSON.stringify(fake.calls)];
    for (const text of everything) {
      expect(text).not.toMatch(/^::error::(args|path|hunk|comment)/m);
      expect(text).not.toContain('wts-e2e-rv-pwned');
      expect(text).not.toContain('</details>.md');
      expect(text).not.toContain('@octocat </details>');
      expect(text).not.toContain('@admin');
    }
  });
});
