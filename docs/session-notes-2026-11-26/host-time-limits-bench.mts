// Old runProcess (@actions/exec getExecOutput) against the new one (spawn, own process group, time limit),
// interleaved: N rounds of `git rev-parse HEAD` each, medians per call.
import * as exec from '@actions/exec';
import * as io from '@actions/io';
import { runProcess } from '../src/engine/proc.js';

const cwd = process.cwd();
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' };
const git = await io.which('git', true);
const CALLS = 50;
const ROUNDS = 21;
async function oldWay() {
  for (let i = 0; i < CALLS; i++)
    await exec.getExecOutput(git, ['rev-parse', 'HEAD'], { cwd, env, silent: true, ignoreReturnCode: true });
}
async function newWay() {
  for (let i = 0; i < CALLS; i++)
    await runProcess('git', ['rev-parse', 'HEAD'], { cwd, env, limit: { ms: 60_000, purpose: 'bench' } });
}
const times: Record<string, number[]> = { old: [], new: [] };
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, fn] of r % 2
    ? ([
        ['new', newWay],
        ['old', oldWay],
      ] as const)
    : ([
        ['old', oldWay],
        ['new', newWay],
      ] as const)) {
    const t = performance.now();
    await fn();
    times[name].push((performance.now() - t) / CALLS);
  }
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
for (const [name, a] of Object.entries(times))
  console.log(
    `${name}: median ${med(a).toFixed(2)} ms/call, min ${Math.min(...a).toFixed(2)}, max ${Math.max(...a).toFixed(2)}`,
  );
console.log(`ratio new/old: ${(med(times.new) / med(times.old)).toFixed(2)}`);
