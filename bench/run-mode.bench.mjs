// Run-mode benchmark (docs/benchmarks.md): the bundled action against a
// hand-written equivalent, measured in the same run, interleaved, on a large repository.
//
//   npm run bench                      # generated repository in the shape of git's own (cached in .bench/)
//   BENCH_REPO=/path npm run bench     # a private clone of any real repository instead
//   BENCH_REPEAT=8 (default; even)  BENCH_STRICT=1 (exit 1 when a target is missed)  BENCH_WRITE=1 (append the raw results to docs/benchmarks.md)
//
// 1. start → the command's first instruction, new transient sandbox, per isolation. The action makes a
//    repository of its own borrowing the parent's objects (git init + objects/info/alternates + reset
//    --hard) and mounts the parent read-only with its .git hidden; the baseline is the
//    old design written by hand (a linked worktree bind-mounted read-write): `git worktree add` + `docker run -v` (disk), or `docker volume create` +
//    a helper container doing `git worktree add` into the volume + `docker run` (volume);
// 2. reuse: a second run on the same branch vs a bare `docker run` with the mounts the action's own
//    command container gets (parent read-only, its .git hidden, its object store read-only, the sandbox);
// 3. peak memory (VmHWM) of every action process (main and post steps).
// The command prints `date +%s%N` first: containers share the host's clock.
import { spawnSync } from 'node:child_process';
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

// Even: each side runs second in a pair as often as first. Measured: the second run of a pair is 0.7–1.2 s
// slower on this machine (it follows the first one's removal of a 60 MB sandbox), so with an odd count
// the side that runs second once more carries that into its median.
const REPEAT = Number(process.env.BENCH_REPEAT ?? 8);
if (!Number.isInteger(REPEAT) || REPEAT < 2 || REPEAT % 2)
  throw new Error(`BENCH_REPEAT must be an even number (each side runs first as often as second): ${REPEAT}`);
const FIRST_INSTRUCTION = 'date +%s%N';
// Targets: ≤ 1.1× (disk) and ≤ 1.3× (volume) the hand-written `git worktree add` + `docker run`, so that
// the boundary costs little over the old design; reuse ≤ +0.15 s over a bare `docker run`; peak memory
// ≤ 100 MB.
const TARGETS = { diskRatio: 1.1, volumeRatio: 1.3, reuseExtraMs: 150, peakMb: 100 };
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

/** Main then post; returns ms from the main step's start to the command's first instruction. */
async function actionRun(repo, isolation, extra, node = ACTION_NODE) {
  const inputs = actionInputs(repo, isolation, extra);
  const main = await runActionStep({ inputs, cwd: repo, node });
  const post = await runActionStep({ inputs, cwd: repo, state: main.state, node });
  peaks.push(main.peakKb, post.peakKb);
  if (main.outputs.kind === 'transient' && (await sandboxExists(main.outputs)))
    throw new Error(`the post step left the transient sandbox ${main.outputs.sandbox} behind`);
  return { ms: Number(firstTimestamp(main.stdout) - main.startNs) / 1e6, outputs: main.outputs };
}

async function sandboxExists(outputs) {
  if (!outputs.volume) return fs.existsSync(outputs['worktree-path']);
  return (await run('docker', ['volume', 'inspect', '--', outputs.volume], { check: false })).code === 0;
}

/** The mounts a person would write so that git works in the container (parent read-only, .git writable). */
function handMounts(repo, worktreeMount) {
  return ['-v', `${repo}:${repo}:ro`, '-v', `${repo}/.git:${repo}/.git`, '-v', worktreeMount];
}

/** Runs the commands one after the other, as a script would; returns ms to the first instruction of the last. */
async function timedSequence(commands) {
  const startNs = nowNs();
  let result;
  for (const [cmd, ...args] of commands) result = await run(cmd, args);
  return Number(firstTimestamp(result.stdout) - startNs) / 1e6;
}

const firstInstruction = ['sh', '-c', FIRST_INSTRUCTION];

/**
 * `git worktree add` + `docker run`. `parallel`: with git's parallel checkout (`checkout.workers=0`, as many
 * workers as cores), which the action's own checkout uses (src/sandbox/make-repository.ts): reported beside the
 * target's baseline, so that the gain it brings is seen apart from the rest of the action.
 */
async function baselineDisk(repo, n, parallel = false) {
  const wt = path.join(worktreeRoot, 'baseline', `hand-${n}`);
  const workers = parallel ? ['-c', 'checkout.workers=0'] : [];
  const ms = await timedSequence([
    ['git', '-C', repo, ...workers, 'worktree', 'add', '--quiet', '--detach', wt, 'HEAD'],
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
  ]);
  await run('git', ['-C', repo, 'worktree', 'remove', '--force', '--', wt]);
  return ms;
}

async function baselineVolume(repo, n) {
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
  const ms = await timedSequence([
    ['docker', 'volume', 'create', volume],
    ['docker', 'run', '--rm', ...mounts, IMAGE, ...helper],
    ['docker', 'run', '--rm', '--user', `${uid}:${gid}`, ...mounts, '-w', wt, IMAGE, ...firstInstruction],
  ]);
  await run('docker', ['volume', 'rm', '--', volume]);
  fs.rmSync(path.join(repo, '.git', 'worktrees', `hand-${n}`), { recursive: true, force: true });
  return ms;
}

/** A bare `docker run` on an existing sandbox, with the action's mounts (lib.mjs `bareRunArgs`). */
async function bareRun(repo, outputs) {
  return timedSequence([['docker', ...bareRunArgs(repo, outputs, firstInstruction)]]);
}

/**
 * Runs `a` and `b` in alternating order (so neither always runs on the other's warm cache), each after a
 * `sync`, so that neither pays for writing back what the run before it wrote (60 MB per new sandbox).
 */
async function pair(i, a, b) {
  const synced = async (fn) => {
    await run('sync', []);
    return fn();
  };
  if (i % 2) {
    const y = await synced(b);
    return [await synced(a), y];
  }
  const x = await synced(a);
  return [x, await synced(b)];
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
    await run('git', ['-C', repo, 'branch', '-D', '--', `${reuseBranch}-${isolation}`], { check: false });
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
  const times = Object.fromEntries(
    ISOLATIONS.map(({ isolation }) => [
      isolation,
      { action: [], hand: [], reuse: [], bare: [], reuseHere: [], actionP: [], handP: [] },
    ]),
  );
  try {
    log('warm-up (not counted)');
    for (const { isolation } of ISOLATIONS) {
      await actionRun(repo, isolation);
      await (isolation === 'disk' ? baselineDisk(repo, 0) : baselineVolume(repo, 0));
    }
    for (let i = 1; i <= REPEAT; i++) {
      for (const { isolation } of ISOLATIONS) {
        const hand = isolation === 'disk' ? baselineDisk : baselineVolume;
        const [a, h] = await pair(
          i,
          async () => (await actionRun(repo, isolation)).ms,
          () => hand(repo, i),
        );
        times[isolation].action.push(a);
        times[isolation].hand.push(h);
        log(`${i}/${REPEAT} ${isolation}: action ${seconds(a)}, hand-written ${seconds(h)}`);
      }
    }
    // Reported: the action against the same hand-written steps with git's parallel checkout, as its own.
    for (let i = 1; i <= REPEAT; i++) {
      const [a, h] = await pair(
        i,
        async () => (await actionRun(repo, 'disk')).ms,
        () => baselineDisk(repo, i, true),
      );
      times.disk.actionP.push(a);
      times.disk.handP.push(h);
      log(`${i}/${REPEAT} disk: action ${seconds(a)}, hand-written with parallel checkout ${seconds(h)}`);
    }
    for (const { isolation } of ISOLATIONS) {
      const branch = `${reuseBranch}-${isolation}`;
      const { outputs } = await actionRun(repo, isolation, { branch });
      for (let i = 1; i <= REPEAT; i++) {
        const [r, b] = await pair(
          i,
          async () => (await actionRun(repo, isolation, { branch })).ms,
          () => bareRun(repo, outputs),
        );
        times[isolation].reuse.push(r);
        times[isolation].bare.push(b);
        log(`${i}/${REPEAT} ${isolation} reuse: action ${seconds(r)}, bare docker run ${seconds(b)}`);
        if (ACTION_NODE !== process.execPath) {
          // The same on this machine's own Node (reported, not the target: GitHub runs Node 24).
          await run('sync', []);
          const here = (await actionRun(repo, isolation, { branch }, process.execPath)).ms;
          times[isolation].reuseHere.push(here);
          log(`${i}/${REPEAT} ${isolation} reuse on Node ${process.versions.node}: ${seconds(here)}`);
        }
      }
      // The action removes its own persistent sandbox (cleanup: always), then the branch goes.
      await actionRun(repo, isolation, { branch, cleanup: 'always' });
      await run('git', ['-C', repo, 'branch', '-D', '--', branch]);
    }
  } finally {
    await cleanUp(repo);
  }
  load.push(loadAverage());
  await report({ repo, source, shape, note, load, times });
}

async function report({ source, shape, note, load, times }) {
  const verdict = (ok) => (ok ? 'pass' : '**FAIL**');
  const rows = [];
  let allPass = true;
  for (const { isolation, label, ratio } of ISOLATIONS) {
    const t = times[isolation];
    const action = median(t.action);
    const hand = median(t.hand);
    const ok = action / hand <= ratio;
    allPass &&= ok;
    rows.push([
      `start → first instruction, ${label}, new transient sandbox`,
      seconds(action),
      `${seconds(hand)} (hand-written)`,
      `× ${(action / hand).toFixed(2)}`,
      `× ${median(t.action.map((a, i) => a / t.hand[i])).toFixed(2)}`,
      `≤ × ${ratio}`,
      verdict(ok),
    ]);
    if (t.handP.length) {
      const [a, h] = [median(t.actionP), median(t.handP)];
      rows.push([
        `the same, ${label}, against the hand-written steps with git's parallel checkout (reported)`,
        seconds(a),
        `${seconds(h)} (\`git -c checkout.workers=0 worktree add\` + \`docker run\`)`,
        `× ${(a / h).toFixed(2)}`,
        `× ${median(t.actionP.map((x, i) => x / t.handP[i])).toFixed(2)}`,
        'none',
        '',
      ]);
    }
  }
  for (const { isolation, label } of ISOLATIONS) {
    const t = times[isolation];
    const reuse = median(t.reuse);
    const bare = median(t.bare);
    const ok = reuse - bare <= TARGETS.reuseExtraMs;
    allPass &&= ok;
    rows.push([
      `reuse (second run on one branch), ${label}`,
      seconds(reuse),
      `${seconds(bare)} (bare docker run)`,
      signed(reuse - bare),
      signed(median(t.reuse.map((r, i) => r - t.bare[i]))),
      `≤ + ${seconds(TARGETS.reuseExtraMs)}`,
      verdict(ok),
    ]);
    if (t.reuseHere.length) {
      const here = median(t.reuseHere);
      rows.push([
        `reuse, ${label}, the action on Node ${process.versions.node} (this machine's; reported)`,
        seconds(here),
        `${seconds(bare)} (bare docker run)`,
        signed(here - bare),
        signed(median(t.reuseHere.map((r, i) => r - t.bare[i]))),
        'none',
        '',
      ]);
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
  const samples = ISOLATIONS.map(({ isolation, label }) => {
    const t = times[isolation];
    const list = (xs) => xs.map((x) => (x / 1000).toFixed(2)).join(', ');
    const here = t.reuseHere.length ? `; reuse on Node ${process.versions.node} ${list(t.reuseHere)}` : '';
    const parallel = t.handP.length
      ? `; action ${list(t.actionP)} against hand-written with parallel checkout ${list(t.handP)}`
      : '';
    return `- ${label}: action ${list(t.action)}; hand-written ${list(t.hand)}${parallel}; reuse ${list(t.reuse)}; bare ${list(t.bare)}${here}`;
  }).join('\n');
  const command = `${process.env.BENCH_REPO ? `BENCH_REPO=${process.env.BENCH_REPO} ` : ''}${REPEAT === 8 ? '' : `BENCH_REPEAT=${REPEAT} `}node bench/run-mode.bench.mjs`;
  const body = `
Produced by \`${command}\` on ${new Date().toISOString().slice(0, 10)}, from commit ${commit} (also run by \`npm run bench\`; after \`bash scripts/setup.sh\` and \`npm run build\`; \`BENCH_REPO=/path\` measures a private clone of any repository, \`BENCH_REPEAT\`, \`BENCH_STRICT=1\` to exit 1 when a target is missed).

- Machine: ${note} (the benchmark's); the action runs on Node ${actionNodeVersion}${ACTION_NODE === process.execPath ? '' : ' (test/node24: `runs.using: node24`, what GitHub runs it on; `BENCH_NODE` picks another)'}; 1-minute load average ${load[0]} at the start, ${load[1]} at the end. Docker ${dockerVersion ?? '?'}, git ${gitVersion}, image \`${IMAGE}\`, running as uid ${uid}.
- Repository: ${source}: ${shape.files} files, ${(shape.bytes / 1e6).toFixed(1)} MB checked out, ${shape.commits} commits.
- ${REPEAT} repetitions after one warm-up; action and baseline interleaved in alternating order, each first in half of the pairs (the second run of a pair was measured 0.7–1.2 s slower: it follows the removal of the first one's 60 MB sandbox), each after a \`sync\`; medians. Times run from spawning the process (\`node dist/index.js\` with INPUT_* variables, action.yml's defaults and per-step GITHUB_OUTPUT/GITHUB_STATE files, as the runner does; or the hand-written equivalent's first command) to the \`date +%s%N\` the command prints first in the container. Every transient sandbox is new and removed afterwards (the action's post step; checked).
- What the action does: a repository of its own per sandbox (\`git init\`, \`objects/info/alternates\` to the parent's store, \`git reset --hard\` with git's parallel checkout, \`checkout.workers=0\`: as many workers as cores; in a helper container for a volume), the parent's records as refs, then the command in a container that sees the parent read-only with its \`.git\` hidden and only its object store mounted (read-only).
- Hand-written equivalents (the old design by hand): disk: \`git worktree add --detach\` + \`docker run --rm -v\` (parent read-only, its .git and the worktree read-write); volume: \`docker volume create\` + a helper \`docker run\` doing \`git worktree add\` into the volume + \`docker run\`. Reported beside them (disk, a second series of pairs): the same hand-written steps with the parallel checkout the action uses, so that its gain is seen apart. Reuse: a bare \`docker run\` with the mounts the action's command container gets (parent read-only, a tmpfs over its .git, its object store read-only, the sandbox; a disk sandbox's home too).
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
