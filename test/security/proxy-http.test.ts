// The proxy's HTTP, attacked byte by byte as a hostile command would speak it: the real proxy on its Unix
// socket, real keep-alive servers on this machine (plain, and TLS with a test CA), one of them echoing
// TRACE as Apache does. Each attack is judged by what the servers parsed: no key in clear, no request for
// another host with the key, no second request smuggled in a body, no key echoed back.
// (The same defences through the bundle and a container: test/security/network.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tls from 'node:tls';
import { createRunCa, type RunCa } from '../../src/network/ca.js';
import { parseCredentials, parseNetwork, type ProxiedPolicy } from '../../src/network/policy.js';
import { startProxy, type RunningProxy } from '../../src/network/proxy.js';

const KEY = `sk-strict-${randomBytes(12).toString('hex')}`;

/** One request as a server parsed it. */
interface Parsed {
  method: string;
  url: string;
  hosts: string[];
  key: string | undefined;
}

interface Upstream {
  port: number;
  parsed: Parsed[];
  connections: number;
  close(): Promise<void>;
}

/** Echoes TRACE with the request's head, headers included (Apache's default); answers `ok` otherwise. */
function handler(parsed: Parsed[]) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    const hosts: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      if (req.rawHeaders[i].toLowerCase() === 'host') hosts.push(req.rawHeaders[i + 1]);
    parsed.push({
      method: req.method ?? '',
      url: req.url ?? '',
      hosts,
      key: req.headers['x-api-key'] as string | undefined,
    });
    req.resume();
    req.on('end', () => {
      if (req.method === 'TRACE') {
        const head = [`TRACE ${req.url} HTTP/${req.httpVersion}`];
        for (let i = 0; i < req.rawHeaders.length; i += 2)
          head.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
        res.writeHead(200, { 'content-type': 'message/http' });
        res.end(head.join('\r\n'));
      } else res.end('ok\n');
    });
  };
}

async function upstream(server: http.Server): Promise<Upstream> {
  const parsed: Parsed[] = [];
  const up: Upstream = {
    port: 0,
    parsed,
    connections: 0,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('request', handler(parsed));
  server.on('connection', () => up.connections++);
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  up.port = (server.address() as AddressInfo).port;
  return up;
}

let dir = '';
let serverCa: RunCa;
let runCa: RunCa;
let plain: Upstream;
let secure: Upstream;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-proxy-http-'));
  [serverCa, runCa] = await Promise.all([createRunCa(), createRunCa()]);
  const { key, cert } = await serverCa.leaf('localhost');
  plain = await upstream(http.createServer());
  secure = await upstream(https.createServer({ key, cert }));
}, 120_000);

afterAll(async () => {
  await plain?.close();
  await secure?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function withProxy<T>(credentials: string, fn: (socketPath: string) => Promise<T>): Promise<T> {
  const policy = parseCredentials(
    credentials,
    parseNetwork(`localhost:${plain.port}, localhost:${secure.port}`),
  ) as ProxiedPolicy;
  const socketPath = path.join(dir, `p-${randomBytes(4).toString('hex')}.sock`);
  const proxy: RunningProxy = await startProxy({
    policy,
    socketPath,
    ca: runCa,
    trustedCas: serverCa.certificate,
  });
  try {
    return await fn(socketPath);
  } finally {
    await proxy.close();
  }
}

/** Writes `bytes` on `socket` and reads until the peer closes or `ms` of quiet pass. */
function exchange(socket: net.Socket | tls.TLSSocket, bytes: string, ms = 400): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    let timer = setTimeout(done, ms * 5);
    function done() {
      clearTimeout(timer);
      socket.destroy();
      resolve(out);
    }
    socket.on('data', (d: Buffer) => {
      out += d.toString('latin1');
      clearTimeout(timer);
      timer = setTimeout(done, ms);
    });
    socket.on('close', done);
    socket.on('error', done);
    socket.write(bytes);
  });
}

/** Raw bytes to the proxy itself (the plain path). */
function plainRaw(socketPath: string, bytes: string): Promise<string> {
  return exchange(net.connect({ path: socketPath }), bytes);
}

/** CONNECT to `localhost:port`, TLS with the run's CA on top, then raw bytes inside the tunnel. */
async function tunnelRaw(socketPath: string, port: number, bytes: string): Promise<string> {
  const socket = net.connect({ path: socketPath });
  await new Promise<void>((resolve, reject) => {
    let head = '';
    socket.on('data', function onData(d: Buffer) {
      head += d.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (/^HTTP\/1\.1 200/.test(head)) resolve();
      else reject(new Error(`CONNECT answered ${head.split('\r\n')[0]}`));
    });
    socket.once('error', reject);
    socket.write(`CONNECT localhost:${port} HTTP/1.1\r\nHost: localhost:${port}\r\n\r\n`);
  });
  const secured = tls.connect({ socket, servername: 'localhost', ca: runCa.certificate });
  await new Promise<void>((resolve, reject) => {
    secured.once('secureConnect', resolve);
    secured.once('error', reject);
  });
  return exchange(secured, bytes);
}

const status = (answer: string) => Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0);

/** The requests a server parsed while `fn` ran. */
async function parsedDuring(server: Upstream, fn: () => Promise<unknown>): Promise<Parsed[]> {
  const before = server.parsed.length;
  await fn();
  await new Promise((r) => setTimeout(r, 100));
  return server.parsed.slice(before);
}

describe('a key travels only over TLS', () => {
  it('refuses plain HTTP to a credential host, on its plain port and on its TLS port, with a body that says why', async () => {
    await withProxy(
      `localhost:${plain.port} x-api-key: ${KEY}\nlocalhost:${secure.port} x-api-key: ${KEY}`,
      async (socketPath) => {
        let answer = '';
        const seen = await parsedDuring(plain, async () => {
          answer = await plainRaw(
            socketPath,
            `GET http://localhost:${plain.port}/ HTTP/1.1\r\nHost: localhost:${plain.port}\r\n\r\n`,
          );
        });
        expect(status(answer)).toBe(403);
        expect(answer).toMatch(/sent over TLS only/);
        expect(seen).toEqual([]);
        const connections = secure.connections;
        const onTlsPort = await plainRaw(
          socketPath,
          `GET http://localhost:${secure.port}/ HTTP/1.1\r\nHost: localhost:${secure.port}\r\n\r\n`,
        );
        expect(status(onTlsPort)).toBe(403);
        expect(secure.connections).toBe(connections);
        // Over TLS the same credential is set, once, in place of the command's own.
        const seenTls = await parsedDuring(secure, () =>
          tunnelRaw(
            socketPath,
            secure.port,
            `GET /ok HTTP/1.1\r\nHost: localhost:${secure.port}\r\nx-api-key: placeholder\r\nX-API-KEY: again\r\nConnection: close\r\n\r\n`,
          ),
        );
        expect(seenTls).toEqual([
          { method: 'GET', url: '/ok', hosts: [`localhost:${secure.port}`], key: KEY },
        ]);
      },
    );
  });

  it('sends a header in clear only for a line that names http://, and only to its port', async () => {
    await withProxy(`http://localhost:${plain.port} x-api-key: ${KEY}`, async (socketPath) => {
      const seen = await parsedDuring(plain, () =>
        plainRaw(
          socketPath,
          `GET http://localhost:${plain.port}/internal HTTP/1.1\r\nHost: localhost:${plain.port}\r\nConnection: close\r\n\r\n`,
        ),
      );
      expect(seen).toEqual([
        { method: 'GET', url: '/internal', hosts: [`localhost:${plain.port}`], key: KEY },
      ]);
      // Through a tunnel to the TLS port, the http:// credential is not set (nor is TLS ended).
      const seenTls = await parsedDuring(secure, async () => {
        await tunnelRaw(
          socketPath,
          secure.port,
          `GET / HTTP/1.1\r\nHost: localhost:${secure.port}\r\nConnection: close\r\n\r\n`,
        ).catch(() => '');
      });
      expect(seenTls.map((p) => p.key)).toEqual([]);
    });
  });
});

describe('inside a tunnel to a credential host, requests are rebuilt and for that host only', () => {
  const credential = () => `localhost:${secure.port} x-api-key: ${KEY}`;

  it.each([
    ['an absolute-form target for another host', 'GET http://other.example/steal HTTP/1.1', 'HOST', 421],
    [
      'an https absolute-form target for another host',
      'GET https://other.example/steal HTTP/1.1',
      'HOST',
      421,
    ],
    ['a second Host naming another host', 'GET /steal HTTP/1.1', 'HOST\r\nHost: other.example', 400],
    ['a Host for another host', 'GET /steal HTTP/1.1', 'Host: other.example', 421],
    ['an HTTP/1.0 request without Host', 'GET /steal HTTP/1.0', '', 400],
    ['an HTTP/1.0 request with Host', 'GET /steal HTTP/1.0', 'HOST', 400],
    ['a Host with another port', 'GET /steal HTTP/1.1', 'Host: localhost:1', 421],
  ])('refuses %s, and nothing reaches the server', async (_what, line, hostLines, code) => {
    await withProxy(credential(), async (socketPath) => {
      const headers = hostLines.replace('HOST', `Host: localhost:${secure.port}`);
      let answer = '';
      const seen = await parsedDuring(secure, async () => {
        answer = await tunnelRaw(
          socketPath,
          secure.port,
          `${line}\r\n${headers ? `${headers}\r\n` : ''}Connection: close\r\n\r\n`,
        );
      });
      expect(status(answer)).toBe(code);
      expect(seen).toEqual([]);
    });
  });

  it('sends an absolute-form target for the tunnel host on in origin form, with one Host and only parsed headers', async () => {
    await withProxy(credential(), async (socketPath) => {
      const seen = await parsedDuring(secure, () =>
        tunnelRaw(
          socketPath,
          secure.port,
          `GET https://localhost:${secure.port}/path?q=1 HTTP/1.1\r\nHost: localhost:${secure.port}\r\nConnection: close, x-hidden\r\nX-Hidden: 1\r\nProxy-Authorization: Basic eA==\r\n\r\n`,
        ),
      );
      expect(seen).toEqual([
        { method: 'GET', url: '/path?q=1', hosts: [`localhost:${secure.port}`], key: KEY },
      ]);
    });
  });
});

describe('framing is strict on every path', () => {
  const smuggled = (host: string) => `GET /smuggled HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
  const chunked = (body: string) => `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;

  it.each(['GET', 'DELETE', 'OPTIONS', 'HEAD'])(
    'refuses %s with Transfer-Encoding on the plain path: no second request reaches the server',
    async (method) => {
      await withProxy('', async (socketPath) => {
        let answer = '';
        const seen = await parsedDuring(plain, async () => {
          answer = await plainRaw(
            socketPath,
            `${method} http://localhost:${plain.port}/ HTTP/1.1\r\nHost: localhost:${plain.port}\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(smuggled('denied.example'))}`,
          );
        });
        expect(status(answer)).toBe(400);
        expect(seen).toEqual([]);
      });
    },
  );

  it('refuses GET with Transfer-Encoding inside a tunnel it ends', async () => {
    await withProxy(`localhost:${secure.port} x-api-key: ${KEY}`, async (socketPath) => {
      let answer = '';
      const seen = await parsedDuring(secure, async () => {
        answer = await tunnelRaw(
          socketPath,
          secure.port,
          `GET / HTTP/1.1\r\nHost: localhost:${secure.port}\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(smuggled(`localhost:${secure.port}`))}`,
        );
      });
      expect(status(answer)).toBe(400);
      expect(seen).toEqual([]);
    });
  });

  it('re-frames a chunked POST so that the server parses exactly one request', async () => {
    await withProxy('', async (socketPath) => {
      const seen = await parsedDuring(plain, () =>
        plainRaw(
          socketPath,
          `POST http://localhost:${plain.port}/upload HTTP/1.1\r\nHost: localhost:${plain.port}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunked(smuggled('denied.example'))}`,
        ),
      );
      expect(seen.map((p) => `${p.method} ${p.url}`)).toEqual(['POST /upload']);
    });
  });

  it.each([
    ['Content-Length with Transfer-Encoding', 'Content-Length: 4\r\nTransfer-Encoding: chunked'],
    ['an obsolete line fold', 'X-Folded: a\r\n b'],
    ['a repeated Host', 'Host: denied.example'],
  ])('refuses %s on the plain path', async (_what, extra) => {
    await withProxy('', async (socketPath) => {
      let answer = '';
      const seen = await parsedDuring(plain, async () => {
        answer = await plainRaw(
          socketPath,
          `POST http://localhost:${plain.port}/ HTTP/1.1\r\nHost: localhost:${plain.port}\r\n${extra}\r\n\r\n0\r\n\r\n`,
        );
      });
      expect(status(answer)).toBe(400);
      expect(seen).toEqual([]);
    });
  });
});

describe('TRACE and TRACK are refused on every path', () => {
  it.each(['TRACE', 'TRACK'])('%s over plain HTTP with an http:// credential', async (method) => {
    await withProxy(`http://localhost:${plain.port} x-api-key: ${KEY}`, async (socketPath) => {
      let answer = '';
      const seen = await parsedDuring(plain, async () => {
        answer = await plainRaw(
          socketPath,
          `${method} http://localhost:${plain.port}/ HTTP/1.1\r\nHost: localhost:${plain.port}\r\n\r\n`,
        );
      });
      // TRACE gets the proxy's 405; TRACK is no method Node's parser knows, and gets its 400.
      expect(status(answer)).toBe(method === 'TRACE' ? 405 : 400);
      expect(answer).not.toContain(KEY);
      expect(seen).toEqual([]);
    });
  });

  it.each(['TRACE', 'TRACK'])('%s inside a tunnel to a credential host', async (method) => {
    await withProxy(`localhost:${secure.port} x-api-key: ${KEY}`, async (socketPath) => {
      let answer = '';
      const seen = await parsedDuring(secure, async () => {
        answer = await tunnelRaw(
          socketPath,
          secure.port,
          `${method} / HTTP/1.1\r\nHost: localhost:${secure.port}\r\n\r\n`,
        );
      });
      // TRACE gets the proxy's 405; TRACK is no method Node's parser knows, and gets its 400.
      expect(status(answer)).toBe(method === 'TRACE' ? 405 : 400);
      expect(answer).not.toContain(KEY);
      expect(seen).toEqual([]);
    });
  });
});
