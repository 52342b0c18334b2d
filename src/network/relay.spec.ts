// The byte path of the allow-list without containers: the forwarder's own script (run by Node as the
// sidecar runs it) on a TCP port, the proxy on its Unix socket, a server on this machine. Large transfers
// arrive byte-exact both ways, through a CONNECT tunnel (TLS, which the relay carries as it is) and as
// plain HTTP; a reader that stalls holds the sender back (bytes in flight bounded); a tunnel to a closed
// port gets a 502. (Containers: test/integration/network.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tls from 'node:tls';
import { createRunCa, type RunCa } from './ca.js';
import { EventEmitter } from 'node:events';
import { FORWARDER_SCRIPT } from './forwarder.js';
import { parseNetwork, type ProxiedPolicy } from './policy.js';
import { startProxy, type RunningProxy } from './proxy.js';
import { connectStatus } from '../../test/support/proxy-client.js';
import { relayReads, RELAY_LARGE_BYTES, RELAY_SMALL_BYTES } from './relay.js';

const MiB = 1024 * 1024;
/** A download or upload this size must arrive exactly. */
const BIG = 48 * MiB;
/** While the reader stalls, the server may have written at most this much (socket buffers and relays). */
const STALL_BOUND = 24 * MiB;
/** The forwarder's peak resident memory over all of these transfers (Node itself takes about 45 MiB). */
const FORWARDER_PEAK = 90 * MiB;

let dir = '';
let server: http.Server;
let serverPort = 0;
/** The same server over TLS, for the tunnels: a tunnel that is not TLS is read as HTTP by the proxy. */
let secure: https.Server;
let securePort = 0;
let ca: RunCa;
let proxy: RunningProxy;
let forwarder: ChildProcess;
let forwarderPort = 0;
/** Bytes the server has written for `/stream` (the stall test reads it while the client waits). */
let streamed = 0;

/**
 * The random bytes every transfer carries, made once: filling 48 MiB of fresh memory took about 200 ms a
 * transfer on the 2-core test machine. The same bytes each time prove as much: a byte lost, doubled, moved
 * or taken from a stale buffer changes the hash, as each offset of the stream holds other bytes (a relay
 * that reused its read buffer before the write was done failed the downloads with it).
 */
let DATA = Buffer.alloc(0);
let DATA_HASH = '';

/** DATA from 1 MiB blocks, written with the server's own backpressure. */
function sendData(res: http.ServerResponse): void {
  let sent = 0;
  const more = () => {
    while (sent < DATA.length) {
      const block = DATA.subarray(sent, sent + MiB);
      sent += block.length;
      streamed += block.length;
      if (!res.write(block)) return void res.once('drain', more);
    }
    res.end();
  };
  more();
}

beforeAll(async () => {
  // The CA's and the server's RSA keys are made on Node's thread pool while this thread fills DATA.
  const caMade = createRunCa();
  const leafMade = caMade.then((made) => made.leaf('localhost'));
  DATA = randomBytes(BIG);
  DATA_HASH = createHash('sha256').update(DATA).digest('hex');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-relay-spec-'));
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.method === 'POST') {
      const hash = createHash('sha256');
      let length = 0;
      req.on('data', (d: Buffer) => {
        hash.update(d);
        length += d.length;
      });
      req.on('end', () => res.end(`${length} ${hash.digest('hex')}`));
      return;
    }
    res.writeHead(200, { 'content-length': String(BIG) });
    sendData(res);
  };
  server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  serverPort = (server.address() as AddressInfo).port;
  const [made, leaf] = await Promise.all([caMade, leafMade]);
  ca = made;
  secure = https.createServer(leaf, handler);
  await new Promise<void>((r) => secure.listen(0, '127.0.0.1', r));
  securePort = (secure.address() as AddressInfo).port;
  const socketPath = path.join(dir, 'proxy.sock');
  proxy = await startProxy({
    policy: parseNetwork(`localhost:${serverPort}, localhost:${securePort}`) as ProxiedPolicy,
    socketPath,
  });
  // The forwarder listens on 127.0.0.1:3128 in the sidecar; here on a free port of this machine.
  const free = net.createServer();
  await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
  forwarderPort = (free.address() as AddressInfo).port;
  await new Promise((r) => free.close(r));
  const script = path.join(dir, 'forwarder.mjs');
  fs.writeFileSync(script, FORWARDER_SCRIPT);
  forwarder = spawn(process.execPath, [script, String(forwarderPort), socketPath], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    forwarder.stdout!.once('data', () => resolve());
    forwarder.once('exit', (code) => reject(new Error(`forwarder exited ${code}`)));
  });
});

afterAll(async () => {
  if (forwarder && forwarder.exitCode === null && forwarder.signalCode === null) {
    const gone = new Promise((r) => forwarder.once('exit', r));
    forwarder.kill();
    await gone;
  }
  await proxy?.close();
  for (const s of [server, secure]) {
    s?.closeAllConnections();
    await new Promise((r) => s?.close(r));
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A CONNECT through the forwarder to the TLS server; TLS over the tunnel once the proxy said 200. */
async function tlsTunnel(): Promise<tls.TLSSocket> {
  const { status, socket } = await tunnel(`localhost:${securePort}`);
  expect(status).toBe(200);
  const secured = tls.connect({ socket, servername: 'localhost', ca: ca.certificate });
  await new Promise<void>((resolve, reject) => {
    secured.once('secureConnect', () => resolve());
    secured.once('error', reject);
  });
  return secured;
}

/** A CONNECT through the forwarder; the tunnel's socket once the proxy said 200. */
function tunnel(target: string): Promise<{ status: number; socket: net.Socket }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: forwarderPort,
      method: 'CONNECT',
      path: target,
      agent: false,
    });
    req.on('connect', (res, socket) => resolve({ status: res.statusCode ?? 0, socket }));
    req.on('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, socket: res.socket });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The body of `GET /` read through `socket` (a raw HTTP/1.1 exchange), hashed, with its length. */
function readThrough(
  socket: net.Socket | tls.TLSSocket,
  body: number,
): Promise<{ length: number; hash: string }> {
  const hash = createHash('sha256');
  let head: Buffer | undefined = Buffer.alloc(0);
  let length = 0;
  return new Promise((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      let d: Uint8Array = chunk;
      if (head) {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        d = head.subarray(end + 4);
        head = undefined;
      }
      hash.update(d);
      length += d.length;
      if (length >= body) {
        socket.destroy();
        resolve({ length, hash: hash.digest('hex') });
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed after ${length} bytes`)));
  });
}

describe('the relay (forwarder script and proxy tunnels)', () => {
  it('carries a large download byte-exact through a CONNECT tunnel', async () => {
    const socket = await tlsTunnel();
    socket.write(`GET / HTTP/1.1\r\nHost: localhost:${securePort}\r\n\r\n`);
    const got = await readThrough(socket, BIG);
    expect(got.length).toBe(BIG);
    expect(got.hash).toBe(DATA_HASH);
  });

  it('carries a large download byte-exact as plain HTTP', async () => {
    const socket = net.connect(forwarderPort, '127.0.0.1');
    socket.write(
      `GET http://localhost:${serverPort}/ HTTP/1.1\r\nHost: localhost:${serverPort}\r\nConnection: close\r\n\r\n`,
    );
    const got = await readThrough(socket, BIG);
    expect(got.length).toBe(BIG);
    expect(got.hash).toBe(DATA_HASH);
  });

  it('carries a large upload byte-exact through a CONNECT tunnel', async () => {
    const socket = await tlsTunnel();
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (d: Buffer) => {
        text += d.toString();
        if (/\r\n\r\n\d+ [0-9a-f]{64}$/.test(text)) resolve(text.slice(text.indexOf('\r\n\r\n') + 4));
      });
    });
    socket.write(`POST / HTTP/1.1\r\nHost: localhost:${securePort}\r\nContent-Length: ${BIG}\r\n\r\n`);
    // In 1 MiB writes with the socket's backpressure: TLS would otherwise hold all 48 MiB encrypted at once.
    for (let at = 0; at < BIG; at += MiB) {
      if (!socket.write(DATA.subarray(at, at + MiB))) await new Promise((r) => socket.once('drain', r));
    }
    expect(await answer).toBe(`${BIG} ${DATA_HASH}`);
    socket.destroy();
  });

  it('holds the sender back while the reader stalls: at most 24 MiB in flight, then all arrives', async () => {
    const socket = await tlsTunnel();
    socket.pause();
    const before = streamed;
    socket.write(`GET / HTTP/1.1\r\nHost: localhost:${securePort}\r\n\r\n`);
    // Until the server, once it began, has written nothing more for 300 ms (at most 5 s): the buffers on the
    // way are full. Without the bound, that happens only once all 48 MiB are out. Looked at every 50 ms, so
    // that the test goes on soon after those 300 ms.
    for (let last = before, quietSince = Date.now(), waited = 0; waited < 5_000; waited += 50) {
      await new Promise((r) => setTimeout(r, 50));
      if (streamed !== last) [last, quietSince] = [streamed, Date.now()];
      else if (streamed > before && Date.now() - quietSince >= 300) break;
    }
    const inFlight = streamed - before;
    expect(inFlight).toBeGreaterThan(0);
    expect(inFlight).toBeLessThan(STALL_BOUND);
    const got = readThrough(socket, BIG);
    socket.resume();
    expect((await got).length).toBe(BIG);
    const peakKb = Number(
      /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${forwarder.pid}/status`, 'utf8'))?.[1],
    );
    expect(peakKb * 1024).toBeLessThan(FORWARDER_PEAK);
  });

  it('answers 502 to a tunnel whose host cannot be reached, and goes on', async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const socketPath = path.join(dir, 'unreachable.sock');
    const other = await startProxy({
      policy: parseNetwork(`localhost:${port}`) as ProxiedPolicy,
      socketPath,
    });
    try {
      const status = await connectStatus(socketPath, `localhost:${port}`);
      expect(status).toBe(502);
    } finally {
      await other.close();
    }
    const { status } = await tunnel(`localhost:${serverPort}`);
    expect(status).toBe(200);
  });

  it('lends the larger buffer to bulk transfers only, at most the budget at once, back when one closes', () => {
    const sink = { writableLength: 0, write: () => true } as unknown as net.Socket;
    const budget = { large: 1 };
    const sizes = { small: RELAY_SMALL_BYTES, large: RELAY_LARGE_BYTES };
    const relay = () => {
      const self = Object.assign(new EventEmitter(), { resume: () => undefined }) as unknown as net.Socket;
      const opts = relayReads(
        () => sink,
        () => self,
        sizes,
        budget,
      );
      const next = opts.buffer as () => Uint8Array;
      return { self, next, read: (n: number) => opts.callback(n, next()) };
    };
    const a = relay();
    const b = relay();
    expect(a.next().length).toBe(RELAY_SMALL_BYTES);
    expect(a.read(100)).toBe(true); // a trickle keeps the small buffer
    expect(a.next().length).toBe(RELAY_SMALL_BYTES);
    a.read(RELAY_SMALL_BYTES); // full: a bulk transfer
    expect(a.next().length).toBe(RELAY_LARGE_BYTES);
    expect(budget.large).toBe(0);
    b.read(RELAY_SMALL_BYTES);
    expect(b.next().length).toBe(RELAY_SMALL_BYTES); // none left
    a.self.emit('close');
    expect(budget.large).toBe(1);
    b.read(RELAY_SMALL_BYTES);
    expect(b.next().length).toBe(RELAY_LARGE_BYTES);
  });
});
