// Interleaved A/B of the reuse path: two bundles, alternately, on one reused sandbox per isolation, each
// against a bare `docker run` with the action's mounts (as bench/run-mode.bench.mjs's reuse figure).
//
//   node bench/reuse-ab.mjs /tmp/base-dist/index.js dist/index.js
//   REUSE_AB_REPEAT=12 (per bundle and isolation)  REUSE_AB_ISOLATIONS=disk,container
//   REUSE_AB_REPO=/path (a repository to work on; default: the cached generated one in .bench/)
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitShapedRepository, withOrigin } from './git-shaped-repo.mjs';
import {
  ACTION_NODE,
  CACHE,
  IMAGE,
  bareRunArgs,
  firstTimestamp,
  loadAverage,
  median,
  nowNs,
  run,
  runActionStep,
  ACTION_DEFAULTS,
} from './lib.mjs';

const [a, b] = process.argv.slice(2).map((p) => path.resolve(p));
if (!a || !b) throw new Error('usage: node bench/reuse-ab.mjs <bundle A index.js> <bundle B index.js>');
const REPEAT = Number(process.env.REUSE_AB_REPEAT ?? 12);
const ISOLATIONS = (process.env.REUSE_AB_ISOLATIONS ?? 'disk,container').split(',');
const log = (msg) => process.stderr.write(`[reuse-ab] ${msg}\n`);
const tag = randomBytes(3).toString('hex');
const prefix = `wtsab-${tag}`;
const scratch = path.join(CACHE, `reuse-ab-${tag}`);

const inputsFor = (repo, isolation, extra = {}) => ({
  ...ACTION_DEFAULTS,
  command: 'date +%s%N',
  image: IMAGE,
  isolation,
  'repository-path': repo,
  'worktree-root': path.join(scratch, 'worktrees'),
  'volume-prefix': prefix,
  branch: `ab-reuse-${tag}-${isolation}`,
  ...extra,
});

async function actionRun(dist, repo, isolation, extra) {
  const inputs = inputsFor(repo, isolation, extra);
  const main = await runActionStep({ inputs, cwd: repo, dist, node: ACTION_NODE });
  await runActionStep({ inputs, cwd: repo, state: main.state, dist, node: ACTION_NODE });
  return { ms: Number(firstTimestamp(main.stdout) - main.startNs) / 1e6, outputs: main.outputs };
}

async function bareRun(repo, outputs) {
  const startNs = nowNs();
  const r = await run('docker', bareRunArgs(repo, outputs, ['sh', '-c', 'date +%s%N']));
  return Number(firstTimestamp(r.stdout) - startNs) / 1e6;
}

const stats = (xs) =>
  `median ${(median(xs) / 1000).toFixed(3)} s (min ${(Math.min(...xs) / 1000).toFixed(3)}, max ${(Math.max(...xs) / 1000).toFixed(3)})`;

const repo = process.env.REUSE_AB_REPO ?? withOrigin(await gitShapedRepository(CACHE, { log }));
const loads = [loadAverage()];
const results = {};
try {
  for (const isolation of ISOLATIONS) {
    const { outputs } = await actionRun(b, repo, isolation);
    await actionRun(a, repo, isolation); // warm both
    const t = { A: [], B: [], bare: [] };
    for (let i = 0; i < REPEAT; i++) {
      // Order rotates: A B bare, B bare A, bare A B, ...
      const steps = [
        ['A', () => actionRun(a, repo, isolation).then((r) => r.ms)],
        ['B', () => actionRun(b, repo, isolation).then((r) => r.ms)],
        ['bare', () => bareRun(repo, outputs)],
      ];
      for (let k = 0; k < 3; k++) {
        const [name, fn] = steps[(i + k) % 3];
        await run('sync', []);
        t[name].push(await fn());
      }
      log(
        `${isolation} ${i + 1}/${REPEAT}: A ${t.A.at(-1).toFixed(0)} ms, B ${t.B.at(-1).toFixed(0)} ms, bare ${t.bare.at(-1).toFixed(0)} ms`,
      );
    }
    results[isolation] = t;
    await actionRun(b, repo, isolation, { cleanup: 'always' });
    await run('git', ['-C', repo, 'branch', '-D', '--', `ab-reuse-${tag}-${isolation}`], { check: false });
  }
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
loads.push(loadAverage());
console.log(
  `A = ${a}\nB = ${b}\nnode ${ACTION_NODE}, ${REPEAT} runs each, load average ${loads.join(' → ')}`,
);
for (const [isolation, t] of Object.entries(results)) {
  const over = (xs) => xs.map((x, i) => x - t.bare[i]);
  console.log(`${isolation}: bare docker run ${stats(t.bare)}`);
  for (const side of ['A', 'B'])
    console.log(
      `${isolation}: ${side} ${stats(t[side])}; over bare (paired) median +${(median(over(t[side])) / 1000).toFixed(3)} s, over bare (medians) +${((median(t[side]) - median(t.bare)) / 1000).toFixed(3)} s`,
    );
  console.log(`${isolation}: B − A (paired) median ${median(t.B.map((x, i) => x - t.A[i])).toFixed(0)} ms`);
}
