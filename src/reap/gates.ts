// The safety gates: what keeps a stale sandbox, and what must happen before one is removed. Pure: the
// facts come from the checks in work.ts and in-use.ts; every uncertainty arrives here as "keep".

/** What the check for work found. */
export type WorkFinding =
  | { state: 'clean' }
  /** Uncommitted changes, commits on no remote, or an operation (merge, rebase...) in progress. */
  | { state: 'work'; detail: string }
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

export type GateVerdict =
  { remove: false; reason: string } | { remove: true; reason: string; archive?: ArchiveKind };

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
  const held =
    work.state === 'work'
      ? `holds work: ${work.detail}`
      : `the check for work could not run (${work.detail})`;
  if (!options.force) return { remove: false, reason: held };
  return options.archive
    ? { remove: true, reason: `force: ${held}; work archived, then removed`, archive: 'work' }
    : { remove: true, reason: `force: ${held}; removed without archive` };
}
