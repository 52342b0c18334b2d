// Loaded with `node --import` into the action's own process by bench/reuse-prespawn-ab.mjs: logs, in ms
// since the process started, when each child process is spawned and exits, and at the command's
// `docker run` the process's CPU time so far; written to $REUSE_HOOK_LOG once that spawn is made.
import cp from 'node:child_process';
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers';

const spawn = cp.spawn;
const lines = [];
const log = (s) => lines.push(`${performance.now().toFixed(1)} ${s}`);
let n = 0;
let written = false;
log('hook-loaded');
cp.spawn = function (...args) {
  const k = ++n;
  const label = `${args[0].split('/').pop()} ${(args[1] || []).slice(0, 2).join(' ')}`;
  log(`spawn#${k} ${label}`);
  const child = spawn.apply(this, args);
  child.on('exit', () => log(`exit#${k} ${label}`));
  if (args[1] && args[1][0] === 'run' && args[0].endsWith('docker') && !written) {
    written = true;
    const u = process.cpuUsage();
    log(`DOCKER-RUN cpu ${((u.user + u.system) / 1000).toFixed(1)}`);
    setTimeout(() => fs.writeFileSync(process.env.REUSE_HOOK_LOG, lines.join('\n') + '\n'), 10);
  }
  return child;
};
