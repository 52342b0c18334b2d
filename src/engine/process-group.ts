// Process groups that proc.ts starts: every program it runs under a time limit leads a group of its own,
// so that a kill reaches what it started too (git's remote helper, ssh, tar's gzip).

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
 * it is next scheduled (later still in an uninterruptible wait), and its pipes close before it is gone:
 * the caller's answer should not come while the programs it said were killed still run.
 */
const GROUP_END_MS = 2_000;
const GROUP_POLL_MS = 10;

/** Resolves once no process of the group is left (one that ended counts until it is reaped), or after the bound. */
export async function waitForGroupEnd(pid: number, boundMs = GROUP_END_MS): Promise<void> {
  const until = Date.now() + boundMs;
  while (groupExists(pid) && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, GROUP_POLL_MS));
}

function groupExists(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    // EPERM: a member runs as another user now (it cannot have been ours to kill): it is there.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
