// Two or more builds of the action, reaping the same generated tree, interleaved: how a change to the
// reaper moves its time. Each build is a bundle (`npm run build` at some commit, copied aside); the first
// named is the baseline. Before each reap the stale sandboxes are laid out again (bench/reap-tree.mjs,
// bench/reap-linked-tree.mjs), and the order of the builds rotates from one run to the next, so that a
// slow spell of a shared machine falls on each of them in turn. Medians, each against the baseline's,
// and the peak memory of each build's process. Not a timed test: `docs/benchmarks.md` says how it was used.
//
//   BENCH_AB_DISTS="before=/abs/before/index.js,after=/abs/after/index.js" \
//     BENCH_REAP_LAYOUT=own BENCH_REAP_SIZE=10000 BENCH_REAP_RUNS=3 node bench/reap-ab.bench.mjs
//
// Settings (environment): BENCH_AB_DISTS (required), BENCH_REAP_LAYOUT (own, linked or real: as in
// bench/reap.bench.mjs), BENCH_REAP_SIZE (10000), BENCH_REAP_RUNS (3), BENCH_REAP_DIR (a folder under /tmp).
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ACTION_NODE, IMAGE, loadAverage, median, run, uncacheNodeBinaries } from './lib.mjs';
import { layOutReapTree, withLinkedTemplates } from './reap-linked-tree.mjs';
import { makeParents } from './reap-tree.mjs';

if (!process.env.BENCH_AB_DISTS) throw new Error('BENCH_AB_DISTS: name=/path/to/index.js,... (two or more)');
const DISTS = process.env.BENCH_AB_DISTS.split(',').map((entry) => {
  const [name, dist] = entry.split('=');
  if (!name || !dist || !fs.existsSync(dist)) throw new Error(`BENCH_AB_DISTS: no bundle at ${dist}`);
  return { name, dist: path.resolve(dist) };
});
const RUNS = Number(process.env.BENCH_REAP_RUNS ?? 3);
const SIZE = Number(process.env.BENCH_REAP_SIZE ?? 10000);
const LAYOUT = process.env.BENCH_REAP_LAYOUT ?? 'own';
if (!['own', 'linked', 'real'].includes(LAYOUT))
  throw new Error(`BENCH_REAP_LAYOUT: own, linked or real, not ${LAYOUT}`);
const PROJECTS = 20;
const UNTRACKED = LAYOUT === 'real' ? 2 : 0;
const IGNORED = LAYOUT === 'real' ? 2 : 0;
const BASE = process.env.BENCH_REAP_DIR ?? path.join(os.tmpdir(), 'worktree-sandbox-bench-reap-ab');
const ROOT = path.join(BASE, 'root');
const PRELOAD = path.join(BASE, 'max-rss.cjs');
const log = (...args) => console.error('[bench:reap-ab]', ...args);

/** One reap by one build, as the runner runs an action: `node index.js` with INPUT_* variables. */
async function reapWith(dist) {
  const files = fs.mkdtempSync(path.join(BASE, 'step-'));
  for (const f of ['output', 'state', 'summary']) fs.writeFileSync(path.join(files, f), '');
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? '/root',
    GITHUB_OUTPUT: path.join(files, 'output'),
    GITHUB_STATE: path.join(files, 'state'),
    GITHUB_STEP_SUMMARY: path.join(files, 'summary'),
    RUNNER_TEMP: files,
    GITHUB_ACTIONS: 'true',
    BENCH_MAX_RSS_FILE: path.join(files, 'max-rss'),
    INPUT_MODE: 'reap',
    'INPUT_WORKTREE-ROOT': ROOT,
    'INPUT_VOLUME-PREFIX': `wts-ab-${randomBytes(3).toString('hex')}`,
    INPUT_IMAGE: IMAGE,
  };
  const started = process.hrtime.bigint();
  const r = await run(ACTION_NODE, ['--require', PRELOAD, dist], { env, cwd: BASE, check: false });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const out = fs.readFileSync(path.join(files, 'output'), 'utf8');
  const peakMb = Number(fs.readFileSync(path.join(files, 'max-rss'), 'utf8')) / 1024;
  fs.rmSync(files, { recursive: true, force: true });
  if (r.code !== 0) throw new Error(`${dist} failed (exit ${r.code}):\n${r.stdout.slice(-2000)}${r.stderr}`);
  const reaped = /^reaped<<(.+)\n([\s\S]*?)\n\1$/m.exec(out);
  return { ms, peakMb, removed: reaped ? JSON.parse(reaped[2]).length : 0 };
}

function countSandboxes() {
  let n = 0;
  for (const p of fs.readdirSync(ROOT))
    n += fs.readdirSync(path.join(ROOT, p)).filter((x) => !x.startsWith('.')).length;
  return n;
}

fs.mkdirSync(BASE, { recursive: true });
fs.writeFileSync(
  PRELOAD,
  "process.on('exit', () => require('node:fs').writeFileSync(process.env.BENCH_MAX_RSS_FILE, String(process.resourceUsage().maxRSS)));\n",
);
const perProject = Math.round(SIZE / PROJECTS);
const stalePerProject = Math.round(perProject / 5);
const made = makeParents(BASE, PROJECTS);
const parents = LAYOUT === 'linked' ? withLinkedTemplates(BASE, made) : made;
fs.rmSync(ROOT, { recursive: true, force: true });
uncacheNodeBinaries();
const results = new Map(DISTS.map(({ name }) => [name, []]));
const loads = [loadAverage()];
let renew = 'all';
for (let r = 0; r < RUNS; r++) {
  for (let k = 0; k < DISTS.length; k++) {
    const { name, dist } = DISTS[(k + r) % DISTS.length];
    const shape = { perProject, stalePerProject, seed: 7, renew, now: Math.floor(Date.now() / 1000) };
    const tree = layOutReapTree(LAYOUT, ROOT, parents, shape, {
      untrackedPerProject: UNTRACKED,
      ignoredPerProject: IGNORED,
    });
    renew = 'stale';
    const result = await reapWith(dist);
    const removable = tree.stale - PROJECTS * UNTRACKED;
    const left = countSandboxes();
    if (left !== tree.count - removable || result.removed !== removable) {
      log(`WRONG: ${name} removed ${result.removed} of ${removable}, left ${left} of ${tree.count}`);
      process.exitCode = 1;
    }
    results.get(name).push(result);
    log(
      `${LAYOUT} ${SIZE} run ${r + 1} ${name}: ${(result.ms / 1000).toFixed(2)} s, peak ${result.peakMb.toFixed(0)} MB`,
    );
  }
}
loads.push(loadAverage());
fs.rmSync(ROOT, { recursive: true, force: true });
const base = median(results.get(DISTS[0].name).map((x) => x.ms));
for (const { name } of DISTS) {
  const all = results.get(name);
  const m = median(all.map((x) => x.ms));
  console.log(
    `${LAYOUT} ${SIZE} ${name}: median ${(m / 1000).toFixed(2)} s (${all.map((x) => (x.ms / 1000).toFixed(2)).join(', ')}), ×${(m / base).toFixed(2)} ${DISTS[0].name}'s; peak ${Math.max(...all.map((x) => x.peakMb)).toFixed(0)} MB; load ${loads.join(' -> ')}`,
  );
}
