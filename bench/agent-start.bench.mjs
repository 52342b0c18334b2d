// How soon an agent CLI starts working (docs/agents.md, "An agent that starts in seconds"): from the
// action step's start to the CLI's first request to its model API, a fake on this machine that answers
// with a final text (so the CLI ends at once). Claude Code, the largest of the three packages. Variants,
// interleaved round by round, the bundled action as the runner runs it (as root, on Docker):
//   npx     today's recipe: `npx --yes <package>@<version>` on the Node image, `@npm` in the allow-list
//           (the real npm registry, through the proxy: the one outside host; keep the rounds few);
//   image   the CLI installed in an image built before the step (what test/e2e/agents/ builds);
// and, outside the action (no input mounts a host folder today), a bare `docker run` of the CLI from the
// image vs the same CLI from a host folder of npm-installed tools mounted read-only on the Node image.
// The CLI comes from the cache of test/e2e/agents/ (run one of those tests once first).
// Usage: node bench/agent-start.bench.mjs [rounds=3] [docker-run rounds=7]
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { CACHE, loadAverage, machineNote, median, nowNs, run, runActionStep } from './lib.mjs';

const ROUNDS = Number(process.argv[2] ?? 3);
const DOCKER_ROUNDS = Number(process.argv[3] ?? 7);
const PKG = '@anthropic-ai/claude-code';
const VERSION = process.env.BENCH_AGENT_VERSION ?? '2.1.332';
const NODE_IMAGE = process.env.WORKTREE_SANDBOX_NODE_IMAGE ?? 'worktree-sandbox-node:24';
const AGENT_IMAGE = `worktree-sandbox-agent-claude-code:${VERSION}`;
const TOOLS = path.join(
  process.env.WORKTREE_SANDBOX_AGENT_CACHE ?? path.join(os.tmpdir(), 'worktree-sandbox-agents'),
  `claude-code@${VERSION}`,
);
const NAME = 'bench-agent.ws-net.test';
const loadStart = loadAverage();

for (const need of [path.join(TOOLS, '.complete')])
  if (!fs.existsSync(need))
    throw new Error(`${need} is missing: run test/e2e/agents/claude-code.test.ts once`);
execFileSync('docker', ['image', 'inspect', AGENT_IMAGE], { stdio: 'ignore' });

const bridge = /inet (\d+\.\d+\.\d+\.\d+)/.exec(
  execFileSync('ip', ['-4', '-o', 'addr', 'show', 'docker0'], { encoding: 'utf8' }),
)[1];
if (
  !fs
    .readFileSync('/etc/hosts', 'utf8')
    .split('\n')
    .some((l) => l.split(/\s+/).includes(NAME))
)
  fs.appendFileSync('/etc/hosts', `${bridge} ${NAME}\n`);

// The fake: the time of the first request of each run, and a final answer that ends the CLI.
let firstNs = 0n;
const server = http.createServer((req, res) => {
  if (!firstNs) firstNs = nowNs();
  req.resume();
  req.on('end', () => {
    const usage = { input_tokens: 1, output_tokens: 1 };
    const events = [
      [
        'message_start',
        {
          type: 'message_start',
          message: {
            id: 'm',
            type: 'message',
            role: 'assistant',
            model: 'x',
            content: [],
            stop_reason: null,
            usage,
          },
        },
      ],
      [
        'content_block_start',
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      ],
      [
        'content_block_delta',
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'done' } },
      ],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage }],
      ['message_stop', { type: 'message_stop' }],
    ];
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(events.map(([e, d]) => `event: ${e}\ndata: ${JSON.stringify(d)}\n\n`).join(''));
  });
});
await new Promise((r) => server.listen(0, '0.0.0.0', r));
const port = server.address().port;
const base = `http://${NAME}:${port}`;

const repo = path.join(CACHE, 'agent-start-repo');
if (!fs.existsSync(path.join(repo, '.git'))) {
  fs.mkdirSync(repo, { recursive: true });
  const g = (...args) => execFileSync('git', ['-C', repo, ...args]);
  g('init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(repo, 'README.md'), 'bench\n');
  g('add', '.');
  g('-c', 'user.name=b', '-c', 'user.email=b@example.com', 'commit', '-qm', 'init');
}

const ARGS = '-p --permission-mode bypassPermissions "Say done." < /dev/null';
const VARIANTS = {
  npx: { image: NODE_IMAGE, network: '@npm', command: `npx --yes ${PKG}@${VERSION} ${ARGS}` },
  image: { image: AGENT_IMAGE, network: NAME, command: `claude ${ARGS}` },
};

async function actionRun(variant) {
  const v = VARIANTS[variant];
  firstNs = 0n;
  const step = await runActionStep({
    cwd: repo,
    inputs: {
      mode: 'run',
      image: v.image,
      command: v.command,
      network: v.network,
      credentials: `http://${NAME}:${port} x-api-key: bench-key`,
      // This bench runs the step as root, so the container runs as root: Claude Code then wants IS_SANDBOX=1.
      env: `ANTHROPIC_API_KEY=placeholder\nANTHROPIC_BASE_URL=${base}\nCLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1\nIS_SANDBOX=1`,
      'repository-path': repo,
      cleanup: 'always',
    },
  });
  if (!firstNs) throw new Error(`${variant}: no model request\n${step.stdout.slice(-3000)}`);
  return Number(firstNs - step.startNs) / 1e6;
}

async function dockerRun(variant) {
  const mounts = variant === 'folder' ? ['-v', `${TOOLS}:/opt/agent:ro`] : [];
  const claude = variant === 'folder' ? '/opt/agent/node_modules/.bin/claude' : 'claude';
  firstNs = 0n;
  const startNs = nowNs();
  await run(
    'docker',
    [
      'run',
      '--rm',
      '--user',
      '1001:1001',
      '-e',
      'HOME=/tmp',
      '--add-host',
      `${NAME}:${bridge}`,
      '-e',
      'ANTHROPIC_API_KEY=k',
      '-e',
      `ANTHROPIC_BASE_URL=${base}`,
      '-e',
      'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1',
      ...mounts,
      variant === 'folder' ? NODE_IMAGE : AGENT_IMAGE,
      'sh',
      '-c',
      `${claude} ${ARGS}`,
    ],
    { check: true },
  );
  if (!firstNs) throw new Error(`${variant}: no model request`);
  return Number(firstNs - startNs) / 1e6;
}

const times = { npx: [], image: [], dimage: [], folder: [] };
for (let round = 0; round < Math.max(ROUNDS, DOCKER_ROUNDS); round++) {
  const order = round % 2 ? ['image', 'npx'] : ['npx', 'image'];
  if (round < ROUNDS) for (const v of order) times[v].push(await actionRun(v));
  const dorder = round % 2 ? ['folder', 'dimage'] : ['dimage', 'folder'];
  if (round < DOCKER_ROUNDS)
    for (const v of dorder) times[v].push(await dockerRun(v === 'dimage' ? 'image' : v));
  console.error(
    `round ${round + 1}: ${Object.entries(times)
      .map(([k, t]) => `${k} ${t.at(-1)?.toFixed(0)}`)
      .join(', ')}`,
  );
}
server.close();

const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
const m = Object.fromEntries(Object.entries(times).map(([k, t]) => [k, median(t)]));
console.log(
  `Claude Code ${VERSION}, step start → first model request, medians (${ROUNDS} action rounds, ${DOCKER_ROUNDS} docker rounds)`,
);
console.log(`| Variant | Median | Ratio to npx |`);
console.log(`| action, npx --yes (@npm allowed) | ${s(m.npx)} | × 1.00 |`);
console.log(`| action, CLI in an image built before | ${s(m.image)} | × ${(m.image / m.npx).toFixed(2)} |`);
console.log(`| docker run, CLI in the image | ${s(m.dimage)} | (baseline of the next row) |`);
console.log(
  `| docker run, CLI in a read-only host folder | ${s(m.folder)} | × ${(m.folder / m.dimage).toFixed(2)} of the row above |`,
);
console.log(`load ${loadStart} → ${loadAverage()}; ${machineNote()}`);
