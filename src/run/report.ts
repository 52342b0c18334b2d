// What a run changed, computed on the host from repositories only the host configures: the parent (for
// commits) and the sandbox's private store (for the snapshot of its work tree). Nothing is read from the
// sandbox itself. File names here came from the sandbox: they are printed fenced or escaped.
import type { Git } from '../engine/git.js';
import { countUnsaved, savedRefs } from '../sandbox/saved.js';
import type { Imported } from './import.js';

export interface WorktreeReport {
  headSha: string;
  /** The sandbox's commit as the parent recorded it (its branch tip; HEAD for a transient sandbox). */
  tip: string;
  /** The branch HEAD was on after the command (empty when detached). */
  currentBranch: string;
  /** Commits since the run started (on the sandbox's branch, or HEAD for a transient sandbox). */
  commits: number;
  /** Files changed since the run started, committed or not (untracked included). */
  changedFiles: string[];
  /** Uncommitted changes left in the sandbox (tracked, or untracked and not ignored). */
  uncommitted: string[];
  diffStat: string;
  /** Commits of the sandbox that the parent has not saved (src/sandbox/saved.ts: on no remote or tag). */
  unpushedCommits: number;
  /** Set when `push: true` committed the leftovers. */
  committed: boolean;
  /** Stale git locks removed from the sandbox for that commit. */
  staleLocks?: number;
  /** The parent's branch after the import: moved, created, or why not. */
  branchUpdate?: string;
}

const NO_EXTERNAL = ['--no-ext-diff', '--no-textconv', '--no-renames'];

export async function buildReport(
  git: Git,
  parentPath: string,
  startSha: string,
  imported: Imported,
  capture: { headRef: string; committed: boolean; staleLocks: number },
): Promise<WorktreeReport> {
  const { store, snapshot, head, tip } = imported;
  const [commits, names, stat, dirty, unpushed] = await Promise.all([
    git.run(parentPath, ['rev-list', '--count', `${startSha}..${tip}`, '--']),
    git.run(store, ['diff', ...NO_EXTERNAL, '--name-only', '-z', startSha, snapshot, '--']),
    git.run(store, ['diff', ...NO_EXTERNAL, '--stat=120', startSha, snapshot, '--']),
    git.run(store, ['diff', ...NO_EXTERNAL, '--name-only', '-z', head, snapshot, '--']),
    savedRefs(git, parentPath).then((saved) => countUnsaved(git, parentPath, [tip], saved)),
  ]);
  const list = (text: string) => text.split('\0').filter(Boolean).sort();
  return {
    headSha: head,
    tip,
    currentBranch: capture.headRef.replace(/^refs\/heads\//, ''),
    commits: Number(commits.trim()) || 0,
    changedFiles: list(names),
    uncommitted: list(dirty),
    diffStat: stat.trimEnd(),
    // git could not say: counted as one, so that work is never taken for none
    unpushedCommits: unpushed ?? 1,
    committed: capture.committed,
    staleLocks: capture.staleLocks,
    branchUpdate: imported.branchUpdate,
  };
}

/**
 * Commits reachable from `tip` and from none of `not` (commits, refs or `--remotes`), in the parent; 1 when
 * git cannot say, so that work is never taken for none.
 */
export async function commitsNotIn(
  git: Git,
  parentPath: string,
  tip: string,
  not: readonly string[],
): Promise<number> {
  const out = await git.exec(parentPath, ['rev-list', '--count', tip, '--not', ...not, '--']);
  return out.exitCode === 0 ? Number(out.stdout.trim()) : 1;
}

export function holdsWork(report: WorktreeReport): boolean {
  return report.uncommitted.length > 0 || report.unpushedCommits > 0;
}
