// The network allow-list's cost (docs/network.md): the bundled action as the runner runs it, as root on
// Docker, with the test image that has curl (test/support/network.ts builds it: run
// test/integration/network.test.ts once first).
//   1. start → the command's first instruction: an allow-list vs `network: bridge` (target: ≤ +0.3 s);
//   2. a 100 MB download from a server on this machine: through the proxy vs direct (target: ≥ 80 %); the
//      server sends as fast as this machine copies memory (GB/s, a ceiling no link reaches: the proxy's
//      ceiling), and again paced to 1 Gbit/s (125 MB/s, a fast link to a registry);
//   3. 200 parallel connections through the proxy: the action step's peak memory, and the sidecar's.
// Rounds alternate the two variants, so that the shared machine's noise falls on both alike.
// Usage: node bench/network.bench.mjs [rounds=7] [an earlier build's dist/index.js, or -] [start: that figure only]
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { setTimeout } from 'node:timers';
import {
  CACHE,
  DIST,
  firstTimestamp,
  loadAverage,
  machineNote,
  median,
  runActionStep,
  ACTION_DEFAULTS,
} from './lib.mjs';

const ROUNDS = Number(process.argv[2] ?? 7);
/** An earlier build's dist/index.js, run as the variant "before" (e.g. the bundle of the last release). */
const BEFORE = process.argv[3] && process.argv[3] !== '-' ? path.resolve(process.argv[3]) : undefined;
const START_ONLY = process.argv[4] === 'start';
const loadStart = loadAverage();
const IMAGE = 'worktree-sandbox-net-test:bookworm';
const NAME = 'bench.ws-net.test';
const SIZE = 100 * 1024 * 1024;

const bridge = /inet (\d+\.\d+\.\d+\.\d+)/.exec(
  execFileSync('ip', ['-4', '-o', 'addr', 'show', 'docker0'], { encoding: 'utf8' }),
)[1];
const hosts = fs.readFileSync('/etc/hosts', 'utf8');
if (!hosts.split('\n').some((l) => l.split(/\s+/).includes(NAME)))
  fs.appendFileSync('/etc/hosts', `${bridge} ${NAME}\n`);

const chunk = Buffer.alloc(1024 * 1024, 'x');
/** Bytes a second of `/paced`: 1 Gbit/s. */
const PACE = 125e6;
const server = http.createServer((req, res) => {
  if (req.url === '/slow') {
    setTimeout(() => res.end('ok\n'), 2000);
    return;
  }
  res.writeHead(200, { 'content-length': String(SIZE) });
  const started = Date.now();
  const paced = req.url === '/paced';
  let sent = 0;
  const more = () => {
    while (sent < SIZE) {
      // Paced: no further than PACE allows by now; the rest on a timer.
      const due = paced ? ((Date.now() - started) / 1000) * PACE + chunk.length : SIZE;
      if (sent >= due) return void setTimeout(more, 5);
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
    res.end();
  };
  more();
});
await new Promise((r) => server.listen(0, '0.0.0.0', r));
const port = server.address().port;

const repo = path.join(CACHE, 'network-bench-repo');
if (!fs.existsSync(path.join(repo, '.git'))) {
  fs.mkdirSync(repo, { recursive: true });
  const g = (...args) => execFileSync('git', ['-C', repo, ...args]);
  g('init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(repo, 'README.md'), 'bench\n');
  g('add', '.');
  g('-c', 'user.name=b', '-c', 'user.email=b@example.com', 'commit', '-qm', 'init');
}

const speed = (stdout) => Number(/SPEED (\d+(\.\d+)?)/.exec(stdout)[1]) / 1024 ** 2;

/** `dist` is the bundle to run: this source's, or an earlier build's (the "before" variant). */
async function step(network, command, { extra = {}, dist = DIST } = {}) {
  const inputs = {
    ...ACTION_DEFAULTS,
    ...extra,
    image: IMAGE,
    'repository-path': repo,
    'volume-prefix': 'wtsbench-net',
    network,
    command,
  };
  const main = await runActionStep({ inputs, cwd: repo, dist });
  await runActionStep({ inputs, cwd: repo, state: main.state, dist });
  return main;
}

const ALLOW = `${NAME}:${port}`;
// bridge: no proxy (the baseline); allow: this source's proxy; before: the earlier build's, if given.
const VARIANTS = ['bridge', 'allow', ...(BEFORE ? ['before'] : [])];
const table = () => Object.fromEntries(VARIANTS.map((v) => [v, []]));
const rows = {
  start: table(),
  credentials: table(),
  download: table(),
  downloadTunnel: table(),
  paced: table(),
  pacedTunnel: table(),
  peak: table(),
};
const distOf = (variant) => (variant === 'before' ? BEFORE : DIST);
const startMs = (main) => Number(firstTimestamp(main.stdout) - main.startNs) / 1e6;

for (let i = 0; i < ROUNDS; i++) {
  // Each round starts with another variant, so that the shared machine's noise falls on all alike.
  const order = VARIANTS.map((_, k) => VARIANTS[(i + k) % VARIANTS.length]);
  for (const variant of order) {
    const network = variant === 'bridge' ? 'bridge' : ALLOW;
    const dist = distOf(variant);
    rows.start[variant].push(startMs(await step(network, 'date +%s%N', { dist })));
    if (variant !== 'bridge') {
      // With a credential: the run's CA and the host's certificate are made too.
      const extra = { credentials: `${NAME} x-bench-key: not-a-secret` };
      rows.credentials[variant].push(startMs(await step(network, 'date +%s%N', { extra, dist })));
    }
    if (START_ONLY) continue;
    // The direct download goes to the bridge's address (the name resolves there on the host only).
    const base = variant === 'bridge' ? `http://${bridge}:${port}` : `http://${NAME}:${port}`;
    for (const [row, url] of [
      ['download', `${base}/`],
      ['paced', `${base}/paced`],
    ]) {
      const dl = await step(network, `curl -sS -o /dev/null -w 'SPEED %{speed_download}\\n' ${url}`, {
        dist,
      });
      rows[row][variant].push(speed(dl.stdout));
      if (variant !== 'bridge') {
        // The same through a CONNECT tunnel (how HTTPS goes): bytes relayed, no HTTP parsed by the proxy.
        const tunnel = await step(
          network,
          `curl -sS -p -o /dev/null -w 'SPEED %{speed_download}\\n' ${url}`,
          { dist },
        );
        rows[`${row}Tunnel`][variant].push(speed(tunnel.stdout));
      }
    }
  }
}
for (let i = 0; i < (START_ONLY ? 0 : 3); i++) {
  for (const variant of VARIANTS) {
    const base = variant === 'bridge' ? `http://${bridge}:${port}` : `http://${NAME}:${port}`;
    const main = await step(
      variant === 'bridge' ? 'bridge' : ALLOW,
      `seq 200 | xargs -P 200 -I{} curl -sS -o /dev/null -w '%{http_code}\\n' ${base}/slow | sort | uniq -c`,
      { dist: distOf(variant) },
    );
    if (!/200 200/.test(main.stdout)) throw new Error(`not 200 answers of 200:\n${main.stdout.slice(-2000)}`);
    rows.peak[variant].push(main.peakKb / 1024);
  }
}
server.close();

const fmt = (xs, unit, digits = 3) =>
  `${median(xs).toFixed(digits)} ${unit} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
const seconds = (xs) =>
  fmt(
    xs.map((x) => x / 1000),
    's',
  );
const plus = (xs) => `${((median(xs) - median(rows.start.bridge)) / 1000).toFixed(3)} s`;
const ratio = (xs, row) => `${((100 * median(xs)) / median(rows[row].bridge)).toFixed(0)} %`;
const proxied = VARIANTS.filter((v) => v !== 'bridge');
const named = (v) => (v === 'allow' ? 'allow-list' : `allow-list, before (${BEFORE})`);
const out = [
  `machine: ${machineNote()}; load ${loadStart} at the start, ${loadAverage()} at the end; rounds ${ROUNDS}`,
  `start → first instruction: bridge ${seconds(rows.start.bridge)}; ${proxied
    .map(
      (v) =>
        `${named(v)} ${seconds(rows.start[v])}, ${plus(rows.start[v])}; with a credential ${seconds(rows.credentials[v])}, ${plus(rows.credentials[v])}`,
    )
    .join('; ')} (median differences to bridge; target ≤ +0.3 s)`,
  ...(START_ONLY ? [] : ['download', 'paced']).map(
    (row) =>
      `100 MB download, ${row === 'paced' ? 'server paced to 1 Gbit/s' : 'server unpaced'}: direct ${fmt(rows[row].bridge, 'MiB/s', 1)}; ${proxied
        .map(
          (v) =>
            `${named(v)}: plain HTTP ${fmt(rows[row][v], 'MiB/s', 1)}, ${ratio(rows[row][v], row)}; CONNECT tunnel ${fmt(rows[`${row}Tunnel`][v], 'MiB/s', 1)}, ${ratio(rows[`${row}Tunnel`][v], row)}`,
        )
        .join('; ')} (target ≥ 80 %)`,
  ),
  START_ONLY
    ? ''
    : `200 parallel connections, action step peak RSS: ${VARIANTS.map((v) => `${v === 'bridge' ? 'bridge' : named(v)} ${fmt(rows.peak[v], 'MiB', 0)}`).join(', ')}`,
];
console.log(out.join('\n'));
