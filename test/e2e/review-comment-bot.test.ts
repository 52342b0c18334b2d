// The bundle (dist/index.js) as the runner runs it, as the runner user, for a /fix on a line of a pull
// request's diff whose path and hunk are hostile: they reach the command through $SANDBOX_CONTEXT_FILE
// byte for byte, and nothing of them reaches the step's stdout (where the runner obeys workflow commands),
// the job summary or GitHub. Main then post, as on a runner.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import { runMainAndPost } from '../support/action.js';
import { removeVolumes, uniquePrefix } from '../support/docker.js';
import { runnerIds, TEST_IMAGE } from '../support/env.js';
import { FakeGitHub } from '../support/fake-github.js';
import { makePullRequestRepos, refOf, type PullRequestRepos } from '../support/pull-requests.js';
import { git, tempDir } from '../support/repo.js';
import { REPO, reviewCommentEvent, writeEvent } from '../support/webhooks.js';

const TOKEN = 'ghs_e2eReviewToken0123456789abcd';
const FULL = `${REPO.owner}/${REPO.name}`;
const HOSTILE_PATH = 'docs/`$(touch /tmp/wts-e2e-rc-pwned)`\n::error::path @admin </details>.md';
const HOSTILE_HUNK = '@@ -1 +1 @@\r\n::error::hunk\n-$(id) `x` @octocat </details>';

let fake: FakeGitHub;
let repos: PullRequestRepos;
let events: string;
let prefix: string;

beforeAll(async () => {
  fake = await FakeGitHub.start(FULL, TOKEN);
  repos = makePullRequestRepos({ owner: runnerIds() });
  events = tempDir('wts-event-');
  prefix = uniquePrefix('rcbot');
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

describe('the bundle on a pull_request_review_comment event', () => {
  it('gives the command the hostile path and hunk as data only, and answers in the review thread', async () => {
    const payload = reviewCommentEvent({
      body: '/fix rename it',
      author: { login: 'alice', association: 'MEMBER' },
      commentId: 4100,
      path: HOSTILE_PATH,
      line: 1,
      diffHunk: HOSTILE_HUNK,
    });
    fake.reviewComments.set(4100, {
      id: 4100,
      issue: 7,
      body: '/fix rename it',
      history: [],
      author: 'alice',
    });
    const { main, post } = await runMainAndPost({
      asRunner: true,
      inputs: {
        image: TEST_IMAGE,
        'repository-path': repos.parent,
        'volume-prefix': prefix,
        trigger: '/fix',
        token: TOKEN,
        command: 'cp "$SANDBOX_CONTEXT_FILE" context-seen.json',
        push: 'true',
        cleanup: 'always',
      },
      env: {
        GITHUB_EVENT_NAME: 'pull_request_review_comment',
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
    const seen = JSON.parse(
      git(repos.origin, '-c', 'safe.directory=*', 'cat-file', 'blob', `${pushed}:context-seen.json`),
    ) as { path: string; diff_hunk: string };
    expect(seen.path).toBe(HOSTILE_PATH);
    expect(seen.diff_hunk).toBe(HOSTILE_HUNK);
    expect(fs.existsSync('/tmp/wts-e2e-rc-pwned')).toBe(false);

    const reply = [...fake.reviewComments.values()].find((c) => c.inReplyTo === 4100)!;
    expect(reply.body).toContain('✅ `/fix` finished');
    expect(fake.reviewReactions.map((r) => r.content)).toEqual(['eyes', 'rocket']);
    const everything = [main.stdout, main.stderr, post.stdout, main.summary, JSON.stringify(fake.calls)];
    for (const text of everything) {
      expect(text).not.toMatch(/^::error::(path|hunk)/m);
      expect(text).not.toContain('wts-e2e-rc-pwned');
      expect(text).not.toContain('</details>.md');
    }
  });
});
