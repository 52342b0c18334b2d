// Cross-process locks (proper-lockfile: an atomic mkdir whose mtime the holder refreshes, so a lock whose
// holder was killed goes stale and is taken over instead of blocking everyone forever).
//  - the repository lock serializes every change to a parent's worktree metadata;
//  - a sandbox lock is held by the run using that sandbox, so two runs never share one silently.
import * as fsSync from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

type Lockfile = typeof import('proper-lockfile');
let lockfileLoaded: Promise<Lockfile> | undefined;

/**
 * proper-lockfile, loaded on first use rather than at every start: it brings graceful-fs, which patches
 * `fs` as it loads. A run starts loading it (loadLocking) while it waits for its first git and engine
 * answers, so that it is ready by the time the run takes its sandbox's lock.
 */
export function loadLocking(): Promise<Lockfile> {
  lockfileLoaded ??= import('proper-lockfile').then(
    (loaded) => (loaded as Lockfile & { default?: Lockfile }).default ?? loaded,
  );
  return lockfileLoaded;
}

export const LOCK_STALE_MS = 10_000;
const LOCK_UPDATE_MS = 2_000;

export type Release = () => Promise<void>;

export function lockDirectory(gitDir: string): string {
  return path.join(gitDir, 'worktree-sandbox', 'locks');
}

function lockPath(gitDir: string, name: string): string {
  return path.join(lockDirectory(gitDir), `${name}.lock`);
}

export class LockTimeoutError extends Error {
  constructor(
    message: string,
    /** Who holds the lock, as its note says (process, host, run, job, since); empty when unknown. */
    readonly holder = '',
  ) {
    super(message);
    this.name = 'LockTimeoutError';
  }
}

/** The note beside a lock: who holds it, so that whoever is refused can say which run is in the way. */
interface LockOwner {
  pid: number;
  host: string;
  since: string;
  run?: string;
  attempt?: string;
  job?: string;
  workflow?: string;
}

async function acquire(
  file: string,
  waitMs: number,
  describe: (owner?: LockOwner) => string,
  onWait?: (msg: string) => void,
): Promise<Release> {
  const dir = path.dirname(file);
  await makeLockDirectory(dir);
  const deadline = Date.now() + waitMs;
  let announced = false;
  let remade = false;
  for (;;) {
    try {
      const release = await (
        await loadLocking()
      ).lock(file, {
        realpath: false,
        lockfilePath: file,
        stale: LOCK_STALE_MS,
        update: LOCK_UPDATE_MS,
        retries: 0,
        onCompromised: () => {
          /* Another process took the lock over as stale: the holder was too slow; keep going. */
        },
      });
      const owner: LockOwner = {
        pid: process.pid,
        host: os.hostname(),
        since: new Date().toISOString(),
        run: process.env.GITHUB_RUN_ID,
        attempt: process.env.GITHUB_RUN_ATTEMPT,
        job: process.env.GITHUB_JOB,
        workflow: process.env.GITHUB_WORKFLOW,
      };
      // The note, a few bytes, is written and removed synchronously: an answer of the thread pool waits
      // for the main thread, which a reap keeps busy looking at the next parents while it takes hundreds
      // of locks. The note only names the holder in messages: one that cannot be written is left out.
      ignoreError(() => fsSync.writeFileSync(`${file}.owner`, JSON.stringify(owner)));
      return async () => {
        ignoreError(() => fsSync.unlinkSync(`${file}.owner`));
        await release().catch(() => undefined);
      };
    } catch (error) {
      // The lock folder went since this process made it: made again, once.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !remade && lockDirectoriesMade.delete(dir)) {
        remade = true;
        await makeLockDirectory(dir);
        continue;
      }
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      const owner = await readOwner(file);
      if (Date.now() >= deadline) throw new LockTimeoutError(describe(owner), holderText(owner));
      if (!announced && onWait) {
        onWait(`Waiting: ${describe(owner)}`);
        announced = true;
      }
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 150));
    }
  }
}

function ignoreError(fn: () => void): void {
  try {
    fn();
  } catch {
    /* see the caller */
  }
}

/**
 * Lock folders this process made: each is made once (the reaper takes a lock per sandbox, hundreds in one
 * parent). One that went since is made again: a lock that fails because its folder is gone drops it here.
 */
const lockDirectoriesMade = new Set<string>();

/**
 * The lock folder `<gitDir>/worktree-sandbox/locks`, made inside a `.git` that exists: never the repository
 * itself (a post step whose parent was deleted must not bring its path back).
 */
async function makeLockDirectory(dir: string): Promise<void> {
  if (lockDirectoriesMade.has(dir)) return;
  const gitDir = path.dirname(path.dirname(dir));
  const stat = await fs.stat(gitDir).catch(() => undefined);
  if (!stat?.isDirectory())
    throw Object.assign(new Error(`${gitDir} does not exist: there is no repository to lock`), {
      code: 'ENOENT',
    });
  await fs.mkdir(dir, { recursive: true });
  lockDirectoriesMade.add(dir);
}

async function readOwner(file: string): Promise<LockOwner | undefined> {
  try {
    return JSON.parse(await fs.readFile(`${file}.owner`, 'utf8')) as LockOwner;
  } catch {
    return undefined;
  }
}

/** `process 12 on host-1, run 345 (attempt 1), job build of workflow "CI", since <time>`; empty when unknown. */
function holderText(owner?: LockOwner): string {
  if (!owner) return '';
  // Our own note, but written by whichever run held the lock: its strings are quoted, never printed raw.
  const text = (value: unknown) => (typeof value === 'string' ? value : String(value)).slice(0, 200);
  const parts = [`process ${text(owner.pid)} on ${JSON.stringify(text(owner.host))}`];
  if (owner.run)
    parts.push(`run ${text(owner.run)}${owner.attempt ? ` (attempt ${text(owner.attempt)})` : ''}`);
  if (owner.job) parts.push(`job ${JSON.stringify(text(owner.job))}`);
  if (owner.workflow) parts.push(`workflow ${JSON.stringify(text(owner.workflow))}`);
  parts.push(`since ${text(owner.since)}`);
  return parts.join(', ');
}

function ownerText(owner?: LockOwner): string {
  const holder = holderText(owner);
  return holder ? ` (${holder})` : '';
}

/** Runs `fn` holding the lock `file` (a folder proper-lockfile makes); `what` names what it protects. */
export async function withLockFile<T>(
  file: string,
  what: string,
  fn: () => Promise<T>,
  waitMs = 120_000,
): Promise<T> {
  const release = await acquire(
    file,
    waitMs,
    (owner) => `${what} is locked by another run${ownerText(owner)}`,
  );
  try {
    return await fn();
  } finally {
    await release();
  }
}

/**
 * Runs `fn` holding the parent repository's metadata lock. Every change the action makes to the parent's
 * shared metadata (worktree registrations, refs, config) and every check of the git guard happens under it.
 */
export async function withRepositoryLock<T>(
  gitDir: string,
  fn: () => Promise<T>,
  waitMs = 120_000,
): Promise<T> {
  return withLockFile(
    lockPath(gitDir, 'repository'),
    `the worktree metadata of ${path.dirname(gitDir)}`,
    fn,
    waitMs,
  );
}

export async function lockSandbox(
  gitDir: string,
  sandbox: string,
  waitMs: number,
  onWait?: (msg: string) => void,
): Promise<Release> {
  return acquire(
    lockPath(gitDir, `sandbox-${sandbox}`),
    waitMs,
    (owner) =>
      `sandbox ${sandbox} is in use by another run${ownerText(owner)}; two runs never share a sandbox`,
    onWait,
  );
}

/**
 * The sandbox's lock, when no run holds it now (never waits): its release, or why it could not be had
 * (a run that holds it, or takes it first, wins: the sandbox is then in use).
 */
export async function tryLockSandbox(
  gitDir: string,
  sandbox: string,
): Promise<{ release: Release } | { refused: string }> {
  try {
    return { release: await lockSandbox(gitDir, sandbox, 0) };
  } catch (error) {
    return {
      refused:
        error instanceof LockTimeoutError
          ? `in use: a run holds its lock${error.holder ? ` (${error.holder})` : ''}`
          : `its lock could not be taken: ${(error as Error).message}`,
    };
  }
}

/**
 * A note beside the sandbox's lock, host-only: a command container of the sandbox may exist. Written
 * before one is started, removed once it is gone; a run that finds the note (its writer was killed)
 * looks for the containers it left, and only then: asking the engine costs every run start-up time.
 */
export function containerNotePath(gitDir: string, sandbox: string): string {
  return path.join(lockDirectory(gitDir), `sandbox-${sandbox}.container`);
}

/** True while a live run holds the sandbox's lock (a lock whose holder died is not counted). */
export async function isSandboxLocked(gitDir: string, sandbox: string): Promise<boolean> {
  const file = lockPath(gitDir, `sandbox-${sandbox}`);
  try {
    return await (
      await loadLocking()
    ).check(file, { realpath: false, lockfilePath: file, stale: LOCK_STALE_MS });
  } catch {
    return false;
  }
}
