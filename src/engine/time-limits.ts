// How long each of the action's own containers and host-side programs may run: one table, so that every
// limit is in one place with its reason. A limit that runs out removes the container (or kills the
// program's process group) and fails the step with an error that names what ran out, where (a
// TimeLimitError for a helper's work; proc.ts's ProcTimeLimitError for any other program on the host).
//
// The limits are generous on purpose: they exist so that a hostile sandbox or image cannot hang a run or
// the reaper forever, not to hurry honest work on a big repository. Each one is far above what the
// honest case takes on a slow runner, and far below GitHub's six-hour job limit.

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** The action's helper containers (and the host-side programs that do the same work for disk sandboxes). */
export type HelperWork =
  'create' | 'offer' | 'capture' | 'archive-capture' | 'inspect' | 'archive-volume' | 'archive-files';

/** Every other program the action starts on the host, by kind (proc.ts's `runProcess` needs one). */
export type HostWork =
  | 'git'
  | 'git-fetch'
  | 'git-push'
  | 'git-import'
  | 'secret-scan'
  | 'engine-query'
  | 'engine-change'
  | 'engine-pull'
  | 'engine-import'
  | 'ldd';

export type TimedWork = HelperWork | HostWork;

export const TIME_LIMITS_MS: Readonly<Record<TimedWork, number>> = {
  // Creating a sandbox is `git init` and a checkout of the start commit (in a helper container, or on the
  // host for disk sandboxes). A checkout of a very large repository (several hundred thousand files) takes
  // a few minutes on a runner's disk; half an hour leaves room for a busy machine and a cold cache.
  create: 30 * MINUTE,
  // Offering origin's branch inside a reused sandbox is one `git update-ref`: well under a second, plus
  // the container's start (seconds; tens of seconds on a loaded rootless Podman).
  offer: 2 * MINUTE,
  // Capturing after the command: `git add -A` of the work tree (hashes every changed file) and a bundle of
  // the new commits, written out at most max-import-size bytes.
  capture: 10 * MINUTE,
  // The reaper's bundle of a forced sandbox's work: the same work as `capture`, but nobody waits on it
  // interactively and the sandbox may have been left with gigabytes of changes.
  'archive-capture': 30 * MINUTE,
  // One inspection helper looks at up to 48 sandboxes (signals, `git status`, `du`); `git status` of a
  // large work tree with a cold cache takes seconds each.
  inspect: 5 * MINUTE,
  // An orphan's files as a .tar.gz (a volume's in a helper container, a folder's with tar on the host),
  // capped in bytes too (archive.ts): gzip writes 20-50 MB/s on one core, so 30 minutes covers the cap.
  'archive-volume': 30 * MINUTE,
  'archive-files': 30 * MINUTE,

  // ---- programs on the host (proc.ts kills the program's whole process group: a remote helper, ssh) ----
  // Local git commands (rev-parse, rev-list, for-each-ref, update-ref, merge-base, cat-file): milliseconds
  // to seconds; a rev-list or fsck-free walk of a very large history takes a minute on a slow runner.
  git: 10 * MINUTE,
  // A fetch from origin (the branch a run asks for, a fork's pull-request head). It runs outside the
  // repository lock, so it holds up only its own run; git's own low-speed limit (gitNetworkConfig in
  // git.ts) ends a stalled HTTP transfer after a minute, and this limit ends what that cannot see (ssh, a
  // slow trickle). A first fetch of a long branch into a shallow checkout can take several minutes.
  'git-fetch': 10 * MINUTE,
  // A push of the run's commits (only the new ones travel).
  'git-push': 15 * MINUTE,
  // Fetching a sandbox's bundle (at most max-import-size) with fsck into the private store.
  'git-import': 30 * MINUTE,
  // Reading what a push or a patch carries (git's log of the commits' added lines) while it is scanned
  // for secrets (secret-gate.ts): at most 256 MiB of git's output, scanned at several MB/s.
  'secret-scan': 5 * MINUTE,
  // The engine CLI asked something (inspect, ps, info, version, logs): a second; tens of seconds on a
  // loaded rootless Podman that first sets up its user namespace.
  'engine-query': 2 * MINUTE,
  // The engine CLI changing something (kill, rm, volume create or rm): removing a volume of a large
  // sandbox deletes every file in it, minutes for millions of files.
  'engine-change': 10 * MINUTE,
  // Pulling the `image` input when it is missing: a large image over a runner's network.
  'engine-pull': 30 * MINUTE,
  // Importing an image made of the runner's own binaries (a few to tens of MB): seconds.
  'engine-import': 5 * MINUTE,
  // ldd and `git --exec-path` while such an image is made: milliseconds.
  ldd: 30 * SECOND,
};

/**
 * Tests only: `WORKTREE_SANDBOX_TEST_TIME_LIMITS=create=5,offer=3` (seconds) shortens the named limits so
 * that a test can watch one run out. It can only shorten: a value above the limit, or one that is not a
 * positive number, is ignored, so no environment can lift a limit.
 */
export const TIME_LIMITS_OVERRIDE = 'WORKTREE_SANDBOX_TEST_TIME_LIMITS';

export function timeLimitMs(work: TimedWork, env: NodeJS.ProcessEnv = process.env): number {
  const limit = TIME_LIMITS_MS[work];
  for (const item of (env[TIME_LIMITS_OVERRIDE] ?? '').split(',')) {
    const [name, value] = item.split('=');
    const seconds = Number(value);
    if (name?.trim() === work && Number.isFinite(seconds) && seconds > 0)
      return Math.min(limit, seconds * SECOND);
  }
  return limit;
}

/** Which time limit an engine CLI call runs under: what it does decides how long it may honestly take. */
export function engineWork(args: readonly string[]): Extract<HostWork, `engine-${string}`> {
  const [command, sub] = args;
  if (command === 'pull') return 'engine-pull';
  if (command === 'import') return 'engine-import';
  if (['kill', 'rm', 'stop', 'create', 'rmi'].includes(command)) return 'engine-change';
  if (
    ['volume', 'container', 'image', 'network'].includes(command) &&
    ['create', 'rm', 'prune', 'kill', 'stop'].includes(sub)
  )
    return 'engine-change';
  return 'engine-query';
}

/** What a time limit stopped: which work, on which sandbox(es), after how long. */
export class TimeLimitError extends Error {
  constructor(
    readonly work: TimedWork,
    /** Which sandbox (or sandboxes) it worked on, as a person reads it. */
    readonly where: string,
    readonly limitMs: number,
    /** What that means for the sandbox: what was kept, what was not done. */
    consequence: string,
    /** A program on the host (its process group was killed), not a helper container (removed). */
    readonly onHost = false,
  ) {
    super(
      `The ${work} ${onHost ? 'program' : 'helper container'} on ${where} ran out of its time limit (${formatLimit(limitMs)}) and was ${onHost ? 'killed' : 'removed'}: ${consequence}`,
    );
    this.name = 'TimeLimitError';
  }
}

export function formatLimit(ms: number): string {
  if (ms % MINUTE === 0) return `${ms / MINUTE} min`;
  return `${Math.round(ms / 100) / 10} s`;
}
