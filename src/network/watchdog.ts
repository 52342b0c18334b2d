// The watchdog of a run with an allow-list: a small process beside the action that removes the command's
// container and its sidecar when the action's process ends without having stopped them (a SIGKILL, the
// runner dying, a crash). The forwarder ends on its own once the proxy is gone (forwarder.ts), but nothing
// inside the engine stops the command's container then: an engine neither ends a container whose
// network's owner went, nor one whose CLI was killed. Sharing the sidecar's PID namespace would (the
// kernel kills a namespace with its first process), but it shows the forwarder to the command and leaves
// the command's orphans unreaped; so the engine is told, from the host.
//
// It learns of the action's end from a pipe, not a process id: the kernel closes the action's end of it
// however the action ends, and a pid means nothing across the PID namespaces of a job container. It is
// started in a session of its own, so that a kill of the action's process group does not take it along.
// It reads nothing but that pipe, runs nothing but `<engine> rm --force` on the two names the action made,
// each under a time limit, and the action kills it once it has stopped both itself.
import { spawn, type ChildProcess } from 'node:child_process';
import type { EngineCommands } from '../engine/engine-commands.js';
import { ENGINE_ENV } from '../engine/engine.js';
import { pickEnv } from '../engine/proc.js';

/** Time limit of one `rm` (an engine under load takes seconds); the rounds a killed CLI may need. */
const REMOVE_LIMIT_MS = 60_000;
const ROUNDS = 3;
const ROUND_PAUSE_MS = 5_000;

// Plain JavaScript for `node -e` (CommonJS): the runner's Node runs it, with no module of the bundle.
// Several rounds: the engine CLI of a killed action may still create the command's container after the
// first (its `run` was under way); the command's container goes first (Podman keeps a container that
// another one joins).
export const WATCHDOG_SCRIPT = `// worktree-sandbox watchdog
const { execFileSync } = require('node:child_process');
const [engine, ...names] = process.argv.slice(1);
const sweep = () => {
  for (let round = 0; round < ${ROUNDS}; round++) {
    if (round > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ROUND_PAUSE_MS});
    for (const name of names) {
      try {
        execFileSync(engine, ['rm', '--force', '--', name], { stdio: 'ignore', timeout: ${REMOVE_LIMIT_MS}, killSignal: 'SIGKILL' });
      } catch {}
    }
  }
  process.exit(0);
};
process.stdin.on('data', () => undefined);
process.stdin.on('end', sweep);
process.stdin.on('error', sweep);
`;

export interface Watchdog {
  /** The action stopped the containers itself: the watchdog ends without touching anything. */
  dismiss(): void;
}

/** Watches over `names` (in the order they are to go) until dismissed, or until the action is gone. */
export function startWatchdog(engine: EngineCommands, names: readonly string[]): Watchdog {
  let child: ChildProcess | undefined;
  try {
    child = spawn(process.execPath, ['-e', WATCHDOG_SCRIPT, engine.name, ...names], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      env: pickEnv(ENGINE_ENV),
      cwd: '/',
    });
    child.on('error', () => undefined);
    child.stdin?.on('error', () => undefined);
    // Neither the process nor its pipe keeps the action alive.
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  } catch {
    // Without a watchdog, the forwarder still ends with the proxy, and a later run or reap removes what
    // stopped (leftovers.ts).
  }
  return {
    dismiss: () => {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
