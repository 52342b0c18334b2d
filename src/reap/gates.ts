// The safety gates: what keeps a stale sandbox, and what must happen before one is removed. Pure: the
// facts come from the checks in work.ts and in-use.ts; every uncertainty arrives here as "keep".

import type { UnsavedCommits } from '../sandbox/saved.js';

/** The work a sandbox holds, as data (the finding's detail says it in words). */
export interface HeldWork {
  /** A merge, rebase... in progress. */
  operation?: string;
  /** Uncommitted files. */
  uncommitted?: number;
  /** Commits the parent has not saved. */
  unsaved?: UnsavedCommits;
}

/** What the check for work found. */
export type WorkFinding =
  | { state: 'clean' }
  /** Uncommitted changes, commits on no remote, or an operation (merge, rebase...) in progress. */
  | { state: 'work'; detail: string; held?: HeldWork }
  /** The parent exists but the check could not run: counted as work, never as clean. */
  | { state: 'unknown'; detail: string }
  /** An orphan: without its parent, git can check nothing. */
  | { state: 'unchecked' };

export interface GateFacts {
  /** Why the entry is not a sandbox (only `<root>/<project>/<sandbox>` with a `.git` file counts). */
  notSandbox?: string;
  /** Why the sandbox is in use: a running container, a process's working directory, a run's lock. */
  inUse?: string;
  /** Why git can check nothing (the parent is gone or unreadable); undefined when the parent is there. */
  orphan?: string;
  work: WorkFinding;
}

export interface GateOptions {
  /** `force: true`: lifts the work gate, never the in-use gate. */
  force: boolean;
  /** `archive-dir` is set: save the work (or an orphan's files) there before removal. */
  archive: boolean;
}

/** `work`: a patch and a bundle of the work; `files`: an archive of every file (orphans). */
export type ArchiveKind = 'work' | 'files';

/** `held`: the work the reason speaks of, when a sandbox is kept (or forced) for its work. */
export type GateVerdict =
  | { remove: false; reason: string; held?: HeldWork }
  | { remove: true; reason: string; archive?: ArchiveKind; held?: HeldWork };

export function applyGates(facts: GateFacts, options: GateOptions): GateVerdict {
  if (facts.notSandbox) return { remove: false, reason: `not a sandbox: ${facts.notSandbox}` };
  if (facts.inUse) return { remove: false, reason: `in use: ${facts.inUse}` };
  const { work } = facts;
  if (work.state === 'unchecked' || facts.orphan) {
    const why = facts.orphan ?? 'its parent repository is gone';
    return options.archive
      ? { remove: true, reason: `orphan (${why}): files archived, then removed`, archive: 'files' }
      : { remove: true, reason: `orphan (${why}): removed after the orphan expiry` };
  }
  if (work.state === 'clean') return { remove: true, reason: 'stale and holds no work' };
  const why =
    work.state === 'work'
      ? `holds work: ${work.detail}`
      : `the check for work could not run (${work.detail})`;
  const held = work.state === 'work' && work.held ? { held: work.held } : {};
  if (!options.force) return { remove: false, reason: why, ...held };
  return options.archive
    ? { remove: true, reason: `force: ${why}; work archived, then removed`, archive: 'work', ...held }
    : { remove: true, reason: `force: ${why}; removed without archive`, ...held };
}
