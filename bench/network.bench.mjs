// The network allow-list's cost (notes/network.md): the bundled action as the runner runs it, as root on
// Docker, with the test image that has curl (test/support/network.ts builds it: run
// test/integration/network.test.ts once first).
//   1. start → the command's first instruction: an allow-list vs `network: bridge` (target: ≤ +0.3 s);
//   2. a 100 MB download from a server on this machine: through the proxy vs direct (target: ≥ 80 %);
//   3. 200 parallel connections through the proxy: the action step's peak memory, and the sidecar's.
// Rounds alternate the two variants, so that the shared machine's noise falls on both alike.
// Usage: node bench/network.bench.mjs [rounds=7]
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { setTimeout } from 'node:timers';
import { parse } from 'yaml';
import { CACHE, ROOT, firstTimestamp, loadAverage, machineNote, median, runActionStep } from './lib.mjs';

const ROUNDS = Number(process.argv[2] ?? 7);
const IMAGE = 'worktree-sandbox-net-test:bookworm';
const NAME = 'bench.ws-net.test';
const SIZE = 100 * 1024 * 1024;

const DEFAULTS = Object.fromEntries(
  Object.entries(parse(fs.readFileSync(path.join(ROOT, 'action.yml'), 'utf8')).inputs).map(
    ([name, input]) => [name, String(input.default ?? '').includes('${{') ? '' : String(input.default ?? '')],
  ),
);

const bridge = /inet (\d+\.\d+\.\d+\.\d+)/.exec(
  execFileSync('ip', ['-4', '-o', 'addr', 'show', 'docker0'], { encoding: 'utf8' }),
)[1];
const hosts = fs.readFileSync('/etc/hosts', 'utf8');
if (!hosts.split('\n').some((l) => l.split(/\s+/).includes(NAME)))
  fs.appendFileSync('/etc/hosts', `${bridge} ${NAME}\n`);

const chunk = Buffer.alloc(1024 * 1024, 'x');
const server = http.createServer((req, res) => {
  if (req.url === '/slow') {
    setTimeout(() => res.end('ok\n'), 2000);
    return;
  }
  res.writeHead(200, { 'content-length': String(SIZE) });
  let sent = 0;
  const more = () => {
    while (sent < SIZE) {
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

async function step(network, command) {
  const inputs = {
    ...DEFAULTS,
    image: IMAGE,
    'repository-path': repo,
    'volume-prefix': 'wtsbench-net',
    network,
    command,
  };
  const main = await runActionStep({ inputs, cwd: repo });
  await runActionStep({ inputs, cwd: repo, state: main.state });
  return main;
}

const ALLOW = `${NAME}:${port}`;
const rows = {
  start: { bridge: [], allow: [] },
  download: { bridge: [], allow: [], tunnel: [] },
  peak: { bridge: [], allow: [] },
};

for (let i = 0; i < ROUNDS; i++) {
  for (const variant of i % 2 ? ['allow', 'bridge'] : ['bridge', 'allow']) {
    const network = variant === 'allow' ? ALLOW : 'bridge';
    const start = await step(network, 'date +%s%N');
    rows.start[variant].push(Number(firstTimestamp(start.stdout) - start.startNs) / 1e6);
    // The direct download goes to the bridge's address (the name resolves there on the host only).
    const url = variant === 'allow' ? `http://${NAME}:${port}/` : `http://${bridge}:${port}/`;
    const dl = await step(network, `curl -sS -o /dev/null -w 'SPEED %{speed_download}\\n' ${url}`);
    rows.download[variant].push(speed(dl.stdout));
    if (variant === 'allow') {
      // The same through a CONNECT tunnel (how HTTPS goes): bytes piped, no HTTP parsed by the proxy.
      const tunnel = await step(network, `curl -sS -p -o /dev/null -w 'SPEED %{speed_download}\\n' ${url}`);
      rows.download.tunnel.push(speed(tunnel.stdout));
    }
  }
}
for (const variant of ['bridge', 'allow']) {
  const url = variant === 'allow' ? `http://${NAME}:${port}/slow` : `http://${bridge}:${port}/slow`;
  const network = variant === 'allow' ? ALLOW : 'bridge';
  for (let i = 0; i < 3; i++) {
    const main = await step(
      network,
      `seq 200 | xargs -P 200 -I{} curl -sS -o /dev/null -w '%{http_code}\\n' ${url} | sort | uniq -c`,
    );
    if (!/200 200/.test(main.stdout)) throw new Error(`not 200 answers of 200:\n${main.stdout.slice(-2000)}`);
    rows.peak[variant].push(main.peakKb / 1024);
  }
}
server.close();

const fmt = (xs, unit, digits = 3) =>
  `${median(xs).toFixed(digits)} ${unit} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
const out = [
  `machine: ${machineNote()}; load ${loadAverage()}; rounds ${ROUNDS}`,
  `start → first instruction: bridge ${fmt(
    rows.start.bridge.map((x) => x / 1000),
    's',
  )}, allow-list ${fmt(
    rows.start.allow.map((x) => x / 1000),
    's',
  )}; median difference ${((median(rows.start.allow) - median(rows.start.bridge)) / 1000).toFixed(3)} s (target ≤ +0.3 s)`,
  `100 MB download: direct ${fmt(rows.download.bridge, 'MiB/s', 1)}, through the proxy (plain HTTP, forwarded) ${fmt(rows.download.allow, 'MiB/s', 1)}, ratio ${((100 * median(rows.download.allow)) / median(rows.download.bridge)).toFixed(0)} %; through a CONNECT tunnel ${fmt(rows.download.tunnel, 'MiB/s', 1)}, ratio ${((100 * median(rows.download.tunnel)) / median(rows.download.bridge)).toFixed(0)} % (target ≥ 80 %)`,
  `200 parallel connections, action step peak RSS: bridge ${fmt(rows.peak.bridge, 'MiB', 0)}, allow-list ${fmt(rows.peak.allow, 'MiB', 0)}`,
];
console.log(out.join('\n'));
