// The pull-request bot with an allow-list: a `/fix` comment's run, through the bundle as the runner runs
// it (uid 1001), honours `network` (a listener counts what reached it) and `credentials` (the key reaches
// its server, set by the proxy; it is in no comment, summary or output, and not in the container).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runMainAndPost } from '../support/action.js';
import { bundleBot } from '../support/bot-bundle.js';
import { availableEngines } from '../support/engines.js';
import {
  addTestHosts,
  ALLOWED,
  bridgeAddress,
  CREDENTIALED,
  DENIED,
  ensureNetImage,
  httpServer,
  httpsServer,
  keyNotFound,
  keySearchLines,
  loadNetImageIntoRootlessPodman,
  testCa,
  type Recorder,
} from '../support/network.js';
import { refOf } from '../support/pull-requests.js';
import { git } from '../support/repo.js';
import { issueCommentEvent } from '../support/webhooks.js';

const ENGINES = availableEngines();
const SECRET = `sk-wsnet-bot-${randomBytes(12).toString('hex')}`;

let image = '';
let caFile = '';
let llm: Recorder;
let allowed: Recorder;
let denied: Recorder;
const keysSeen: string[] = [];
const cleanup: string[] = [];

beforeAll(async () => {
  image = ensureNetImage();
  if (ENGINES.includes('podman')) loadNetImageIntoRootlessPodman();
  addTestHosts(bridgeAddress());
  const test = await testCa();
  caFile = test.file;
  cleanup.push(path.dirname(caFile));
  llm = await httpsServer(test.ca, CREDENTIALED, (req, res) => {
    keysSeen.push(String(req.headers['x-api-key']));
    const ok = req.headers['x-api-key'] === SECRET;
    res.writeHead(ok ? 200 : 401);
    res.end(ok ? 'key accepted\n' : 'bad key\n');
  });
  allowed = await httpServer();
  denied = await httpServer();
}, 240_000);

afterAll(async () => {
  for (const r of [llm, allowed, denied]) await r?.close();
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(ENGINES)('the pull-request bot with an allow-list (%s)', (engine) => {
  const bot = bundleBot('prnet');

  it('runs a /fix comment with only the listed hosts and the key set by the proxy, and pushes the work', async () => {
    const { fake, repos } = bot;
    const event = issueCommentEvent({
      body: '/fix use the model',
      author: { login: 'alice', association: 'MEMBER' },
      commentId: 8642,
    });
    const command = [
      `curl -sS -H 'x-api-key: placeholder' https://${CREDENTIALED}:${llm.port}/ > answer.txt`,
      `curl -sS http://${ALLOWED}:${allowed.port}/ >> answer.txt`,
      `curl -sS -o /dev/null -w 'denied %{http_code}\\n' http://${DENIED}:${denied.port}/`,
      // The comment shows the command's last lines: its whole environment among them.
      'env | sort',
      ...keySearchLines(SECRET),
    ];
    const before = { llm: llm.connections, allowed: allowed.connections, denied: denied.connections };
    const inputs = {
      image,
      engine,
      push: 'true',
      cleanup: 'always',
      network: `${ALLOWED}:${allowed.port}`,
      credentials: `${CREDENTIALED}:${llm.port} x-api-key: ${SECRET}`,
      command: `bash <<'WS_NET_EOF'\n${command.join('\n')}\nWS_NET_EOF`,
    };
    // The proxy checks the test server's certificate as the runner would an internal CA's.
    const step = bot.step('issue_comment', event, inputs, { NODE_EXTRA_CA_CERTS: caFile });
    const { main, post } = await runMainAndPost({ ...step, rootlessPodman: engine === 'podman' });
    expect({ main: main.code, post: post.code }).toEqual({ main: 0, post: 0 });
    expect(main.outputs.triggered).toBe('true');
    expect(main.stdout).toContain('denied 403');
    expect(keyNotFound(main.stdout, SECRET)).toBe(true);
    // What reached the servers: the key's host with the key, the listed host, never the other one.
    expect(keysSeen.slice(-1)).toEqual([SECRET]);
    expect({ llm: llm.connections, allowed: allowed.connections, denied: denied.connections }).toEqual({
      llm: before.llm + 1,
      allowed: before.allowed + 1,
      denied: before.denied,
    });
    // The work came back and was pushed to the pull request's branch.
    const pushed = refOf(repos.origin, `refs/heads/${repos.branch}`);
    expect(pushed).toBe(main.outputs['head-sha']);
    expect(git(repos.origin, '-c', 'safe.directory=*', 'show', `${pushed}:answer.txt`)).toBe(
      `key accepted\nhello from ${ALLOWED}:${allowed.port}`,
    );
    expect(JSON.parse(main.outputs['network-denied'])).toEqual([
      expect.objectContaining({ host: DENIED, port: denied.port, requests: 1 }),
    ]);
    // The comment (with the command's environment in its tail) and everything else the step wrote.
    const comment = [...fake.comments.values()][0];
    expect(comment.body).toContain('✅ `/fix` finished');
    expect(comment.body).toContain('HTTPS_PROXY=http://127.0.0.1:3128');
    for (const text of [
      ...comment.history,
      ...fake.calls.map((c) => JSON.stringify(c)),
      main.summary,
      main.stderr,
      post.stdout,
      post.stderr,
      post.summary,
      JSON.stringify(main.outputs),
      JSON.stringify(main.state),
    ])
      expect(text).not.toContain(SECRET);
    expect(main.stdout.split('\n').filter((l) => l.includes(SECRET))).toEqual([`::add-mask::${SECRET}`]);
    expect(main.summary).toContain('### Network (allow-list)');
  }, 600_000);
});
