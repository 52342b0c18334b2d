// Where a download through the allow-list's path spends its time, hop by hop, on this machine and without
// containers (bench/network.bench.mjs measures the whole path in containers):
//   direct         curl → server
//   proxy-chain    curl → proxy-chain on TCP, as the library comes (its own `direct` and `forward`) → server
//   path           curl → the forwarder's script (forwarder.ts) → Unix socket → the proxy (proxy.ts) → server
//   squid          curl → Debian's squid on TCP (one hop, C++; the proxy the allow-list issue names) → server,
//                  when /usr/sbin/squid is there (`apt-get install squid`; rows skipped otherwise): what a
//                  well-kept proxy that sees the bytes reaches on this machine, against the same server
// each as a CONNECT tunnel (how HTTPS goes) and as plain HTTP, 100 MiB a download, rounds interleaved.
// Besides MiB/s (noisy on a shared machine), each process's CPU time for the download (from
// /proc/<pid>/schedstat): what each hop costs, which the load changes much less.
// With a git revision, its proxy and forwarder run too, interleaved ("before"), e.g. the commit before a change.
// Usage: node bench/network-hops.bench.mjs [rounds=7] [revision]
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { build } from 'esbuild';
import { CACHE, ROOT, loadAverage, machineNote, median } from './lib.mjs';

const ROUNDS = Number(process.argv[2] ?? 7);
const BEFORE = process.argv[3];
const SIZE = 100 * 1024 * 1024;
const SQUID = '/usr/sbin/squid';
const work = path.join(CACHE, 'network-hops');
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });

const scripts = {
  server: `import * as http from 'node:http';
const SIZE = ${SIZE};
const chunk = Buffer.alloc(1024 * 1024, 'x');
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-length': String(SIZE) });
  let sent = 0;
  const more = () => {
    while (sent < SIZE) { sent += chunk.length; if (!res.write(chunk)) return void res.once('drain', more); }
    res.end();
  };
  more();
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));`,
  proxy: `import { startProxy, parseNetwork } from './network.mjs';
const [socketPath, allow] = process.argv.slice(2);
await startProxy({ policy: parseNetwork(allow), socketPath });
console.log('ready');`,
  proxyChain: `import * as net from 'node:net';
import { Server } from 'proxy-chain';
const server = new Server({ port: 0, prepareRequestFunction: () => ({}) });
const front = net.createServer((socket) => server.server.emit('connection', socket));
front.listen(0, '127.0.0.1', () => console.log(front.address().port));`,
};
for (const [name, text] of Object.entries(scripts)) fs.writeFileSync(path.join(work, `${name}.mjs`), text);
/** The proxy and the forwarder's script of the source in `root`, node_modules left where they are. */
async function bundle(root, dir) {
  fs.mkdirSync(dir, { recursive: true });
  await build({
    stdin: {
      contents: `export { startProxy } from './src/network/proxy.ts'; export { FORWARDER_SCRIPT } from './src/network/forwarder.ts'; export { parseNetwork } from './src/network/policy.ts';`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    nodePaths: [path.join(ROOT, 'node_modules')],
    outfile: path.join(dir, 'network.mjs'),
    logLevel: 'warning',
  });
  const { FORWARDER_SCRIPT } = await import(path.join(dir, 'network.mjs'));
  fs.writeFileSync(path.join(dir, 'forwarder.mjs'), FORWARDER_SCRIPT);
  fs.writeFileSync(path.join(dir, 'proxy.mjs'), scripts.proxy);
}

await bundle(ROOT, work);
if (BEFORE) {
  const source = path.join(work, 'before-source');
  fs.mkdirSync(source);
  execFileSync('sh', ['-c', 'git -C "$1" archive "$2" src | tar -x -C "$3"', 'sh', ROOT, BEFORE, source]);
  await bundle(source, path.join(work, 'before'));
}

const children = [];
/** Starts `node <script> ...args`; resolves with the process and its first line of output. */
function start(script, ...args) {
  const child = spawn(process.execPath, [path.join(work, script), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: path.dirname(path.join(work, script)),
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (d) => resolve({ pid: child.pid, line: String(d).trim() }));
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
}
const freePort = () =>
  Number(
    execFileSync(process.execPath, [
      '-e',
      "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
    ]).toString(),
  );

const server = await start('server.mjs');
const port = Number(server.line);
/** The proxy on its socket and the forwarder in front of it, of the build in `dir` (under work). */
async function startPath(dir) {
  const socketPath = path.join(work, dir, 'proxy.sock');
  const proxy = await start(path.join(dir, 'proxy.mjs'), socketPath, `localhost:${port}`);
  const forwarderPort = freePort();
  const forwarder = await start(path.join(dir, 'forwarder.mjs'), String(forwarderPort), socketPath);
  return { proxy, forwarder, forwarderPort };
}
const paths = { path: await startPath('.') };
if (BEFORE) paths[`path ${BEFORE}`] = await startPath('before');
const proxyChain = await start('proxyChain.mjs');
const squid = fs.existsSync(SQUID) ? await startSquid() : undefined;
if (!squid) console.log(`squid: ${SQUID} is not installed (apt-get install squid): its rows are skipped`);

/**
 * Debian's squid on a free loopback port: no cache, no access log, every request and CONNECT allowed (the
 * server is on this machine), one worker, in the foreground, no ICMP pinger. Resolves once it accepts
 * connections.
 */
async function startSquid() {
  const dir = path.join(work, 'squid');
  fs.mkdirSync(dir, { recursive: true });
  const squidPort = freePort();
  const conf = path.join(dir, 'squid.conf');
  fs.writeFileSync(
    conf,
    [
      `http_port 127.0.0.1:${squidPort}`,
      'http_access allow all',
      'cache deny all',
      'cache_mem 8 MB',
      'access_log none',
      'cache_log /dev/null',
      'cache_store_log none',
      `pid_filename ${path.join(dir, 'squid.pid')}`,
      `coredump_dir ${dir}`,
      'shutdown_lifetime 0 seconds',
      'workers 1',
      'pinger_enable off',
      '',
    ].join('\n'),
  );
  const child = spawn(SQUID, ['-N', '-f', conf], { stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(child);
  for (let i = 0; i < 100; i++) {
    const open = await new Promise((resolve) => {
      const socket = net.connect(squidPort, '127.0.0.1');
      socket.once('connect', () => resolve(socket.end() && true));
      socket.once('error', () => resolve(false));
    });
    if (open) return { pid: child.pid, port: squidPort };
    await sleep(100);
  }
  throw new Error('squid did not start listening');
}

const cpuNs = (pid) => Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);

/** One download with curl; MiB/s and each process's CPU milliseconds for it. */
function download(args, pids) {
  const before = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuNs(pid)]));
  const out = execFileSync(
    'curl',
    ['-sS', '-o', '/dev/null', '-w', '%{speed_download} %{size_download}', ...args],
    {
      encoding: 'utf8',
    },
  );
  const [speed, size] = out.split(' ').map(Number);
  if (size !== SIZE) throw new Error(`${args.join(' ')}: ${size} bytes`);
  const cpu = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, (cpuNs(pid) - before[k]) / 1e6]));
  return { speed: speed / 1024 ** 2, cpu };
}

const target = `http://localhost:${port}/`;
const variants = {
  direct: () => download([target], { server: server.pid }),
  'proxy-chain, CONNECT': () =>
    download(['-p', '-x', `http://127.0.0.1:${proxyChain.line}`, target], {
      server: server.pid,
      'proxy-chain': proxyChain.pid,
    }),
  'proxy-chain, plain HTTP': () =>
    download(['-x', `http://127.0.0.1:${proxyChain.line}`, target], {
      server: server.pid,
      'proxy-chain': proxyChain.pid,
    }),
};
if (squid) {
  const via = ['-x', `http://127.0.0.1:${squid.port}`, target];
  // In the foreground (-N) the process started is the one that moves the bytes (no kid, no pinger).
  const pids = { server: server.pid, squid: squid.pid };
  variants['squid, CONNECT'] = () => download(['-p', ...via], pids);
  variants['squid, plain HTTP'] = () => download(via, pids);
}
for (const [name, { proxy, forwarder, forwarderPort }] of Object.entries(paths)) {
  const pids = { server: server.pid, forwarder: forwarder.pid, proxy: proxy.pid };
  const via = ['-x', `http://127.0.0.1:${forwarderPort}`, target];
  variants[`${name}, CONNECT`] = () => download(['-p', ...via], pids);
  variants[`${name}, plain HTTP`] = () => download(via, pids);
}
const rows = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
const loads = [loadAverage()];
try {
  for (let i = 0; i < ROUNDS; i++) {
    const order = Object.keys(variants);
    if (i % 2) order.reverse();
    for (const name of order) rows[name].push(variants[name]());
  }
} finally {
  for (const child of children) child.kill();
}
loads.push(loadAverage());

const range = (xs, digits = 0) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
console.log(`machine: ${machineNote()}; load ${loads.join(' → ')}; rounds ${ROUNDS}; 100 MiB a download`);
const direct = median(rows.direct.map((r) => r.speed));
for (const [name, results] of Object.entries(rows)) {
  const speeds = results.map((r) => r.speed);
  const cpu = Object.keys(results[0].cpu)
    .map((k) => `${k} ${range(results.map((r) => r.cpu[k]))} ms`)
    .join(', ');
  console.log(
    `${name.padEnd(24)} ${range(speeds)} MiB/s (${((100 * median(speeds)) / direct).toFixed(0)} % of direct); CPU: ${cpu}`,
  );
}
