// The pull-request bot in process (runForPullRequest), set up once for every test file that drives it: a
// fake GitHub API that knows the repository, real git repositories (a bare origin, a fork, the parent; a
// copy of the file's own for each test, or one for the file where a follow-up needs the first run's branch
// and sandbox) and a work folder, made and removed around each test, the run's settings as the action parses
// them, and its outside world recorded. A test file states only its event, its inputs and what it expects.
import { afterAll, afterEach, beforeAll, beforeEach, expect } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PullRequestRunState } from '../../src/github/feedback.js';
import { runForPullRequest, type PrRunOutcome } from '../../src/github/pr-run.js';
import { redactionFor } from '../../src/run/redaction.js';
import { parseSettings, type RunSettings } from '../../src/settings/settings.js';
import { everythingShown, recordingIo } from './bot-io.js';
import { decodedText } from './cmark.js';
import { TEST_IMAGE } from './env.js';
import { FakeGitHub, type FakeReviewComment } from './fake-github.js';
import { copyPullRequestRepos, makePullRequestRepos, refOf, type PullRequestRepos } from './pull-requests.js';
import { git, tempDir, type TestRepo } from './repo.js';
import { REPO, type Person } from './webhooks.js';

export const TOKEN = 'ghs_fakeTokenForTests0123456789';
export const FULL = `${REPO.owner}/${REPO.name}`;
export const SERVER = 'https://github.example';
/** A path of the repository's API, as the fake records it. */
export const api = (p: string) => `/repos/${FULL}${p}`;
/** A member with write access (each test's fake grants it). */
export const alice: Person = { login: 'alice', association: 'MEMBER' };
/** Keeps what the command was given, committed, so that origin holds what it saw. */
export const KEEP_WHAT_IT_SAW =
  'cp "$SANDBOX_CONTEXT_FILE" context-seen.json && cp "$SANDBOX_PROMPT_FILE" prompt-seen.txt';

/** What a reader sees of text the action rendered inert (character references, zero-width breaks). */
export const readAs = (text: string) => decodedText(text).replace(/[\u200b\u200d]/g, '');

export interface BotOptions<R extends TestRepo> {
  /** The work folder's name prefix (sandboxes, the event file, RUNNER_TEMP). */
  work: string;
  /** This file's inputs over the common ones (command `true`, a disk sandbox, trigger /fix, push). */
  inputs?: Record<string, string>;
  /** The repositories; default makePullRequestRepos, with its same-repository pull request open. */
  repos?: () => R;
  /** Make them once for the file rather than once per test. */
  reposOnce?: boolean;
  /** What the fake knows besides alice's write access, before each test. */
  each?: (fake: FakeGitHub, repos: R) => void;
}

export interface BotRunOptions {
  inputs?: Record<string, string>;
  /** Called with the state each time the run saves it (as the post step would find it). */
  onSave?: (state: Partial<PullRequestRunState>) => void;
}

/** The fixture of the current test; its fields are read in tests, after the hooks have made them. */
export class InProcessBot<R extends TestRepo> {
  fake!: FakeGitHub;
  repos!: R;
  work!: string;

  constructor(private readonly options: BotOptions<R>) {}

  settingsFor(inputs: Record<string, string> = {}): RunSettings {
    const all: Record<string, string> = {
      command: 'true',
      image: TEST_IMAGE,
      isolation: 'disk',
      'worktree-root': path.join(this.work, 'sandboxes'),
      'repository-path': this.repos.parent,
      trigger: '/fix',
      push: 'true',
      token: TOKEN,
      ...this.options.inputs,
      ...inputs,
    };
    // As on the runner: the default commit identity is taken from the server's address.
    return parseSettings((name) => all[name] ?? '', {
      ...process.env,
      GITHUB_SERVER_URL: SERVER,
    }) as RunSettings;
  }

  /** One run of the bot on `payload`, with the run's own redaction, as the action starts it. */
  async run(eventName: string, payload: unknown, options: BotRunOptions = {}) {
    const settings = this.settingsFor(options.inputs);
    const { io, recorded } = recordingIo({
      eventName,
      payload,
      work: this.work,
      repository: FULL,
      apiUrl: this.fake.url,
      serverUrl: SERVER,
      redaction: redactionFor(settings),
      onSave: options.onSave,
    });
    const outcome = await runForPullRequest(settings, io);
    return { outcome, ...recorded, shown: everythingShown(recorded) };
  }

  /** `file` as origin holds it at `ref`. */
  show(ref: string, file: string): string {
    return git(this.repos.origin, 'show', `${ref}:${file}`);
  }

  /**
   * What a run that kept what it saw (KEEP_WHAT_IT_SAW) pushed: the head of the pull request's branch,
   * checked to be the run's, and the files it kept there.
   */
  keptOnOrigin(run: { outcome?: PrRunOutcome }): { pushed: string; prompt: string; context: unknown } {
    expect(run.outcome?.command.exitCode).toBe(0);
    const pushed = this.head();
    expect(pushed).toBe(run.outcome?.report.headSha);
    const context = JSON.parse(this.show(pushed, 'context-seen.json')) as unknown;
    return { pushed, prompt: this.show(pushed, 'prompt-seen.txt'), context };
  }

  /** The commit a branch names on origin; by default the pull request's head branch. */
  head(branch = (this.repos as Partial<PullRequestRepos>).branch): string {
    return refOf(this.repos.origin, `refs/heads/${branch}`);
  }

  /** The progress comments and every other comment on the conversation, oldest first. */
  comments() {
    return [...this.fake.comments.values()];
  }

  /**
   * A comment already on the pull request's diff (by alice, unless said), as the lists of review comments
   * answer it: of the conversation, of its thread (`inReplyTo`), of its review (`reviewId`).
   */
  reviewComment(
    comment: Omit<FakeReviewComment, 'issue' | 'history' | 'author'> & { issue?: number; author?: string },
  ) {
    const issue = comment.issue ?? (this.repos as Partial<PullRequestRepos>).number!;
    this.fake.reviewComments.set(comment.id, { author: 'alice', history: [comment.body], ...comment, issue });
  }

  /** The bot's reply in the thread of review comment `id`. */
  replyTo(id: number): FakeReviewComment {
    return [...this.fake.reviewComments.values()].find((c) => c.inReplyTo === id)!;
  }
}

/** The same-repository pull request, open, as the fake API answers it. */
export function samePullOpen(fake: FakeGitHub, repos: PullRequestRepos): void {
  const { number, branch: headRef, headSha } = repos;
  fake.pulls.set(number, { number, state: 'open', headRef, headSha, headRepo: FULL });
}

/** The fork's pull request, open, its author allowing edits; `canPush`: whether the token reaches the fork. */
export function forkPullOpen(fake: FakeGitHub, repos: PullRequestRepos, canPush: boolean): void {
  const { forkNumber: number, forkHeadSha: headSha, fork: headCloneUrl } = repos;
  const headRepo = 'someone/hello-world';
  const pull = { number, state: 'open' as const, headRef: 'main', headSha, headRepo, headCloneUrl };
  fake.pulls.set(number, { ...pull, maintainerCanModify: true });
  fake.pushAccess.set(headRepo, canPush);
}

/** The bot of a test file whose repositories are a pull request's (see BotOptions). */
export function inProcessBot(options: BotOptions<PullRequestRepos>): InProcessBot<PullRequestRepos>;
/** The bot of a test file with repositories of its own making. */
export function inProcessBot<R extends TestRepo>(
  options: BotOptions<R> & { repos: () => R },
): InProcessBot<R>;
export function inProcessBot<R extends TestRepo>(options: BotOptions<R>): InProcessBot<R> {
  const bot = new InProcessBot<R>(options);
  const pullRequests = !options.repos;
  // A pull request's repositories are made once for the file, and each test works in a copy of its own.
  let template: PullRequestRepos;
  if (pullRequests) {
    beforeAll(() => void (template = makePullRequestRepos()));
    afterAll(() => fs.rmSync(template.root, { recursive: true, force: true }));
  }
  const makeRepos = () => {
    bot.repos = options.repos ? options.repos() : (copyPullRequestRepos(template) as TestRepo as R);
    bot.work = tempDir(options.work);
  };
  const removeRepos = () => {
    fs.rmSync(bot.repos.root, { recursive: true, force: true });
    fs.rmSync(bot.work, { recursive: true, force: true });
  };
  if (options.reposOnce) {
    beforeAll(makeRepos);
    afterAll(removeRepos);
  }
  beforeEach(async () => {
    if (!options.reposOnce) makeRepos();
    bot.fake = await FakeGitHub.start(FULL, TOKEN);
    bot.fake.permissions.set('alice', { permission: 'write', role_name: 'write' });
    if (pullRequests) samePullOpen(bot.fake, bot.repos as TestRepo as PullRequestRepos);
    options.each?.(bot.fake, bot.repos);
  });
  afterEach(async () => {
    await bot.fake.close();
    if (!options.reposOnce) removeRepos();
  });
  return bot;
}
