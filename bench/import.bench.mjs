// Import benchmark (target: the import of a one-commit change ≤ 0.2 s): what a run adds after a command
// that made one commit, on the run-mode benchmark's large repository, each figure against a hand-written
// equivalent measured in the same run, interleaved in rotating order.
//
//   node bench/import.bench.mjs        BENCH_REPEAT=7 (default)  BENCH_STRICT=1  BENCH_WRITE=1 (append to docs/benchmarks.md)  BENCH_REPO=/path
//
// (a) host-side import: the action's own `importBundle` + `buildReport` (src/run/import.ts, report.ts),
//     called in-process on a bundle the real `captureSandbox` made (the TypeScript transpiled as it is, see
//     bench/src-modules.mjs), from the bundle on disk to the report. Baseline: the one `git fetch` a
//     person who trusts the sandbox would run, straight from the sandbox into the parent.
// (b) the whole after-command phase, in-process: the action's `collectChanges` (capture helper container,
//     import, report). Baseline: a helper `docker run` doing `git bundle create` to its stdout + `git fetch`
//     of that bundle into the parent (no fsck, no private store, no report).
// (c) the same seen from outside: the bundled action (`node dist/index.js`, main step) on a reused branch
//     sandbox whose command commits one change and prints `date +%s%N` last, from that instruction to the
//     step's exit; baseline: a bare `docker run` doing the same, from its last instruction to its exit.
// Every sample of (a), (b) and their baselines gets a new branch sandbox (the action's `prepareSandbox`,
// disk) with one new commit in it: nothing is imported twice.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cloneOf, gitShapedRepository, repositoryShape } from './git-shaped-repo.mjs';
import {
  CACHE,
  DIST,
  IMAGE,
  ROOT,
  bareRunArgs,
  loadAverage,
  machineNote,
  markdownTable,
  median,
  nowNs,
  run,
  runActionStep,
  seconds,
  writeSection,
  ACTION_DEFAULTS,
} from './lib.mjs';
import { importSource } from './src-modules.mjs';

const REPEAT = Number(process.env.BENCH_REPEAT ?? 7);
const TARGET_MS = 200;
const log = (msg) => process.stderr.write(`[bench:import] ${msg}\n`);
const tag = randomBytes(3).toString('hex');
const scratch = path.join(CACHE, `import-${tag}`);
const worktreeRoot = path.join(scratch, 'worktrees');
const prefix = `wtsbench-${tag}`;
const uid = process.getuid();
const gid = process.getgid();
const IDENTITY = { name: 'Bench', email: 'bench@example.com' };
const GIT_ID = ['-c', `user.name=${IDENTITY.name}`, '-c', `user.email=${IDENTITY.email}`];
const ms = (from) => Number(nowNs() - from) / 1e6;

const { Git } = await importSource('engine/git');
const { ContainerEngine } = await importSource('engine/engine');
const { findParentRepository } = await importSource('sandbox/repository');
const { resolveBranch } = await importSource('sandbox/branch');
const { locateSandbox } = await importSource('sandbox/layout');
const { prepareSandbox } = await importSource('sandbox/create');
const { removeSandbox } = await importSource('sandbox/remove');
const { captureSandbox } = await importSource('run/capture');
const { importBundle } = await importSource('run/import');
const { buildReport } = await importSource('run/report');
const { collectChanges } = await importSource('run/collect');

const git = await Git.create();
const engine = new ContainerEngine('docker');
const quiet = { info: () => undefined };
const branches = [];

/** A new branch sandbox made by the action's own code, with one new commit on its branch. */
async function sandboxWithOneCommit(parent, label) {
  const branch = `bench-import-${tag}-${label}`;
  branches.push(branch);
  const plan = await resolveBranch(git, parent, branch, '');
  const location = locateSandbox(plan, parent, 'disk', worktreeRoot, prefix);
  const sandbox = await prepareSandbox(git, engine, location, plan, IMAGE, quiet);
  const wt = sandbox.worktreePath;
  const file = (await run('git', ['-C', wt, 'ls-files', '--', 'builtin'])).stdout.split('\n')[0];
  fs.appendFileSync(path.join(wt, file), `/* ${label} */\n`);
  await run('git', ['-C', wt, ...GIT_ID, 'commit', '--quiet', '-am', `one change (${label})`]);
  return sandbox;
}

/** What collectChanges hands captureSandbox (src/run/collect.ts), so that (a) imports the same bundle. */
async function capture(sandbox) {
  const parentBranch = await git.resolveCommit(sandbox.parent.path, `refs/heads/${sandbox.branch}`);
  return captureSandbox(engine, sandbox, {
    image: IMAGE,
    author: IDENTITY,
    committer: IDENTITY,
    exclude: [...new Set([sandbox.startSha, ...(parentBranch ? [parentBranch] : [])])],
    maxBytes: 1024 ** 3,
    work: 'capture',
  });
}

function expectOneCommit(report, what) {
  if (report.commits !== 1 || report.changedFiles.length !== 1)
    throw new Error(`${what}: expected one commit changing one file, got ${JSON.stringify(report)}`);
}

/** Every git process the action's Git object starts while tracing: what it ran, when it started and ended. */
function traceGit() {
  const calls = [];
  const exec = git.exec;
  git.exec = async function traced(cwd, args, options) {
    const started = nowNs();
    try {
      return await exec.call(this, cwd, args, options);
    } finally {
      calls.push({ what: args.find((a) => !a.startsWith('-')) ?? args[0], started, ended: nowNs() });
    }
  };
  return { calls, stop: () => delete git.exec };
}

/** Processes, time with at least one git process running, and the two fetches (fsck) of one import. */
function summarizeTrace(calls, start, end) {
  let busy = 0n;
  let until = start;
  for (const c of [...calls].sort((a, b) => (a.started < b.started ? -1 : 1))) {
    const from = c.started > until ? c.started : until;
    if (c.ended > from) busy += c.ended - from;
    if (c.ended > until) until = c.ended;
  }
  const fetches = calls.filter((c) => c.what === 'fetch').map((c) => Number(c.ended - c.started) / 1e6);
  return {
    processes: calls.length,
    busyMs: Number(busy) / 1e6,
    outsideMs: Number(end - start - busy) / 1e6,
    fetchMs: fetches,
  };
}

const traces = [];

const measures = {
  /** (a) importBundle + buildReport, from the bundle on disk to the report. */
  async import(parent, label) {
    const sandbox = await sandboxWithOneCommit(parent, label);
    const captured = await capture(sandbox);
    try {
      await run('sync', []);
      const trace = traceGit();
      const start = nowNs();
      let report;
      try {
        const imported = await importBundle(git, sandbox, captured);
        report = await buildReport(git, parent.path, sandbox.startSha, imported, captured);
      } finally {
        trace.stop();
      }
      const end = nowNs();
      expectOneCommit(report, 'importBundle + buildReport');
      traces.push(summarizeTrace(trace.calls, start, end));
      return Number(end - start) / 1e6;
    } finally {
      fs.rmSync(captured.dir, { recursive: true, force: true });
      await removeSandbox(git, engine, sandbox);
    }
  },
  /** Baseline of (a): one `git fetch` from the sandbox's repository into the parent. */
  async fetch(parent, label) {
    const sandbox = await sandboxWithOneCommit(parent, label);
    try {
      await run('sync', []);
      const start = nowNs();
      const ref = `refs/heads/${sandbox.branch}`;
      await run('git', [
        '-C',
        parent.path,
        'fetch',
        '--quiet',
        '--no-tags',
        '--',
        sandbox.worktreePath,
        `+${ref}:${ref}`,
      ]);
      return ms(start);
    } finally {
      await removeSandbox(git, engine, sandbox);
    }
  },
  /** (b) collectChanges: capture helper + import + report. */
  async collect(parent, label) {
    const sandbox = await sandboxWithOneCommit(parent, label);
    try {
      await run('sync', []);
      const start = nowNs();
      const report = await collectChanges(git, engine, sandbox, {
        image: IMAGE,
        author: IDENTITY,
        committer: IDENTITY,
        maxImportBytes: 1024 ** 3,
      });
      const t = ms(start);
      expectOneCommit(report, 'collectChanges');
      return t;
    } finally {
      await removeSandbox(git, engine, sandbox);
    }
  },
  /** Baseline of (b): `git bundle create` in a helper container, to its stdout; `git fetch` of it. */
  async bundle(parent, label) {
    const sandbox = await sandboxWithOneCommit(parent, label);
    const wt = sandbox.worktreePath;
    const objects = parent.objectStores[0];
    const file = path.join(scratch, `${label}.bundle`);
    try {
      await run('sync', []);
      const start = nowNs();
      const { stdout } = await runBuffer('docker', [
        'run',
        '--rm',
        '--user',
        `${uid}:${gid}`,
        '-v',
        `${objects}:${objects}:ro`,
        '-v',
        `${wt}:${wt}`,
        '-w',
        wt,
        IMAGE,
        'git',
        'bundle',
        'create',
        '--quiet',
        '-',
        'HEAD',
        `^${sandbox.startSha}`,
      ]);
      fs.writeFileSync(file, stdout);
      const ref = `refs/heads/${sandbox.branch}`;
      await run('git', ['-C', parent.path, 'fetch', '--quiet', '--no-tags', '--', file, `+HEAD:${ref}`]);
      return ms(start);
    } finally {
      fs.rmSync(file, { force: true });
      await removeSandbox(git, engine, sandbox);
    }
  },
};

/** Like lib.mjs's run, with stdout as bytes (a bundle). */
async function runBuffer(cmd, args) {
  const { spawn } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    let stderr = '';
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve({ stdout: Buffer.concat(chunks) })
        : reject(new Error(`${cmd} exited ${code}: ${stderr}`)),
    );
  });
}

// ---- (c) the bundled action, seen from outside ------------------------------------------------------------

/** One change, one commit, then the last instruction prints the clock (containers share the host's). */
const commitCommand = (who) =>
  `echo "${who} $(date +%s%N)" >> bench-import.txt && git add bench-import.txt && ` +
  `git -c user.name=Bench -c user.email=bench@example.com commit --quiet -m one && date +%s%N`;
const lastTimestamp = (text) => {
  const all = [...text.matchAll(/^(\d{19})$/gm)];
  if (!all.length) throw new Error(`no date +%s%N line in the output:\n${text.slice(-2000)}`);
  return BigInt(all.at(-1)[1]);
};

const actionInputs = (repo, branch, extra) => ({
  ...ACTION_DEFAULTS,
  image: IMAGE,
  isolation: 'disk',
  branch,
  'repository-path': repo,
  'worktree-root': worktreeRoot,
  'volume-prefix': prefix,
  ...extra,
});

/** The persistent sandbox goes the way a user removes it: a run with `cleanup: always`. */
async function removeWithAction(repo, branch) {
  const inputs = actionInputs(repo, branch, { command: 'true', cleanup: 'always' });
  const main = await runActionStep({ inputs, cwd: repo });
  await runActionStep({ inputs, cwd: repo, state: main.state });
}

async function actionAfterCommand(repo, branch) {
  const inputs = actionInputs(repo, branch, { command: commitCommand('action') });
  const main = await runActionStep({ inputs, cwd: repo });
  const end = nowNs();
  await runActionStep({ inputs, cwd: repo, state: main.state });
  return { ms: Number(end - lastTimestamp(main.stdout)) / 1e6, outputs: main.outputs };
}

async function bareAfterCommand(repo, outputs) {
  const result = await run('docker', bareRunArgs(repo, outputs, ['sh', '-c', commitCommand('bare')]));
  return Number(nowNs() - lastTimestamp(result.stdout)) / 1e6;
}

// ---- main -------------------------------------------------------------------------------------------------

async function main() {
  if (!fs.existsSync(DIST)) throw new Error(`${DIST} is missing: run npm run build`);
  const repo = process.env.BENCH_REPO
    ? cloneOf(process.env.BENCH_REPO, CACHE, log)
    : await gitShapedRepository(CACHE, { log });
  const source = process.env.BENCH_REPO ?? 'generated, in the shape of git.git';
  const shape = repositoryShape(repo);
  const parent = await findParentRepository(git, repo);
  fs.mkdirSync(scratch, { recursive: true });
  const load = [loadAverage()];
  const order = ['import', 'fetch', 'collect', 'bundle'];
  const times = Object.fromEntries(order.map((k) => [k, []]));
  const outside = { action: [], bare: [] };
  const reuseBranch = `bench-import-${tag}-reuse`;
  const bareBranch = `bench-import-${tag}-bare`;
  branches.push(reuseBranch, bareBranch);
  try {
    log('warm-up (not counted)');
    for (const name of order) await measures[name](parent, `warm-${name}`);
    traces.length = 0;
    for (let i = 1; i <= REPEAT; i++) {
      for (let k = 0; k < order.length; k++) {
        const name = order[(k + i) % order.length];
        times[name].push(await measures[name](parent, `${name}-${i}`));
      }
      log(`${i}/${REPEAT}: ${order.map((n) => `${n} ${seconds(times[n].at(-1))}`).join(', ')}`);
    }
    // The bare runs commit in a sandbox of their own, so that every import of (c) carries one commit.
    await actionAfterCommand(repo, reuseBranch);
    const bareSandbox = (await actionAfterCommand(repo, bareBranch)).outputs;
    for (let i = 1; i <= REPEAT; i++) {
      const pair = [
        async () => outside.action.push((await actionAfterCommand(repo, reuseBranch)).ms),
        async () => outside.bare.push(await bareAfterCommand(repo, bareSandbox)),
      ];
      if (i % 2) pair.reverse();
      for (const step of pair) {
        await run('sync', []);
        await step();
      }
      log(
        `${i}/${REPEAT} after the command: action ${seconds(outside.action.at(-1))}, bare ${seconds(outside.bare.at(-1))}`,
      );
    }
    for (const branch of [reuseBranch, bareBranch]) await removeWithAction(repo, branch);
  } finally {
    for (const b of branches) await run('git', ['-C', repo, 'branch', '-D', '--', b], { check: false });
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  load.push(loadAverage());
  await report({ source, shape, load, times, outside });
}

async function report({ source, shape, load, times, outside }) {
  const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
  const signed = (x) => `${x < 0 ? '−' : '+'} ${seconds(Math.abs(x))}`;
  const okA = m.import <= TARGET_MS;
  const afterAction = median(outside.action);
  const afterBare = median(outside.bare);
  const rows = [
    [
      '(a) host-side import: `importBundle` + `buildReport`, bundle → report (the figure held to the target)',
      seconds(m.import),
      `${seconds(m.fetch)} (one \`git fetch\` from the sandbox)`,
      `× ${(m.import / m.fetch).toFixed(2)}, ${signed(m.import - m.fetch)}`,
      `≤ ${seconds(TARGET_MS)}`,
      okA ? 'pass' : '**FAIL**',
    ],
    [
      '(b) after-command phase in-process: `collectChanges` (capture helper + import + report)',
      seconds(m.collect),
      `${seconds(m.bundle)} (helper \`git bundle create\` + \`git fetch\`)`,
      `× ${(m.collect / m.bundle).toFixed(2)}, ${signed(m.collect - m.bundle)}`,
      'none (reported)',
      '',
    ],
    [
      '(c) the action from the command’s last instruction to the main step’s exit',
      seconds(afterAction),
      `${seconds(afterBare)} (bare \`docker run\`: last instruction → exit)`,
      signed(afterAction - afterBare),
      'none (reported)',
      '',
    ],
  ];
  const table = markdownTable(
    ['measure', 'action (median)', 'baseline (median, same run)', 'ratio / difference', 'target', 'result'],
    rows,
  );
  const list = (xs) => xs.map((x) => (x / 1000).toFixed(3)).join(', ');
  const command = `${process.env.BENCH_REPO ? `BENCH_REPO=${process.env.BENCH_REPO} ` : ''}${REPEAT === 7 ? '' : `BENCH_REPEAT=${REPEAT} `}node bench/import.bench.mjs`;
  const gitVersion = (await run('git', ['version'])).stdout.trim().replace('git version ', '');
  const body = `
Produced by \`${command}\` on ${new Date().toISOString().slice(0, 10)} (part of \`npm run bench\`; after \`npm run build\`, which (c) runs; (a) and (b) call the TypeScript in src/ itself, transpiled without type checks by bench/src-modules.mjs).

- Machine: ${machineNote()}; 1-minute load average ${load[0]} at the start, ${load[1]} at the end. git ${gitVersion}, image \`${IMAGE}\`, running as uid ${uid}.
- Repository: ${source}: ${shape.files} files, ${(shape.bytes / 1e6).toFixed(1)} MB checked out, ${shape.commits} commits. Every sample of (a), (b) and their baselines runs on a new branch sandbox (disk, made by the action's \`prepareSandbox\`) holding one new commit that changes one file; the report is checked (1 commit, 1 file). ${REPEAT} repetitions after one warm-up, the four measures in rotating order, each after a \`sync\`; medians.
- (a) times the action's \`importBundle\` (bundle header check, fetch with \`transfer.fsckObjects\` into the sandbox's private store, fetch into the parent's record ref, fast-forward of the parent's branch) and \`buildReport\` (5 git processes), in-process, on the bundle the real \`captureSandbox\` wrote. The 0.2 s target applies to this figure: it is what the target calls import, the host taking in the data that crossed back. The capture before it is a container start, which no import design avoids and which alone costs more than 0.2 s here.
- (b) is the whole phase after the command as the action runs it (\`collectChanges\`: the capture helper container, then (a)); (c) the same seen from outside, on the bundled action whose command (on a reused branch sandbox) commits one change and prints \`date +%s%N\` last: from that instruction to the exit of \`node dist/index.js\` (container exit, capture, import, report, summary, outputs). Their baselines are a helper \`docker run\` + \`git fetch\` of its bundle, and a bare \`docker run\` (same mounts as the action's command container) doing the same commit, from its last instruction to the exit of \`docker run\`.

${table}

Where (a)'s time goes (the action's Git object traced, medians of the ${REPEAT} samples): ${median(traces.map((t) => t.processes))} git processes; ${median(traces.map((t) => t.busyMs)).toFixed(0)} ms inside the Git object's calls (spawning the process included; at least one running), of which ${median(traces.map((t) => t.fetchMs[0] ?? 0)).toFixed(0)} ms for the fetch of the bundle into the private store and ${median(traces.map((t) => t.fetchMs[1] ?? 0)).toFixed(0)} ms for the fetch from there into the parent (both with \`transfer.fsckObjects\`); ${median(traces.map((t) => t.outsideMs)).toFixed(0)} ms outside them (the repository lock, reading the bundle's header, the rest of the JavaScript).

Samples, in seconds, in the order they ran:

- (a) import ${list(times.import)}; one git fetch ${list(times.fetch)}
- (b) collectChanges ${list(times.collect)}; helper bundle + fetch ${list(times.bundle)}
- (c) action ${list(outside.action)}; bare docker run ${list(outside.bare)}
`;
  console.log(table);
  if (process.env.BENCH_WRITE === '1')
    await writeSection(path.join(ROOT, 'docs', 'benchmarks.md'), '## Import', body);
  if (!okA && process.env.BENCH_STRICT === '1') process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
