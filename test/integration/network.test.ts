// `network` as an allow-list, with real clients (curl, bash's /dev/tcp and /dev/udp, node) in the
// command's container and servers on this machine that count every connection they get. Docker, in
// process as root; rootless Podman as the runner is in test/security/network.test.ts (the bundle).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandLabels } from '../../src/engine/labels.js';
import { runSandbox } from '../../src/run/run.js';
import { containerNotePath } from '../../src/sandbox/lock.js';
import { silentUi } from '../../src/ui/ui.js';
import { parseSettings, type RunSettings } from '../../src/settings/settings.js';
import { removeVolumes, uniquePrefix } from '../support/docker.js';
import {
  addTestHosts,
  ALLOWED,
  bridgeAddress,
  DENIED,
  ensureNetImage,
  hostAddresses,
  httpServer,
  httpsServer,
  tcpTrap,
  testCa,
  udpTrap,
  type Recorder,
} from '../support/network.js';
import { makeRepo, type TestRepo } from '../support/repo.js';

let image = '';
let caFile = '';
let bridge = '';
let allowedTls: Recorder;
let allowedHttp: Recorder;
let deniedTls: Recorder;
let deniedHttp: Recorder;
let trap: Recorder;
let udp: { port: number; datagrams: number; close(): void };
let dns: { port: number; datagrams: number; close(): void };
let repo: TestRepo;
const prefix = uniquePrefix('net');
const others: string[] = [];

beforeAll(async () => {
  image = ensureNetImage();
  bridge = bridgeAddress();
  addTestHosts(bridge);
  const test = await testCa();
  caFile = test.file;
  allowedTls = await httpsServer(test.ca, ALLOWED);
  deniedTls = await httpsServer(test.ca, DENIED);
  deniedHttp = await httpServer();
  allowedHttp = await httpServer((req, res) => {
    if (req.url === '/redirect') {
      res.writeHead(302, { location: `http://${DENIED}:${deniedHttp.port}/` });
      res.end();
    } else res.end(`hello from ${req.headers.host}\n`);
  });
  trap = await tcpTrap();
  udp = await udpTrap();
  dns = await udpTrap(53); // a test DNS server on every address of the host
  repo = makeRepo();
}, 240_000);

afterAll(async () => {
  for (const r of [allowedTls, allowedHttp, deniedTls, deniedHttp, trap]) await r?.close();
  udp?.close();
  dns?.close();
  for (const name of others) execFileSync('docker', ['rm', '-f', name], { stdio: 'ignore' });
  removeVolumes(prefix, 'docker');
  if (repo) fs.rmSync(repo.root, { recursive: true, force: true });
  if (caFile) fs.rmSync(path.dirname(caFile), { recursive: true, force: true });
});

function settings(inputs: Record<string, string>): RunSettings {
  const all: Record<string, string> = {
    engine: 'docker',
    image,
    'repository-path': repo.parent,
    'volume-prefix': prefix,
    ...inputs,
  };
  return parseSettings((name) => all[name] ?? '', process.env) as RunSettings;
}

async function run(inputs: Record<string, string>) {
  const lines: string[] = [];
  const ui = {
    ...silentUi,
    untrusted: <T>(fn: (w: (l: string) => void) => Promise<T>) => fn((l) => lines.push(l)),
  };
  const outcome = await runSandbox(settings(inputs), {
    ui,
    save: () => undefined,
    command: { readOnlyFiles: [caFile] },
  });
  return { outcome, lines, out: lines.join('\n') };
}

const counts = () => ({
  allowedTls: allowedTls.connections,
  allowedHttp: allowedHttp.connections,
  deniedTls: deniedTls.connections,
  deniedHttp: deniedHttp.connections,
  trap: trap.connections,
  udp: udp.datagrams,
  dns: dns.datagrams,
});

/**
 * What reached the servers since `before`: every counter exact, but the allowed plain-HTTP server's
 * connections, which the proxy may have fewer of than requests (Node's global agent keeps an upstream
 * connection alive between runs of one process): its requests (`hosts`) are counted exactly instead.
 */
/** `connections`: how many the allowed server may have seen (at most one a request, by default). */
function expectReached(
  before: ReturnType<typeof counts>,
  hostsBefore: number,
  hosts: string[],
  connections = hosts.length,
): void {
  const after = counts();
  expect({ ...after, allowedHttp: 0 }).toEqual({ ...before, allowedHttp: 0 });
  expect(after.allowedHttp - before.allowedHttp).toBeGreaterThanOrEqual(0);
  expect(after.allowedHttp - before.allowedHttp).toBeLessThanOrEqual(connections);
  expect(allowedHttp.hosts.slice(hostsBefore)).toEqual(hosts);
}

/** The lines, run by bash (its /dev/tcp and /dev/udp), whatever the image's sh is. */
const bash = (lines: string[]) => `bash <<'WS_NET_EOF'\n${lines.join('\n')}\nWS_NET_EOF`;

const allowList = () => `${ALLOWED}:${allowedTls?.port}, ${ALLOWED}:${allowedHttp?.port}`;

describe('network: an allow-list (Docker)', () => {
  it('lets curl reach an allowed host over HTTPS and HTTP, refuses a denied one, and counts both', async () => {
    const before = counts();
    const { outcome, out } = await run({
      network: allowList(),
      command: [
        `curl -sS --cacert ${caFile} https://${ALLOWED}:${allowedTls.port}/ && echo ok-tls`,
        `curl -sS http://${ALLOWED}:${allowedHttp.port}/ && echo ok-http`,
        `curl -sS --cacert ${caFile} https://${DENIED}:${deniedTls.port}/ || echo refused-tls`,
        `curl -sS -o /dev/null -w 'status %{http_code}\\n' http://${DENIED}:${deniedHttp.port}/`,
        'cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d " "',
        'grep -i cap /proc/self/status',
      ].join('; '),
    });
    expect(outcome.command.exitCode).toBe(0);
    expect(out).toContain(`hello from ${ALLOWED}:${allowedTls.port}\nok-tls`);
    expect(out).toContain(`hello from ${ALLOWED}:${allowedHttp.port}\nok-http`);
    // (stderr and stdout are two streams: their lines may come in either order)
    expect(out).toContain('CONNECT tunnel failed, response 403');
    expect(out).toContain('refused-tls');
    expect(out).toContain('status 403');
    // The command's namespace has loopback only, and its container no capability at all.
    expect(out).toMatch(/^lo$/m);
    expect(out).not.toMatch(/^(eth|tap|veth)/m);
    expect(out).toMatch(/CapEff:\s+0000000000000000/);
    expect(counts()).toEqual({
      ...before,
      allowedTls: before.allowedTls + 1,
      allowedHttp: before.allowedHttp + 1,
    });
    const report = outcome.command.network!;
    expect(report.allowed.map((r) => [r.host, r.port, r.requests])).toEqual(
      [
        [ALLOWED, allowedHttp.port, 1],
        [ALLOWED, allowedTls.port, 1],
      ].sort((a, b) => (a[1] as number) - (b[1] as number)),
    );
    for (const row of report.allowed) {
      expect(row.bytesSent).toBeGreaterThan(50);
      expect(row.bytesReceived).toBeGreaterThan(50);
    }
    expect(report.denied.map((d) => [d.host, d.port, d.requests])).toEqual(
      [
        [DENIED, deniedTls.port, 1],
        [DENIED, deniedHttp.port, 1],
      ].sort((a, b) => (a[1] as number) - (b[1] as number)),
    );
  });

  it('reaches nothing by any other way: no listener of the host, of another container or a DNS server sees a packet', async () => {
    const other = `ws-net-other-${process.pid}`;
    others.push(other);
    execFileSync('docker', [
      'run',
      '-d',
      '--rm',
      '--name',
      other,
      '--entrypoint',
      'node',
      image,
      '-e',
      "require('net').createServer((s)=>{console.log('CONNECTED');s.end()}).listen(7777)",
    ]);
    const otherIp = execFileSync('docker', ['inspect', '--format', '{{.NetworkSettings.IPAddress}}', other], {
      encoding: 'utf8',
    }).trim();
    const addresses = [bridge, ...hostAddresses(), '169.254.169.254', otherIp];
    const before = counts();
    const hostsBefore = allowedHttp.hosts.length;
    const attempts = [
      // A client that ignores the proxy variables, by name and by the allowed host's own address.
      `env -u HTTP_PROXY -u HTTPS_PROXY -u http_proxy -u https_proxy curl -sS -m 5 --cacert ${caFile} https://${ALLOWED}:${allowedTls.port}/ || echo no-proxy-refused`,
      `curl -sS -m 5 --noproxy '*' http://${ALLOWED}:${allowedHttp.port}/ || echo noproxy-refused`,
      // Raw TCP to every address of the host (the bridge's, eth0's), a metadata address, another container.
      ...addresses.flatMap((a) =>
        [allowedTls.port, allowedHttp.port, trap.port, 7777].map(
          (p) =>
            `(exec 3<>/dev/tcp/${a}/${p}) 2>/dev/null && echo "REACHED ${a}:${p}" || echo "unreachable ${a}:${p}"`,
        ),
      ),
      // UDP, and DNS: a lookup of a random name, and a query to every resolver it can name.
      ...addresses.map(
        (a) =>
          `(echo x > /dev/udp/${a}/${udp.port}) 2>/dev/null && echo "SENT udp ${a}" || echo "no udp ${a}"`,
      ),
      `getent hosts ws-net-$RANDOM$RANDOM.example.com || echo lookup-failed`,
      `for ns in $(awk '/^nameserver/{print $2}' /etc/resolv.conf) ${addresses.join(' ')}; do (printf 'q' > /dev/udp/$ns/53) 2>/dev/null && echo "SENT dns $ns" || echo "no dns $ns"; done`,
      // CONNECT to an IP literal (the allowed host's address), through the proxy.
      `curl -sS -m 5 -k https://${bridge}:${allowedTls.port}/ || echo literal-refused`,
      // A request for an allowed host with a denied Host header: refused, not sent on.
      `curl -sS -o /dev/null -w 'host-header %{http_code}\\n' -H 'Host: ${DENIED}:${deniedHttp.port}' http://${ALLOWED}:${allowedHttp.port}/`,
      // CONNECT to an allowed name, then a request for a denied Host inside the tunnel: read as HTTP, refused.
      `curl -sS -p -H 'Host: ${DENIED}:${deniedHttp.port}' http://${ALLOWED}:${allowedHttp.port}/ && echo tunnel-stayed`,
      // An allowed host that redirects to a denied one.
      `curl -sS -L -o /dev/null -w 'redirect %{http_code} %{num_redirects}\\n' http://${ALLOWED}:${allowedHttp.port}/redirect`,
      // The proxy port itself: the only thing open, and it is the proxy.
      `node -e "const s=require('net').connect(3128,'127.0.0.1',()=>{console.log('proxy-port-open');s.end()})"`,
    ];
    const { outcome, out } = await run({ network: allowList(), command: bash(attempts) });
    expect(outcome.command.exitCode).toBe(0);
    expect(out).not.toMatch(/REACHED|SENT/);
    expect(out).toContain('no-proxy-refused');
    expect(out).toContain('noproxy-refused');
    expect(out).toContain('lookup-failed');
    expect(out).toContain('literal-refused');
    expect(out).toContain('host-header 403');
    // The tunnel's bytes are plain HTTP, so the proxy reads them as HTTP: a request for another host is refused.
    expect(out).toContain(`a request for another host inside a tunnel to ${ALLOWED}\ntunnel-stayed`);
    expect(out).toMatch(/redirect 403 1/);
    expect(out).toContain('proxy-port-open');
    // Only the redirecting request reached a server: the allowed one. The tunnel's far end was opened (so
    // that an unreachable host gets a 502) and closed unused once its bytes were read as HTTP.
    expectReached(before, hostsBefore, [`${ALLOWED}:${allowedHttp.port}`], 2);
    // Every attempt ran and failed (bash's /dev/tcp and /dev/udp: the command is not dash's).
    expect(out.match(/^unreachable /gm)).toHaveLength(addresses.length * 4);
    expect(out.match(/^no (udp|dns) /gm)!.length).toBeGreaterThanOrEqual(addresses.length * 2);
    expect(execFileSync('docker', ['logs', other], { encoding: 'utf8' })).not.toContain('CONNECTED');
    const denied = outcome.command.network!.denied.map((d) => `${d.host}:${d.port}`);
    expect(denied).toEqual(
      expect.arrayContaining([`${bridge}:${allowedTls.port}`, `${DENIED}:${deniedHttp.port}`]),
    );
  });

  it('would have seen the same attempts under network: bridge (the listeners do count)', async () => {
    const before = counts();
    const { out } = await run({
      network: 'bridge',
      command: bash([
        `(exec 3<>/dev/tcp/${bridge}/${trap.port}) && echo REACHED`,
        `echo x > /dev/udp/${bridge}/${udp.port} && echo SENT`,
        `printf q > /dev/udp/${bridge}/53 && echo SENT-DNS`,
      ]),
    });
    expect(out).toContain('REACHED');
    await new Promise((r) => setTimeout(r, 200));
    const after = counts();
    expect(after.trap).toBe(before.trap + 1);
    expect(after.udp).toBe(before.udp + 1);
    expect(after.dns).toBe(before.dns + 1);
  });

  it('holds for a disk sandbox too', async () => {
    const before = counts();
    const hostsBefore = allowedHttp.hosts.length;
    const { outcome, out } = await run({
      isolation: 'disk',
      'worktree-root': path.join(repo.root, 'disk-sandboxes'),
      network: allowList(),
      command: bash([
        `curl -sS http://${ALLOWED}:${allowedHttp.port}/ && echo ok-disk`,
        `(exec 3<>/dev/tcp/${bridge}/${trap.port}) 2>/dev/null && echo REACHED || echo unreachable`,
        `curl -sS -o /dev/null -w 'denied %{http_code}\\n' http://${DENIED}:${deniedHttp.port}/`,
      ]),
    });
    expect(outcome.sandbox.isolation).toBe('disk');
    expect(out).toContain('ok-disk');
    expect(out).toContain('unreachable');
    expect(out).toContain('denied 403');
    expectReached(before, hostsBefore, [`${ALLOWED}:${allowedHttp.port}`]);
  });

  it('records every host in audit, and stops the proxy and its sidecar with the command', async () => {
    const { outcome, out } = await run({
      network: 'audit',
      command: `curl -sS http://${DENIED}:${deniedHttp.port}/ && curl -sS -o /dev/null --cacert ${caFile} https://${ALLOWED}:${allowedTls.port}/ && echo done`,
    });
    expect(out).toContain('done');
    expect(outcome.command.network!.allowed.map((r) => `${r.host}:${r.port}`).sort()).toEqual(
      [`${ALLOWED}:${allowedTls.port}`, `${DENIED}:${deniedHttp.port}`].sort(),
    );
    expect(outcome.command.network!.denied).toEqual([]);
    const left = execFileSync('docker', ['ps', '-a', '--filter', 'name=-net$', '--format', '{{.Names}}'], {
      encoding: 'utf8',
    });
    expect(left).not.toContain(outcome.sandbox.name);
    const sockets = fs
      .readdirSync(process.env.RUNNER_TEMP || '/tmp')
      .filter((f) => f.startsWith('worktree-sandbox-net-'));
    expect(sockets).toEqual([]);
  });

  it('carries 64 MiB byte-exact through the sidecar both ways, as plain HTTP and through a CONNECT tunnel', async () => {
    const size = 64 * 1024 * 1024;
    const body = randomBytes(size);
    const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
    const bulk = await httpServer((req, res) => {
      if (req.method !== 'POST') return void res.end(body);
      const hash = createHash('sha256');
      let length = 0;
      req.on('data', (d: Buffer) => {
        hash.update(d);
        length += d.length;
      });
      req.on('end', () => res.end(`received ${length} ${hash.digest('hex')}\n`));
    });
    try {
      const url = `http://${ALLOWED}:${bulk.port}/`;
      const { outcome, out } = await run({
        network: `${ALLOWED}:${bulk.port}`,
        command: [
          `echo "plain $(curl -sS ${url} | sha256sum)"`,
          `echo "tunnel $(curl -sS -p ${url} | sha256sum)"`,
          `head -c ${size} /dev/urandom > "$HOME/upload"`,
          `echo "sent ${size} $(sha256sum < "$HOME/upload")"`,
          `curl -sS -p --data-binary @"$HOME/upload" -H 'content-type: application/octet-stream' ${url}`,
          `rm "$HOME/upload"`,
        ].join(' && '),
      });
      expect(outcome.command.exitCode).toBe(0);
      expect(out).toContain(`plain ${sha(body)}`);
      expect(out).toContain(`tunnel ${sha(body)}`);
      const sent = /^sent (\d+) ([0-9a-f]{64})/m.exec(out);
      expect(sent).not.toBeNull();
      expect(out).toContain(`received ${sent![1]} ${sent![2]}`);
      const row = outcome.command.network!.allowed.find((r) => r.port === bulk.port);
      expect(row?.bytesReceived).toBeGreaterThanOrEqual(2 * size);
      expect(row?.bytesSent).toBeGreaterThanOrEqual(size);
    } finally {
      await bulk.close();
    }
  });

  it("removes a killed run's containers before its own sidecar starts (they share its labels), and reaches the allowed host", async () => {
    const branch = `net-orphan-${Date.now()}`;
    const inputs = { network: allowList(), branch };
    const first = await run({ ...inputs, command: 'true' });
    const sandbox = first.outcome.sandbox;
    // What a killed run leaves: its note, and a container with the sandbox's command labels.
    const note = containerNotePath(sandbox.parent.gitDir, sandbox.name);
    fs.mkdirSync(path.dirname(note), { recursive: true });
    fs.writeFileSync(note, 'killed\n');
    const left = `${prefix}-left-${Date.now()}`;
    others.push(left);
    const labels = Object.entries(commandLabels(sandbox)).flatMap(([k, v]) => ['--label', `${k}=${v}`]);
    execFileSync('docker', ['run', '-d', '--name', left, ...labels, '--entrypoint', 'sleep', image, '300']);
    const { outcome, out } = await run({
      ...inputs,
      command: `curl -sS http://${ALLOWED}:${allowedHttp.port}/ && echo reached`,
    });
    expect(outcome.command.exitCode).toBe(0);
    expect(out).toContain('reached');
    const still = execFileSync('docker', ['ps', '-a', '--filter', `name=${left}`, '--format', '{{.Names}}'], {
      encoding: 'utf8',
    });
    expect(still.trim()).toBe('');
  });
});
