// What one trap sandbox costs a reap: `mode: reap` (the bundle, as the runner runs it) on the generated
// tree of bench/reap-tree.mjs (2,000 disk sandboxes across 20 projects, a fifth of them stale), with and
// without one trap sandbox among them, interleaved. The trap is one stale sandbox that holds uncommitted
// work and, in its .git, a folder of mode 0444 with a file in it and a chain of folders deeper than
// PATH_MAX: before the fix the reap stopped on it (exit 1); now it is kept with its reason and the rest
// goes. A third arm has the same sandbox with the same work but no traps: a sandbox with uncommitted work
// needs a helper container (git status), which the other 399 stale ones do not; trap/work is what the
// traps themselves cost. Medians over RUNS runs of each; target (issue "Bounded at every edge"): with the
// trap ≤ 1.1× without.
// Exits 1 when a result is wrong (a removal count, a trap removed, a failed reap) or the target is missed.
//
// Settings (environment): BENCH_TRAP_SIZE (2000), BENCH_TRAP_RUNS (5), BENCH_TRAP_PROJECTS (20),
// BENCH_TRAP_DIR (a folder under /tmp). One reap first as a warm-up, not counted. Prints the figures; writes nothing into the repository.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadAverage, machineNote, median, nowNs, runActionStep, uncacheNodeBinaries } from './lib.mjs';
import { makeParents, makeSandboxTree } from './reap-tree.mjs';

const setting = (name, fallback) => Number(process.env[`BENCH_TRAP_${name}`] ?? fallback);
const SIZE = setting('SIZE', 2000);
const RUNS = setting('RUNS', 5);
const PROJECTS = setting('PROJECTS', 20);
const TARGET = 1.1;
const BASE = process.env.BENCH_TRAP_DIR ?? path.join(os.tmpdir(), 'worktree-sandbox-bench-trap');
const ROOT = path.join(BASE, 'root');
const log = (...args) => console.error('[bench:reap-trap]', ...args);
const secs = (ms) => `${(ms / 1000).toFixed(2)} s`;

function fail(message) {
  console.error(`[bench:reap-trap] FAILED: ${message}`);
  process.exitCode = 1;
}

/** The last stale sandbox of the first project (bench/reap-tree.mjs makes the stale ones last). */
function trapSandbox() {
  const project = fs.readdirSync(ROOT).sort()[0];
  const dir = path.join(ROOT, project);
  const names = fs
    .readdirSync(dir)
    .filter((n) => !n.startsWith('.'))
    .map((n) => ({ n, mtime: fs.statSync(path.join(dir, n)).mtimeMs }))
    .sort((a, b) => a.mtime - b.mtime);
  return path.join(dir, names[0].n);
}

/** Uncommitted work (and, with `traps`, the two traps) in one stale sandbox, its signals left as they were. */
function plantTrap(sandbox, traps = true) {
  const keep = ['', '.git/index', '.git/HEAD', '.git/logs/HEAD']
    .map((rel) => path.join(sandbox, rel))
    .filter((p) => fs.existsSync(p))
    .map((p) => [p, fs.statSync(p)]);
  fs.writeFileSync(path.join(sandbox, 'draft.txt'), 'uncommitted work\n');
  if (traps) {
    const dir = path.join(sandbox, '.git', 'trap');
    fs.mkdirSync(path.join(dir, 'locked'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'locked', 'inside'), 'x');
    fs.chmodSync(path.join(dir, 'locked'), 0o444);
    const half = Array.from({ length: 12 }, () => 'd'.repeat(200)).join('/');
    execFileSync('mkdir', ['-p', half], { cwd: dir });
    execFileSync('mkdir', ['-p', half], { cwd: path.join(dir, half) });
  }
  for (const [p, st] of keep) fs.utimesSync(p, st.atime, st.mtime);
}

async function reap() {
  const result = await runActionStep({
    inputs: {
      mode: 'reap',
      'worktree-root': ROOT,
      'volume-prefix': `wts-bench-trap-${randomBytes(3).toString('hex')}`,
    },
    cwd: BASE,
    check: false,
  });
  if (result.code !== 0)
    fail(`the reap exited ${result.code}: ${result.stdout.slice(-1500)}${result.stderr.slice(-500)}`);
  return {
    ms: Number(nowNs() - result.startNs) / 1e6,
    reaped: result.outputs.reaped ? JSON.parse(result.outputs.reaped).length : -1,
    peakMb: result.peakKb / 1024,
  };
}

async function main() {
  fs.mkdirSync(BASE, { recursive: true });
  const parents = makeParents(BASE, PROJECTS);
  const perProject = Math.round(SIZE / PROJECTS);
  const stalePerProject = Math.round(perProject / 5);
  execFileSync('rm', ['-rf', '--', ROOT]);
  let renew = 'all';
  // plain: no sandbox with work; work: one stale sandbox with uncommitted work (a helper container runs
  // git status for it); trap: the same sandbox, with the traps in its .git as well.
  const kinds = ['plain', 'work', 'trap'];
  const times = { plain: [], work: [], trap: [] };
  const peaks = [];
  // One reap first, not counted: the first after the tree is laid out pays for cold caches (and, on a
  // machine that never ran a reap, for making the helper image once).
  makeSandboxTree(ROOT, parents, { perProject, stalePerProject, seed: 7, renew });
  renew = 'stale';
  uncacheNodeBinaries(); // peak memory: see lib.mjs
  log(`warm-up: ${secs((await reap()).ms)}`);
  const load = [loadAverage()];
  for (let r = 0; r < RUNS; r++) {
    for (const kind of kinds.map((_, k) => kinds[(k + r) % kinds.length])) {
      // The sandbox with work is kept: the next tree must not keep it (its draft is removed too).
      if (renew !== 'all') execFileSync('sh', ['-c', 'rm -f -- "$1"/*/*/draft.txt', 'sh', ROOT]);
      // The trap sandbox may be left (it is kept): `rm -rf` goes where Node's removal gives up.
      if (renew !== 'all') execFileSync('sh', ['-c', 'rm -rf -- "$1"/*/*/.git/trap', 'sh', ROOT]);
      const tree = makeSandboxTree(ROOT, parents, { perProject, stalePerProject, seed: 7, renew });
      renew = 'stale';
      if (kind !== 'plain') plantTrap(trapSandbox(), kind === 'trap');
      execFileSync('sync');
      const result = await reap();
      const expected = kind === 'plain' ? tree.stale : tree.stale - 1;
      if (result.reaped !== expected) fail(`${kind}: reaped ${result.reaped}, expected ${expected}`);
      times[kind].push(result.ms);
      peaks.push(result.peakMb);
      log(
        `run ${r + 1}/${RUNS} ${kind}: ${tree.count} sandboxes, ${secs(result.ms)}, peak ${result.peakMb.toFixed(0)} MB`,
      );
    }
  }
  load.push(loadAverage());
  execFileSync('rm', ['-rf', '--', ROOT]);
  const plain = median(times.plain);
  const work = median(times.work);
  const trap = median(times.trap);
  const ratio = trap / plain;
  const range = (xs) => `${secs(Math.min(...xs))}–${secs(Math.max(...xs))}`;
  console.log(
    [
      `reap of ${SIZE} disk sandboxes (${PROJECTS} projects, ${PROJECTS * stalePerProject} stale), ${RUNS} runs each, interleaved`,
      `without the trap sandbox: median ${secs(plain)} (${range(times.plain)})`,
      `with one stale sandbox holding uncommitted work, no traps: median ${secs(work)} (${range(times.work)})`,
      `with one trap sandbox (the same work, traps in .git): median ${secs(trap)} (${range(times.trap)})`,
      `ratio trap/without ${ratio.toFixed(3)}× (target ≤ ${TARGET}×): ${ratio <= TARGET ? 'pass' : 'FAIL'}`,
      `ratio trap/work ${(trap / work).toFixed(3)}× (what the traps themselves cost)`,
      `peak memory of the action: ${Math.max(...peaks).toFixed(0)} MB`,
      `machine: ${machineNote()}; load ${load.join(' → ')}`,
    ].join('\n'),
  );
  if (ratio > TARGET) fail(`with the trap ${ratio.toFixed(3)}× the time without (target ≤ ${TARGET}×)`);
}

await main();
