// Carrying out the removals decided. Each sandbox is removed under its own lock (a run that holds it, or
// takes it first, wins: the sandbox is then in use), after one last look at its activity, archived first
// when asked. A sandbox of a live parent goes the way run mode removes one (`removeSandbox`: its folders
// or volume, then every record the parent keeps of it); a linked worktree its folder, then its registration
// in the parent (linked-worktree.ts, under the parent's repository lock); an orphan loses its folders or
// volume only.
// On disk the reaper removes the folders itself first, carefully (remove-tree.ts): links are never followed,
// and what cannot be deleted is reported while the rest goes.
import * as path from 'node:path';
import type { Sandbox } from '../sandbox/layout.js';
import { type Release, tryLockSandbox } from '../sandbox/lock.js';
import type { ParentRepository } from '../sandbox/repository.js';
import { forgetSandboxes, removeEmptyProjectDir, removeSandbox } from '../sandbox/remove.js';
import { lastActivity } from './retention.js';
import { archiveSandbox } from './archive.js';
import type { Decision } from './decide.js';
import type { RemovalOutcome } from './reap-report.js';
import { sandboxText } from '../ui/sandbox-text.js';
import type { WorkDeps } from './work.js';
import { inParallel } from './parallel.js';
import { removeHomeFolder, removeSandboxTree } from './remove-tree.js';
import { forgetRegistrations } from './linked-worktree.js';
import { diskActivity, readRecordNames } from '../sandbox/sandbox-files.js';
import { lookAtVolumes, type ScannedSandbox } from './scan.js';
import { gitDirOf, type LinkedFacts } from './scanned-sandbox.js';

/** With `diskHelpersRefused` (work.ts), a disk sandbox is not archived, so kept. */
export interface ExecuteDeps extends WorkDeps {
  /** The real root of disk sandboxes. */
  root: string;
  archiveDir: string;
  now: Date;
  log: (line: string) => void;
}

export interface Removal {
  decision: Decision;
  sandbox: ScannedSandbox;
}

/** Removals running at once, and parents whose batches are removed at once. */
export const REMOVALS_IN_FLIGHT = 4;
const PARENTS_AT_ONCE = 4;
/**
 * Sandboxes of one parent removed together: locked, looked at again and removed, then their records
 * dropped together (one repository lock, two git processes) before their locks are released; volumes
 * are looked at again by one helper per batch.
 */
const BATCH = 32;

/**
 * Removes every sandbox decided for removal: disk sandboxes a batch of one parent at a time (a few
 * parents at once), then volumes. One sandbox that fails in any step gets an outcome that says why, and
 * every other goes on: a failure is never the whole run's.
 */
export async function carryOut(
  removals: readonly Removal[],
  deps: ExecuteDeps,
): Promise<Map<string, RemovalOutcome>> {
  const outcomes = new Map<string, RemovalOutcome>();
  const byParent = batchesByParent(removals.filter((r) => !r.sandbox.volume));
  await inParallel([...byParent.values()], PARENTS_AT_ONCE, async (batches) => {
    for (const batch of batches) await removeBatch(batch, deps, outcomes, diskActivityNow);
  });
  const volumes = removals.filter((r) => r.sandbox.volume);
  for (let i = 0; i < volumes.length; i += BATCH)
    await removeBatch(volumes.slice(i, i + BATCH), deps, outcomes, volumeActivityNow(deps));
  return outcomes;
}

/**
 * When a locked sandbox of the batch was last active, read again: for a disk sandbox just before its
 * removal (lstat only), for volumes by one helper for the whole batch, asked once they are locked.
 */
type ActivityNow = (locked: readonly Removal[]) => Promise<(removal: Removal) => number | undefined>;

const diskActivityNow: ActivityNow = async () => (removal) => {
  const { sandbox } = removal;
  return lastActivity([...diskActivity(sandbox.hostPath!, gitDirOf(sandbox)).times, sandbox.createdMs]);
};

const volumeActivityNow =
  (deps: ExecuteDeps): ActivityNow =>
  async (locked) => {
    const seen = await volumeActivity(locked, deps);
    return (removal) => seen.get(removal.sandbox.key);
  };

/**
 * One batch (disk sandboxes of one parent, or volumes): each locked, its activity read again and, when
 * nothing happened since the scan, removed; then the parent forgets the removed ones (records,
 * registrations), the project folders left empty go, the locks are released and the outcomes logged.
 */
async function removeBatch(
  batch: readonly Removal[],
  deps: ExecuteDeps,
  outcomes: Map<string, RemovalOutcome>,
  activityNow: ActivityNow,
): Promise<void> {
  const locks = await inParallel(batch, REMOVALS_IN_FLIGHT, (removal) => lock(removal.sandbox));
  try {
    const activityOf = await activityNow(batch.filter((_, n) => !('refused' in locks[n])));
    const forget = forgetNothing();
    const done = await inParallel(batch, REMOVALS_IN_FLIGHT, async (removal) => {
      const held = locks[batch.indexOf(removal)];
      if ('refused' in held) return skipped(held.refused);
      try {
        return await removeOne(removal, activityOf(removal), { ...deps, forget });
      } catch (error) {
        return failed((error as Error).message);
      }
    });
    await forgetAll(batch, done, forget, deps);
    batch.forEach((removal, n) => {
      outcomes.set(removal.decision.key, done[n]);
      deps.log(removalLine(removal.decision, done[n]));
    });
  } finally {
    await release(locks);
  }
}

/**
 * What a batch leaves to do once its folders are gone: the removed folders' records, the linked
 * worktrees' registrations, then the project folders left empty. Never throws: what could not be done
 * is said on the outcomes of the sandboxes it concerns.
 */
async function forgetAll(
  batch: readonly Removal[],
  done: readonly RemovalOutcome[],
  forget: Forget,
  deps: ExecuteDeps,
): Promise<void> {
  try {
    await forgetBatch(batch, done, forget, deps);
    const left = await forgetRegistrations(forget.registrations);
    forget.registrations.forEach(({ outcome }, n) => {
      const why = left[n];
      if (!why) return;
      if (why.problem) outcome.problems.push(why.problem);
      outcome.status = 'partly removed';
      outcome.detail = `its registration was left: ${why.reason}`;
    });
  } catch (error) {
    for (const outcome of done)
      if (outcome.status === 'removed') {
        outcome.status = 'partly removed';
        outcome.detail = `its folders went, but what its parent keeps of it may be left (${(error as Error).message})`;
      }
  }
  for (const dir of forget.projectDirs) await removeEmptyProjectDir(dir).catch(() => undefined); // an empty folder left is harmless
}

/**
 * The parent forgets the batch's removed sandboxes, together; when that fails, one at a time, so that one
 * sandbox whose records cannot be dropped leaves the others' dropped (its own outcome says so).
 */
async function forgetBatch(
  batch: readonly Removal[],
  done: readonly RemovalOutcome[],
  forget: Forget,
  deps: ExecuteDeps,
): Promise<void> {
  const { sandboxes } = forget;
  if (!sandboxes.length) return;
  try {
    await forgetSandboxes(deps.git, sandboxes, readRecordNames);
    return;
  } catch {
    // one at a time below
  }
  for (const sandbox of sandboxes) {
    try {
      await forgetSandboxes(deps.git, [sandbox], readRecordNames);
    } catch (error) {
      const outcome = done[batch.findIndex((r) => r.sandbox.location === sandbox)];
      if (outcome) {
        outcome.status = 'partly removed';
        outcome.detail = `its folders went, but its parent's records of it could not be dropped (${(error as Error).message})`;
      }
    }
  }
}

/** The removals in batches, by parent (orphans and sandboxes without a parent together: ''). */
function batchesByParent(removals: readonly Removal[]): Map<string, Removal[][]> {
  const byParent = new Map<string, Removal[]>();
  for (const removal of removals) {
    const { parent, orphan } = removal.sandbox;
    const key = parent && !orphan ? parent.gitDir : '';
    const group = byParent.get(key);
    if (group) group.push(removal);
    else byParent.set(key, [removal]);
  }
  const batches = new Map<string, Removal[][]>();
  for (const [parent, group] of byParent) {
    const cut: Removal[][] = [];
    for (let i = 0; i < group.length; i += BATCH) cut.push(group.slice(i, i + BATCH));
    batches.set(parent, cut);
  }
  return batches;
}

function forgetNothing(): Forget {
  return { sandboxes: [], registrations: [], projectDirs: new Set() };
}

async function release(locks: ReadonlyArray<Held | undefined>): Promise<void> {
  await Promise.all(
    locks.flatMap((held) => (held && 'release' in held && held.release ? [held.release()] : [])),
  );
}

type Held = { release?: Release } | { refused: string };

/** What the removals of one batch leave to do once for all of them. */
interface Forget {
  sandboxes: Sandbox[];
  /** Linked worktrees' registrations in their parents, each with the outcome it adds to. */
  registrations: Array<{ parent: ParentRepository; linked: LinkedFacts; outcome: RemovalOutcome }>;
  projectDirs: Set<string>;
}

function lock(sandbox: ScannedSandbox): Promise<Held> {
  return !sandbox.parent || sandbox.orphan
    ? Promise.resolve({})
    : tryLockSandbox(sandbox.parent.gitDir, sandbox.sandbox);
}

/** The newest activity of each volume now, seen by helpers. */
async function volumeActivity(
  volumes: readonly Removal[],
  deps: ExecuteDeps,
): Promise<Map<string, number | undefined>> {
  const copies = volumes.map(({ sandbox }) => ({ ...sandbox }));
  if (copies.length) await lookAtVolumes(deps.engine, deps.image, copies);
  return new Map(copies.map((s) => [s.key, s.lastActivityMs]));
}

function skipped(detail: string): RemovalOutcome {
  return { status: 'skipped', detail, freedBytes: 0, archived: [], problems: [] };
}

function failed(detail: string): RemovalOutcome {
  return { status: 'not removed', detail, freedBytes: 0, archived: [], problems: [] };
}

async function removeOne(
  { decision, sandbox }: Removal,
  activity: number | undefined,
  deps: ExecuteDeps & { forget: Forget },
): Promise<RemovalOutcome> {
  if (activity === undefined) return skipped('its activity could not be read again');
  if (decision.lastActivityMs === undefined || activity > decision.lastActivityMs)
    return skipped('activity since the scan');
  const outcome = skipped('');
  delete outcome.detail;
  const refused = decision.archive && sandbox.hostPath ? await deps.diskHelpersRefused?.() : undefined;
  if (refused) {
    outcome.detail = `not archived: ${refused}`;
    return outcome;
  }
  if (decision.archive) {
    try {
      outcome.archived = await archiveSandbox(sandbox, decision.archive, deps);
    } catch (error) {
      outcome.detail = `archiving failed (${(error as Error).message})`;
      return outcome;
    }
  }
  try {
    if (sandbox.volume) await removeVolume(sandbox, decision, deps, outcome);
    else await removeFolders(sandbox, deps, outcome);
  } catch (error) {
    outcome.status = 'not removed';
    outcome.detail = (error as Error).message;
  }
  return outcome;
}

async function removeVolume(
  sandbox: ScannedSandbox,
  decision: Decision,
  deps: ExecuteDeps,
  outcome: RemovalOutcome,
): Promise<void> {
  // An orphan's records went with its parent: only the volume is left to remove.
  if (sandbox.location && !sandbox.orphan) await removeSandbox(deps.git, deps.engine, sandbox.location);
  else await deps.engine.removeVolume(sandbox.volume!);
  outcome.status = 'removed';
  outcome.freedBytes = decision.sizeBytes ?? 0;
}

async function removeFolders(
  sandbox: ScannedSandbox,
  deps: ExecuteDeps & { forget: Forget },
  outcome: RemovalOutcome,
): Promise<void> {
  const tree = await removeSandboxTree(deps.root, sandbox.hostPath!);
  if (tree.unlinked && sandbox.homePath) await removeHomeFolder(deps.root, sandbox.homePath, tree);
  outcome.freedBytes = tree.freedBytes;
  outcome.problems = tree.problems;
  if (!tree.unlinked) {
    outcome.status = 'not removed';
    outcome.detail = `its .git folder could not be moved away (${tree.problems[0]?.error}): left intact`;
    return;
  }
  // No sandbox any more (its .git is gone): the parent forgets it (with the batch's others), and its
  // project folder goes with its last sandbox.
  const location = sandbox.location && !sandbox.orphan ? sandbox.location : undefined;
  if (location) deps.forget.sandboxes.push(location);
  if (sandbox.linked?.registered && sandbox.parent && !sandbox.orphan)
    deps.forget.registrations.push({ parent: sandbox.parent, linked: sandbox.linked, outcome });
  deps.forget.projectDirs.add(path.dirname(sandbox.hostPath!));
  if (tree.problems.length === 0) {
    outcome.status = 'removed';
    return;
  }
  outcome.status = 'partly removed';
  outcome.detail = `${tree.problems.length} entr${tree.problems.length === 1 ? 'y' : 'ies'} could not be deleted`;
}

/** The log line of one removal carried out. */
function removalLine(decision: Decision, outcome: RemovalOutcome): string {
  const what = `${decision.project}/${decision.sandbox} (${decision.isolation === 'disk' ? decision.where : `volume ${decision.where}`})`;
  const detail = outcome.detail ? `: ${outcome.detail}` : '';
  const archived = outcome.archived.length ? `; archived to ${outcome.archived.join(', ')}` : '';
  // Names and details (an archiver's error, a helper's) came from the sandbox: one escaped line.
  return sandboxText(`${outcome.status} ${what}${detail}${archived}`, 8_000);
}
