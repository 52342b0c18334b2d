// Carrying out the removals decided: each under the sandbox's own lock (a run that holds it, or takes it
// first, wins: the sandbox is then in use), after one last look at its activity, archived first when
// asked, then removed; then exactly its registration in the parent is dropped, under the repository lock.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ContainerEngine } from '../docker.js';
import type { Git } from '../git.js';
import { lockSandbox, LockTimeoutError, withRepositoryLock, type Release } from '../lock.js';
import { dropEntry } from '../worktree-metadata.js';
import { archiveSandbox } from './archive.js';
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

export async function carryOut(
  removals: ReadonlyArray<{ decision: Decision; sandbox: ScannedSandbox }>,
  deps: ExecuteDeps,
): Promise<Map<string, RemovalOutcome>> {
  const outcomes = new Map<string, RemovalOutcome>();
  for (const { decision, sandbox } of removals) {
    const outcome = await removeOne(decision, sandbox, deps);
    outcomes.set(decision.key, outcome);
    deps.log(describe(decision, outcome));
  }
  return outcomes;
}

function describe(decision: Decision, outcome: RemovalOutcome): string {
  const what = `${decision.project}/${decision.sandbox} (${decision.isolation === 'disk' ? decision.where : `volume ${decision.where}`})`;
  const detail = outcome.detail ? `: ${outcome.detail}` : '';
  const archived = outcome.archived.length ? `; archived to ${outcome.archived.join(', ')}` : '';
  return `${outcome.status} ${what}${detail}${archived}`;
}

async function removeOne(
  decision: Decision,
  sandbox: ScannedSandbox,
  deps: ExecuteDeps,
): Promise<RemovalOutcome> {
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
      return outcome;
    }
  }
  try {
    const activity = currentActivity(sandbox);
    if (
      activity !== undefined &&
      (decision.lastActivityMs === undefined || activity > decision.lastActivityMs)
    ) {
      outcome.detail = 'activity since the scan: kept';
      return outcome;
    }
    if (decision.archive) {
      try {
        outcome.archived = await archiveSandbox(sandbox, decision.archive, deps);
      } catch (error) {
        outcome.detail = `kept: archiving failed (${(error as Error).message})`;
        return outcome;
      }
    }
    const destroyed = sandbox.volume
      ? await removeVolume(sandbox, decision, deps, outcome)
      : await removeFolder(sandbox, deps, outcome);
    if (destroyed && parent && sandbox.entry) {
      const entry = sandbox.entry;
      await withRepositoryLock(parent.gitDir, () => dropEntry(parent.gitDir, entry));
    }
    return outcome;
  } finally {
    await release?.();
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
