// Process groups that proc.ts starts: every program it runs under a time limit leads a group of its own,
// so that a kill reaches what it started too (git's remote helper, ssh, tar's gzip).
import * as fs from 'node:fs';

/** Process groups started here and still running: killed when this process exits, so none outlives it. */
const liveGroups = new Set<number>();
let exitHook = false;

export function trackGroup(pid: number): void {
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const group of liveGroups) killGroup(group);
    });
  }
  liveGroups.add(pid);
}

export function untrackGroup(pid: number): void {
  liveGroups.delete(pid);
}

export function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * How long a killed group may take to be gone. A kill is delivered at once, but a program ends only when
 * it is next scheduled (later still in an uninterruptible wait), and its pipes close before it has ended:
 * the caller's answer should not come while the programs it says were killed still run.
 */
const GROUP_END_MS = 2_000;
const GROUP_POLL_MS = 10;

/**
 * Resolves once no process of the group runs any more, or after the bound. One that has ended but is not
 * reaped yet does not count: its new parent (PID 1, which may reap late or never) decides when it goes.
 */
export async function waitForGroupEnd(pid: number, boundMs = GROUP_END_MS): Promise<void> {
  const until = Date.now() + boundMs;
  while (groupRuns(pid) && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, GROUP_POLL_MS));
}

function groupRuns(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    // EPERM: a member runs as another user now (not ours to kill): it is there.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return true; // no /proc to tell a running member from an ended one: the group is there
  }
  return entries.some((entry) => /^\d+$/.test(entry) && runsInGroup(entry, pgid));
}

/** `/proc/<pid>/stat` is `pid (comm) state ppid pgrp ...`; comm may hold anything, so read past its last `)`. */
function runsInGroup(pid: string, pgid: number): boolean {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false; // gone meanwhile
  }
  const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(group) === pgid && state !== 'Z' && state !== 'X';
}
