// Secret-scan benchmark (target: scanning a 10 MB push takes at most 1 s): the action's own `checkCommits`
// (src/run/secret-gate.ts: git's log of the commits read with every added line and every path name they
// add, each commit object read raw through `git cat-file`, the known values and their encodings searched
// for, secretlint's recommended rules) on commits that add 10 MB of generated but ordinary code, against a
// baseline measured in the same run, interleaved: the plain `git log -p` of the same commits (the read the
// scan made before it read raw objects and path names) read to its end and thrown away, which is what
// reading the change costs before anything is scanned.
//
//   node bench/secret-scan.bench.mjs   BENCH_REPEAT=7 (default)  BENCH_MB=10  BENCH_COMMITS=20  BENCH_STRICT=1
//
// It prints a Markdown section (for docs/benchmarks.md) and writes nothing; secretlint's first load (once
// per step, on the first scan) is timed apart.
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CACHE, loadAverage, machineNote, markdownTable, median, nowNs } from './lib.mjs';
import { importSource } from './src-modules.mjs';

const REPEAT = Number(process.env.BENCH_REPEAT ?? 7);
const MB = Number(process.env.BENCH_MB ?? 10);
const COMMITS = Number(process.env.BENCH_COMMITS ?? 20);
const TARGET_MS = 1000;
const log = (msg) => process.stderr.write(`[bench:secret-scan] ${msg}\n`);
const ms = (from) => Number(nowNs() - from) / 1e6;
const repo = path.join(CACHE, `secret-scan-${randomBytes(3).toString('hex')}`);

const { Git } = await importSource('engine/git');
const { checkCommits, secretGate } = await importSource('run/secret-gate');
const { loadLint } = await importSource('run/secret-scan');

function git(...args) {
  const result = spawnSync('git', args, { cwd: repo, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

/** Ordinary code: functions, calls, strings, numbers, comments, each file different. */
function codeFile(seed, bytes) {
  const words = ['user', 'order', 'item', 'cache', 'value', 'result', 'config', 'request', 'index', 'count'];
  const w = (i) => words[(seed * 7 + i * 13) % words.length];
  const lines = [
    `// Module ${seed}: generated for the secret-scan benchmark.`,
    `import { helper } from './helper-${seed % 17}.js';`,
  ];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const block = [
      `export function ${w(i)}${i}To${w(i + 1)}(${w(i + 2)}, options = {}) {`,
      `  const ${w(i + 3)}Id = \`${w(i)}-\${${w(i + 2)}.id}-${(seed * 31 + i) % 9973}\`;`,
      `  if (!${w(i + 2)} || options.skip) return helper.empty('${w(i + 4)} ${i}');`,
      `  // Keep the ${w(i + 5)} in step with the ${w(i + 6)} before it is returned.`,
      `  return { id: ${w(i + 3)}Id, total: ${w(i + 2)}.${w(i + 7)} * ${(i % 97) + 1.5}, name: "${w(i + 8)}_${i}" };`,
      '}',
      '',
    ].join('\n');
    lines.push(block);
    size += block.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

fs.mkdirSync(repo, { recursive: true });
git('init', '--quiet', '--initial-branch=main');
fs.writeFileSync(path.join(repo, 'README.md'), '# bench\n');
git('add', '-A');
git('-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '--quiet', '-m', 'base');
const base = git('rev-parse', 'HEAD');
const files = 200;
for (let c = 0; c < COMMITS; c++) {
  for (let i = c; i < files; i += COMMITS) {
    const dir = path.join(repo, 'src', `area-${i % 10}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `module-${i}.js`), codeFile(i, (MB * 1024 * 1024) / files));
  }
  git('add', '-A');
  git(
    '-c',
    'user.name=Bench',
    '-c',
    'user.email=bench@example.com',
    'commit',
    '--quiet',
    '-m',
    `modules ${c}`,
  );
}
const head = git('rev-parse', 'HEAD');

// The scan's read before it read raw objects and path names (each message and the added lines), read to
// its end and discarded: the baseline.
const LOG_ARGS = [
  'log',
  '--no-color',
  '--no-show-signature',
  '--no-ext-diff',
  '--no-textconv',
  '--no-renames',
  '--text',
  '--diff-merges=first-parent',
  '--patch',
  '--unified=0',
  '--src-prefix=a/',
  '--dst-prefix=b/',
  '--format=%H%n%B',
  head,
  '--not',
  base,
  '--',
];
const diffBytes = spawnSync('git', LOG_ARGS, { cwd: repo, maxBuffer: 1 << 30 }).stdout.length;
log(`diff of ${(diffBytes / 1024 / 1024).toFixed(1)} MiB (${files} files, ${COMMITS} commits) in ${repo}`);

const baseline = () => {
  const from = nowNs();
  const result = spawnSync('git', LOG_ARGS, { cwd: repo, stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error('git log failed');
  return ms(from);
};

const ui = {
  info: () => undefined,
  debug: () => undefined,
  debugging: false,
  warning: (m) => log(`warning: ${m}`),
  group: (_t, fn) => fn(),
  untrusted: (fn) => fn(() => undefined),
  fenced: () => undefined,
  mask: () => undefined,
};
// A step's usual secrets: the token, a credential, two env keys (each searched in all its encodings).
const gate = secretGate(
  {
    secretScan: 'block',
    token: 'ghs_benchToken0123456789abcdefABCDEF',
    network: {
      mode: 'allow',
      rules: [],
      credentials: [
        {
          host: 'api.example.com',
          scheme: 'https',
          ports: [443],
          header: 'Authorization',
          value: 'Bearer sk-bench-0123456789abcdef',
        },
      ],
    },
    env: [
      { name: 'OPENAI_API_KEY', value: 'sk-bench-openai-0123456789' },
      { name: 'DB_PASSWORD', value: 'bench-db-password-0123' },
    ],
  },
  ui,
);
const git_ = await Git.create();

let from = nowNs();
await loadLint();
const loadMs = ms(from);

// CPU time of this process too (git's is the baseline's): on a shared machine, wall time waits for cores.
const cpu = [];
const scan = async () => {
  const start = nowNs();
  const used = process.cpuUsage();
  await checkCommits(git_, repo, [head, '--not', base], gate, 'the bench commit');
  const { user, system } = process.cpuUsage(used);
  cpu.push((user + system) / 1000);
  return ms(start);
};

const samples = { scan: [], baseline: [] };
await scan(); // warm-up: the page cache, the JIT
cpu.length = 0;
baseline();
for (let i = 0; i < REPEAT; i++) {
  const order = i % 2 ? ['baseline', 'scan'] : ['scan', 'baseline'];
  for (const which of order) samples[which].push(which === 'scan' ? await scan() : baseline());
}
fs.rmSync(repo, { recursive: true, force: true });

const scanMs = median(samples.scan);
const baseMs = median(samples.baseline);
const fmt = (v) => `${Math.round(v)} ms`;
const rows = [
  [
    `scan of a ${(diffBytes / 1024 / 1024).toFixed(1)} MiB push, ${COMMITS} commits (\`checkCommits\`, median of ${REPEAT})`,
    fmt(scanMs),
    fmt(baseMs),
    `${(scanMs / baseMs).toFixed(1)}×`,
  ],
  ['the same, CPU time of the scanning process (median)', fmt(median(cpu)), '', ''],
  ["secretlint's first load (once per step)", fmt(loadMs), '', ''],
];
const section = [
  markdownTable(
    ['what', 'secret-scan', 'baseline: the plain `git log -p` read and discarded', 'ratio'],
    rows,
  ),
  '',
  `Target: at most ${TARGET_MS} ms for a 10 MB push: ${scanMs <= TARGET_MS ? 'met' : 'not met'} (${fmt(scanMs)}; with the first load ${fmt(scanMs + loadMs)}). ${machineNote()}; load average ${loadAverage()}; samples: scan ${samples.scan.map(fmt).join(', ')}; baseline ${samples.baseline.map(fmt).join(', ')}.`,
].join('\n');
process.stdout.write(`## Secret scan\n\n${section}\n`);
if (process.env.BENCH_STRICT === '1' && scanMs > TARGET_MS) process.exit(1);
