// The run's model budget, alone and in the proxy: plain-HTTP requests to a model API are metered as their
// answers pass (JSON and streamed), and once a limit is reached the proxy answers 429 in the API's own
// format, without the server upstream seeing the request. (The official SDKs, in a container, through the
// bundle: test/e2e/model-usage.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { ModelMeter } from './model-meter.js';
import { parseNetwork, type ProxiedPolicy } from './policy.js';
import { startProxy } from './proxy.js';

describe('ModelMeter', () => {
  const usage = (input: number, output: number) => ({
    status: 200,
    scanned: { usage: { input, output, cacheRead: 0, cacheWrite: 0 }, overBound: false, model: 'm' },
  });

  it('admits max-model-requests requests, then refuses every one and says when it stopped', () => {
    const meter = new ModelMeter({ maxRequests: 2, maxTokens: 0 });
    expect(meter.admit()).toBeUndefined();
    expect(meter.admit()).toBeUndefined();
    expect(meter.admit()).toMatch(/max-model-requests 2/);
    expect(meter.admit()).toMatch(/max-model-requests 2/);
    expect(meter.report()).toMatchObject({ refused: 2, stopped: { by: 'max-model-requests', requests: 2 } });
  });

  it('refuses once the tokens recorded reach max-model-tokens (input plus output), over every host', () => {
    const meter = new ModelMeter({ maxRequests: 0, maxTokens: 100 });
    expect(meter.admit()).toBeUndefined();
    meter.record('a.test', 443, 'anthropic', usage(40, 20));
    expect(meter.admit()).toBeUndefined();
    meter.record('b.test', 80, 'openai', usage(30, 10));
    expect(meter.admit()).toMatch(/100 tokens used of max-model-tokens 100/);
    expect(meter.report()).toMatchObject({
      totals: { requests: 2, inputTokens: 70, outputTokens: 30, unmetered: 0 },
      stopped: { by: 'max-model-tokens', requests: 2, tokens: 100 },
      refused: 1,
    });
  });

  it('has no limit at 0, and counts a 2xx answer without usage as unmetered', () => {
    const meter = new ModelMeter();
    for (let i = 0; i < 1000; i++) expect(meter.admit()).toBeUndefined();
    meter.record('a.test', 443, 'openai', { status: 200, scanned: { overBound: true } });
    meter.record('a.test', 443, 'openai', { status: 500 });
    expect(meter.report().rows).toEqual([expect.objectContaining({ model: '', requests: 2, unmetered: 1 })]);
  });
});

describe('ModelMeter fails closed', () => {
  const tokens = (input: number, output: number) => ({ input, output, cacheRead: 0, cacheWrite: 0 });

  it('counts an answer still streaming: its usage so far refuses the next request, and is not counted twice', () => {
    const meter = new ModelMeter({ maxRequests: 0, maxTokens: 100 });
    expect(meter.admit()).toBeUndefined();
    const open = meter.open('a.test', 443, 'anthropic');
    open.update(tokens(60, 1));
    expect(meter.admit()).toBeUndefined();
    open.update(tokens(99, 1));
    expect(meter.admit()).toMatch(/100 tokens used of max-model-tokens 100/);
    open.done({ status: 200, scanned: { usage: tokens(99, 5), overBound: false } });
    open.update(tokens(1000, 1000));
    expect(meter.report()).toMatchObject({
      totals: { requests: 1, inputTokens: 99, outputTokens: 5 },
      stopped: { by: 'max-model-tokens', requests: 2, tokens: 100 },
      refused: 1,
    });
  });

  it('under max-model-tokens, refuses a request whose usage cannot be read, and counts it apart', () => {
    const meter = new ModelMeter({ maxRequests: 0, maxTokens: 100 });
    expect(meter.admit('a message batch reports no usage')).toMatch(
      /refused under max-model-tokens 100: a message batch reports no usage/,
    );
    expect(meter.admit()).toBeUndefined();
    expect(meter.report()).toMatchObject({ refused: 1, refusedUnreadable: 1 });
    expect(meter.report().stopped).toBeUndefined();
    // Without a token cap, it is counted against the requests and sent.
    const counting = new ModelMeter({ maxRequests: 1, maxTokens: 0 });
    expect(counting.admit('why')).toBeUndefined();
    expect(counting.admit('why')).toMatch(/max-model-requests 1/);
  });

  it('under max-model-tokens, refuses every request once an answer could not be read (none, or past the bound)', () => {
    for (const scanned of [undefined, { overBound: true, usage: tokens(1, 1) }]) {
      const meter = new ModelMeter({ maxRequests: 0, maxTokens: 1000 });
      expect(meter.admit()).toBeUndefined();
      meter.open('a.test', 443, 'openai').done({ status: 200, scanned });
      expect(meter.admit()).toMatch(/token count is unknown: 1 answer\(s\)/);
      expect(meter.report()).toMatchObject({ totals: { unmetered: 1 }, stopped: { by: 'max-model-tokens' } });
    }
  });
});

describe('the proxy meters plain-HTTP model APIs and enforces the budget', () => {
  let server: http.Server;
  let port = 0;
  let seen = 0;
  let dir = '';
  /** Ends the answer the slow route holds open: the test says when, not a clock. */
  let endSlow: (() => void) | undefined;
  const STREAM = [
    'event: message_start\ndata: {"type":"message_start","message":{"model":"claude-fake","usage":{"input_tokens":12,"output_tokens":1}}}\n\n',
    'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":"hi"}}\n\n',
    'event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":30}}\n\n',
  ];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen++;
      req.resume();
      req.on('end', () => {
        if (req.url === '/slow/v1/messages') {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(STREAM[0]);
          endSlow = () => res.end(STREAM.slice(1).join(''));
        } else if (req.url === '/v1/messages' && req.headers['accept-encoding'] === 'identity') {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          // Split mid-line, in separate writes.
          const all = STREAM.join('');
          res.write(all.slice(0, 50));
          setTimeout(() => res.end(all.slice(50)), 20);
        } else if (req.url === '/v1/chat/completions') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ model: 'gpt-fake', usage: { prompt_tokens: 5, completion_tokens: 3 } }));
        } else res.end('not metered');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-meter-spec-'));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** `onData` is told of each piece of the answer as the client gets it. */
  const post = (
    socketPath: string,
    url: string,
    onData?: () => void,
  ): Promise<{ status: number; body: string; retry?: string }> =>
    new Promise((resolve, reject) => {
      const req = http.request(
        {
          socketPath,
          method: 'POST',
          path: url,
          headers: { host: new URL(url).host, 'content-type': 'application/json', 'accept-encoding': 'gzip' },
          agent: false,
        },
        (res) => {
          let body = '';
          res.on('data', (d: Buffer) => {
            body += d.toString();
            onData?.();
          });
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body, retry: res.headers['x-should-retry'] as string }),
          );
        },
      );
      req.on('error', reject);
      req.end('{"model":"x"}');
    });

  it('counts a stream as it reports: its message_start past max-model-tokens refuses a request while it is open', async () => {
    const policy: ProxiedPolicy = {
      ...(parseNetwork(`localhost:${port}`) as ProxiedPolicy),
      modelLimits: { maxRequests: 0, maxTokens: 10 },
    };
    const socketPath = path.join(dir, 'slow.sock');
    const proxy = await startProxy({ policy, socketPath });
    try {
      const base = `http://localhost:${port}`;
      // Once the client has its message_start, the proxy has passed it on, so it has counted it.
      let started: () => void = () => undefined;
      const firstPiece = new Promise<void>((resolve) => (started = resolve));
      const slow = post(socketPath, `${base}/slow/v1/messages`, () => started());
      await firstPiece;
      const before = seen;
      expect((await post(socketPath, `${base}/v1/chat/completions`)).status).toBe(429);
      expect(seen).toBe(before);
      endSlow!();
      expect((await slow).body).toBe(STREAM.join(''));
      expect(proxy.report().models).toMatchObject({
        totals: { requests: 1, inputTokens: 12, outputTokens: 30 },
        stopped: { by: 'max-model-tokens', tokens: 13 },
      });
    } finally {
      await proxy.close();
    }
  });

  it('reports the usage the server sent, then answers 429 itself past max-model-requests', async () => {
    const policy: ProxiedPolicy = {
      ...(parseNetwork(`localhost:${port}`) as ProxiedPolicy),
      modelLimits: { maxRequests: 3, maxTokens: 0 },
    };
    const socketPath = path.join(dir, 'p.sock');
    const proxy = await startProxy({ policy, socketPath });
    try {
      const base = `http://localhost:${port}`;
      const streamed = await post(socketPath, `${base}/v1/messages`);
      expect(streamed.status).toBe(200);
      expect(streamed.body).toBe(STREAM.join(''));
      expect((await post(socketPath, `${base}/v1/chat/completions`)).status).toBe(200);
      expect((await post(socketPath, `${base}/v1/other`)).body).toBe('not metered');
      expect((await post(socketPath, `${base}/v1/chat/completions`)).status).toBe(200);
      const before = seen;
      const refused = await post(socketPath, `${base}/v1/messages`);
      expect(refused).toMatchObject({ status: 429, retry: 'false' });
      expect(JSON.parse(refused.body)).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
      const openai = await post(socketPath, `${base}/v1/chat/completions`);
      expect(JSON.parse(openai.body)).toMatchObject({ error: { code: 'insufficient_quota' } });
      // The same API under other spellings of its path, which a server would route alike.
      for (const variant of [
        '//v1//messages/',
        '/V1/Messages?beta=true',
        '/v1/x/../messages',
        '/v1/%6Dessages',
      ])
        expect((await post(socketPath, `${base}${variant}`)).status).toBe(429);
      // Not metered: still sent.
      expect((await post(socketPath, `${base}/v1/other`)).body).toBe('not metered');
      expect(seen).toBe(before + 1);
      const { models } = proxy.report();
      expect(models).toMatchObject({
        totals: { requests: 3, inputTokens: 22, outputTokens: 36, unmetered: 0 },
        stopped: { by: 'max-model-requests', requests: 3 },
        refused: 6,
      });
      expect(models?.rows.map((r) => [r.model, r.requests, r.inputTokens, r.outputTokens])).toEqual([
        ['claude-fake', 1, 12, 30],
        ['gpt-fake', 2, 10, 6],
      ]);
    } finally {
      await proxy.close();
    }
  });
});
