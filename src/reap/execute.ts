// Carrying out the removals decided. Each sandbox is removed under its own lock (a run that holds it, or
// takes it first, wins: the sandbox is then in use), after one last look at its activity, archived first
// when asked. Then exactly its registration in the parent is dropped, under the repository lock, before
// its own lock is let go (a run waiting for that lock then finds it gone and makes it anew).
// Several sandboxes are removed at once, and the repository lock is taken once per batch of a parent's
// sandboxes: on a busy disk the removal is what costs, and the reaper should cost no more than `rm -rf`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ContainerEngine } from '../engine/engine.js';
import type { Git } from '../engine/git.js';
import { lockSandbox, LockTimeoutError, withRepositoryLock, type Release } from '../sandbox/lock.js';
import { dropEntry, type WorktreeEntry } from '../worktree-metadata.js';
import { archiveSandbox } from './archive.js';
import { inParallel } from './parallel.js';
import type { Decision } from './decide.js';
import { removeSandboxTree, type RemovalProblem } from './remove.js';
import { currentActivity, type ScannedSandbox } from './scan.js';

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
/** Sandboxes of one parent whose registrations are dropped under one hold of the repository lock. */
const BATCH = 32;

export async function carryOut(
  removals: readonly Removal[],
  deps: ExecuteDeps,
): Promise<Map<string, RemovalOutcome>> {
  const outcomes = new Map<string, RemovalOutcome>();
  const byParent = new Map<string, Removal[]>();
  for (const removal of removals) {
    const { sandbox } = removal;
    const key = sandbox.parent && !sandbox.orphan ? sandbox.parent.gitDir : '';
    byParent.set(key, [...(byParent.get(key) ?? []), removal]);
  }
  for (const [gitDir, group] of byParent) {
    for (let i = 0; i < group.length; i += BATCH) {
      const batch = group.slice(i, i + BATCH);
      const done = await inParallel(batch, REMOVALS_IN_FLIGHT, (removal) => removeOne(removal, deps));
      const drops = done.filter((d) => d.drop).map((d) => d.drop!);
      try {
        if (gitDir && drops.length)
          await withRepositoryLock(gitDir, () =>
            inParallel(drops, REMOVALS_IN_FLIGHT, (entry) => dropEntry(gitDir, entry)),
          );
      } finally {
        await Promise.all(done.map((d) => d.release?.()));
      }
      batch.forEach((removal, n) => {
        outcomes.set(removal.decision.key, done[n].outcome);
        deps.log(describe(removal.decision, done[n].outcome));
      });
    }
  }
  return outcomes;
}

interface Done {
  outcome: RemovalOutcome;
  /** The registration to drop (the worktree is destroyed). */
  drop?: WorktreeEntry;
  /** The sandbox lock, let go once the registration is dropped. */
  release?: Release;
}

async function removeOne({ decision, sandbox }: Removal, deps: ExecuteDeps): Promise<Done> {
  const outcome: RemovalOutcome = { status: 'skipped', freedBytes: 0, archived: [], problems: [] };
  const parent = sandbox.parent && !sandbox.orphan ? sandbox.parent : undefined;
  let release: Release | undefined;
  if (parent) {
    try {
      release = await lockSandbox(parent.gitDir, sandbox.sandbox, 0);
    } catch (error) {
      outcome.detail =
        error instanceof LockTimeoutError
          ? 'in use: a run holds its lock'
          : `its lock could not be taken: ${(error as Error).message}`;
      return { outcome };
    }
  }
  try {
    const activity = currentActivity(sandbox);
    if (
      activity !== undefined &&
      (decision.lastActivityMs === undefined || activity > decision.lastActivityMs)
    ) {
      outcome.detail = 'activity since the scan';
      return { outcome, release };
    }
    if (decision.archive) {
      try {
        outcome.archived = await archiveSandbox(sandbox, decision.archive, deps);
      } catch (error) {
        outcome.detail = `archiving failed (${(error as Error).message})`;
        return { outcome, release };
      }
    }
    const destroyed = sandbox.volume
      ? await removeVolume(sandbox, decision, deps, outcome)
      : await removeFolder(sandbox, deps, outcome);
    return { outcome, release, drop: destroyed && parent ? sandbox.entry : undefined };
  } catch (error) {
    outcome.status = 'not removed';
    outcome.detail = (error as Error).message;
    return { outcome, release };
  }
}

async function removeVolume(
  sandbox: ScannedSandbox,
  decision: Decision,
  deps: ExecuteDeps,
  outcome: RemovalOutcome,
): Promise<boolean> {
  const result = await deps.engine.exec(['volume', 'rm', '--', sandbox.volume!]);
  if (result.exitCode !== 0) {
    outcome.status = 'not removed';
    outcome.detail = (result.stderr || result.stdout).trim().split('\n')[0];
    return false;
  }
  outcome.status = 'removed';
  outcome.freedBytes = decision.sizeBytes ?? 0;
  return true;
}

async function removeFolder(
  sandbox: ScannedSandbox,
  deps: ExecuteDeps,
  outcome: RemovalOutcome,
): Promise<boolean> {
  const tree = await removeSandboxTree(deps.root, sandbox.hostPath!);
  outcome.freedBytes = tree.freedBytes;
  outcome.problems = tree.problems;
  if (tree.gone) {
    outcome.status = 'removed';
    // The project folder goes with its last sandbox (never when anything else is left in it).
    try {
      fs.rmdirSync(path.dirname(sandbox.hostPath!));
    } catch {
      /* other sandboxes (or anything else) are still there */
    }
  } else if (tree.unlinked) {
    outcome.status = 'partly removed';
    outcome.detail = `${tree.problems.length} entr${tree.problems.length === 1 ? 'y' : 'ies'} could not be deleted`;
  } else {
    outcome.status = 'not removed';
    outcome.detail = `its .git file could not be deleted (${tree.problems[0]?.error}): left intact`;
  }
  return tree.unlinked;
}

function describe(decision: Decision, outcome: RemovalOutcome): string {
  const what = `${decision.project}/${decision.sandbox} (${decision.isolation === 'disk' ? decision.where : `volume ${decision.where}`})`;
  const detail = outcome.detail ? `: ${outcome.detail}` : '';
  const archived = outcome.archived.length ? `; archived to ${outcome.archived.join(', ')}` : '';
  return `${outcome.status} ${what}${detail}${archived}`;
}
