// Run-mode benchmark (docs/benchmarks.md): the bundled action against a
// hand-written equivalent, measured in the same run, interleaved, on a large repository.
//
//   npm run bench                      # generated repository in the shape of git's own (cached in .bench/)
//   BENCH_REPO=/path npm run bench     # a private clone of any real repository instead
//   BENCH_REPEAT=8 (default; even)  BENCH_STRICT=1 (exit 1 when a target is missed)  BENCH_WRITE=1 (append the raw results to docs/benchmarks.md)
//   BENCH_ONLY=new (new sandboxes only: no reuse rounds)
//
// 1. start → the command's first instruction, new transient sandbox, per isolation. The action makes a
//    repository of its own borrowing the parent's objects (git init + objects/info/alternates + reset
//    --hard) and mounts the parent read-only with its .git hidden; the baseline is the
//    old design written by hand (a linked worktree bind-mounted read-write): `git worktree add` + `docker run -v` (disk), or `docker volume create` +
//    a helper container doing `git worktree add` into the volume + `docker run` (volume);
// 2. reuse: a second run on the same branch vs a bare `docker run` with the mounts the action's own
//    command container gets (parent read-only, its .git hidden, its object store read-only, the sandbox);
// 3. the whole main step, against the same hand-written steps followed by a helper container that looks for
//    changes (`git status --porcelain`), as the action's import does;
// 4. peak memory (VmHWM) of every action process (main and post steps).
// The command prints `date +%s%N` first: containers share the host's clock.
//   BENCH_DISTS="before=/tmp/before/index.js,after=dist/index.js": several builds, interleaved with the
//   baseline and with each other in rotating order (a device measured with and without it, ADR 0011).
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cloneOf, gitShapedRepository, repositoryShape, withOrigin } from './git-shaped-repo.mjs';
import {
  ACTION_NODE,
  CACHE,
  DIST,
  IMAGE,
  ROOT,
  bareRunArgs,
  firstTimestamp,
  loadAverage,
  machineNote,
  nowNs,
  markdownTable,
  median,
  run,
  runActionStep,
  seconds,
  uncacheNodeBinaries,
  writeSection,
  ACTION_DEFAULTS,
} from './lib.mjs';

// Even: each side runs second in a pair as often as first.
const REPEAT = Number(process.env.BENCH_REPEAT ?? 8);
if (!Number.isInteger(REPEAT) || REPEAT < 2 || REPEAT % 2)
  throw new Error(`BENCH_REPEAT must be an even number (each side runs first as often as second): ${REPEAT}`);
const FIRST_INSTRUCTION = 'date +%s%N';
// Targets: ≤ 1.1× (disk) and ≤ 1.3× (volume) the hand-written `git worktree add` + `docker run`, so that
// the boundary costs little over the old design; the whole main step ≤ 1.1× the same steps followed by a
// helper that looks for changes; reuse ≤ +0.15 s over a bare `docker run`; peak memory ≤ 100 MB.
const TARGETS = { diskRatio: 1.1, volumeRatio: 1.3, stepRatio: 1.1, reuseExtraMs: 150, peakMb: 100 };
const ISOLATIONS = [
  { isolation: 'disk', label: 'disk', ratio: TARGETS.diskRatio },
  { isolation: 'container', label: 'container (volume)', ratio: TARGETS.volumeRatio },
];
const signed = (ms) => `${ms < 0 ? '−' : '+'} ${seconds(Math.abs(ms))}`;
const log = (msg) => process.stderr.write(`[bench:run-mode] ${msg}\n`);

const uid = process.getuid();
const gid = process.getgid();
const tag = randomBytes(3).toString('hex');
const prefix = `wtsbench-${tag}`;
const scratch = path.join(CACHE, `run-mode-${tag}`);
const worktreeRoot = path.join(scratch, 'worktrees');
const reuseBranch = `bench-reuse-${tag}`;
const peaks = [];
// Nothing is removed while the series run (removals wait here, in order, for settle()). On an ext4 without a
// journal (this machine's), a file created within 60 s of another's removal skips each such free inode
// (ialloc.c, recently_deleted): writing 4,800 files after a 60 MB sandbox went took 0.4–1.2 s longer, by
// chance of where they landed, on either side. GitHub's runners journal their disks.
const removals = [];
let handCount = 0;
async function settle() {
  for (const remove of removals.splice(0)) await remove();
  await run('sync', []);
  await sleep(65_000);
}
const VARIANTS = (process.env.BENCH_DISTS ?? `action=${DIST}`).split(',').map((entry) => {
  const [name, dist] = entry.split('=');
  if (!name || !dist || !fs.existsSync(dist)) throw new Error(`BENCH_DISTS: no build at ${entry}`);
  return { name, dist: path.resolve(dist) };
});
const ab = VARIANTS.length > 1;
// BENCH_ONLY=new: new sandboxes only (start → first instruction and the whole step), no reuse rounds.
const newOnly = process.env.BENCH_ONLY === 'new';

/** action.yml's input defaults, as the runner fills them in (expressions such as the token: empty here). */

function actionInputs(repo, isolation, extra = {}) {
  return {
    ...ACTION_DEFAULTS,
    command: FIRST_INSTRUCTION,
    image: IMAGE,
    isolation,
    'repository-path': repo,
    'worktree-root': worktreeRoot,
    'volume-prefix': prefix,
    ...extra,
  };
}

/** Main then post; ms from the main step's start to the command's first instruction (`ms`) and to its end. */
async function actionRun(repo, isolation, extra, node = ACTION_NODE, dist = VARIANTS[0].dist) {
  const inputs = actionInputs(repo, isolation, extra);
  const main = await runActionStep({ inputs, cwd: repo, node, dist });
  const stepMs = Number(nowNs() - main.startNs) / 1e6;
  const postStep = async () => {
    const post = await runActionStep({ inputs, cwd: repo, state: main.state, node, dist });
    peaks.push(main.peakKb, post.peakKb);
    if (main.outputs.kind === 'transient' && (await sandboxExists(main.outputs)))
      throw new Error(`the post step left the transient sandbox ${main.outputs.sandbox} behind`);
  };
  // A transient sandbox's post step removes it: that waits (removals); a kept one's runs now.
  if (main.outputs.kind === 'transient') removals.push(postStep);
  else await postStep();
  return { ms: Number(firstTimestamp(main.stdout) - main.startNs) / 1e6, stepMs, outputs: main.outputs };
}

async function sandboxExists(outputs) {
  if (!outputs.volume) return fs.existsSync(outputs['worktree-path']);
  return (await run('docker', ['volume', 'inspect', '--', outputs.volume], { check: false })).code === 0;
}

/** The mounts a person would write so that git works in the container (parent read-only, .git writable). */
function handMounts(repo, worktreeMount) {
  return ['-v', `${repo}:${repo}:ro`, '-v', `${repo}/.git:${repo}/.git`, '-v', worktreeMount];
}

/** Runs the commands one after the other, as a script would: ms to the command's first instruction and to the end. */
async function timedSequence(commands) {
  const startNs = nowNs();
  let stdout = '';
  for (const [cmd, ...args] of commands) stdout += (await run(cmd, args)).stdout;
  return { ms: Number(firstTimestamp(stdout) - startNs) / 1e6, stepMs: Number(nowNs() - startNs) / 1e6 };
}

const firstInstruction = ['sh', '-c', FIRST_INSTRUCTION];
/** The helper that looks for changes after the command, as the action's import does. */
const lookForChanges = (mounts, wt) => [
  'docker',
  'run',
  '--rm',
  '--user',
  `${uid}:${gid}`,
  ...mounts,
  '-w',
  wt,
  IMAGE,
  'git',
  'status',
  '--porcelain',
];

/** `git worktree add` + `docker run`, then the helper that looks for changes. */
async function baselineDisk(repo) {
  const wt = path.join(worktreeRoot, 'baseline', `hand-${++handCount}`);
  const times = await timedSequence([
    ['git', '-C', repo, 'worktree', 'add', '--quiet', '--detach', wt, 'HEAD'],
    [
      'docker',
      'run',
      '--rm',
      '--user',
      `${uid}:${gid}`,
      ...handMounts(repo, `${wt}:${wt}`),
      '-w',
      wt,
      IMAGE,
      ...firstInstruction,
    ],
    lookForChanges(handMounts(repo, `${wt}:${wt}`), wt),
  ]);
  removals.push(() => run('git', ['-C', repo, 'worktree', 'remove', '--force', '--', wt]));
  return times;
}

async function baselineVolume(repo) {
  const n = ++handCount;
  const volume = `${prefix}-hand-${n}`;
  const wt = `/sandbox/hand-${n}`;
  const mounts = handMounts(repo, `${volume}:/sandbox`);
  const add = ['git', '-C', repo, 'worktree', 'add', '--quiet', '--detach', wt, 'HEAD'];
  // As root the helper adds the worktree directly; otherwise it hands the volume to the caller's user first.
  const helper =
    uid === 0
      ? add
      : [
          'sh',
          '-c',
          `chown ${uid}:${gid} /sandbox && exec setpriv --reuid=${uid} --regid=${gid} --clear-groups "$@"`,
          'helper',
          ...add,
        ];
  const times = await timedSequence([
    ['docker', 'volume', 'create', volume],
    ['docker', 'run', '--rm', ...mounts, IMAGE, ...helper],
    ['docker', 'run', '--rm', '--user', `${uid}:${gid}`, ...mounts, '-w', wt, IMAGE, ...firstInstruction],
    lookForChanges(mounts, wt),
  ]);
  removals.push(async () => {
    await run('docker', ['volume', 'rm', '--', volume]);
    fs.rmSync(path.join(repo, '.git', 'worktrees', `hand-${n}`), { recursive: true, force: true });
  });
  return times;
}

/** A bare `docker run` on an existing sandbox, with the action's mounts (lib.mjs `bareRunArgs`). */
async function bareRun(repo, outputs) {
  return timedSequence([
    ['docker', ...bareRunArgs(repo, outputs, firstInstruction)],
    ['docker', ...bareRunArgs(repo, outputs, ['git', 'status', '--porcelain'])],
  ]);
}

/**
 * Runs `sides` in rotating order (so none always runs on another's warm cache, and each runs first as
 * often as the others when `i` covers a multiple of their count), each after a `sync`, so that none pays
 * for writing back what the run before it wrote (60 MB per new sandbox). Results in the order given.
 */
async function interleaved(i, sides) {
  const results = new Array(sides.length);
  for (let k = 0; k < sides.length; k++) {
    const j = (i + k) % sides.length;
    await run('sync', []);
    results[j] = await sides[j]();
  }
  return results;
}

async function benchRepository() {
  if (process.env.BENCH_REPO)
    return { repo: withOrigin(cloneOf(process.env.BENCH_REPO, CACHE, log)), source: process.env.BENCH_REPO };
  return {
    repo: withOrigin(await gitShapedRepository(CACHE, { log })),
    source: 'generated, in the shape of git.git, with a local bare origin that has its commits',
  };
}

async function cleanUp(repo) {
  const volumes = (
    await run('docker', ['volume', 'ls', '--quiet', '--filter', `name=${prefix}-`], { check: false })
  ).stdout
    .split('\n')
    .filter((v) => v.startsWith(`${prefix}-`));
  if (volumes.length) await run('docker', ['volume', 'rm', '--force', ...volumes], { check: false });
  // Worktree entries this run left behind (only after a failure): disk ones under the scratch folder,
  // volume ones by their lock reason (naming the volume) or the hand-written helper's path.
  const admin = path.join(repo, '.git', 'worktrees');
  for (const entry of fs.existsSync(admin) ? fs.readdirSync(admin) : []) {
    const read = (file) => fs.readFileSync(path.join(admin, entry, file), 'utf8').trim();
    const gitdir = fs.existsSync(path.join(admin, entry, 'gitdir')) ? read('gitdir') : '';
    const locked = fs.existsSync(path.join(admin, entry, 'locked')) ? read('locked') : '';
    if (gitdir.startsWith(scratch) || locked.includes(prefix) || /^\/sandbox\/hand-\d+\//.test(gitdir))
      fs.rmSync(path.join(admin, entry), { recursive: true, force: true });
  }
  for (const { isolation } of ISOLATIONS)
    for (const { name } of VARIANTS)
      await run('git', ['-C', repo, 'branch', '-D', '--', `${reuseBranch}-${isolation}-${name}`], {
        check: false,
      });
  // The parent's records of sandboxes a failed run left (the repository is the benchmark's own copy).
  const records = (
    await run('git', ['-C', repo, 'for-each-ref', '--format=delete %(refname)', 'refs/worktree-sandbox/'])
  ).stdout;
  if (records.trim()) {
    const update = spawnSync('git', ['-C', repo, 'update-ref', '--stdin'], { input: records });
    if (update.status !== 0) log(`could not drop the records: ${update.stderr}`);
  }
  fs.rmSync(path.join(repo, '.git', 'worktree-sandbox'), { recursive: true, force: true });
  fs.rmSync(scratch, { recursive: true, force: true });
}

async function main() {
  if (!fs.existsSync(DIST)) throw new Error(`${DIST} is missing: run npm run build`);
  const { repo, source } = await benchRepository();
  const shape = repositoryShape(repo);
  log(
    `repository ${repo}: ${shape.files} files, ${(shape.bytes / 1e6).toFixed(1)} MB, ${shape.commits} commits`,
  );
  uncacheNodeBinaries(); // peak memory: see lib.mjs
  const note = machineNote();
  const load = [loadAverage()];
  // Per isolation: each build's series (start → first instruction, whole main step; new and reused
  // sandboxes), the baselines' beside them.
  const series = () => ({ action: [], step: [], reuse: [], reuseStep: [], reuseHere: [] });
  const times = Object.fromEntries(
    ISOLATIONS.map(({ isolation }) => [
      isolation,
      {
        ...Object.fromEntries(VARIANTS.map(({ name }) => [name, series()])),
        hand: [],
        handStep: [],
        bare: [],
        bareStep: [],
      },
    ]),
  );
  try {
    log('warm-up (not counted)');
    for (const { isolation } of ISOLATIONS) {
      for (const { dist } of VARIANTS) await actionRun(repo, isolation, {}, ACTION_NODE, dist);
      await (isolation === 'disk' ? baselineDisk(repo) : baselineVolume(repo));
    }
    await settle();
    for (let i = 1; i <= REPEAT; i++) {
      for (const { isolation } of ISOLATIONS) {
        const hand = isolation === 'disk' ? baselineDisk : baselineVolume;
        const [h, ...actions] = await interleaved(i, [
          () => hand(repo),
          ...VARIANTS.map(
            ({ dist }) =>
              () =>
                actionRun(repo, isolation, {}, ACTION_NODE, dist),
          ),
        ]);
        const t = times[isolation];
        t.hand.push(h.ms);
        t.handStep.push(h.stepMs);
        VARIANTS.forEach(({ name }, k) => {
          t[name].action.push(actions[k].ms);
          t[name].step.push(actions[k].stepMs);
        });
        const each = VARIANTS.map(
          ({ name }, k) => `${name} ${seconds(actions[k].ms)} / ${seconds(actions[k].stepMs)}`,
        );
        log(
          `${i}/${REPEAT} ${isolation} (first instruction / step): ${each.join(', ')}, hand-written ${seconds(h.ms)} / ${seconds(h.stepMs)}`,
        );
      }
    }
    for (const { isolation } of newOnly ? [] : ISOLATIONS) {
      const branch = (name) => `${reuseBranch}-${isolation}-${name}`;
      let outputs;
      for (const { name, dist } of VARIANTS)
        ({ outputs } = await actionRun(repo, isolation, { branch: branch(name) }, ACTION_NODE, dist));
      const t = times[isolation];
      for (let i = 1; i <= REPEAT; i++) {
        const [b, ...reuses] = await interleaved(i, [
          () => bareRun(repo, outputs),
          ...VARIANTS.map(
            ({ name, dist }) =>
              () =>
                actionRun(repo, isolation, { branch: branch(name) }, ACTION_NODE, dist),
          ),
        ]);
        t.bare.push(b.ms);
        t.bareStep.push(b.stepMs);
        VARIANTS.forEach(({ name }, k) => {
          t[name].reuse.push(reuses[k].ms);
          t[name].reuseStep.push(reuses[k].stepMs);
        });
        const each = VARIANTS.map(
          ({ name }, k) => `${name} ${seconds(reuses[k].ms)} / ${seconds(reuses[k].stepMs)}`,
        );
        log(
          `${i}/${REPEAT} ${isolation} reuse (first instruction / step): ${each.join(', ')}, bare docker run ${seconds(b.ms)} / ${seconds(b.stepMs)}`,
        );
        if (!ab && ACTION_NODE !== process.execPath) {
          // The same on this machine's own Node (reported, not the target: GitHub runs Node 24).
          await run('sync', []);
          const here = (
            await actionRun(repo, isolation, { branch: branch(VARIANTS[0].name) }, process.execPath)
          ).ms;
          t[VARIANTS[0].name].reuseHere.push(here);
          log(`${i}/${REPEAT} ${isolation} reuse on Node ${process.versions.node}: ${seconds(here)}`);
        }
      }
      // The action removes its own persistent sandboxes (cleanup: always), then the branches go.
      for (const { name, dist } of VARIANTS) {
        await actionRun(repo, isolation, { branch: branch(name), cleanup: 'always' }, ACTION_NODE, dist);
        await run('git', ['-C', repo, 'branch', '-D', '--', branch(name)]);
      }
    }
    // The post steps' checks fail the benchmark here; after an earlier error, what is left is only logged.
    for (const remove of removals.splice(0)) await remove();
  } finally {
    for (const remove of removals.splice(0)) await remove().catch((error) => log(String(error)));
    await cleanUp(repo);
  }
  load.push(loadAverage());
  await report({ repo, source, shape, note, load, times });
}

async function report({ source, shape, note, load, times }) {
  const verdict = (ok) => (ok ? 'pass' : '**FAIL**');
  const rows = [];
  let allPass = true;
  const ratioRow = (measure, xs, ys, baseline, target) => {
    const ok = target === undefined || median(xs) / median(ys) <= target;
    if (target !== undefined) allPass &&= ok;
    rows.push([
      measure,
      seconds(median(xs)),
      `${seconds(median(ys))} (${baseline})`,
      `× ${(median(xs) / median(ys)).toFixed(2)}`,
      `× ${median(xs.map((x, i) => x / ys[i])).toFixed(2)}`,
      target === undefined ? 'none' : `≤ × ${target}`,
      target === undefined ? '' : verdict(ok),
    ]);
  };
  const of = (name) => (ab ? `${name}: ` : '');
  for (const { isolation, label, ratio } of ISOLATIONS) {
    const t = times[isolation];
    for (const { name } of VARIANTS) {
      const v = t[name];
      ratioRow(
        `${of(name)}start → first instruction, ${label}, new transient sandbox`,
        v.action,
        t.hand,
        'hand-written',
        ratio,
      );
      ratioRow(
        `${of(name)}whole main step, ${label}, new transient sandbox`,
        v.step,
        t.handStep,
        'hand-written, then a helper looks for changes',
        TARGETS.stepRatio,
      );
    }
  }
  for (const { isolation, label } of newOnly ? [] : ISOLATIONS) {
    const t = times[isolation];
    for (const { name } of VARIANTS) {
      const v = t[name];
      const reuse = median(v.reuse);
      const bare = median(t.bare);
      const ok = reuse - bare <= TARGETS.reuseExtraMs;
      allPass &&= ok;
      rows.push([
        `${of(name)}reuse (second run on one branch), ${label}`,
        seconds(reuse),
        `${seconds(bare)} (bare docker run)`,
        signed(reuse - bare),
        signed(median(v.reuse.map((r, i) => r - t.bare[i]))),
        `≤ + ${seconds(TARGETS.reuseExtraMs)}`,
        verdict(ok),
      ]);
      ratioRow(
        `${of(name)}whole main step, reuse, ${label}`,
        v.reuseStep,
        t.bareStep,
        'bare docker run, then a helper looks for changes',
      );
      if (v.reuseHere.length) {
        const here = median(v.reuseHere);
        rows.push([
          `reuse, ${label}, the action on Node ${process.versions.node} (this machine's; reported)`,
          seconds(here),
          `${seconds(bare)} (bare docker run)`,
          signed(here - bare),
          signed(median(v.reuseHere.map((r, i) => r - t.bare[i]))),
          'none',
          '',
        ]);
      }
    }
  }
  const peakMb = Math.max(...peaks) / 1024;
  const peakOk = peakMb <= TARGETS.peakMb;
  allPass &&= peakOk;
  rows.push([
    `peak memory of the action process (max VmHWM of ${peaks.length} main and post steps)`,
    `${peakMb.toFixed(1)} MB`,
    '',
    '',
    '',
    `≤ ${TARGETS.peakMb} MB`,
    verdict(peakOk),
  ]);
  const table = markdownTable(
    [
      'measure',
      'action (median)',
      'baseline (median, same run)',
      'ratio / difference of the medians (the target)',
      'paired: median of per-pair ratios / differences',
      'target',
      'result',
    ],
    rows,
  );
  const list = (xs) => xs.map((x) => (x / 1000).toFixed(2)).join(', ');
  const samples = ISOLATIONS.map(({ isolation, label }) => {
    const t = times[isolation];
    const builds = VARIANTS.map(({ name }) => {
      const v = t[name];
      const here = v.reuseHere.length ? `; reuse on Node ${process.versions.node} ${list(v.reuseHere)}` : '';
      return `${name} ${list(v.action)} (step ${list(v.step)}); reuse ${list(v.reuse)} (step ${list(v.reuseStep)})${here}`;
    });
    return `- ${label}: ${builds.join('; ')}; hand-written ${list(t.hand)} (step ${list(t.handStep)}); bare ${list(t.bare)} (step ${list(t.bareStep)})`;
  }).join('\n');
  const command = `${process.env.BENCH_REPO ? `BENCH_REPO=${process.env.BENCH_REPO} ` : ''}${REPEAT === 8 ? '' : `BENCH_REPEAT=${REPEAT} `}node bench/run-mode.bench.mjs`;
  const body = `
Produced by \`${command}\` on ${new Date().toISOString().slice(0, 10)}, from commit ${commit} (also run by \`npm run bench\`; after \`bash scripts/setup.sh\` and \`npm run build\`; \`BENCH_REPO=/path\` measures a private clone of any repository, \`BENCH_REPEAT\`, \`BENCH_STRICT=1\` to exit 1 when a target is missed).

- Machine: ${note} (the benchmark's); the action runs on Node ${actionNodeVersion}${ACTION_NODE === process.execPath ? '' : ' (test/node24: `runs.using: node24`, what GitHub runs it on; `BENCH_NODE` picks another)'}; 1-minute load average ${load[0]} at the start, ${load[1]} at the end. Docker ${dockerVersion ?? '?'}, git ${gitVersion}, image \`${IMAGE}\`, running as uid ${uid}.
- Repository: ${source}: ${shape.files} files, ${(shape.bytes / 1e6).toFixed(1)} MB checked out, ${shape.commits} commits.
- ${REPEAT} repetitions after one warm-up; action and baseline interleaved in alternating order, each first in half of the pairs, each after a \`sync\`; medians. Nothing is removed while the series run (an ext4 without a journal, as here, makes a file created within 60 s of another's removal skip each such free inode: 0.4–1.2 s more for the next 60 MB sandbox, on either side); removals, then 65 s, after the warm-up. Times run from spawning the process (\`node dist/index.js\` with INPUT_* variables, action.yml's defaults and per-step GITHUB_OUTPUT/GITHUB_STATE files, as the runner does; or the hand-written equivalent's first command) to the \`date +%s%N\` the command prints first in the container. Every transient sandbox is new and removed by the action's post step (checked), after the series.
- What the action does: a repository of its own per sandbox (\`git init\`, \`objects/info/alternates\` to the parent's store, \`git reset --hard\`; in a helper container for a volume), the parent's records as refs, then the command in a container that sees the parent read-only with its \`.git\` hidden and only its object store mounted (read-only).
- Hand-written equivalents (the old design by hand): disk: \`git worktree add --detach\` + \`docker run --rm -v\` (parent read-only, its .git and the worktree read-write); volume: \`docker volume create\` + a helper \`docker run\` doing \`git worktree add\` into the volume + \`docker run\`; for the whole step, each then followed by a helper \`docker run\` doing \`git status --porcelain\` (and a bare run by the same). Reuse: a bare \`docker run\` with the mounts the action's command container gets (parent read-only, a tmpfs over its .git, its object store read-only, the sandbox; a disk sandbox's home too).
- Peak memory: VmHWM of each action process (main and post steps), polled from /proc every 5 ms.
- The verdict is on the ratio (or difference) of the medians. The paired column compares each action run with the baseline run next to it, which is steadier while other work on the machine comes and goes.

${table}

Samples, in seconds, in the order they ran:
${samples}
`;
  console.log(table);
  if (process.env.BENCH_WRITE === '1')
    await writeSection(path.join(ROOT, 'docs', 'benchmarks.md'), '## Run mode', body);
  if (!allPass && process.env.BENCH_STRICT === '1') process.exitCode = 1;
}

const actionNodeVersion = spawnSync(ACTION_NODE, ['-p', 'process.versions.node'], {
  encoding: 'utf8',
}).stdout.trim();
let dockerVersion;
let gitVersion;
let commit;
run('docker', ['version', '--format', '{{.Server.Version}}'])
  .then((r) => (dockerVersion = r.stdout.trim()))
  .then(() => run('git', ['version']))
  .then((r) => (gitVersion = r.stdout.trim().replace('git version ', '')))
  .then(() => run('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD']))
  .then((r) => (commit = r.stdout.trim()))
  .then(main)
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
