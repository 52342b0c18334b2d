// The network proxy's test fixtures: an image with real clients (curl, node, bash), test host names in
// /etc/hosts that point at the Docker bridge's address on this machine, servers that count every
// connection they get, and certificates from a test CA (the @peculiar/x509 code of src/network/ca.ts).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as dgram from 'node:dgram';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createRunCa, type RunCa } from '../../src/network/ca.js';
import { asRunner, runnerEnv } from './rootless.js';

export const NODE_IMAGE = process.env.WORKTREE_SANDBOX_NODE_IMAGE ?? 'worktree-sandbox-node:24';
export const NET_IMAGE = 'worktree-sandbox-net-test:bookworm';
export const ALLOWED = 'allowed.ws-net.test';
export const DENIED = 'denied.ws-net.test';
export const CREDENTIALED = 'llm.ws-net.test';

/** The host's address on Docker's default bridge: what a container on `bridge` reaches the host by. */
export function bridgeAddress(): string {
  // `ip`, not os.networkInterfaces(): libuv leaves out an interface that is down (no container on it).
  const found = /inet (\d+\.\d+\.\d+\.\d+)/.exec(
    execFileSync('ip', ['-4', '-o', 'addr', 'show', 'docker0'], { encoding: 'utf8' }),
  )?.[1];
  if (!found) throw new Error('no docker0 interface: the network tests need Docker on this machine');
  return found;
}

/** The host's other addresses (eth0...), not loopback. */
export function hostAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .filter((a) => a && a.family === 'IPv4' && !a.internal)
    .map((a) => a!.address);
}

/**
 * Test names in /etc/hosts, pointing at `address`, one line each (idempotent). Suites that run at once
 * share the file: a name already there is left alone (nothing is written once all are), another suite's
 * names are never dropped, writers take turns, and a new file replaces the old in one rename, so that a
 * proxy resolving meanwhile never reads it half written.
 */
export function addTestHosts(address: string, names = [ALLOWED, DENIED, CREDENTIALED]): void {
  const namesOf = (line: string) => (line.trim().startsWith('#') ? [] : line.trim().split(/\s+/).slice(1));
  const pointed = (lines: string[], name: string) =>
    lines.some((l) => l.trim().split(/\s+/)[0] === address && namesOf(l).includes(name));
  if (names.every((n) => pointed(fs.readFileSync('/etc/hosts', 'utf8').split('\n'), n))) return;
  withHostsLock(() => {
    const lines = fs.readFileSync('/etc/hosts', 'utf8').split('\n');
    const missing = names.filter((n) => !pointed(lines, n));
    if (!missing.length) return;
    // The missing names' old lines (another address) lose those names only.
    const kept = lines.flatMap((line) => {
      const listed = namesOf(line);
      if (!listed.some((n) => missing.includes(n))) return [line];
      const left = listed.filter((n) => !missing.includes(n));
      return left.length ? [`${line.trim().split(/\s+/)[0]} ${left.join(' ')}`] : [];
    });
    const text = `${[...kept.join('\n').trimEnd().split('\n'), ...missing.map((n) => `${address} ${n}`)].join('\n')}\n`;
    const next = `/etc/hosts.wts-${process.pid}`;
    try {
      fs.writeFileSync(next, text, { mode: 0o644 });
      fs.renameSync(next, '/etc/hosts');
    } catch {
      // /etc/hosts mounted over (a container's): written in place.
      fs.rmSync(next, { force: true });
      fs.writeFileSync('/etc/hosts', text);
    }
  });
}

/** Runs `fn` holding a lock on /etc/hosts among the test processes (a folder; one left by a killed test expires). */
function withHostsLock(fn: () => void): void {
  const lock = path.join(os.tmpdir(), 'worktree-sandbox-etc-hosts.lock');
  const sleep = new Int32Array(new SharedArrayBuffer(4));
  for (const started = Date.now(); ;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (Date.now() - started > 10_000) fs.rmSync(lock, { recursive: true, force: true });
    else Atomics.wait(sleep, 0, 0, 50);
  }
  try {
    fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** Image with curl (the host's binary and the one library the test image lacks), node and bash. */
export function ensureNetImage(): string {
  const curl = '/usr/bin/curl';
  const stamp = `2-${createHash('sha256').update(fs.readFileSync(curl)).digest('hex').slice(0, 16)}`;
  try {
    const have = execFileSync(
      'docker',
      ['image', 'inspect', '--format', '{{index .Config.Labels "stamp"}}', NET_IMAGE],
      {
        encoding: 'utf8',
      },
    ).trim();
    if (have === stamp) return NET_IMAGE;
  } catch {
    // not built yet
  }
  const libs = execFileSync('ldd', [curl], { encoding: 'utf8' })
    .split('\n')
    .flatMap((l) => /(\/\S+)/.exec(l)?.[1] ?? []);
  const missing = execFileSync(
    'docker',
    [
      'run',
      '--rm',
      '--entrypoint',
      'sh',
      NODE_IMAGE,
      '-c',
      'for f; do [ -e "$f" ] || echo "$f"; done',
      'sh',
      ...libs,
    ],
    { encoding: 'utf8' },
  )
    .split('\n')
    .filter(Boolean);
  const ctx = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-net-image-'));
  for (const file of [curl, ...missing]) {
    // Debian's /lib, /bin are links into /usr: a folder of that name in the copy would replace the link.
    const target = file.replace(/^\/(lib|lib64|bin|sbin)\//, '/usr/$1/');
    fs.mkdirSync(path.join(ctx, 'root', path.dirname(target)), { recursive: true });
    fs.copyFileSync(fs.realpathSync(file), path.join(ctx, 'root', target));
  }
  fs.writeFileSync(
    path.join(ctx, 'Dockerfile'),
    `FROM ${NODE_IMAGE}\nCOPY root/ /\nLABEL stamp="${stamp}"\n`,
  );
  execFileSync('docker', ['build', '-q', '-t', NET_IMAGE, ctx], { stdio: 'ignore' });
  fs.rmSync(ctx, { recursive: true, force: true });
  return NET_IMAGE;
}

/** The same image in the runner's rootless Podman storage. */
export function loadNetImageIntoRootlessPodman(): void {
  loadIntoRootlessPodman(NET_IMAGE);
}

/** A Docker image in the runner's rootless Podman storage (loaded when its id differs). */
export function loadIntoRootlessPodman(image: string): void {
  const want = execFileSync('docker', ['image', 'inspect', '--format', '{{.Id}}', image], {
    encoding: 'utf8',
  })
    .trim()
    .replace(/^sha256:/, '');
  const [cmd, args] = asRunner('podman', ['image', 'inspect', '--format', '{{.Id}}', image]);
  let have = '';
  try {
    have = execFileSync(cmd, args, {
      encoding: 'utf8',
      env: runnerEnv({ rootlessPodman: true }),
      cwd: '/',
    }).trim();
  } catch {
    // not loaded yet
  }
  if (have === want) return;
  const saved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ws-net-save-')), 'image.tar');
  execFileSync('docker', ['save', '-o', saved, image]);
  fs.chmodSync(path.dirname(saved), 0o755);
  fs.chmodSync(saved, 0o644);
  const [lcmd, largs] = asRunner('podman', ['load', '-q', '-i', saved]);
  execFileSync(lcmd, largs, { stdio: 'ignore', env: runnerEnv({ rootlessPodman: true }), cwd: '/' });
  fs.rmSync(path.dirname(saved), { recursive: true, force: true });
}

/** A server that counts every TCP connection (and keeps the Host headers it was asked for). */
export interface Recorder {
  port: number;
  connections: number;
  hosts: string[];
  close(): Promise<void>;
}

function recording(server: net.Server): Promise<Recorder> {
  const rec: Recorder = {
    port: 0,
    connections: 0,
    hosts: [],
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        (server as http.Server).closeAllConnections?.();
      }),
  };
  // Every TCP connection accepted, before any TLS or HTTP: an attempt that got this far is counted.
  server.on('connection', () => rec.connections++);
  return new Promise((resolve) =>
    server.listen(0, '0.0.0.0', () => {
      rec.port = (server.address() as AddressInfo).port;
      resolve(rec);
    }),
  );
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const hello: Handler = (req, res) => res.end(`hello from ${req.headers.host}\n`);

/** An HTTPS server on 0.0.0.0 with a certificate for `host` from `ca`. Counts TCP connections. */
export async function httpsServer(ca: RunCa, host: string, handler: Handler = hello): Promise<Recorder> {
  const { key, cert } = await ca.leaf(host);
  const server = https.createServer({ key, cert });
  const rec = await recording(server);
  server.on('request', (req, res) => {
    rec.hosts.push(String(req.headers.host));
    handler(req, res);
  });
  return rec;
}

export async function httpServer(handler: Handler = hello): Promise<Recorder> {
  const server = http.createServer();
  const rec = await recording(server);
  server.on('request', (req, res) => {
    rec.hosts.push(String(req.headers.host));
    handler(req, res);
  });
  return rec;
}

/** A plain TCP listener (a host service on 0.0.0.0). */
export async function tcpTrap(): Promise<Recorder> {
  return recording(net.createServer((s) => s.destroy()));
}

/** A UDP socket on `address:port` that counts datagrams (port 53: a test DNS server). */
export function udpTrap(
  port = 0,
  address = '0.0.0.0',
): Promise<{ port: number; datagrams: number; close(): void }> {
  const socket = dgram.createSocket('udp4');
  const trap = { port: 0, datagrams: 0, close: () => socket.close() };
  socket.on('message', () => trap.datagrams++);
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, address, () => {
      trap.port = socket.address().port;
      resolve(trap);
    });
  });
}

export async function testCa(): Promise<{ ca: RunCa; file: string }> {
  const ca = await createRunCa();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-net-ca-'));
  fs.chmodSync(dir, 0o755);
  const file = path.join(dir, 'test-ca.pem');
  fs.writeFileSync(file, ca.certificate, { mode: 0o644 });
  return { ca, file };
}

/**
 * Lines for bash (in the command's container) that search everything the command can read for `secret`:
 * its environment, every process's environment and command line, the mounts, and every file but the
 * image's own programs. The needle is put together from two halves (no command line holds it whole) and
 * given to grep through a pipe. `keyNotFound(out, label)` says whether the search ran and found nothing.
 */
export function keySearchLines(secret: string, label = 'key'): string[] {
  const half = Math.floor(secret.length / 2);
  return [
    `K="${secret.slice(0, half)}"; K="\${K}${secret.slice(half)}"; echo "searching ${label} for \${#K} characters"`,
    'env | grep -cFf <(printf %s "$K") || true',
    'cat /proc/[0-9]*/environ /proc/[0-9]*/cmdline /proc/self/mountinfo 2>/dev/null | grep -caFf <(printf %s "$K") || true',
    // Every file but the image's own programs and libraries (which come from the image, not from us).
    'timeout 200 grep -rlaFf <(printf %s "$K") / --exclude-dir=proc --exclude-dir=sys --exclude-dir=usr 2>/dev/null | head -5',
    `echo "searched ${label}"`,
  ];
}

export function keyNotFound(out: string, secret: string, label = 'key'): boolean {
  return out.includes(`searching ${label} for ${secret.length} characters\n0\n0\nsearched ${label}\n`);
}
