// The bundle (dist/index.js) as the runner runs it, as the unprivileged runner user, on events that do not
// ask for the pull-request bot: plain run mode, whatever the event. With pull-request: true it opens a pull
// request on a fake GitHub Enterprise Server for the branch it pushed to a real bare origin.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import { runMainAndPost, runStep } from '../support/action.js';
import { removeVolumes, uniquePrefix } from '../support/docker.js';
import { runnerIds, TEST_IMAGE } from '../support/env.js';
import { FakeGitHub } from '../support/fake-github.js';
import { makePullRequestRepos, refOf, type PullRequestRepos } from '../support/pull-requests.js';
import { git, tempDir } from '../support/repo.js';
import { pushEvent, REPO, writeEvent } from '../support/webhooks.js';

const TOKEN = 'ghs_e2ePullRequestToken0123456789';
const FULL = `${REPO.owner}/${REPO.name}`;

let fake: FakeGitHub;
let repos: PullRequestRepos;
let events: string;
let prefix: string;

beforeEach(async () => {
  fake = await FakeGitHub.start(FULL, TOKEN);
  repos = makePullRequestRepos({ owner: runnerIds() });
  fake.origin = repos.origin;
  events = tempDir('wts-event-');
  prefix = uniquePrefix('prbundle');
});

afterEach(async () => {
  await fake.close();
  removeVolumes(prefix);
  fs.rmSync(repos.root, { recursive: true, force: true });
  fs.rmSync(events, { recursive: true, force: true });
});

function env(eventName: string, payload: unknown) {
  return {
    GITHUB_EVENT_NAME: eventName,
    GITHUB_EVENT_PATH: writeEvent(events, payload),
    GITHUB_REPOSITORY: FULL,
    GITHUB_API_URL: fake.url,
    GITHUB_SERVER_URL: 'https://ghes.example',
    GITHUB_RUN_ID: '77',
    GITHUB_WORKSPACE: repos.parent,
  };
}

describe('the bundle in plain run mode', () => {
  it('treats a push as plain run mode on `branch`, and opens a pull request for the branch it pushed', async () => {
    const push = pushEvent({ ref: `refs/heads/${repos.branch}`, pusher: { login: 'dave' } });
    const { main, post } = await runMainAndPost({
      asRunner: true,
      inputs: {
        image: TEST_IMAGE,
        'repository-path': repos.parent,
        'volume-prefix': prefix,
        branch: 'bot/greeting',
        command: 'echo hello > greeting.txt',
        push: 'true',
        cleanup: 'always',
        'pull-request': 'true',
        'pull-request-title': 'Greet the reader',
        'pull-request-labels': 'bot',
        token: TOKEN,
      },
      env: env('push', push),
    });
    expect({ main: main.code, post: post.code }).toEqual({ main: 0, post: 0 });

    // Plain run mode: no gate, no progress comment, no permission call; only the pull-request step.
    const api = (p: string) => `/repos/${FULL}${p}`;
    expect(fake.log).toEqual([
      `GET ${api('/pulls')}`,
      `GET ${api('')}`,
      `POST ${api('/pulls')}`,
      `POST ${api('/issues/100/labels')}`,
    ]);
    expect(main.outputs.triggered).toBeUndefined();
    const head = refOf(repos.origin, 'refs/heads/bot/greeting');
    expect(main.outputs['head-sha']).toBe(head);
    expect(fake.pulls.get(100)).toMatchObject({
      headRef: 'bot/greeting',
      headSha: head,
      base: 'main',
      title: 'Greet the reader',
      labels: ['bot'],
    });
    expect(main.outputs['pull-request-number']).toBe('100');
    expect(main.outputs['pull-request-url']).toBe(`https://github.com/${FULL}/pull/100`);
    expect(main.outputs['pull-request-operation']).toBe('created');
    // The default identity on an Enterprise Server: the bot, on that server's no-reply domain.
    expect(git(repos.origin, '-c', 'safe.directory=*', 'log', '-1', '--format=%an <%ae>|%ce', head)).toBe(
      'github-actions[bot] <github-actions[bot]@users.noreply.ghes.example>|github-actions[bot]@users.noreply.ghes.example',
    );
    expect(main.stdout).toContain(
      '::debug::Run kind: plain run mode (push without pull-request-bot: plain run mode).',
    );
  });

  it('fails the step when pull-request-bot asks for the bot on an event it does not serve', async () => {
    const result = await runStep({
      asRunner: true,
      inputs: {
        image: TEST_IMAGE,
        'repository-path': repos.parent,
        'volume-prefix': prefix,
        command: 'true',
        'pull-request-bot': 'true',
        token: TOKEN,
      },
      env: env('schedule', { schedule: '17 3 * * *' }),
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('::error::pull-request-bot: true on schedule');
    expect(fake.calls).toEqual([]);
  });
});
