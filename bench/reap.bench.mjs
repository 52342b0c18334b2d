// Benchmark of `mode: reap` on the sandbox layout of src/sandbox/layout.ts, run by `npm run bench` (not a
// timed test). For each size in SIZES (2,000 and 10,000 disk sandboxes across PROJECTS projects, a fifth
// of them stale), on the identical generated tree (bench/reap-tree.mjs), interleaved:
//   - the action, run as the Actions runner runs it (`node dist/index.js`, INPUT_* variables), on Node 24
//     (GitHub's runtime for `runs.using: node24`; bench/lib.mjs ACTION_NODE, BENCH_NODE overrides);
//   - `find ROOT -mindepth 2 -maxdepth 2 -mtime +N -exec rm -rf {} +`, which checks nothing (and leaves the
//     sandboxes' homes and the parents' records behind);
//   - the seed tool's own reaper (`PruneService.prune()` of Jsebayhi/gemini-cli-toolbox, one `git
//     symbolic-ref` process per sandbox, then `shutil.rmtree` by folder mtime), run unmodified through
//     bench/seed-reaper.py from the checkout named by BENCH_SEED_PRUNE (never part of this repository).
// Then VOLUMES labelled volumes, listed by the action with a counted number of docker calls (a counting
// shim on PATH), against 10 volumes. Medians over RUNS runs; peak memory of the action's process.
// Targets (docs/benchmarks.md): ≤ 2× find, ≥ 1.5× faster than the seed tool's reaper, at both sizes;
// docker calls independent of the volume count; peak memory ≤ 150 MB. Exits 1 when a result is
// wrong or a target is missed.
//
// Settings (environment): BENCH_SEED_PRUNE (required: the seed's prune.py), BENCH_REAP_SIZES
// (2000,10000), BENCH_REAP_RUNS (3), BENCH_REAP_PROJECTS (20), BENCH_REAP_VOLUMES (1000; 0 skips the
// volume part), BENCH_REAP_DIR (a folder under /tmp), BENCH_WRITE=1 (append the raw results to docs/benchmarks.md).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ACTION_NODE, loadAverage, machineNote, median, uncacheNodeBinaries, writeSection } from './lib.mjs';
import { layOutReapTree, withLinkedTemplates } from './reap-linked-tree.mjs';
import { makeParents } from './reap-tree.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(REPO, 'dist', 'index.js');
const SEED = path.join(REPO, 'bench', 'seed-reaper.py');
const SEED_PRUNE = process.env.BENCH_SEED_PRUNE ? path.resolve(process.env.BENCH_SEED_PRUNE) : '';
const IMAGE = process.env.WORKTREE_SANDBOX_TEST_IMAGE ?? 'worktree-sandbox-test:bookworm';
const actionNodeVersion = execFileSync(ACTION_NODE, ['-p', 'process.versions.node'], {
  encoding: 'utf8',
}).trim();
const setting = (name, fallback) => Number(process.env[`BENCH_REAP_${name}`] ?? fallback);
const RUNS = setting('RUNS', 3);
const PROJECTS = setting('PROJECTS', 20);
const SIZES = (process.env.BENCH_REAP_SIZES ?? '2000,10000').split(',').map(Number);
const VOLUMES = setting('VOLUMES', 1000);
/**
 * The cache reaped: `own` (the action's disk sandboxes, bench/reap-tree.mjs), `linked` (linked worktrees in
 * the seed tool's layout, bench/reap-linked-tree.mjs), or `real` (the action's disk sandboxes as real caches
 * have them: of the stale ones of each project, UNTRACKED_PER_PROJECT hold an untracked file, which is
 * work, and IGNORED_PER_PROJECT only build output the parent's committed .gitignore ignores).
 */
const LAYOUT = process.env.BENCH_REAP_LAYOUT ?? 'own';
if (!['own', 'linked', 'real'].includes(LAYOUT))
  throw new Error(`BENCH_REAP_LAYOUT: own, linked or real, not ${LAYOUT}`);
const UNTRACKED_PER_PROJECT = LAYOUT === 'real' ? setting('UNTRACKED', 2) : 0;
const IGNORED_PER_PROJECT = LAYOUT === 'real' ? setting('IGNORED', 2) : 0;
const BASE = process.env.BENCH_REAP_DIR ?? path.join(os.tmpdir(), 'worktree-sandbox-bench-reap');
const ROOT = path.join(BASE, 'root');
// Stale sandboxes are 100 to 300 days old, fresh ones 1 to 25: `find -mtime +29` and the action's
// matrix (30 days transient, 90 persistent) pick exactly the same ones.
const FIND_DAYS = 29;

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
  const result = await run(ACTION_NODE, ['--require', PRELOAD, DIST], env);
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

/** The action's own timings of its phases, from its log (src/reap/reap.ts): scan, closer look, removal. */
function phasesOf(stdout) {
  const number = (re) => Number(re.exec(stdout)?.[1] ?? NaN);
  return {
    scan: number(/^Found \d+ entries .* \(([\d.]+) s\)\.$/m),
    look: number(/^In use, work and size checked \(([\d.]+) s;/m),
    proved: number(/checked \([\d.]+ s; (\d+) proved clean by the filesystem alone/m),
    remove: number(/^Done in ([\d.]+) s\.$/m),
  };
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
      phases: phasesOf(r.stdout),
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
  seed: async () => {
    const r = await run('python3', [SEED], {
      ...process.env,
      BENCH_SEED_PRUNE: SEED_PRUNE,
      GEMINI_WORKTREE_ROOT: ROOT,
    });
    if (r.code !== 0) throw new Error(`the seed tool's reaper failed: ${r.stderr.slice(-2000)}`);
    const { seconds } = JSON.parse(r.stdout.trim().split('\n').at(-1));
    // Its prune() alone (the hub is long-running: Python and Flask start-up are not its reaper's cost).
    return { ms: seconds * 1000, processMs: r.ms };
  },
};

/** Sandboxes left under the root (entries starting with a dot are homes and notes). */
function countSandboxes() {
  let n = 0;
  for (const project of fs.readdirSync(ROOT))
    n += fs.readdirSync(path.join(ROOT, project)).filter((name) => !name.startsWith('.')).length;
  return n;
}

/** Homes left, and the parents' records of sandboxes left: what only the action cleans up. */
function countLeftovers(parents) {
  let homes = 0;
  for (const project of fs.readdirSync(ROOT)) {
    const dir = path.join(ROOT, project, '.home');
    if (fs.existsSync(dir)) homes += fs.readdirSync(dir).length;
  }
  let records = 0;
  for (const { parent } of parents)
    records += execFileSync('git', ['-C', parent, 'for-each-ref', '--format=x', 'refs/worktree-sandbox/'], {
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean).length;
  return { homes, records };
}

/** Registrations of linked worktrees left in the parents, the two templates of each aside. */
function countRegistrations(parents) {
  let n = 0;
  for (const { gitDir } of parents) {
    const dir = path.join(gitDir, 'worktrees');
    if (fs.existsSync(dir)) n += fs.readdirSync(dir).filter((id) => !id.startsWith('ltemplate-')).length;
  }
  return n;
}

// ---- disk sandboxes ---------------------------------------------------------------------------------------

async function benchDisk(size) {
  const perProject = Math.round(size / PROJECTS);
  const stalePerProject = Math.round(perProject / 5);
  log(`${size} sandboxes: parents ${PROJECTS} repositories under ${BASE}/parents`);
  const made = makeParents(BASE, PROJECTS);
  const parents = LAYOUT === 'linked' ? withLinkedTemplates(BASE, made) : made;
  const order = ['action', 'find', 'seed'];
  const results = Object.fromEntries(order.map((name) => [name, []]));
  let actionDetails;
  fs.rmSync(ROOT, { recursive: true, force: true });
  let renew = 'all';
  uncacheNodeBinaries(); // peak memory: see lib.mjs
  const load = [loadAverage()];
  for (let r = 0; r < RUNS; r++) {
    for (let k = 0; k < order.length; k++) {
      const name = order[(k + r) % order.length];
      const t = Date.now();
      const now = Math.floor(Date.now() / 1000);
      const shape = { perProject, stalePerProject, seed: 7, renew, now };
      const tree = layOutReapTree(LAYOUT, ROOT, parents, shape, {
        untrackedPerProject: UNTRACKED_PER_PROJECT,
        ignoredPerProject: IGNORED_PER_PROJECT,
      });
      renew = 'stale';
      log(
        `${size}: run ${r + 1}/${RUNS} ${name}: ${tree.count} sandboxes (${tree.stale} stale) ready in ${secs(Date.now() - t)}`,
      );
      const result = await tools[name]();
      const left = countSandboxes();
      // The action keeps the stale sandboxes holding an untracked file (work); the others check nothing.
      const removable = name === 'action' ? tree.stale - PROJECTS * UNTRACKED_PER_PROJECT : tree.stale;
      const kept = tree.count - removable;
      if (left !== kept) fail(`${name} left ${left} sandboxes, expected ${kept}`);
      if (result.removed !== undefined && result.removed !== removable)
        fail(`${name} removed ${result.removed}, expected ${removable}`);
      if (LAYOUT !== 'linked') {
        const homeFolders = fs.readdirSync(ROOT).filter((p) => fs.existsSync(path.join(ROOT, p, '.home')));
        if (homeFolders.length !== PROJECTS) fail(`${name} removed a project's .home folder`);
      }
      if (name === 'action') {
        if (LAYOUT === 'linked') {
          const registered = countRegistrations(parents);
          if (registered !== kept)
            fail(`the action left ${registered} registrations for ${kept} linked worktrees`);
        } else {
          const { homes, records } = countLeftovers(parents);
          if (homes !== kept || records !== kept)
            fail(`the action left ${homes} homes and ${records} records for ${kept} sandboxes`);
        }
        actionDetails = result;
      }
      results[name].push(result);
      log(
        `${size}: run ${r + 1}/${RUNS} ${name}: ${secs(result.ms)}${result.peakMb ? `, peak ${result.peakMb.toFixed(0)} MB` : ''}`,
      );
    }
  }
  load.push(loadAverage());
  fs.rmSync(ROOT, { recursive: true, force: true });
  const m = (name) => median(results[name].map((x) => x.ms));
  return {
    size,
    stale: PROJECTS * stalePerProject,
    removable: PROJECTS * (stalePerProject - UNTRACKED_PER_PROJECT),
    action: m('action'),
    find: m('find'),
    seed: m('seed'),
    all: results,
    load,
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

/** The seed's time over the action's, said the way round it is. */
const fasterOrSlower = (speedup) =>
  speedup >= 1 ? `${speedup.toFixed(2)}× faster` : `${(1 / speedup).toFixed(2)}× slower`;

// ---- main -------------------------------------------------------------------------------------------------

async function main() {
  if (!fs.existsSync(DIST)) throw new Error('dist/index.js is missing: npm run build');
  if (!SEED_PRUNE || !fs.existsSync(SEED_PRUNE))
    throw new Error(
      `BENCH_SEED_PRUNE must name the seed tool's prune.py (images/gemini-hub/app/services/prune.py in a checkout of Jsebayhi/gemini-cli-toolbox, kept out of this repository, e.g. under .bench/): got ${JSON.stringify(SEED_PRUNE)}. docs/benchmarks.md says how to get it.`,
    );
  fs.mkdirSync(BASE, { recursive: true });
  fs.writeFileSync(
    PRELOAD,
    "process.on('exit', () => require('node:fs').writeFileSync(process.env.BENCH_MAX_RSS_FILE, String(process.resourceUsage().maxRSS)));\n",
  );
  Object.assign(shim, dockerShim());
  const disks = [];
  for (const size of SIZES) disks.push(await benchDisk(size));
  const volumes = VOLUMES > 0 ? await benchVolumes() : undefined;

  const checks = [];
  for (const disk of disks) {
    const ratioFind = disk.action / disk.find;
    const speedup = disk.seed / disk.action;
    checks.push(
      [`${disk.size} sandboxes: action ≤ 2× find`, ratioFind <= 2, `× ${ratioFind.toFixed(2)}`],
      [
        `${disk.size} sandboxes: action ≥ 1.5× faster than the seed tool's reaper`,
        speedup >= 1.5,
        fasterOrSlower(speedup),
      ],
    );
  }
  const peak = Math.max(
    ...disks.map((d) => d.peakMb),
    ...(volumes ? [volumes.small.peakMb, volumes.large.peakMb] : []),
  );
  if (volumes) {
    const constant = volumes.small.calls.length === volumes.large.calls.length;
    const perVolume = volumes.large.calls.filter((c) => /^volume inspect|^inspect/.test(c)).length;
    checks.push([
      `docker calls independent of the volume count`,
      constant && perVolume === 0,
      `${volumes.small.calls.length} for 10, ${volumes.large.calls.length} for ${VOLUMES}`,
    ]);
  }
  checks.push([`peak memory ≤ 150 MB`, peak <= 150, `${peak.toFixed(0)} MB`]);
  for (const [what, ok] of checks) if (!ok) fail(`target missed: ${what}`);

  const list = (xs) => xs.map((x) => (x.ms / 1000).toFixed(2)).join(', ');
  const rows = disks.flatMap((d) => [
    [
      `${d.size} sandboxes (${d.stale} stale): action vs \`find … -exec rm -rf\``,
      secs(d.action),
      secs(d.find),
      `× ${(d.action / d.find).toFixed(2)}`,
      '≤ × 2',
      d.action / d.find <= 2 ? 'pass' : '**FAIL**',
    ],
    [
      `${d.size} sandboxes (${d.stale} stale): action vs the seed tool's reaper`,
      secs(d.action),
      secs(d.seed),
      fasterOrSlower(d.seed / d.action),
      '≥ 1.5× faster',
      d.seed / d.action >= 1.5 ? 'pass' : '**FAIL**',
    ],
  ]);
  const table = [
    '| measure | action (median) | baseline (median, same run) | ratio | target | result |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
  const gitVersion = execFileSync('git', ['version'], { encoding: 'utf8' })
    .trim()
    .replace('git version ', '');
  const dockerVersion = execFileSync('docker', ['version', '--format', '{{.Server.Version}}'], {
    encoding: 'utf8',
  }).trim();
  const seedPath = path.relative(REPO, path.resolve(SEED_PRUNE));
  const command = `BENCH_SEED_PRUNE=${seedPath.startsWith('..') ? SEED_PRUNE : seedPath} ${VOLUMES === 1000 ? '' : `BENCH_REAP_VOLUMES=${VOLUMES} `}${RUNS === 3 ? '' : `BENCH_REAP_RUNS=${RUNS} `}${LAYOUT === 'own' ? '' : `BENCH_REAP_LAYOUT=${LAYOUT} `}${process.env.BENCH_REAP_SIZES ? `BENCH_REAP_SIZES=${process.env.BENCH_REAP_SIZES} ` : ''}node bench/reap.bench.mjs`;
  const layoutNote = {
    own: '',
    linked: `- Layout \`linked\` (bench/reap-linked-tree.mjs): the same parents, and under \`<root>/project<NN>/\` linked worktrees in the seed tool's layout instead of the action's sandboxes: each folder's \`.git\` a file naming \`<parent>/.git/worktrees/<name>\`, registered there (HEAD, commondir, gitdir pointing back, reflog, an index with the copy's own stat data), copied from two templates per parent made by \`git worktree add\`; half detached, half on a branch of their own at the parent's HEAD (which origin has). Checked: the action removes exactly the stale ones with their registrations (the templates' aside); find and the seed tool leave the registrations behind.\n`,
    real: `- Layout \`real\`: the action's sandboxes as below, shaped like a real cache: of each project's stale sandboxes ${UNTRACKED_PER_PROJECT} hold an untracked file (\`notes.txt\`: work, the action keeps them; find and the seed tool remove them) and ${IGNORED_PER_PROJECT} only build output that the parent's committed \`.gitignore\` (\`node_modules/\`, \`build/\`) ignores (5 files in \`node_modules/\` and \`build/\`: no work, removed). The action removes ${PROJECTS * (SIZES[0] / PROJECTS / 5 - UNTRACKED_PER_PROJECT)} of the ${SIZES[0] / 5} stale ones at the first size.\n`,
  }[LAYOUT];
  const md = `
Produced by \`${command}\` on ${new Date().toISOString().slice(0, 10)} (part of \`npm run bench\`, which needs \`BENCH_SEED_PRUNE\` too; after \`npm run build\`).

${layoutNote}- Machine: ${machineNote()}; git ${gitVersion}, Docker ${dockerVersion}, Python ${execFileSync('python3', ['--version'], { encoding: 'utf8' }).trim().replace('Python ', '')}; running as uid ${process.getuid()}. 1-minute load average ${disks.map((d) => `${d.load[0]} → ${d.load[1]} (${d.size})`).join(', ')}.
- Cache (bench/reap-tree.mjs): ${PROJECTS} parent repositories, each with a bare origin holding its commits; under \`<root>/<project>/\` sandboxes in the action's layout: each a repository of its own (31 files in 4 folders, \`.git\` folder borrowing the parent's objects through \`objects/info/alternates\`, made by run mode's own INIT_SCRIPT for one template per kind, copied with their own index stat data), its home \`.home/<name>\`, the project's \`.parent\` note, and the parent's record \`refs/worktree-sandbox/disk/<name>/head\`. Half transient (detached), half persistent (on a branch); a fifth stale (100–300 days), the rest 1–25 days. Before every measurement the stale sandboxes are laid out again (what a reaper removes) and the records rewritten, so each tool starts from the identical tree; \`sync\` before the clock starts. ${RUNS} runs per size, tools interleaved in rotating order; medians.
- Tools: the action (\`node dist/index.js\` on Node ${actionNodeVersion}${ACTION_NODE === process.execPath ? '' : ', test/node24: `runs.using: node24`, what GitHub runs it on'}, \`mode: reap\`, as the runner runs it, whole process timed: scan, use and work checks, removal of sandbox, home and records, outputs and job summary; checked: exactly the stale ones gone, with their homes and records). \`find ROOT -mindepth 2 -maxdepth 2 -mtime +${FIND_DAYS} -exec rm -rf {} +\` (checks nothing; leaves the homes and records). The seed tool's \`PruneService.prune()\` (Jsebayhi/gemini-cli-toolbox, images/gemini-hub/app/services/prune.py, run unmodified with its defaults, 30 days headless, 90 branch, 90 orphan, its root given by \`GEMINI_WORKTREE_ROOT\`; timed inside Python around the call, without the interpreter's and Flask's start-up): it expects the same \`<root>/<project>/<worktree>\` layout and classifies each folder by \`git -C <folder> symbolic-ref -q HEAD\`, which works the same on a sandbox with its own \`.git\` folder as on a linked worktree, so it runs on the same copy; it also looks at \`.home\` (no repository: "orphan", 90 days, recent, kept) and leaves the homes and records behind.

${table}

Samples, in seconds, in the order they ran:

${disks.map((d) => `- ${d.size} sandboxes: action ${list(d.all.action)}; find ${list(d.all.find)}; seed tool ${list(d.all.seed)} (its whole process: ${d.all.seed.map((x) => (x.processMs / 1000).toFixed(2)).join(', ')})`).join('\n')}

The action's own account of its phases (its log; per run, in seconds: scan / in use, work and size of the stale ones / removal):
${disks.map((d) => `- ${d.size} sandboxes: ${d.all.action.map((x) => `${x.phases.scan.toFixed(2)} / ${x.phases.look.toFixed(2)} / ${x.phases.remove.toFixed(2)}`).join('; ')} (stale ones proved clean by the filesystem alone: ${d.all.action.map((x) => x.phases.proved).join(', ')} of ${d.stale})`).join('\n')}

Peak memory (maxRSS of the action's process): ${disks.map((d) => `${d.peakMb.toFixed(0)} MB (${d.size} sandboxes)`).join(', ')}${volumes ? `, ${volumes.large.peakMb.toFixed(0)} MB with ${VOLUMES} volumes` : ''}. Docker calls of a disk run: ${disks.at(-1).dockerCalls}.${volumes ? ` Listing ${VOLUMES} volumes: ${volumes.large.calls.length} docker calls (\`${[...new Set(volumes.large.calls)].join('`, `')}\`), 10 volumes: ${volumes.small.calls.length}; ${secs(volumes.large.ms)} (10 volumes: ${secs(volumes.small.ms)}).` : ''}
`;
  fs.writeFileSync(path.join(BASE, 'results.md'), `${md}\n`);
  console.log(md);
  if (process.env.BENCH_WRITE === '1' && LAYOUT === 'own')
    await writeSection(path.join(REPO, 'docs', 'benchmarks.md'), '## Reap', md);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
