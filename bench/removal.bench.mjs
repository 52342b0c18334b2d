// The reaper's removal walk alone (src/reap/remove-walk.ts, remove-workers.ts): how many deletions in flight
// it takes to empty 400 sandboxes and their homes on this machine's disk, and what each way of keeping
// them in flight costs in memory. The sandboxes are shaped as the reap benchmark's (55 entries in 16
// folders, files of 0.2–4 kB; each with its home), laid out again before every measurement on the same
// filesystem as the reap benchmark (under the system's temporary folder), and `sync`ed first. Ways,
// interleaved in rotating order, BENCH_REMOVAL_RUNS (5) each; medians:
//  - `rm -rf` of all of them in one process (the reference: one deletion at a time, no checks);
//  - the walk in the calling thread (synchronous, one at a time);
//  - 3, 4 and 8 synchronous workers (`startRemovers(n, { synchronousOnly: true })`);
//  - the reaper's pools: one concurrent worker (`startRemovers(1)`, when the scan found more than
//    FULL_POOL_UP_TO), and REMOVAL_WORKERS with one concurrent (`startRemovers(REMOVAL_WORKERS)`).
// Each pool gets twice the folders it walks at once in flight, as the reaper gives it.
// Memory: the resident memory each way adds to the process that runs it (its workers), measured apart.
// Appends its section to docs/benchmarks.md with BENCH_WRITE=1.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  loadAverage,
  machineNote,
  markdownTable,
  median,
  nowNs,
  ROOT as REPO,
  writeSection,
} from './lib.mjs';
import { importSource } from './src-modules.mjs';

const { inlineRemover, startRemovers, REMOVAL_WORKERS } = await importSource('reap/remove-workers');
const RUNS = Number(process.env.BENCH_REMOVAL_RUNS ?? 5);
const SANDBOXES = 400;
const BASE = path.join(os.tmpdir(), 'worktree-sandbox-bench-removal');
const log = (line) => process.stderr.write(`[bench:removal] ${line}\n`);

/** One sandbox-shaped template: 16 folders (a tree three wide), 39 files spread over them. */
function template() {
  const top = path.join(BASE, 'template');
  fs.rmSync(top, { recursive: true, force: true });
  const dirs = [top];
  for (let d = 1; d < 16; d++) dirs.push(path.join(dirs[Math.floor((d - 1) / 3)], `d${d}`));
  for (const dir of dirs) fs.mkdirSync(dir, { recursive: true });
  for (let f = 0; f < 39; f++)
    fs.writeFileSync(path.join(dirs[f % 16], `f${f}`), Buffer.alloc(200 + ((f * 97) % 4000), 65));
}

/** `<root>/p/s<n>` and `<root>/p/.home/s<n>`, fresh; returns the folders to remove. */
function layOut() {
  const root = path.join(BASE, 'root');
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(path.join(root, 'p', '.home'), { recursive: true });
  const script = `for i in $(seq 0 ${SANDBOXES - 1}); do cp -a "$1/template" "$2/p/s$i"; mkdir -p "$2/p/.home/s$i/.cache"; echo x > "$2/p/.home/s$i/.cache/e"; done`;
  execFileSync('sh', ['-c', script, 'sh', BASE, root]);
  execFileSync('sync');
  const folders = [];
  for (let i = 0; i < SANDBOXES; i++)
    folders.push(path.join(root, 'p', `s${i}`), path.join(root, 'p', '.home', `s${i}`));
  return { root, folders };
}

/** Removes the folders through a remover, twice what it walks at once (sandboxes with their homes). */
async function through(remover, folders, device) {
  const inFlight = 2 * remover.walks;
  let next = 0;
  const lane = async () => {
    while (next < folders.length) {
      const mine = folders.slice(next, next + 2);
      next += 2;
      for (const folder of mine) {
        const result = await remover.remove(folder, device);
        if (result.problems.length) throw new Error(`${folder}: ${JSON.stringify(result.problems[0])}`);
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  await remover.close();
}

const pools = {
  '3 synchronous workers': () => startRemovers(3, { synchronousOnly: true }),
  '4 synchronous workers': () => startRemovers(4, { synchronousOnly: true }),
  '8 synchronous workers': () => startRemovers(8, { synchronousOnly: true }),
  '1 concurrent worker (the reaper, more than 5,000 found)': () => startRemovers(1),
  [`${REMOVAL_WORKERS} workers, 1 of them concurrent (the reaper)`]: () => startRemovers(REMOVAL_WORKERS),
};
const ways = {
  'rm -rf (one process)': async ({ folders }) => execFileSync('rm', ['-rf', '--', ...folders]),
  'walk in the calling thread': ({ folders, device }) => through(inlineRemover, folders, device),
  ...Object.fromEntries(
    Object.entries(pools).map(([name, start]) => [
      name,
      ({ folders, device }) => through(start(), folders, device),
    ]),
  ),
};

/** Resident memory a pool adds once its workers have walked a folder each. */
async function poolMemory(start) {
  const before = process.memoryUsage().rss;
  const remover = start();
  const dirs = Array.from({ length: remover.walks }, (_, n) => fs.mkdtempSync(path.join(BASE, `m${n}-`)));
  await Promise.all(dirs.map((dir) => remover.remove(dir, fs.lstatSync(dir).dev)));
  const added = process.memoryUsage().rss - before;
  await remover.close();
  return added / 2 ** 20;
}

fs.mkdirSync(BASE, { recursive: true });
template();
const names = Object.keys(ways);
const times = Object.fromEntries(names.map((name) => [name, []]));
const load = [loadAverage()];
for (let r = 0; r < RUNS; r++) {
  for (let k = 0; k < names.length; k++) {
    const name = names[(k + r) % names.length];
    const tree = layOut();
    const device = fs.lstatSync(tree.root).dev;
    const started = nowNs();
    await ways[name]({ ...tree, device });
    const ms = Number(nowNs() - started) / 1e6;
    const left = fs.readdirSync(path.join(tree.root, 'p'));
    if (left.length !== 1 || fs.readdirSync(path.join(tree.root, 'p', '.home')).length)
      throw new Error(`${name} left ${left.join(', ')}`);
    times[name].push(ms);
    log(`run ${r + 1}/${RUNS} ${name}: ${(ms / 1000).toFixed(2)} s`);
  }
}
load.push(loadAverage());
const memory = {};
for (const [name, start] of Object.entries(pools)) memory[name] = await poolMemory(start);
fs.rmSync(BASE, { recursive: true, force: true });

const reference = median(times[names[0]]);
const rows = names.map((name) => [
  name,
  `${(median(times[name]) / 1000).toFixed(2)} s`,
  `× ${(median(times[name]) / reference).toFixed(2)}`,
  times[name].map((ms) => (ms / 1000).toFixed(2)).join(', '),
  memory[name] === undefined ? '' : `+${memory[name].toFixed(0)} MB`,
]);
const md = [
  `Produced by \`node bench/removal.bench.mjs\` on ${new Date().toISOString().slice(0, 10)} (part of \`npm run bench\`).`,
  '',
  `- ${machineNote()}. 1-minute load average ${load.join(' → ')}. Filesystem: \`${execFileSync('findmnt', ['-n', '-o', 'FSTYPE,OPTIONS', '--target', os.tmpdir()], { encoding: 'utf8' }).trim()}\`.`,
  `- ${SANDBOXES} sandbox-shaped folders (55 entries in 16 folders, files of 0.2–4 kB) and their homes, laid out again and \`sync\`ed before each measurement; ${RUNS} runs per way, interleaved in rotating order; medians. Memory: resident memory the pool adds to its process (measured apart, once).`,
  '',
  markdownTable(['way', 'median', 'vs rm -rf', 'samples (s)', 'memory'], rows),
].join('\n');
process.stdout.write(`${md}\n`);
if (process.env.BENCH_WRITE === '1')
  await writeSection(path.join(REPO, 'docs', 'benchmarks.md'), '## The removal walk', md);
