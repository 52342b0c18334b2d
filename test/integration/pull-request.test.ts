// pull-request: true, end to end in process: a plain run pushes its branch to a real bare origin, then the
// action's one step after the run opens (or updates) the branch's pull request on the fake GitHub, which
// accepts a head only when origin really has that branch.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PULL_REQUEST_MARKER, proposePullRequest } from '../../src/github/pull-request.js';
import { redactionFor } from '../../src/run/redaction.js';
import { runSandbox } from '../../src/run/run.js';
import { parseSettings, type RunSettings } from '../../src/settings/settings.js';
import { silentUi } from '../../src/ui/ui.js';
import { TEST_IMAGE } from '../support/env.js';
import { FakeGitHub } from '../support/fake-github.js';
import { refOf } from '../support/pull-requests.js';
import { git, makeRepo, type TestRepo } from '../support/repo.js';
import { REPO } from '../support/webhooks.js';

const TOKEN = 'ghs_fakeTokenForPullRequests0123';
const FULL = `${REPO.owner}/${REPO.name}`;
const api = (p: string) => `/repos/${FULL}${p}`;

let fake: FakeGitHub;
let repo: TestRepo;

beforeEach(async () => {
  fake = await FakeGitHub.start(FULL, TOKEN);
  repo = makeRepo();
  fake.origin = repo.origin;
});

afterEach(async () => {
  await fake.close();
  fs.rmSync(repo.root, { recursive: true, force: true });
});

function settingsFor(inputs: Record<string, string>): RunSettings {
  const all: Record<string, string> = {
    image: TEST_IMAGE,
    isolation: 'disk',
    'worktree-root': path.join(repo.root, 'sandboxes'),
    'repository-path': repo.parent,
    branch: 'feature-greeting',
    push: 'true',
    'pull-request': 'true',
    token: TOKEN,
    ...inputs,
  };
  return parseSettings((name) => all[name] ?? '', {
    ...process.env,
    GITHUB_SERVER_URL: 'https://github.com',
  }) as RunSettings;
}

/** What action.ts does in plain run mode: the run, then the one pull-request step. */
async function runAndPropose(inputs: Record<string, string>) {
  const settings = settingsFor(inputs);
  const outcome = await runSandbox(settings, { ui: silentUi, save: () => undefined });
  const outputs: Record<string, string> = {};
  const debug: string[] = [];
  const result = await proposePullRequest(settings, outcome, {
    ui: silentUi,
    debug: (m) => debug.push(m),
    env: { GITHUB_REPOSITORY: FULL, GITHUB_API_URL: fake.url },
    setOutput: (name, value) => (outputs[name] = value),
    summary: async () => undefined,
    api: { delayScale: 0.001 },
    redaction: redactionFor(settings),
  });
  return { outcome, outputs, result, debug };
}

describe('pull-request: true', () => {
  it('opens a pull request for a newly pushed branch, then updates the same one on the next run', async () => {
    const first = await runAndPropose({
      command: 'echo hello > greeting.txt',
      'commit-message': 'feat: greet',
      author: 'Ada Lovelace <ada@example.com>',
      'pull-request-title': 'Greet the reader',
      'pull-request-body': 'Adds **greeting.txt**.',
      'pull-request-draft': 'true',
      'pull-request-labels': 'bot, good first issue',
    });

    expect(first.outcome.push).toEqual({ pushed: true });
    const head = refOf(repo.origin, 'refs/heads/feature-greeting');
    expect(git(repo.origin, 'log', '-1', '--format=%an <%ae>|%cn <%ce>|%s', head)).toBe(
      'Ada Lovelace <ada@example.com>|github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>|feat: greet',
    );
    const created = fake.calls.find((c) => c.method === 'POST' && c.path === api('/pulls'));
    expect(created?.body).toEqual({
      head: 'feature-greeting',
      base: 'main',
      title: 'Greet the reader',
      body: `Adds **greeting.txt**.\n\n${PULL_REQUEST_MARKER}\n`,
      draft: true,
    });
    expect(fake.log).toEqual([
      `GET ${api('/pulls')}`,
      `GET ${api('')}`, // the default branch, as base
      `POST ${api('/pulls')}`,
      `POST ${api('/issues/100/labels')}`,
    ]);
    const pr = fake.pulls.get(100)!;
    expect(pr).toMatchObject({ headRef: 'feature-greeting', headSha: head, draft: true });
    expect(pr.labels).toEqual(['bot', 'good first issue']);
    expect(first.outputs).toEqual({
      'pull-request-number': '100',
      'pull-request-url': `https://github.com/${FULL}/pull/100`,
      'pull-request-operation': 'created',
    });

    fake.calls.length = 0;
    const second = await runAndPropose({
      command: 'echo again >> greeting.txt',
      'pull-request-title': 'Greet the reader twice',
      'pull-request-labels': 'bot',
    });
    expect(second.outcome.push).toEqual({ pushed: true });
    expect(fake.pulls.size).toBe(1);
    expect(fake.log).toEqual([
      `GET ${api('/pulls')}`,
      `PATCH ${api('/pulls/100')}`,
      `POST ${api('/issues/100/labels')}`,
    ]);
    expect(fake.pulls.get(100)!.title).toBe('Greet the reader twice');
    expect(second.outputs['pull-request-operation']).toBe('updated');
    expect(second.outputs['pull-request-number']).toBe('100');
  });

  it("leaves someone else's pull request of the branch as it is, and reports it", async () => {
    git(repo.parent, 'push', '--quiet', 'origin', 'main:refs/heads/feature-greeting');
    fake.pulls.set(41, {
      number: 41,
      state: 'open',
      headRef: 'feature-greeting',
      headSha: refOf(repo.origin, 'refs/heads/feature-greeting'),
      headRepo: FULL,
      title: 'Human title',
      body: 'Written by a person.',
    });
    const run = await runAndPropose({ command: 'echo hi > greeting.txt' });
    expect(run.outcome.push).toEqual({ pushed: true });
    expect(fake.log).toEqual([`GET ${api('/pulls')}`]);
    expect(fake.pulls.get(41)!.title).toBe('Human title');
    expect(run.outputs).toMatchObject({ 'pull-request-number': '41', 'pull-request-operation': 'unchanged' });
  });

  it('does not use a pull request GitHub lists whose head is another branch: it opens one for the pushed branch', async () => {
    git(repo.parent, 'push', '--quiet', 'origin', 'main:refs/heads/other-branch');
    // This action's own pull request of another branch: were the list answer used unchecked, it would be
    // rewritten with this run's title and body.
    fake.pulls.set(41, {
      number: 41,
      state: 'open',
      headRef: 'other-branch',
      headSha: refOf(repo.origin, 'refs/heads/other-branch'),
      headRepo: FULL,
      title: 'Other work',
      body: `Other work.\n\n${PULL_REQUEST_MARKER}\n`,
    });
    const forged = {
      number: 41,
      state: 'open',
      body: `Other work.\n\n${PULL_REQUEST_MARKER}\n`,
      html_url: `https://github.com/${FULL}/pull/41`,
      head: { ref: 'other-branch', sha: 'a'.repeat(40), repo: { full_name: FULL } },
      base: { ref: 'main', repo: { full_name: FULL } },
    };
    fake.faults.push({ method: 'GET', path: api('/pulls'), status: 200, body: [forged] });
    const run = await runAndPropose({ command: 'echo hi > greeting.txt', 'pull-request-title': 'Greet' });
    expect(run.outcome.push).toEqual({ pushed: true });
    expect(fake.log).toEqual([`GET ${api('/pulls')}`, `GET ${api('')}`, `POST ${api('/pulls')}`]);
    expect(fake.pulls.get(41)).toMatchObject({ title: 'Other work', headRef: 'other-branch' });
    expect(fake.pulls.get(100)).toMatchObject({ headRef: 'feature-greeting', title: 'Greet' });
    expect(run.outputs).toMatchObject({ 'pull-request-number': '100', 'pull-request-operation': 'created' });
  });

  it('opens it against the base input when it names a branch', async () => {
    git(repo.parent, 'push', '--quiet', 'origin', 'main:refs/heads/release');
    const run = await runAndPropose({ command: 'echo hi > greeting.txt', base: 'origin/release' });
    expect(run.result.operation).toBe('created');
    expect(fake.log).toEqual([`GET ${api('/pulls')}`, `POST ${api('/pulls')}`]);
    expect(fake.pulls.get(100)!.base).toBe('release');
  });

  it('opens nothing when nothing was pushed, without calling GitHub', async () => {
    const run = await runAndPropose({ command: 'true' });
    expect(run.outcome.push?.pushed).toBe(false);
    expect(fake.calls).toEqual([]);
    expect(run.outputs).toEqual({
      'pull-request-number': '',
      'pull-request-url': '',
      'pull-request-operation': 'none',
    });
    expect(run.debug[0]).toMatch(/^Pull request: skip \(the branch was not pushed/);
  });
});
