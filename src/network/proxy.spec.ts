// The proxy in process, on its Unix socket, with Node's own HTTP client: its decisions, the credential
// header in clear only for an http:// line, the counts. (Containers and real clients: test/integration/network.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseCredentials, parseNetwork, type ProxiedPolicy } from './policy.js';
import { startProxy, type RunningProxy } from './proxy.js';
import { connectStatus } from '../../test/support/proxy-client.js';

let server: http.Server;
let port = 0;
const seen: Array<{ host?: string; key?: string | string[] }> = [];
let dir = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ host: req.headers.host, key: req.headers['x-api-key'] });
    res.end('hello\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-proxy-spec-'));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

async function withProxy<T>(
  policy: ProxiedPolicy,
  fn: (socketPath: string, p: RunningProxy) => Promise<T>,
): Promise<T> {
  const socketPath = path.join(dir, `p-${Math.random().toString(16).slice(2)}.sock`);
  const proxy = await startProxy({ policy, socketPath });
  try {
    return await fn(socketPath, proxy);
  } finally {
    await proxy.close();
  }
}

function get(
  socketPath: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { socketPath, path: url, headers: { host: new URL(url).host, ...headers }, agent: false },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('startProxy', () => {
  it('forwards what the list allows, refuses the rest, and counts requests and bytes', async () => {
    const policy = parseNetwork(`localhost:${port}`) as ProxiedPolicy;
    await withProxy(policy, async (socketPath, proxy) => {
      expect(await get(socketPath, `http://localhost:${port}/`)).toEqual({ status: 200, body: 'hello\n' });
      expect((await get(socketPath, `http://127.0.0.1:${port}/`)).status).toBe(403);
      expect((await get(socketPath, `http://other.invalid:${port}/`)).status).toBe(403);
      // A Host header naming another host than the URL's: refused, not sent on.
      const before = seen.length;
      expect((await get(socketPath, `http://localhost:${port}/`, { host: 'evil.invalid' })).status).toBe(403);
      expect(seen.length).toBe(before);
      expect(await connectStatus(socketPath, `localhost:${port}`)).toBe(200);
      expect(await connectStatus(socketPath, `127.0.0.1:${port}`)).toBe(403);
      expect(await connectStatus(socketPath, 'localhost:22')).toBe(403);
      await new Promise((r) => setTimeout(r, 50));
      const report = proxy.report();
      expect(report.allowed).toEqual([expect.objectContaining({ host: 'localhost', port, requests: 2 })]);
      expect(report.allowed[0].bytesReceived).toBeGreaterThan(0);
      expect(report.denied.map((d) => `${d.host}:${d.port} ${d.requests}`).sort()).toEqual(
        [`127.0.0.1:${port} 2`, `evil.invalid:${port} 1`, 'localhost:22 1', `other.invalid:${port} 1`].sort(),
      );
    });
  });

  it('sets a credential header in clear only for an http:// line, replacing the one sent, and on no other host', async () => {
    const policy = parseCredentials(
      `http://localhost:${port} x-api-key: the-real-key`,
      parseNetwork(`127.0.0.1:${port}`),
    ) as ProxiedPolicy;
    await withProxy(policy, async (socketPath) => {
      await get(socketPath, `http://localhost:${port}/`, { 'X-Api-Key': 'placeholder' });
      expect(seen.at(-1)).toEqual({ host: `localhost:${port}`, key: 'the-real-key' });
      await get(socketPath, `http://127.0.0.1:${port}/`, { 'x-api-key': 'placeholder' });
      expect(seen.at(-1)).toEqual({ host: `127.0.0.1:${port}`, key: 'placeholder' });
    });
  });

  it('refuses plain HTTP to a host whose credential goes over TLS only, and sends nothing on', async () => {
    const policy = parseCredentials(
      `localhost:${port} x-api-key: the-real-key`,
      parseNetwork('audit'),
    ) as ProxiedPolicy;
    await withProxy(policy, async (socketPath, proxy) => {
      const before = seen.length;
      const answer = await get(socketPath, `http://localhost:${port}/`, { 'X-Api-Key': 'placeholder' });
      expect(answer.status).toBe(403);
      expect(answer.body).toMatch(/sent over TLS only: use https:\/\//);
      expect(seen.length).toBe(before);
      expect(proxy.report().denied).toEqual([expect.objectContaining({ host: 'localhost', port })]);
    });
  });

  it('stops listening when closed', async () => {
    const policy = parseNetwork('audit') as ProxiedPolicy;
    const socketPath = path.join(dir, 'closed.sock');
    const proxy = await startProxy({ policy, socketPath });
    await proxy.close();
    expect(fs.existsSync(socketPath)).toBe(false);
  });
});

describe('a tunnel that is not TLS', () => {
  /**
   * CONNECT, then `bytes` inside the tunnel; what came back within `ms`, or until the socket closed, or,
   * once what came back ends with `last` (the server's whole answer), 100 ms more for anything after it.
   */
  function throughTunnel(socketPath: string, bytes: string, last?: string, ms = 1500): Promise<string> {
    return new Promise((resolve, reject) => {
      const req = http.request({ socketPath, method: 'CONNECT', path: `localhost:${port}`, agent: false });
      req.on('connect', (_res, socket) => {
        let out = '';
        let settling: NodeJS.Timeout | undefined;
        const done = () => {
          clearTimeout(settling);
          clearTimeout(bound);
          socket.destroy();
          resolve(out);
        };
        socket.on('data', (d: Buffer) => {
          out += d.toString('latin1');
          clearTimeout(settling);
          if (last !== undefined && out.endsWith(last)) settling = setTimeout(done, 100);
        });
        const bound = setTimeout(done, ms);
        socket.on('close', done);
        socket.write(bytes);
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('is read as HTTP: its model requests are metered, past the budget refused, an upgrade sent on as a plain GET', async () => {
    const policy = { ...parseNetwork(`localhost:${port}`), modelLimits: { maxRequests: 1, maxTokens: 0 } };
    await withProxy(policy as ProxiedPolicy, async (socketPath, proxy) => {
      const before = seen.length;
      const post = `POST /v1/messages HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Length: 2\r\n\r\n{}`;
      const first = await throughTunnel(socketPath, post, 'hello\n');
      expect(first).toMatch(/^HTTP\/1\.1 200 /);
      expect(first).toContain('hello');
      const past = await throughTunnel(socketPath, post.repeat(4));
      expect(past).toMatch(/^HTTP\/1\.1 429 /);
      const upgrade = await throughTunnel(
        socketPath,
        `GET /ws HTTP/1.1\r\nHost: localhost:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`,
        'hello\n',
      );
      expect(upgrade).toMatch(/^HTTP\/1\.1 200 /);
      expect(upgrade).not.toMatch(/upgrade/i);
      // The first POST and the GET, without its Upgrade: nothing past the budget.
      expect(seen.length - before).toBe(2);
      expect(proxy.report().models).toMatchObject({ totals: { requests: 1 }, refused: 4 });
    });
  });
});
