// The action's own time before its command's `docker run` on a reused sandbox, for two bundles run
// alternately (the first round of each is a warm-up): from the step's process start to that spawn, and
// the process's CPU time by then, read by bench/reuse-spawn-hook.mjs inside the action's node.
//
//   node bench/reuse-prespawn-ab.mjs <repository> <disk|container> <runs> <bundle A index.js> <bundle B index.js>
//   NO_POST=1: main steps only (a persistent sandbox's post step keeps it; the lock is the main step's).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ACTION_NODE, IMAGE, ROOT, median, runActionStep, ACTION_DEFAULTS } from './lib.mjs';

const [repo, isolation, runs, ...dists] = process.argv.slice(2);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-prespawn-'));
const hookLog = path.join(work, 'hook.log');
// The hook goes in as a node option, its log as a variable (a shell wrapper would drop the inputs'
// variables: `INPUT_REPOSITORY-PATH` is no name a shell keeps).
const hooked = {
  node: ACTION_NODE,
  nodeArgs: ['--import', path.join(ROOT, 'bench', 'reuse-spawn-hook.mjs')],
  extraEnv: { REUSE_HOOK_LOG: hookLog },
};
const inputs = {
  ...ACTION_DEFAULTS,
  command: 'date +%s%N',
  image: IMAGE,
  isolation,
  'repository-path': path.resolve(repo),
  'worktree-root': path.join(work, 'worktrees'),
  'volume-prefix': `wtsprespawn-${path.basename(work).slice(-6).toLowerCase()}`,
  branch: `prespawn-${isolation}`,
};
const t = dists.map(() => ({ spawn: [], cpu: [] }));
try {
  for (let i = 0; i <= Number(runs); i++) {
    for (let k = 0; k < dists.length; k++) {
      const j = (i + k) % dists.length;
      fs.rmSync(hookLog, { force: true });
      const main = await runActionStep({ inputs, cwd: inputs['repository-path'], ...hooked, dist: dists[j] });
      if (!process.env.NO_POST)
        await runActionStep({ inputs, cwd: inputs['repository-path'], state: main.state, dist: dists[j] });
      if (i === 0) continue;
      const line = fs
        .readFileSync(hookLog, 'utf8')
        .split('\n')
        .find((l) => l.includes('DOCKER-RUN'));
      const [ms, , , cpu] = line.split(' ');
      t[j].spawn.push(Number(ms));
      t[j].cpu.push(Number(cpu));
    }
  }
} finally {
  // The sandbox goes in a post step with cleanup: always (a main step alone keeps it).
  const last = { inputs: { ...inputs, cleanup: 'always' }, cwd: inputs['repository-path'], check: false };
  await runActionStep({ ...last, state: (await runActionStep(last)).state });
  fs.rmSync(work, { recursive: true, force: true });
}
const f = (xs) => `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;
dists.forEach((d, j) =>
  console.log(
    `${isolation} ${d}: start → docker run spawn ${f(t[j].spawn)} ms; CPU by then ${f(t[j].cpu)} ms`,
  ),
);
const paired = (key) => median(t[1][key].map((x, i) => x - t[0][key][i])).toFixed(1);
console.log(`${isolation}: B − A, paired medians: ${paired('spawn')} ms (spawn), ${paired('cpu')} ms (CPU)`);
