// What the engine-view checks cost on the plain host layout: the mount lookup (this process's mount
// table; no engine call on a plain host) and the probe (a random file, a helper the engine creates but
// never starts, removed; or, for a reused sandbox, the files its command's container binds). Start → the
// command's first instruction, a baseline bundle against this working copy's dist/, interleaved in the
// same run, on a small repository where a fixed cost shows most. Per isolation: a new transient sandbox
// (then its post step, not timed), and a reused persistent one.
//
// The baseline (the default, `no-checks`) is this very source without the checks: HEAD, checked out in a
// temporary git worktree, with bench/patches/no-engine-view.patch applied (the mount lookup answers "the
// same view" without reading the mount table; no `requireVisible`, no probe helper, no probe files in the
// command's container), then built with `npm run build` (node_modules linked from this clone). Only the
// checks differ from HEAD's own build, so this dist/ should be HEAD's build too (the bench says when src/
// has changes HEAD does not have). The bench stops, naming the patch, when it no longer applies to HEAD.
// Other bases: a revision (its committed dist/, e.g. dadfe48, the commit before the checks existed: that
// compares whole bundles, everything that changed since counts) or an absolute path to a folder holding a
// bundle. Several may be given (`BENCH_BASE=no-checks,dadfe48`): each is compared with this dist/, all
// interleaved in the same rounds; the first is the one the target is judged against.
//
//   node bench/topologies.bench.mjs      BENCH_BASE=<no-checks|rev|/abs/dir>[,...] (default no-checks)
//                                        BENCH_ROUNDS=10
//                                        BENCH_KIND=new,reuse (the default: both kinds of sandbox)
// Target: the checks add at most 20 ms to the median.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  DIST,
  IMAGE,
  ROOT,
  firstTimestamp,
  loadAverage,
  median,
  runActionStep,
  ACTION_DEFAULTS,
} from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const TARGET_MS = 20;
const NO_CHECKS = 'no-checks';
const PATCH = path.join(ROOT, 'bench', 'patches', 'no-engine-view.patch');
const BASES = (process.env.BENCH_BASE ?? NO_CHECKS).split(',').filter(Boolean);
const log = (msg) => process.stderr.write(`[bench:topologies] ${msg}\n`);
const sh = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
/** The commit the no-checks baseline is built from (read once: a commit made while the bench runs is not it). */
const head = sh('git', ['rev-parse', '--short', 'HEAD'], ROOT).trim();

/**
 * HEAD built without the engine-view checks, in a temporary git worktree (removed again); returns the
 * bundle's path. Throws, naming the patch, when it does not apply to HEAD.
 */
function buildWithoutChecks(dir) {
  if (sh('git', ['status', '--porcelain', '--', 'src'], ROOT).trim())
    log(`note: src/ has uncommitted changes; the baseline is HEAD (${head}) without the checks, not them`);
  log(`baseline: HEAD (${head}) with ${path.relative(ROOT, PATCH)} applied, building in ${dir}`);
  sh('git', ['worktree', 'add', '--detach', '--quiet', dir, head], ROOT);
  try {
    try {
      sh('git', ['apply', '--check', PATCH], dir);
    } catch (error) {
      throw new Error(
        `${path.relative(ROOT, PATCH)} no longer applies to HEAD (${head}): make it again (edit src/ to skip the mount lookup and the probe, \`git diff src > ${path.relative(ROOT, PATCH)}\`, restore src/).\n${error.stderr ?? error}`,
        { cause: error },
      );
    }
    sh('git', ['apply', PATCH], dir);
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    sh('npm', ['run', 'build'], dir);
    const out = path.join(scratch, 'base-no-checks');
    fs.cpSync(path.join(dir, 'dist'), out, { recursive: true });
    return path.join(out, 'index.js');
  } finally {
    sh('git', ['worktree', 'remove', '--force', dir], ROOT);
  }
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-bench-topologies-'));
const dists = {};
for (const base of BASES) {
  if (base === NO_CHECKS) {
    dists[base] = buildWithoutChecks(path.join(scratch, 'no-checks-worktree'));
    continue;
  }
  // A revision's committed dist/, or (an absolute path) a bundle built elsewhere: a variant of this source.
  if (path.isAbsolute(base)) {
    dists[base] = path.join(base, 'index.js');
    continue;
  }
  const dir = path.join(scratch, `base-${base}`);
  fs.mkdirSync(dir);
  execFileSync('sh', ['-c', `git -C "$1" archive "$2" dist | tar -x -C "$3"`, 'x', ROOT, base, dir]);
  dists[base] = path.join(dir, 'dist', 'index.js');
}
dists.new = DIST;
const sides = Object.keys(dists);

// A small repository: 200 files.
const repo = path.join(scratch, 'repo');
sh('git', ['init', '--quiet', '--initial-branch=main', repo]);
for (let i = 0; i < 200; i++) {
  fs.mkdirSync(path.join(repo, `d${i % 10}`), { recursive: true });
  fs.writeFileSync(path.join(repo, `d${i % 10}`, `f${i}.txt`), `file ${i}\n`.repeat(20));
}
sh('git', ['add', '-A'], repo);
sh('git', ['-c', 'user.name=b', '-c', 'user.email=b@e', 'commit', '--quiet', '-m', 'seed'], repo);

const prefix = `wtsbench-topo-${process.pid}`;
const inputs = (isolation, extra = {}) => ({
  ...ACTION_DEFAULTS,
  command: 'date +%s%N',
  image: IMAGE,
  isolation,
  'repository-path': repo,
  'worktree-root': path.join(scratch, 'worktrees'),
  'volume-prefix': prefix,
  ...extra,
});

async function firstInstructionMs(dist, isolation, extra) {
  const step = await runActionStep({ inputs: inputs(isolation, extra), cwd: repo, dist });
  const ms = Number(firstTimestamp(step.stdout) - step.startNs) / 1e6;
  return { ms, step };
}

const cases = [];
for (const isolation of ['disk', 'container'])
  for (const kind of (process.env.BENCH_KIND ?? 'new,reuse').split(','))
    cases.push({ isolation, kind, times: Object.fromEntries(sides.map((w) => [w, []])) });

// The reused sandboxes, one per isolation and bundle, made once.
for (const isolation of ['disk', 'container'])
  for (const which of Object.keys(dists))
    await firstInstructionMs(dists[which], isolation, {
      branch: `reuse-${isolation}-${which}`,
      cleanup: 'never',
    });

log(`bases ${BASES.join(', ')} vs this dist/, ${ROUNDS} rounds, load ${loadAverage()}`);
for (let round = 0; round < ROUNDS; round++) {
  // Each round starts with another side: none always runs first (or last).
  const order = sides.map((_, i) => sides[(i + round) % sides.length]);
  for (const c of cases)
    for (const which of order) {
      const extra =
        c.kind === 'reuse'
          ? { branch: `reuse-${c.isolation}-${which}`, cleanup: 'never' }
          : { cleanup: 'always' };
      const { ms, step } = await firstInstructionMs(dists[which], c.isolation, extra);
      c.times[which].push(ms);
      // The post step removes a new transient sandbox (not timed).
      if (c.kind === 'new')
        await runActionStep({
          inputs: inputs(c.isolation, extra),
          state: step.state,
          cwd: repo,
          dist: dists[which],
        });
    }
  log(`round ${round + 1}/${ROUNDS} done, load ${loadAverage()}`);
}

const fmt = (v) => v.toFixed(1);
const cell = (v) => `${fmt(median(v))} ms (${fmt(Math.min(...v))}–${fmt(Math.max(...v))})`;
const signed = (d) => `${d >= 0 ? '+' : '−'}${fmt(Math.abs(d))} ms`;
const lines = [
  `| case | ${BASES.map((b) => `base ${b}: median (min–max)`).join(' | ')} | this dist/: median (min–max) | ${BASES.map((b) => `difference of medians vs ${b}`).join(' | ')} | target (vs ${BASES[0]}) | result |`,
  `|---|${BASES.map(() => '---|').join('')}---|${BASES.map(() => '---|').join('')}---|---|`,
];
let pass = true;
for (const c of cases) {
  const n = c.times.new;
  const diffs = BASES.map((b) => median(n) - median(c.times[b]));
  const ok = diffs[0] <= TARGET_MS;
  pass &&= ok;
  lines.push(
    `| ${c.isolation}, ${c.kind} sandbox | ${BASES.map((b) => cell(c.times[b])).join(' | ')} | ${cell(n)} | ${diffs.map(signed).join(' | ')} | ≤ +${TARGET_MS} ms | ${ok ? 'pass' : 'FAIL'} |`,
  );
}
console.log(lines.join('\n'));
// The same rounds paired: each round's runs of one case are minutes apart at most, so the median of the
// per-round differences is less moved by the machine's load changing over the run than the medians are.
const paired = [
  `\n| case | ${BASES.map((b) => `median of per-round differences vs ${b} (min–max)`).join(' | ')} |`,
  `|---|${BASES.map(() => '---|').join('')}`,
];
for (const c of cases) {
  const cells = BASES.map((b) => {
    const d = c.times.new.map((n, i) => n - c.times[b][i]);
    return `${signed(median(d))} (${signed(Math.min(...d))} to ${signed(Math.max(...d))})`;
  });
  paired.push(`| ${c.isolation}, ${c.kind} sandbox | ${cells.join(' | ')} |`);
}
console.log(paired.join('\n'));
if (process.env.BENCH_RAW) fs.writeFileSync(process.env.BENCH_RAW, JSON.stringify(cases, null, 1));
if (BASES.includes(NO_CHECKS))
  console.log(
    `\nBase ${NO_CHECKS}: HEAD (${head}) built with ${path.relative(ROOT, PATCH)} applied (the mount lookup and the probe skipped); this dist/ is the bundle with them.`,
  );
console.log(
  `\n${ROUNDS} runs per cell, interleaved; load average at the end ${loadAverage()} on ${os.cpus().length} cores.`,
);

// Nothing left: the reused sandboxes' volumes and folders.
for (const v of sh('docker', ['volume', 'ls', '--format', '{{.Name}}']).split('\n'))
  if (v.startsWith(`${prefix}-`)) sh('docker', ['volume', 'rm', v]);
fs.rmSync(scratch, { recursive: true, force: true });
process.exitCode = pass || process.env.BENCH_STRICT !== '1' ? 0 : 1;
