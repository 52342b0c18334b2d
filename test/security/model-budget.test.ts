// The budget fails closed, attacked as an agent that wants more model calls than it was given: through the
// bundle as the runner runs it (uid 1001) on Docker, Node's fetch in the container, against a fake model
// API on this machine that bills every request that reaches it (test/support/billing-api.ts): over TLS
// with its key in `credentials` (a host the proxy meters), and as a plain-HTTP base URL. Each attack is
// judged by what the fake billed:
// - every POST to the metered host counts against max-model-requests, whatever its path;
// - tokens count as the answer reports them: a stream whose message_start crosses max-model-tokens stops
//   the requests sent while it is still open (and is not cut);
// - under max-model-tokens, a request whose usage cannot be read is refused; where the proxy can make it
//   readable, it does (include_usage, alt=proto), and answers of 600 KB events and 3.5 MB are read;
// - a CONNECT to the plain-HTTP host is read as HTTP, never a raw tunnel;
// - the Gemini refusal carries Google's RetryInfo.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runStep } from '../support/action.js';
import { BILLED_USAGE, billingApi, SLOW_INPUT_TOKENS, type Billed } from '../support/billing-api.js';
import { availableEngines } from '../support/engines.js';
import { runnerIds } from '../support/env.js';
import {
  addTestHosts,
  bridgeAddress,
  ensureNetImage,
  httpServer,
  httpsServer,
  testCa,
  type Recorder,
} from '../support/network.js';
import { chownTree, git, makeRepo, type TestRepo } from '../support/repo.js';
import { leftVolumes } from '../support/storage.js';

const ENGINE = 'docker';
const HAVE_DOCKER = availableEngines().includes(ENGINE);
const METERED_HOST = 'billing.ws-net.test';
const CLEAR_HOST = 'clear.ws-net.test';
const KEY = `sk-ant-wsbudget-${randomBytes(12).toString('hex')}`;

let image = '';
let caFile = '';
let metered: Recorder;
let clear: Recorder;
const billedMetered: Billed[] = [];
const billedClear: Billed[] = [];
const cleanup: string[] = [];
const volumes = leftVolumes('netbudget');

// Each call prints one line, `<name>: <status> <body's first 300 characters>` (or `<name>: error …`).
const SCRIPT = `import * as net from 'node:net';
const [base, clearHost] = process.argv.slice(2, 4);
const post = (path, body = {}, headers = {}) =>
  fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const show = async (name, answer) => {
  try {
    const r = await answer;
    console.log(name + ': ' + r.status + ' ' + (await r.text()).slice(0, 300).replace(/\\n/g, ' '));
  } catch (error) {
    console.log(name + ': error ' + error.message);
  }
};
/** Raw bytes through a CONNECT tunnel to the plain-HTTP host: what came back, as text. */
const tunnel = (bytes) => new Promise((resolve) => {
  const s = net.connect(3128, '127.0.0.1');
  let out = '';
  let sent = false;
  const done = () => { s.destroy(); resolve(out.replace(/\\r?\\n/g, ' ').slice(0, 600)); };
  setTimeout(done, 4000);
  s.on('data', (d) => {
    out += d.toString('latin1');
    if (!sent && out.includes('\\r\\n\\r\\n')) { sent = true; s.write(bytes); }
  });
  s.on('close', done);
  s.on('error', done);
  s.write('CONNECT ' + clearHost + ' HTTP/1.1\\r\\nHost: ' + clearHost + '\\r\\n\\r\\n');
});
const msg = { model: 'claude-x', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] };
const plans = {
  // max-model-requests 1: the first request, then every path that used to go uncounted.
  paths: async () => {
    await show('first', post('/v1/messages', msg));
    for (const [name, path] of [
      ['batches', '/v1/messages/batches'],
      ['complete', '/v1/complete'],
      ['completions', '/v1/completions'],
      ['runs', '/v1/threads/runs'],
      ['images', '/v1/images/generations'],
      ['tuned', '/v1beta/tunedModels/mine:generateContent'],
      ['batchgen', '/v1beta/models/g:batchGenerateContent'],
      ['embed', '/v1beta/models/g:embedContent'],
      ['unknown', '/v2/anything-else'],
    ]) await show(name, post(path, {}));
    await show('gemini', post('/v1beta/models/g:generateContent', {}, { 'x-goog-api-key': 'placeholder' }));
    await show('models', fetch(base + '/v1/models'));
    const request = 'POST /v1/messages HTTP/1.1\\r\\nHost: ' + clearHost + '\\r\\nContent-Type: application/json\\r\\nContent-Length: 2\\r\\n\\r\\n{}';
    console.log('tunnel: ' + (await tunnel(request.repeat(4))));
    console.log('websocket: ' + (await tunnel('GET /v1/realtime HTTP/1.1\\r\\nHost: ' + clearHost + '\\r\\nConnection: Upgrade\\r\\nUpgrade: websocket\\r\\nSec-WebSocket-Version: 13\\r\\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\\r\\n\\r\\n')));
  },
  // max-model-tokens below the slow stream's input tokens: 8 requests 2 s into it, while it is open.
  streaming: async () => {
    const slow = await post('/v1/messages', { ...msg, stream: true });
    const reader = slow.body.getReader();
    const decode = new TextDecoder();
    console.log('slowstart: ' + decode.decode((await reader.read()).value).slice(0, 60));
    await new Promise((r) => setTimeout(r, 2000));
    await Promise.all(Array.from({ length: 8 }, (_, i) => show('late' + i, post('/v1/messages', msg))));
    let text = '';
    for (let part = await reader.read(); !part.done; part = await reader.read()) text += decode.decode(part.value);
    console.log('slow: ' + slow.status + ' ' + text.slice(-300).replace(/\\n/g, ' '));
  },
  // A large max-model-tokens: what the proxy makes readable, what it reads, what it refuses.
  readable: async () => {
    await show('chat', post('/v1/chat/completions', { model: 'gpt-x', stream: true, messages: [] }));
    await show('responses', post('/v1/responses', { model: 'gpt-r', stream: true, input: 'hi' }));
    await show('embeddings', post('/v1/embeddings', { model: 'emb-x', input: 'hi' }));
    await show('proto', post('/v1beta/models/g:generateContent?alt=proto', {}, { 'x-goog-api-key': 'placeholder' }));
    await show('count', post('/v1/messages/count_tokens', msg));
    await show('batches', post('/v1/messages/batches', {}));
    await show('after', post('/v1/messages', msg));
  },
};
await plans[process.argv[4]]();
`;

beforeAll(async () => {
  if (!HAVE_DOCKER) return;
  image = ensureNetImage();
  addTestHosts(bridgeAddress(), [METERED_HOST, CLEAR_HOST]);
  const test = await testCa();
  caFile = test.file;
  cleanup.push(path.dirname(caFile));
  metered = await httpsServer(test.ca, METERED_HOST, billingApi(billedMetered));
  clear = await httpServer(billingApi(billedClear));
}, 240_000);

afterAll(async () => {
  for (const r of [metered, clear]) await r?.close();
  await volumes.removeAll();
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
});

function scriptRepo(): TestRepo {
  const repo = makeRepo();
  cleanup.push(repo.root);
  fs.writeFileSync(path.join(repo.parent, 'attack.mjs'), SCRIPT);
  git(repo.parent, 'add', '-A');
  git(repo.parent, 'commit', '--quiet', '-m', 'the attack');
  git(repo.parent, 'push', '--quiet', 'origin', 'main');
  chownTree(repo.root, runnerIds());
  return repo;
}

/** Runs one plan under `limits`; what the step printed and its model-usage output, and what each fake billed. */
async function attack(plan: string, limits: Record<string, string>) {
  const repo = scriptRepo();
  const before = { metered: billedMetered.length, clear: billedClear.length };
  const result = await runStep({
    inputs: {
      mode: 'run',
      image,
      engine: ENGINE,
      'repository-path': repo.parent,
      'volume-prefix': volumes.prefix(ENGINE),
      network: `${CLEAR_HOST}:${clear.port}`,
      credentials: `${METERED_HOST}:${metered.port} x-api-key: ${KEY}`,
      command: `node attack.mjs https://${METERED_HOST}:${metered.port} ${CLEAR_HOST}:${clear.port} ${plan}`,
      ...limits,
    },
    env: { GITHUB_WORKSPACE: repo.parent, NODE_EXTRA_CA_CERTS: caFile },
    asRunner: true,
    timeoutMs: 400_000,
  });
  const lines = new Map([...result.stdout.matchAll(/^(\w+): (.*)$/gm)].map((m) => [m[1], m[2]] as const));
  return {
    ...result,
    lines,
    usage: JSON.parse(result.outputs['model-usage'] ?? '{}') as Record<string, unknown>,
    billed: {
      metered: billedMetered.slice(before.metered).map((b) => `${b.method} ${b.url}`),
      clear: billedClear.slice(before.clear),
    },
    asked: billedMetered.slice(before.metered),
  };
}

(HAVE_DOCKER ? describe : describe.skip)('the model budget fails closed (docker, through the bundle)', () => {
  it('max-model-requests: every POST to the metered host counts, whatever its path; a CONNECT to the plain-HTTP host is read as HTTP; the Gemini refusal carries RetryInfo', async () => {
    const run = await attack('paths', { 'max-model-requests': '1' });
    expect(run.lines.get('first')).toMatch(/^200 /);
    for (const name of [
      'batches',
      'complete',
      'completions',
      'runs',
      'images',
      'tuned',
      'batchgen',
      'embed',
      'unknown',
    ])
      expect(`${name}: ${run.lines.get(name)}`).toMatch(new RegExp(`^${name}: 429 .*max-model-requests 1`));
    // The one request under the cap, and the free listing: nothing else reached the API.
    expect(run.billed.metered).toEqual(['POST /v1/messages', 'GET /v1/models']);
    // Through a CONNECT to the plain-HTTP host: read as HTTP, refused, no raw tunnel; the upgrade is sent
    // on as a plain GET (its Upgrade dropped, as every hop-by-hop header), so no WebSocket.
    expect(run.lines.get('tunnel')).toMatch(/^HTTP\/1\.1 200 .*HTTP\/1\.1 429 /);
    expect(run.lines.get('websocket')).not.toMatch(/ 101 | 426 /);
    expect(run.billed.clear).toEqual([{ method: 'GET', url: '/v1/realtime', includeUsage: false }]);
    const gemini = JSON.parse(run.lines.get('gemini')!.replace(/^429 /, '')) as unknown;
    expect(gemini).toEqual({
      error: {
        code: 429,
        message: expect.stringMatching(/^worktree-sandbox: .*max-model-requests 1/),
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '86400s' }],
      },
    });
    expect(run.usage).toMatchObject({ stopped: { by: 'max-model-requests', requests: 1 }, refused: 14 });
    expect(run.code).toBe(0);
  }, 600_000);

  it('max-model-tokens: a stream whose message_start crosses the cap stops the 8 requests sent while it is open, and is not cut', async () => {
    const run = await attack('streaming', { 'max-model-tokens': String(SLOW_INPUT_TOKENS - 1) });
    expect(run.stdout).toMatch(/^slowstart: event: message_start/m);
    for (let i = 0; i < 8; i++) expect(run.lines.get(`late${i}`)).toMatch(/^429 .*max-model-tokens/);
    expect(run.lines.get('slow')).toMatch(/^200 .*"output_tokens":2.*message_stop/);
    expect(run.billed.metered).toEqual(['POST /v1/messages']);
    expect(run.usage).toMatchObject({
      totals: { requests: 1, inputTokens: SLOW_INPUT_TOKENS, outputTokens: 2 },
      stopped: { by: 'max-model-tokens', requests: 1 },
      refused: 8,
    });
  }, 600_000);

  it('max-model-tokens: the proxy makes usage readable (include_usage, alt=proto), reads answers past the old bounds, refuses what it cannot read, and says how many', async () => {
    const run = await attack('readable', { 'max-model-tokens': '1000000' });
    for (const name of ['chat', 'responses', 'embeddings', 'count', 'after'])
      expect(`${name}: ${run.lines.get(name)}`).toMatch(new RegExp(`^${name}: 200 `));
    expect(run.lines.get('batches')).toMatch(/^429 .*usage/);
    expect(run.billed.metered).toEqual([
      'POST /v1/chat/completions',
      'POST /v1/responses',
      'POST /v1/embeddings',
      'POST /v1beta/models/g:generateContent?alt=json',
      'POST /v1/messages/count_tokens',
      'POST /v1/messages',
    ]);
    expect(run.asked[0].includeUsage).toBe(true);
    const { input, output } = BILLED_USAGE;
    expect(run.usage).toMatchObject({
      totals: { requests: 5, inputTokens: 5 * input, outputTokens: 4 * output, unmetered: 0 },
      refused: 1,
      refusedUnreadable: 1,
    });
    expect(run.summary).toMatch(/1 request\(s\) were refused because their usage could not be read/);
  }, 600_000);
});
