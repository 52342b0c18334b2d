// The pull-request bot through the bundle (dist/index.js) as the runner runs it, as the unprivileged runner
// user, set up once for every test file that drives it: a fake GitHub Enterprise Server that knows the
// repository and its open pull request, real repositories owned by the runner user (a copy of the file's own
// for each test), the event payload where GITHUB_EVENT_PATH points, and a volume prefix of the test's own,
// made before each test and removed after it. A test file states only its event, its inputs and what it
// expects.
import { afterAll, afterEach, beforeAll, beforeEach } from '@jest/globals';
import * as fs from 'node:fs';
import type { StepOptions } from './action.js';
import { samePullOpen } from './bot.js';
import { removeVolumes, uniquePrefix } from './docker.js';
import { runnerIds, TEST_IMAGE } from './env.js';
import { FakeGitHub } from './fake-github.js';
import { copyPullRequestRepos, makePullRequestRepos, type PullRequestRepos } from './pull-requests.js';
import { git, tempDir } from './repo.js';
import { REPO, writeEvent } from './webhooks.js';

export const TOKEN = 'ghs_e2eFakeToken0123456789abcdef';
export const FULL = `${REPO.owner}/${REPO.name}`;
export const MARKER = '<!-- worktree-sandbox:progress -->';

/** The fixture of the current test; its fields are read in tests, after the hooks have made them. */
export class BundleBot {
  fake!: FakeGitHub;
  repos!: PullRequestRepos;
  events!: string;
  prefix!: string;

  /**
   * The step for `payload` as the runner user, with the common inputs (the test image, the parent, the
   * test's volume prefix, trigger /fix, the token) under `inputs`, and the runner's variables under `env`.
   */
  step(
    eventName: string,
    payload: unknown,
    inputs: Record<string, string>,
    env: Record<string, string> = {},
  ) {
    return {
      asRunner: true,
      inputs: {
        image: TEST_IMAGE,
        'repository-path': this.repos.parent,
        'volume-prefix': this.prefix,
        trigger: '/fix',
        token: TOKEN,
        ...inputs,
      },
      env: {
        GITHUB_EVENT_NAME: eventName,
        GITHUB_EVENT_PATH: writeEvent(this.events, payload),
        GITHUB_REPOSITORY: FULL,
        GITHUB_API_URL: this.fake.url,
        GITHUB_SERVER_URL: 'https://ghes.example',
        GITHUB_RUN_ID: '99',
        GITHUB_WORKSPACE: this.repos.parent,
        ...env,
      },
    } satisfies StepOptions;
  }

  /** `file` as origin holds it at `ref`; by default at the head of the pull request's branch. */
  show(file: string, ref = `refs/heads/${this.repos.branch}`): string {
    return git(this.repos.origin, '-c', 'safe.directory=*', 'show', `${ref}:${file}`);
  }

  /** The comments the fake holds, oldest first: the progress comment and any a test put there. */
  comments() {
    return [...this.fake.comments.values()];
  }
}

/** The bot of a test file (or of a describe block); `label` names its volumes. */
export function bundleBot(label: string): BundleBot {
  const bot = new BundleBot();
  // The repositories are made once for the file, and each test works in a copy of its own.
  let template: PullRequestRepos;
  beforeAll(() => void (template = makePullRequestRepos()));
  afterAll(() => fs.rmSync(template.root, { recursive: true, force: true }));
  beforeEach(async () => {
    bot.fake = await FakeGitHub.start(FULL, TOKEN);
    bot.repos = copyPullRequestRepos(template, { owner: runnerIds() });
    bot.events = tempDir('wts-event-');
    bot.prefix = uniquePrefix(label);
    samePullOpen(bot.fake, bot.repos);
    bot.fake.permissions.set('alice', { permission: 'write', role_name: 'maintain' });
  });
  afterEach(async () => {
    await bot.fake.close();
    removeVolumes(bot.prefix);
    fs.rmSync(bot.repos.root, { recursive: true, force: true });
    fs.rmSync(bot.events, { recursive: true, force: true });
  });
  return bot;
}
