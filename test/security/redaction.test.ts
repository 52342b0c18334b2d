// One list of known secrets, one redaction on every way out GitHub does not mask (the comment, the job
// summary, the outputs), through the bundle as the runner runs it (uid 1001, Docker), judged by what the
// fake GitHub API received and what the step's files hold:
// - a credential host that echoes the request hands the command its key; the command prints it (as
//   written, base64, hex), names a file with it, puts it in its reply, and fails;
// - a fork's inline patch holds a credentials value and an env secret, in a file and a commit message;
// - the log tail holds a credential of a well-known format no input names: the scan masks it, the summary
//   names it, and the run does not fail for it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runMainAndPost, type StepResult } from '../support/action.js';
import { removeVolumes, uniquePrefix } from '../support/docker.js';
import { runnerIds, TEST_IMAGE } from '../support/env.js';
import { FakeGitHub } from '../support/fake-github.js';
import {
  addTestHosts,
  ALLOWED,
  bridgeAddress,
  CREDENTIALED,
  ensureNetImage,
  httpsServer,
  testCa,
  type Recorder,
} from '../support/network.js';
import { makePullRequestRepos, type PullRequestRepos } from '../support/pull-requests.js';
import { tempDir } from '../support/repo.js';
import { issueCommentEvent, REPO, writeEvent } from '../support/webhooks.js';

const TOKEN = 'ghs_redactFakeToken0123456789abcdef';
const FULL = `${REPO.owner}/${REPO.name}`;
const KEY = `sk-wsredact-${randomBytes(12).toString('hex')}`;
const DEPLOY_KEY = `deploy-${randomBytes(10).toString('hex')}`;
// A GitHub token's shape, put together by the command's shell: this file holds none whole.
const GH_PARTS = ['ghp', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'];
const GH_SHAPED = GH_PARTS.join('_');

/** Every form of a value the scan knows, as the command can print it. */
function formsOf(value: string): string[] {
  const bytes = Buffer.from(value);
  return [value, bytes.toString('base64').replace(/=+$/, ''), bytes.toString('hex')];
}

let image = '';
let caFile = '';
let echo: Recorder;
let fake: FakeGitHub;
let repos: PullRequestRepos;
let events: string;
const prefixes: string[] = [];
const cleanup: string[] = [];

beforeAll(async () => {
  image = ensureNetImage();
  addTestHosts(bridgeAddress());
  const test = await testCa();
  caFile = test.file;
  cleanup.push(path.dirname(caFile));
  // A debugging endpoint: it answers with the request's headers, the key the proxy set among them.
  echo = await httpsServer(test.ca, CREDENTIALED, (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`${JSON.stringify(req.headers)}\n`);
  });
}, 240_000);

afterAll(async () => {
  await echo?.close();
  for (const p of prefixes) removeVolumes(p);
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
});

async function botRun(
  command: string,
  inputs: Record<string, string>,
  pull: 'same' | 'fork',
): Promise<{ main: StepResult; post: StepResult }> {
  fake = await FakeGitHub.start(FULL, TOKEN);
  repos = makePullRequestRepos({ owner: runnerIds() });
  events = tempDir('wts-event-');
  cleanup.push(repos.root, events);
  const prefix = uniquePrefix('redact');
  prefixes.push(prefix);
  if (pull === 'same')
    fake.pulls.set(repos.number, {
      number: repos.number,
      state: 'open',
      headRef: repos.branch,
      headSha: repos.headSha,
      headRepo: FULL,
    });
  else {
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
  }
  fake.permissions.set('alice', { permission: 'write', role_name: 'maintain' });
  const event = issueCommentEvent({
    body: '/fix',
    author: { login: 'alice', association: 'MEMBER' },
    number: pull === 'same' ? repos.number : repos.forkNumber,
    commentId: 5150,
  });
  try {
    return await runMainAndPost({
      asRunner: true,
      inputs: {
        image: TEST_IMAGE,
        engine: 'docker',
        'repository-path': repos.parent,
        'volume-prefix': prefix,
        trigger: '/fix',
        token: TOKEN,
        cleanup: 'always',
        command,
        ...inputs,
      },
      env: {
        GITHUB_EVENT_NAME: 'issue_comment',
        GITHUB_EVENT_PATH: writeEvent(events, event),
        GITHUB_REPOSITORY: FULL,
        GITHUB_API_URL: fake.url,
        GITHUB_SERVER_URL: 'https://ghes.example',
        GITHUB_RUN_ID: '99',
        GITHUB_WORKSPACE: repos.parent,
        NODE_EXTRA_CA_CERTS: caFile,
      },
    });
  } finally {
    await fake.close();
  }
}

/** Everything that left where GitHub masks nothing: every body sent to the API, the summaries, the outputs. */
function whatLeft(main: StepResult, post: StepResult): string[] {
  return [
    ...[...fake.comments.values()].flatMap((c) => c.history),
    ...fake.calls.map((c) => JSON.stringify(c.body ?? {})),
    main.summary,
    post.summary,
    JSON.stringify(main.outputs),
    JSON.stringify(post.outputs),
  ];
}

function expectNone(texts: readonly string[], values: readonly string[]): void {
  for (const value of values)
    for (const text of texts) {
      // The form's middle: a cut or a mask at either end would not make a leak of it clean.
      expect(text).not.toContain(value.slice(2, -2));
    }
}

describe('one redaction on every way out (Docker, uid 1001)', () => {
  it('a key an echoing credential host hands the command reaches no comment, summary or output', async () => {
    const command = [
      `curl -sS https://${CREDENTIALED}:${echo.port}/ > /tmp/echo.json`,
      'cat /tmp/echo.json',
      `KEY=$(sed -n 's/.*"x-api-key":"\\([^"]*\\)".*/\\1/p' /tmp/echo.json)`,
      'echo "as written: $KEY"',
      `echo "base64: $(printf %s "$KEY" | base64 -w0)"`,
      `echo "hex: $(printf %s "$KEY" | od -An -tx1 | tr -d ' \\n')"`,
      'touch "named-$KEY.txt"',
      'printf "the key is %s\\n" "$KEY" > "$SANDBOX_REPLY_FILE"',
      'exit 3',
    ];
    const { main, post } = await botRun(
      `bash <<'WS_EOF'\n${command.join('\n')}\nWS_EOF`,
      {
        image,
        network: `${ALLOWED}:9`,
        credentials: `${CREDENTIALED}:${echo.port} x-api-key: ${KEY}`,
        // The reply goes on with a warning: the redaction alone stands between it and the comment.
        'secret-scan': 'warn',
      },
      'same',
    );
    expect(main.code).toBe(1);
    expect(post.code).toBe(0);
    // The command did get the key, and printed it: the log holds it, masked by the runner, which was
    // told before the command ran.
    expect(main.stdout).toContain(`as written: ${KEY}`);
    const lines = main.stdout.split('\n');
    const masked = lines.indexOf(`::add-mask::${KEY}`);
    expect(masked).toBeGreaterThanOrEqual(0);
    expect(masked).toBeLessThan(lines.findIndex((l) => l.includes(`as written: ${KEY}`)));

    const comment = [...fake.comments.values()][0];
    expect(comment.body).toContain('❌ `/fix` failed');
    expect(comment.body).toContain('as written: ***');
    expect(comment.body).toContain('base64: ***');
    expect(comment.body).toContain('hex: ***');
    expect(comment.body).toMatch(/named-\*\*\*\.txt/); // "Files changed"
    expect(comment.body).toContain('the key is ***'); // the reply
    expect(main.outputs.reply).toMatch(/^the key is \*\*\*\n?$/);
    expect(main.outputs['diff-stat']).toContain('named-***.txt');
    expect(main.summary).toContain('the key is ***');
    expectNone(whatLeft(main, post), [...formsOf(KEY), TOKEN]);
  }, 600_000);

  it("a fork's inline patch holding a credentials value and an env secret is shown redacted", async () => {
    const [a, b] = [KEY.slice(0, 10), KEY.slice(10)];
    const command = [
      `printf 'key=%s%s\\ndeploy=%s\\n' ${a} ${b} "$DEPLOY_KEY" > src/leak.txt`,
      'git add src/leak.txt',
      `git -c user.name=bot -c user.email=bot@example.com commit --quiet -m "add the key $(printf %s%s ${a} ${b})" -m "and $DEPLOY_KEY"`,
    ].join(' && ');
    const { main, post } = await botRun(
      command,
      {
        push: 'true',
        env: `DEPLOY_KEY=${DEPLOY_KEY}`,
        network: 'api.example.com',
        credentials: `api.example.com X-Key: ${KEY}`,
        // The patch is saved and shown with a warning: the redaction alone keeps the values out.
        'secret-scan': 'warn',
      },
      'fork',
    );
    expect({ main: main.code, post: post.code }).toEqual({ main: 0, post: 0 });
    expect(main.outputs['patch-path']).toBeTruthy();
    const comment = [...fake.comments.values()][0];
    expect(comment.body).toContain('<pre lang="diff">\nFrom ');
    expect(comment.body).toContain('+key=***');
    expect(comment.body).toContain('+deploy=***');
    expect(comment.body).toContain('Subject: [PATCH] add the key ***');
    expect(comment.body).toContain('and ***');
    expectNone(whatLeft(main, post), [KEY, DEPLOY_KEY, TOKEN]);
  }, 600_000);

  it('a secret the scan finds in the log tail is masked and named in the summary; the run does not fail', async () => {
    const command = `printf 'using token %s_%s for the demo\\n' ${GH_PARTS[0]} ${GH_PARTS[1]}; echo done`;
    const { main, post } = await botRun(command, {}, 'same');
    expect({ main: main.code, post: post.code }).toEqual({ main: 0, post: 0 });
    const comment = [...fake.comments.values()][0];
    expect(comment.body).toContain('✅ `/fix` finished');
    expect(comment.body).toContain('using token *** for the demo');
    expect(main.summary).toMatch(
      /The log tail held a secret \(`@secretlint\/secretlint-rule-github \([A-Z_]+\)`\): masked in the comment\./,
    );
    expect(main.stdout).toMatch(
      /::warning::Secret scan of the log tail: @secretlint\/secretlint-rule-github/,
    );
    expectNone(whatLeft(main, post), [GH_SHAPED]);
  }, 600_000);
});
