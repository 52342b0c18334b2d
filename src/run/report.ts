// What a run changed, computed on the host from repositories only the host configures: the parent (for
// commits) and the sandbox's private store (for the snapshot of its work tree). Nothing is read from the
// sandbox itself. File names here came from the sandbox: they are printed fenced or escaped.
import { NO_EXTERNAL_DIFF, type GitCommands } from '../engine/git-commands.js';
import { changedPaths, type ChangedPaths } from './changed-paths.js';
import type { ClearedTrap } from '../sandbox/git-traps.js';
import { countCommits, countUnsaved, savedRefs } from '../sandbox/saved.js';
import type { Imported } from './import.js';
import { thousands } from '../ui/markdown.js';

export interface WorktreeReport {
  headSha: string;
  /** The sandbox's commit as the parent recorded it (its branch tip; HEAD for a transient sandbox). */
  tip: string;
  /** The branch HEAD was on after the command (empty when detached). */
  currentBranch: string;
  /** Commits since the run started (on the sandbox's branch, or HEAD for a transient sandbox). */
  commits: number;
  /** Counting `commits` or `unpushedCommits` stopped at MAX_COUNTED_COMMITS: they are lower bounds. */
  commitsAtLeast?: boolean;
  /**
   * Files changed since the run started, committed or not (untracked included): the first
   * `REPORT_PATH_BOUNDS.maxPaths` of them, in git's order; `changedCount` counts them all.
   */
  changedFiles: string[];
  changedCount: number;
  /** Uncommitted changes left in the sandbox (tracked, or untracked and not ignored): the first ones. */
  uncommitted: string[];
  uncommittedCount: number;
  /** False when counting the uncommitted files stopped at its bounds: then there may be more. */
  uncommittedExact: boolean;
  /** Why a count stopped at its bounds (the counts are then lower bounds). */
  countsStopped?: string;
  /** git's diff stat, or the first paths when too many changed for one; at most STAT_MAX_BYTES. */
  diffStat: string;
  /** Commits of the sandbox that the parent has not saved (src/sandbox/saved.ts: on no remote or tag). */
  unpushedCommits: number;
  /** Set when `push: true` committed the leftovers. */
  committed: boolean;
  /** Stale git locks removed from the sandbox for that commit. */
  staleLocks?: number;
  /** What the capture helper removed from the sandbox's `.git` before its git wrote there. */
  trapsCleared?: ClearedTrap[];
  /** The parent's branch after the import: moved, created, or why not. */
  branchUpdate?: string;
}

/** What deciding whether a sandbox holds work needs of a report (and all the post step keeps of one). */
export type WorkFacts = Pick<WorktreeReport, 'uncommittedCount' | 'uncommittedExact' | 'unpushedCommits'>;

/** Up to this many changed paths, the diff stat is git's (with line counts); above, a list of the first. */
export const STAT_MAX_PATHS = 1_000;
/** The most paths a list in place of a stat names. */
const STAT_LISTED_PATHS = 100;
/** The most bytes of diff stat kept (the job summary, the `diff-stat` output). */
export const STAT_MAX_BYTES = 64 * 1024;

// Bounds (so that nothing a sandbox holds can make the host's git or this process hold it all): the
// changed and uncommitted files are listed (at most 1,000 each) and counted by walking trees
// (changed-paths.ts: at most 64 MiB of trees, one minute); git's own diff runs only for the stat, and only
// when at most STAT_MAX_PATHS paths changed, without rename detection (quadratic) and with files over
// 1 MiB taken as binary (never loaded whole); its output is streamed and cut at STAT_MAX_BYTES.
export async function buildReport(
  git: GitCommands,
  parentPath: string,
  startSha: string,
  imported: Imported,
  capture: { headRef: string; committed: boolean; staleLocks: number; cleared?: ClearedTrap[] },
): Promise<WorktreeReport> {
  const { store, snapshot, head, tip } = imported;
  const changedSinceStart = changedPaths(git, store, startSha, snapshot);
  const [commits, changed, dirty, unpushed] = await Promise.all([
    countCommits(git, parentPath, [`${startSha}..${tip}`]),
    changedSinceStart,
    // With no new commit, what is uncommitted is what changed since the start: one walk answers both
    // (two git processes fewer).
    head === startSha ? changedSinceStart : changedPaths(git, store, head, snapshot),
    savedRefs(git, parentPath).then((saved) => countUnsaved(git, parentPath, [tip], saved)),
  ]);
  if (!commits) throw new Error(`git could not count the commits from ${startSha} to ${tip}`);
  const stopped = changed.stopped ?? dirty.stopped;
  return {
    headSha: head,
    tip,
    currentBranch: capture.headRef.replace(/^refs\/heads\//, ''),
    commits: commits.count,
    ...(commits.atLeast || unpushed?.atLeast ? { commitsAtLeast: true } : {}),
    changedFiles: changed.paths,
    changedCount: changed.count,
    uncommitted: dirty.paths,
    uncommittedCount: dirty.count,
    uncommittedExact: dirty.exact,
    ...(stopped ? { countsStopped: stopped } : {}),
    diffStat: await diffStat(git, store, startSha, snapshot, changed),
    // git could not say: counted as one, so that work is never taken for none
    unpushedCommits: unpushed?.count ?? 1,
    committed: capture.committed,
    staleLocks: capture.staleLocks,
    ...(capture.cleared?.length ? { trapsCleared: capture.cleared } : {}),
    branchUpdate: imported.branchUpdate,
  };
}

/** git's `--stat` for a bounded number of paths; otherwise the first paths and how many were left out. */
async function diffStat(
  git: GitCommands,
  store: string,
  from: string,
  to: string,
  changed: ChangedPaths,
): Promise<string> {
  if (changed.count === 0 && changed.exact) return '';
  if (!changed.exact || changed.count > STAT_MAX_PATHS) return pathsInsteadOfStat(changed);
  const lines: string[] = [];
  let bytes = 0;
  let cut = 0;
  const result = await git.stream(store, ['diff', ...NO_EXTERNAL_DIFF, '--stat=120', from, to, '--'], {
    config: [
      ['diff.renames', 'false'],
      ['core.bigFileThreshold', '1m'],
    ],
    maxLineBytes: 4096,
    onLine: (line, stream) => {
      if (stream !== 'stdout') return;
      if (bytes + line.length + 1 > STAT_MAX_BYTES) cut++;
      else {
        lines.push(line);
        bytes += line.length + 1;
      }
    },
  });
  if (result.exitCode !== 0) return pathsInsteadOfStat(changed);
  if (cut) lines.push(`… ${cut} more line(s) of the stat left out (over ${STAT_MAX_BYTES} bytes)`);
  return lines.join('\n').trimEnd();
}

function pathsInsteadOfStat(changed: ChangedPaths): string {
  const shown = changed.paths.slice(0, STAT_LISTED_PATHS);
  let bytes = 0;
  const lines: string[] = [];
  for (const p of shown) {
    if (bytes + p.length + 2 > STAT_MAX_BYTES / 2) break;
    lines.push(` ${p}`);
    bytes += p.length + 2;
  }
  lines.push(leftOut(changed, lines.length));
  return lines.join('\n');
}

/** "… and 152,600 more paths" for a list that names `shown` of `changed`'s paths. */
export function leftOut(changed: ChangedPaths, shown: number): string {
  const more = changed.count - shown;
  const total = `${changed.exact ? '' : 'at least '}${thousands(changed.count)}`;
  const why = changed.exact ? '' : ` (counting stopped: ${changed.stopped})`;
  return `… and ${changed.exact ? '' : 'at least '}${thousands(more)} more path(s): ${total} changed${why}; no line counts over ${thousands(STAT_MAX_PATHS)} paths`;
}

/**
 * Commits reachable from `tip` and from none of `not` (commits, refs or `--remotes`), in the parent, up to
 * MAX_COUNTED_COMMITS; 1 when git cannot say, so that work is never taken for none.
 */
export async function commitsNotIn(
  git: GitCommands,
  parentPath: string,
  tip: string,
  not: readonly string[],
): Promise<number> {
  return (await countCommits(git, parentPath, [tip, '--not', ...not]))?.count ?? 1;
}

/** Uncommitted files or commits no remote has; a count that stopped at its bounds is taken for work. */
export function holdsWork(report: WorkFacts): boolean {
  return report.uncommittedCount > 0 || !report.uncommittedExact || report.unpushedCommits > 0;
}
