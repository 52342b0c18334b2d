// Creating a sandbox, or reusing it exactly as it is (uncommitted files and all). A new sandbox is a
// repository of its own whose object store borrows the parent's, made by make-repository.ts. The parent's
// records are written last: a sandbox whose `creating` record is still there was half-made by a killed
// run, and is made again.
// ADR 0001 (docs/adr/0001-sandbox-is-a-repository-of-its-own.md).
import * as fs from 'node:fs/promises';
import type { EngineCommands } from '../engine/engine-commands.js';
import type { GitCommands } from '../engine/git-commands.js';
import type { BranchPlan } from './branch.js';
import { dropRecords, pathExists, sandboxRefs, type SandboxRefs } from './bookkeeping.js';
import { whereIs, type DiskSandbox, type PreparedSandbox, type Sandbox } from './layout.js';
import { withRepositoryLock } from './lock.js';
import { createInVolume, createOnDisk, makeDiskFolder, type Seed } from './make-repository.js';
import { removeDiskFolders } from './remove.js';
import type { ParentRepository } from './repository.js';
import { readRefsAsData } from './ref-files.js';

export class SandboxConflictError extends Error {}

interface Log {
  info(message: string): void;
}

export async function prepareSandbox(
  git: GitCommands,
  engine: EngineCommands,
  sandbox: Sandbox,
  plan: BranchPlan,
  /**
   * The image helpers run; `ready` settles once the engine has it and is known to see the folders, and is
   * called only before something is written (a reused sandbox does not wait for it).
   */
  image: string | { name: string; ready: () => Promise<void> },
  log: Log,
): Promise<PreparedSandbox> {
  const { name: imageName, ready: checksDone } =
    typeof image === 'string' ? { name: image, ready: () => Promise.resolve() } : image;
  const { parent } = sandbox;
  const refs = sandboxRefs(sandbox);
  // A sandbox that is there is taken without the repository lock: only the holder of the sandbox's lock
  // (this run; the reaper and `rm` take it too) writes its records. Anything else is decided again, and
  // recorded, under the repository lock.
  const found = await lookUp(git, engine, sandbox, refs);
  if (found.reused) return found.reused;
  // Nothing is written before the image is known to be there and the engine to see the folders; a pull
  // is never waited for under the lock.
  await checksDone();
  // The repository lock is held for the parent's bookkeeping only (records, the project folder), never
  // while a sandbox is written: a container or a checkout that hangs must not stop other sandboxes of the
  // same parent. While the sandbox is written, this run's sandbox lock keeps every other run, the reaper
  // and `rm` away from it, and its `creating` record says it is half-made if this run dies.
  const begun = await withRepositoryLock(parent.gitDir, () =>
    beginCreation(git, engine, sandbox, plan, log, found.present),
  );
  if ('reused' in begun) return begun.reused;
  const { seed } = begun;
  try {
    if (sandbox.isolation === 'disk') await createOnDisk(git, sandbox, seed);
    else await createInVolume(engine, sandbox, seed, imageName, begun.recover, begun.present);
  } catch (error) {
    // What was made here goes; a volume that was there before is kept.
    if (sandbox.isolation === 'disk') await removeDiskFolders(sandbox).catch(() => undefined);
    else if (!begun.volumeWasThere) await engine.removeVolume(sandbox.volume).catch(() => undefined);
    await withRepositoryLock(parent.gitDir, () => dropRecords(git, parent, refs));
    throw error;
  }
  const records = [`update ${refs.head} ${seed.start}`, `delete ${refs.creating}`];
  if (seed.upstream) records.push(`update ${refs.offered} ${seed.upstream}`);
  await withRepositoryLock(parent.gitDir, () =>
    git.run(parent.path, ['update-ref', '--stdin'], { input: Buffer.from(records.join('\n') + '\n') }),
  );
  return { ...sandbox, reused: false, startSha: seed.start };
}

type Begun =
  | { reused: PreparedSandbox }
  | {
      seed: Seed;
      /** A run was killed while creating it: what it left is replaced. */
      recover: boolean;
      /** Whether the sandbox's volume or folder is there. */
      present: boolean;
      /** A volume that was there before this run (not half-made by a killed one): kept if creation fails. */
      volumeWasThere: boolean;
    };

/**
 * Under the repository lock: decides again (the records may have changed), drops the records of a
 * sandbox that is gone, refuses a folder nobody recorded, reads the seed, writes the `creating` record,
 * and for a disk sandbox makes its (empty) folder, so that the project folder is never removed from under
 * it by the removal of the project's last other sandbox (which happens under this lock too).
 */
async function beginCreation(
  git: GitCommands,
  engine: EngineCommands,
  sandbox: Sandbox,
  plan: BranchPlan,
  log: Log,
  /** Whether the volume is there, as the engine said before the repository lock. */
  volumePresent: boolean,
): Promise<Begun> {
  const { parent } = sandbox;
  const refs = sandboxRefs(sandbox);
  const { head, creating, present, reused } = await lookUp(git, engine, sandbox, refs, volumePresent);
  if (reused) return { reused };
  if (head && !creating) {
    log.info(`Sandbox ${sandbox.name} (${whereIs(sandbox)}) is gone: its records in the parent are dropped.`);
    await dropRecords(git, parent, refs);
  }
  if (creating) log.info(`Recovering ${whereIs(sandbox)}: a run was killed while creating it.`);
  // A folder nobody recorded is refused before anything is written: it may be someone's work.
  else if (sandbox.isolation === 'disk') await refuseForeignFolder(sandbox);
  const seed = await readSeed(git, parent, plan);
  await git.run(parent.path, [
    'update-ref',
    '-m',
    'worktree-sandbox: creating',
    '--',
    refs.creating,
    seed.start,
  ]);
  try {
    if (sandbox.isolation === 'disk') await makeDiskFolder(sandbox, creating);
  } catch (error) {
    await dropRecords(git, parent, refs);
    throw error;
  }
  return { seed, recover: creating, present, volumeWasThere: present && !creating };
}

/**
 * The sandbox's records, whether it is there, and so whether it is reused as it is. The records are read
 * again under the repository lock; the engine's word on the volume is asked once (`volumePresent`): only a
 * holder of the sandbox's lock (this run; the post step, the reaper and `rm` take it too) removes the
 * volume, so it cannot change in between.
 */
async function lookUp(
  git: GitCommands,
  engine: EngineCommands,
  sandbox: Sandbox,
  refs: SandboxRefs,
  volumePresent?: boolean,
): Promise<{ head?: string; creating: boolean; present: boolean; reused?: PreparedSandbox }> {
  const upstreamRef = sandbox.branch ? `refs/remotes/origin/${sandbox.branch}` : '';
  const [recorded, present] = await Promise.all([
    readRecords(git, sandbox.parent, refs, upstreamRef),
    sandbox.isolation === 'container'
      ? (volumePresent ?? engine.volumeExists(sandbox.volume))
      : pathExists(sandbox.hostPath),
  ]);
  const head = recorded.get(refs.head);
  const creating = recorded.has(refs.creating);
  if (!head || creating || !present) return { head, creating, present };
  const upstream = recorded.get(upstreamRef);
  const upstreamNew = upstream && upstream !== recorded.get(refs.offered) ? upstream : undefined;
  return { head, creating, present, reused: { ...sandbox, reused: true, startSha: head, upstreamNew } };
}

/**
 * The sandbox's records and what origin has of the branch (start-up latency counts). The records are the
 * action's own refs, each a commit it wrote: read from the parent's files as data where that answer is
 * sure (ref-files.ts), as long as origin's branch is absent or the one offered last, which is then not
 * used. Otherwise in one git process, which also checks that each names a commit.
 */
async function readRecords(
  git: GitCommands,
  parent: ParentRepository,
  refs: SandboxRefs,
  upstreamRef: string,
): Promise<Map<string, string>> {
  const names = [refs.head, refs.creating, refs.offered, ...(upstreamRef ? [upstreamRef] : [])];
  const read = readRefsAsData(parent.gitDir, names);
  const upstream = upstreamRef ? read?.get(upstreamRef) : undefined;
  if (read && (upstream === undefined || upstream === read.get(refs.offered))) return read;
  return git.readRefs(parent.path, names);
}

async function readSeed(git: GitCommands, parent: ParentRepository, plan: BranchPlan): Promise<Seed> {
  const rev =
    plan.source === 'local'
      ? `refs/heads/${plan.branch}`
      : plan.source === 'remote'
        ? `refs/remotes/origin/${plan.branch}`
        : plan.startPoint;
  const [start, upstream, url] = await Promise.all([
    git.resolveCommit(parent.path, rev),
    plan.branch ? git.resolveCommit(parent.path, `refs/remotes/origin/${plan.branch}`) : undefined,
    git.remoteUrl(parent.path, 'origin'),
  ]);
  if (!start)
    throw new Error(`${rev} names no commit in ${parent.path} any more: the sandbox was not created.`);
  return { start, upstream, originUrl: withoutCredentials(url ?? '') };
}

/** A URL's user and password never reach a sandbox's config. */
export function withoutCredentials(url: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return url;
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/$/, url.endsWith('/') ? '/' : '');
  } catch {
    return '';
  }
}

/** An empty folder where the sandbox goes is removed; one holding files nobody recorded is refused. */
async function refuseForeignFolder(sandbox: DiskSandbox): Promise<void> {
  if (!(await pathExists(sandbox.hostPath))) return;
  if ((await fs.readdir(sandbox.hostPath)).length > 0)
    throw new SandboxConflictError(
      `${sandbox.hostPath} exists and holds files, but ${sandbox.parent.path} has no record of a sandbox there: it is not touched. Move it away or remove it, then run again.`,
    );
  await fs.rmdir(sandbox.hostPath);
}
