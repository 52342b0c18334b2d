// Is a stale sandbox in use? A running container mounts it, a process has its working directory inside
// it, or a run holds its lock. Containers and processes are looked at once for all sandboxes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ContainerEngine } from '../engine/engine.js';
import { containerMounts, type ContainerMounts } from '../engine/inventory.js';
import { isSandboxLocked } from '../sandbox/lock.js';
import type { ScannedSandbox } from './scan.js';

export interface Usage {
  /** Undefined when the engine could not be asked (then `containersError` says why). */
  containers?: ContainerMounts[];
  containersError?: string;
  /** Working directories of the processes this user may see; undefined without /proc. */
  workingDirs?: Array<{ pid: number; cwd: string }>;
}

export async function observeUsage(engine: ContainerEngine | undefined): Promise<Usage> {
  const usage: Usage = { workingDirs: processWorkingDirs() };
  if (!engine) return { ...usage, containers: [] };
  try {
    const containers = await containerMounts(engine);
    // Bind sources are compared as real paths, like the sandbox paths.
    for (const c of containers) c.binds = c.binds.map(realOrSelf);
    return { ...usage, containers };
  } catch (error) {
    const message = (error as Error).message;
    // No engine installed: no container can be using anything.
    if (/not installed or not on PATH/.test(message)) return { ...usage, containers: [] };
    return { ...usage, containersError: message };
  }
}

function processWorkingDirs(): Array<{ pid: number; cwd: string }> | undefined {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return undefined;
  }
  const dirs: Array<{ pid: number; cwd: string }> = [];
  for (const pid of pids) {
    try {
      dirs.push({ pid: Number(pid), cwd: fs.readlinkSync(`/proc/${pid}/cwd`) });
    } catch {
      /* gone, or another user's process */
    }
  }
  return dirs;
}

function realOrSelf(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

const inside = (child: string, dir: string) => child === dir || child.startsWith(`${dir}${path.sep}`);

/** Why the sandbox is in use, or undefined. A usage that could not be observed counts as "in use". */
export async function inUseReason(sandbox: ScannedSandbox, usage: Usage): Promise<string | undefined> {
  if (sandbox.parent && !sandbox.orphan && (await isSandboxLocked(sandbox.parent.gitDir, sandbox.sandbox)))
    return 'a run holds its lock';
  if (sandbox.linked?.locked) return 'its registration is locked (git worktree lock)';
  if (!usage.containers) return `the container engine could not be asked (${usage.containersError})`;
  if (sandbox.volume) {
    const users = usage.containers.filter((c) => c.volumes.includes(sandbox.volume!));
    const running = users.filter((c) => c.running).map((c) => c.name);
    if (running.length) return `running container ${running.join(', ')} mounts it`;
    if (users.length)
      return `stopped container ${users.map((c) => c.name).join(', ')} still references the volume (remove it to let the volume go)`;
    return undefined;
  }
  // The work tree and the command's home: a container or a process in either is using the sandbox.
  const dirs = [sandbox.hostPath!, ...(sandbox.homePath ? [sandbox.homePath] : [])];
  const within = (p: string) => dirs.some((dir) => inside(p, dir));
  const mounting = usage.containers.filter((c) => c.running && c.binds.some(within));
  if (mounting.length) return `running container ${mounting.map((c) => c.name).join(', ')} mounts it`;
  if (!usage.workingDirs) return 'the working directories of processes cannot be read (no /proc)';
  const process = usage.workingDirs.find((p) => within(p.cwd));
  if (process) return `process ${process.pid} has its working directory in it`;
  return undefined;
}
