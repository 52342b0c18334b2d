// Carrying out the removals decided. Each sandbox is removed under its own lock (a run that holds it, or
// takes it first, wins: the sandbox is then in use), after one last look at its activity, archived first
// when asked. A sandbox of a live parent goes the way run mode removes one (`removeSandbox`: its folders
// or volume, then every record the parent keeps of it); an orphan loses its folders or volume only.
// On disk the reaper removes the folders itself first, carefully (remove.ts): links are never followed,
// and what cannot be deleted is reported while the rest goes.
import * as path from 'node:path';
import type { ContainerEngine } from '../engine/engine.js';
import type { Git } from '../engine/git.js';
import type { Sandbox } from '../sandbox/layout.js';
import { lockSandbox, LockTimeoutError, type Release } from '../sandbox/lock.js';
import { forgetSandboxes, removeEmptyProjectDir, removeSandbox } from '../sandbox/remove.js';
import { lastActivity } from './age.js';
import { archiveSandbox } from './archive.js';
import type { Decision } from './decide.js';
import { inspectInHelpers } from './helper-inspection.js';
import { inParallel } from './parallel.js';
import { removeHomeFolder, removeSandboxTree, type RemovalProblem } from './remove.js';
import { diskActivity } from './sandbox-files.js';
import { applyVolumeSignals, type ScannedSandbox } from './scan.js';

export type RemovalStatus = 'removed' | 'partly removed' | 'not removed' | 'skipped';

export interface RemovalOutcome {
  status: RemovalStatus;
  /** Why it was skipped or not removed. */
  detail?: string;
  freedBytes: number;
  archived: string[];
  /** Entries that could not be deleted (disk). */
  problems: RemovalProblem[];
}

export interface ExecuteDeps {
  git: Git;
  engine: ContainerEngine;
  image: string;
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

/** Removals running at once. */
export const REMOVALS_IN_FLIGHT = 4;
/** Sandboxes locked and looked at again together (one helper for the volumes among them). */
const BATCH = 32;

export async function carryOut(
  removals: readonly Removal[],
  deps: ExecuteDeps,
): Promise<Map<string, RemovalOutcome>> {
  const outcomes = new Map<string, RemovalOutcome>();
  for (let i = 0; i < removals.length; i += BATCH) {
    const batch = removals.slice(i, i + BATCH);
    const locks = await inParallel(batch, REMOVALS_IN_FLIGHT, (removal) => lock(removal.sandbox));
    try {
      const locked = batch.filter((_, n) => !('refused' in locks[n]));
      const activity = await currentActivity(
        locked.map((r) => r.sandbox),
        deps,
      );
      const forget: Forget = { sandboxes: [], projectDirs: new Set() };
      const done = await inParallel(batch, REMOVALS_IN_FLIGHT, async (removal) => {
        const held = locks[batch.indexOf(removal)];
        if ('refused' in held) return skipped(held.refused);
        return removeOne(removal, activity.get(removal.sandbox.key), { ...deps, forget });
      });
      // The removed folders' records, a parent at a time; then the project folders left empty.
      await forgetSandboxes(deps.git, forget.sandboxes);
      for (const dir of forget.projectDirs) await removeEmptyProjectDir(dir);
      batch.forEach((removal, n) => {
        outcomes.set(removal.decision.key, done[n]);
        deps.log(describe(removal.decision, done[n]));
      });
    } finally {
      await Promise.all(locks.map((held) => ('release' in held ? held.release?.() : undefined)));
    }
  }
  return outcomes;
}

type Held = { release?: Release } | { refused: string };

/** What the removals of one batch leave to do once for all of them. */
interface Forget {
  sandboxes: Sandbox[];
  projectDirs: Set<string>;
}

async function lock(sandbox: ScannedSandbox): Promise<Held> {
  if (!sandbox.parent || sandbox.orphan) return {};
  try {
    return { release: await lockSandbox(sandbox.parent.gitDir, sandbox.sandbox, 0) };
  } catch (error) {
    return {
      refused:
        error instanceof LockTimeoutError
          ? 'in use: a run holds its lock'
          : `its lock could not be taken: ${(error as Error).message}`,
    };
  }
}

/** The newest activity of each sandbox now: disk on the host, volumes by one helper. */
async function currentActivity(
  sandboxes: readonly ScannedSandbox[],
  deps: ExecuteDeps,
): Promise<Map<string, number | undefined>> {
  const now = new Map<string, number | undefined>();
  for (const s of sandboxes)
    if (s.hostPath) now.set(s.key, lastActivity([...diskActivity(s.hostPath).times, s.createdMs]));
  const volumes = sandboxes.filter((s) => s.volume);
  if (volumes.length) {
    const seen = await inspectInHelpers(
      deps.engine,
      deps.image,
      undefined,
      volumes.map((s) => ({ key: s.key, target: { volume: s.volume!, name: s.sandbox }, signals: true })),
    );
    for (const s of volumes) {
      const copy = { ...s };
      applyVolumeSignals(copy, seen.get(s.key));
      now.set(s.key, copy.lastActivityMs);
    }
  }
  return now;
}

function skipped(detail: string): RemovalOutcome {
  return { status: 'skipped', detail, freedBytes: 0, archived: [], problems: [] };
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
  deps.forget.projectDirs.add(path.dirname(sandbox.hostPath!));
  if (tree.problems.length === 0) {
    outcome.status = 'removed';
    return;
  }
  outcome.status = 'partly removed';
  outcome.detail = `${tree.problems.length} entr${tree.problems.length === 1 ? 'y' : 'ies'} could not be deleted`;
}

function describe(decision: Decision, outcome: RemovalOutcome): string {
  const what = `${decision.project}/${decision.sandbox} (${decision.isolation === 'disk' ? decision.where : `volume ${decision.where}`})`;
  const detail = outcome.detail ? `: ${outcome.detail}` : '';
  const archived = outcome.archived.length ? `; archived to ${outcome.archived.join(', ')}` : '';
  return `${outcome.status} ${what}${detail}${archived}`;
}
