// Benchmark of `mode: reap` (issue 3), run by `npm run bench` (not a timed test). In one run, on identical
// copies of a generated cache of SANDBOXES disk sandboxes across PROJECTS projects, STALE of them stale:
//   - the action, run as the Actions runner runs it (`node dist/index.js`, INPUT_* variables);
//   - `find ROOT -mindepth 2 -maxdepth 2 -mtime +N -exec rm -rf {} +`, which checks nothing;
//   - bench/naive-reaper.mjs, a reaper that starts one git process per sandbox to classify it.
// Then VOLUMES labelled volumes, listed by the action with a counted number of docker calls (a counting
// shim on PATH), against 10 volumes. Medians over RUNS runs; peak memory of the action's process.
// Targets (the issue): ≤ 4× find, ≥ 2.5× faster than the naive reaper, docker calls independent of the
// volume count, peak memory ≤ 150 MB. Exits 1 when a result is wrong or a target is missed.
//
// Settings (environment): BENCH_REAP_RUNS (3), BENCH_REAP_PROJECTS (20), BENCH_REAP_PER_PROJECT (500),
// BENCH_REAP_STALE_PER_PROJECT (100), BENCH_REAP_VOLUMES (1000), BENCH_REAP_DIR (a folder under /tmp).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeParents, makeSandboxTree } from './reap-tree.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(REPO, 'dist', 'index.js');
const NAIVE = path.join(REPO, 'bench', 'naive-reaper.mjs');
const IMAGE = process.env.WORKTREE_SANDBOX_TEST_IMAGE ?? 'worktree-sandbox-test:bookworm';
const setting = (name, fallback) => Number(process.env[`BENCH_REAP_${name}`] ?? fallback);
const RUNS = setting('RUNS', 3);
const PROJECTS = setting('PROJECTS', 20);
const PER_PROJECT = setting('PER_PROJECT', 500);
const STALE_PER_PROJECT = setting('STALE_PER_PROJECT', 100);
const VOLUMES = setting('VOLUMES', 1000);
const BASE = process.env.BENCH_REAP_DIR ?? path.join(os.tmpdir(), 'worktree-sandbox-bench-reap');
const ROOT = path.join(BASE, 'root');
// Stale sandboxes are 100 to 300 days old, fresh ones 1 to 25: `find -mtime +29` and the action's
// matrix (30 days transient, 90 persistent) pick exactly the same ones.
const FIND_DAYS = 29;

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const secs = (ms) => `${(ms / 1000).toFixed(2)} s`;
const log = (...args) => console.error('[bench:reap]', ...args);

function run(cmd, args, env = process.env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(cmd, args, { env, cwd: BASE, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout, stderr, ms: Number(process.hrtime.bigint() - started) / 1e6 }),
    );
  });
}

function fail(message) {
  console.error(`[bench:reap] FAILED: ${message}`);
  process.exitCode = 1;
}

// ---- the tools ------------------------------------------------------------------------------------------

/** A docker CLI on PATH that logs each call's first two words, then runs the real one. */
function dockerShim() {
  const bin = path.join(BASE, 'bin');
  const calls = path.join(BASE, 'docker-calls.log');
  const real = execFileSync('sh', ['-c', 'command -v docker'], { encoding: 'utf8' }).trim();
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(
    path.join(bin, 'docker'),
    `#!/bin/sh\nprintf '%s %s\\n' "$1" "$2" >> '${calls}'\nexec '${real}' "$@"\n`,
    { mode: 0o755 },
  );
  return { bin, calls };
}

const shim = { bin: '', calls: '' };
const PRELOAD = path.join(BASE, 'max-rss.cjs');

/** The action, as the runner runs it: `node dist/index.js` with INPUT_* variables and file commands. */
async function runAction(inputs) {
  const files = fs.mkdtempSync(path.join(BASE, 'step-'));
  const out = path.join(files, 'output');
  const rss = path.join(files, 'max-rss');
  for (const f of ['output', 'state', 'summary']) fs.writeFileSync(path.join(files, f), '');
  fs.writeFileSync(shim.calls, '');
  const env = {
    PATH: `${shim.bin}:${process.env.PATH}`,
    HOME: process.env.HOME ?? '/root',
    GITHUB_OUTPUT: out,
    GITHUB_STATE: path.join(files, 'state'),
    GITHUB_STEP_SUMMARY: path.join(files, 'summary'),
    RUNNER_TEMP: files,
    GITHUB_ACTIONS: 'true',
    BENCH_MAX_RSS_FILE: rss,
  };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  const result = await run(process.execPath, ['--require', PRELOAD, DIST], env);
  const outputs = {};
  const text = fs.readFileSync(out, 'utf8');
  for (const m of text.matchAll(/^([^<=\n]+)<<(.+)\n([\s\S]*?)\n\2$/gm)) outputs[m[1]] = m[3];
  const summary = fs.readFileSync(path.join(files, 'summary'), 'utf8');
  const dockerCalls = fs.readFileSync(shim.calls, 'utf8').split('\n').filter(Boolean);
  const peakMb = Number(fs.readFileSync(rss, 'utf8')) / 1024;
  fs.rmSync(files, { recursive: true, force: true });
  if (result.code !== 0)
    throw new Error(
      `the action failed (exit ${result.code}):\n${result.stdout.slice(-3000)}${result.stderr}`,
    );
  return { ms: result.ms, outputs, summary, dockerCalls, peakMb, stdout: result.stdout };
}

const tools = {
  action: async () => {
    const r = await runAction({
      mode: 'reap',
      'worktree-root': ROOT,
      'volume-prefix': `wts-bench-${randomBytes(3).toString('hex')}`,
      image: IMAGE,
    });
    const reaped = JSON.parse(r.outputs.reaped).length;
    return {
      ms: r.ms,
      removed: reaped,
      peakMb: r.peakMb,
      dockerCalls: r.dockerCalls.length,
      stats: r.stdout,
    };
  },
  find: async () => {
    const r = await run('find', [
      ROOT,
      '-mindepth',
      '2',
      '-maxdepth',
      '2',
      '-mtime',
      `+${FIND_DAYS}`,
      '-exec',
      'rm',
      '-rf',
      '{}',
      '+',
    ]);
    if (r.code !== 0) throw new Error(`find failed: ${r.stderr}`);
    return { ms: r.ms };
  },
  naive: async () => {
    const r = await run(process.execPath, [NAIVE, ROOT]);
    if (r.code !== 0) throw new Error(`the naive reaper failed: ${r.stderr}`);
    return { ms: r.ms, removed: JSON.parse(r.stdout).removed };
  },
};

function countSandboxes() {
  let n = 0;
  for (const project of fs.readdirSync(ROOT)) n += fs.readdirSync(path.join(ROOT, project)).length;
  return n;
}

function countRegistrations(parents) {
  let n = 0;
  for (const { parent } of parents) {
    try {
      n += fs.readdirSync(path.join(parent, '.git', 'worktrees')).length;
    } catch {
      /* none left */
    }
  }
  return n;
}

// ---- disk sandboxes ---------------------------------------------------------------------------------------

async function benchDisk() {
  log(`parents: ${PROJECTS} repositories under ${BASE}/parents`);
  const parents = makeParents(BASE, PROJECTS);
  const results = { action: [], find: [], naive: [] };
  const order = ['action', 'find', 'naive'];
  let actionDetails;
  fs.rmSync(ROOT, { recursive: true, force: true });
  let renew = 'all';
  for (let r = 0; r < RUNS; r++) {
    for (let k = 0; k < order.length; k++) {
      const name = order[(k + r) % order.length];
      const t = Date.now();
      const now = Math.floor(Date.now() / 1000);
      const tree = makeSandboxTree(ROOT, parents, {
        perProject: PER_PROJECT,
        stalePerProject: STALE_PER_PROJECT,
        seed: 7,
        renew,
        now,
      });
      renew = 'stale';
      // Written back to disk before the clock starts, so that no tool pays for the generator's writes.
      execFileSync('sync');
      log(
        `run ${r + 1}/${RUNS} ${name}: ${tree.count} sandboxes (${tree.stale} stale) ready in ${secs(Date.now() - t)}`,
      );
      const result = await tools[name]();
      const left = countSandboxes();
      if (left !== tree.count - tree.stale)
        fail(`${name} left ${left} sandboxes, expected ${tree.count - tree.stale}`);
      if (result.removed !== undefined && result.removed !== tree.stale)
        fail(`${name} removed ${result.removed}, expected ${tree.stale}`);
      if (name === 'action' && countRegistrations(parents) !== tree.count - tree.stale)
        fail(
          `the action left ${countRegistrations(parents)} registrations for ${tree.count - tree.stale} sandboxes`,
        );
      if (name === 'action') actionDetails = result;
      results[name].push(result);
      log(
        `run ${r + 1}/${RUNS} ${name}: ${secs(result.ms)}${result.peakMb ? `, peak ${result.peakMb.toFixed(0)} MB` : ''}`,
      );
    }
  }
  fs.rmSync(ROOT, { recursive: true, force: true });
  const m = (name) => median(results[name].map((x) => x.ms));
  return {
    action: m('action'),
    find: m('find'),
    naive: m('naive'),
    all: results,
    peakMb: Math.max(...results.action.map((x) => x.peakMb)),
    dockerCalls: actionDetails.dockerCalls,
  };
}

// ---- volumes -------------------------------------------------------------------------------------------

async function benchVolumes() {
  const prefix = `wts-benchvol-${randomBytes(3).toString('hex')}`;
  const parent = makeParents(BASE, 1)[0].parent;
  const emptyRoot = path.join(BASE, 'empty-root');
  fs.mkdirSync(emptyRoot, { recursive: true });
  const created = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const names = Array.from(
    { length: VOLUMES },
    (_, i) => `${prefix}-project-abcdef-exploration-${i.toString(16).padStart(8, '0')}`,
  );
  const create = async (from, to) => {
    const t = Date.now();
    for (let i = from; i < to; i += 8) {
      await Promise.all(
        names
          .slice(i, Math.min(i + 8, to))
          .map((name, j) =>
            run('docker', [
              'volume',
              'create',
              '--label',
              'worktree-sandbox.managed=true',
              '--label',
              'worktree-sandbox.project=project-abcdef',
              '--label',
              `worktree-sandbox.sandbox=exploration-${(i + j).toString(16).padStart(8, '0')}`,
              '--label',
              'worktree-sandbox.kind=transient',
              '--label',
              `worktree-sandbox.parent=${parent}`,
              '--label',
              `worktree-sandbox.created=${created}`,
              name,
            ]),
          ),
      );
    }
    log(`created volumes ${from}..${to} in ${secs(Date.now() - t)}`);
  };
  const listWith = async (count) => {
    const r = await runAction({
      mode: 'reap',
      'dry-run': 'true',
      'worktree-root': emptyRoot,
      'volume-prefix': prefix,
      image: IMAGE,
    });
    const seen = JSON.parse(r.outputs.kept).length + JSON.parse(r.outputs.reaped).length;
    if (seen !== count) fail(`the action listed ${seen} volumes, expected ${count}`);
    return { ms: r.ms, calls: r.dockerCalls, peakMb: r.peakMb };
  };
  try {
    await create(0, 10);
    const small = await listWith(10);
    await create(10, VOLUMES);
    const large = await listWith(VOLUMES);
    return { small, large };
  } finally {
    for (let i = 0; i < names.length; i += 200)
      await run('docker', ['volume', 'rm', '--force', ...names.slice(i, i + 200)]);
  }
}

// ---- main -------------------------------------------------------------------------------------------------

async function main() {
  if (!fs.existsSync(DIST)) throw new Error('dist/index.js is missing: npm run build');
  fs.mkdirSync(BASE, { recursive: true });
  fs.writeFileSync(
    PRELOAD,
    "process.on('exit', () => require('node:fs').writeFileSync(process.env.BENCH_MAX_RSS_FILE, String(process.resourceUsage().maxRSS)));\n",
  );
  Object.assign(shim, dockerShim());
  const disk = await benchDisk();
  const volumes = await benchVolumes();

  const ratioFind = disk.action / disk.find;
  const speedup = disk.naive / disk.action;
  const peak = Math.max(disk.peakMb, volumes.small.peakMb, volumes.large.peakMb);
  const constant = volumes.small.calls.length === volumes.large.calls.length;
  const perVolume = volumes.large.calls.filter((c) => /^volume inspect|^inspect/.test(c)).length;
  const checks = [
    [`action ≤ 4× find`, ratioFind <= 4, `${ratioFind.toFixed(2)}×`],
    [`action ≥ 2.5× faster than the naive reaper`, speedup >= 2.5, `${speedup.toFixed(2)}×`],
    [
      `docker calls independent of the volume count`,
      constant && perVolume === 0,
      `${volumes.small.calls.length} for 10, ${volumes.large.calls.length} for ${VOLUMES}`,
    ],
    [`peak memory ≤ 150 MB`, peak <= 150, `${peak.toFixed(0)} MB`],
  ];
  for (const [what, ok] of checks) if (!ok) fail(`target missed: ${what}`);

  const row = (name, list) =>
    `| ${name} | ${list.map((x) => secs(x.ms)).join(', ')} | **${secs(median(list.map((x) => x.ms)))}** |`;
  const md = [
    `Command: \`npm run bench\` (this part: \`node bench/reap.bench.mjs\`), ${new Date().toISOString().slice(0, 10)}, ` +
      `${os.cpus().length} cores, node ${process.version}, git ${execFileSync('git', ['version'], { encoding: 'utf8' }).trim().replace('git version ', '')}, ` +
      `docker ${execFileSync('docker', ['version', '--format', '{{.Server.Version}}'], { encoding: 'utf8' }).trim()}.`,
    '',
    `Cache: ${PROJECTS * PER_PROJECT} disk sandboxes (linked worktrees of ${PROJECTS} repositories, 31 files each, half transient, half on a branch origin has), ${PROJECTS * STALE_PER_PROJECT} of them stale (100–300 days), the rest 1–25 days. Before every measurement the stale sandboxes are laid out again (what a reaper removes), so each tool starts from the identical tree; written back to disk (\`sync\`) before the clock starts. ${RUNS} runs, tools interleaved.`,
    '',
    '| tool | runs | median |',
    '|---|---|---:|',
    row('the action (`node dist/index.js`, mode: reap)', disk.all.action),
    row(`\`find ROOT -mindepth 2 -maxdepth 2 -mtime +${FIND_DAYS} -exec rm -rf {} +\``, disk.all.find),
    row('naive reaper (bench/naive-reaper.mjs: one git process per sandbox)', disk.all.naive),
    '',
    '| target | result | |',
    '|---|---|---|',
    ...checks.map(([what, ok, value]) => `| ${what} | ${value} | ${ok ? 'met' : '**missed**'} |`),
    '',
    `Docker calls of one reap run: ${VOLUMES} volumes: ${volumes.large.calls.length} (\`${[...new Set(volumes.large.calls)].join('`, `')}\`), 10 volumes: ${volumes.small.calls.length}; listing ${VOLUMES} volumes took ${secs(volumes.large.ms)} (10 volumes: ${secs(volumes.small.ms)}). ` +
      `Disk run: ${disk.dockerCalls} docker calls. Peak memory (maxRSS of the action's process): ${disk.peakMb.toFixed(0)} MB on the disk cache, ${volumes.large.peakMb.toFixed(0)} MB with ${VOLUMES} volumes.`,
  ].join('\n');
  fs.writeFileSync(path.join(BASE, 'results.md'), `${md}\n`);
  console.log(md);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
