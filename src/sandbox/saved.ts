// What is saved, and so what is work, defined once for the post step and the reaper.
//
// A commit is saved when the parent's remote-tracking refs or tags reach it. A local branch of the parent
// is not enough: on a self-hosted runner the parent is the job's checkout, and actions/checkout deletes
// every local branch of a reused workspace at the start of each job, after which the commits are
// unreachable and go at the next gc. The sandbox's own records (`refs/worktree-sandbox/...`) never count:
// they go with the sandbox. A parent with no remote at all has nowhere to push and nobody who deletes its
// branches: there, its local branches count too.
import type { GitCommands } from '../engine/git-commands.js';

export interface SavedRefs {
  /** What `rev-list ... --not` takes: the refs whose commits are saved. */
  revs: readonly string[];
  /** True when the parent has a remote (its local branches then do not count). */
  hasRemote: boolean;
}

/** Unsaved commits, as data: the reason a sandbox is kept carries them, and prints them with `describeUnsaved`. */
export interface UnsavedCommits {
  count: number;
  /** The count is a lower bound (counting stopped at a limit, or the parent lacks some commits named). */
  atLeast?: boolean;
  /** The branch the sandbox is on (`refs/heads/` left off); undefined for a detached HEAD. */
  branch?: string;
  /** Whether the parent has a remote: what the commits are missing from. */
  hasRemote: boolean;
}

/**
 * What saves a commit in every parent, with a remote or without: its remote-tracking refs and tags. A
 * commit these reach is saved whatever the parent's configuration says, so a check may walk from them
 * first and read the configuration only when something is left unsaved (the reaper does: parent-check.ts).
 */
export const ALWAYS_SAVING: readonly string[] = ['--remotes', '--tags'];

/**
 * The parent's saved refs, from its configuration: any `remote.<name>.url` makes it a parent with a
 * remote. The parent is the host's own repository. When its configuration cannot be read, it is taken to
 * have a remote (the stricter answer: its branches do not count).
 */
export async function savedRefs(git: GitCommands, parentPath: string): Promise<SavedRefs> {
  const out = await git.exec(parentPath, ['config', '--get-regexp', '^remote\\..+\\.url$']);
  // `git config --get-regexp` exits 1 when nothing matches; anything else is an answer or a failure.
  const hasRemote = out.exitCode !== 1;
  return { revs: hasRemote ? ALWAYS_SAVING : [...ALWAYS_SAVING, '--branches'], hasRemote };
}

/**
 * Counting commits stops here (`rev-list --count --max-count`): a sandbox's history of millions of commits
 * costs a walk of this many, not of all; a count that reaches it is said as "at least".
 */
export const MAX_COUNTED_COMMITS = 100_000;

/** `rev-list --count` of `revs`, stopped at MAX_COUNTED_COMMITS; undefined when git cannot say. */
export async function countCommits(
  git: GitCommands,
  parentPath: string,
  revs: readonly string[],
  max = MAX_COUNTED_COMMITS,
): Promise<{ count: number; atLeast: boolean } | undefined> {
  const out = await git.exec(parentPath, ['rev-list', '--count', `--max-count=${max}`, ...revs, '--']);
  const count = Number(out.stdout.trim());
  if (out.exitCode !== 0 || !Number.isInteger(count)) return undefined;
  return { count, atLeast: count >= max };
}

/**
 * How many commits `tips` reach that the parent has not saved, in one git process; undefined when git
 * cannot say (the caller counts that as work, never as none); `atLeast` when counting stopped.
 */
export async function countUnsaved(
  git: GitCommands,
  parentPath: string,
  tips: readonly string[],
  saved: SavedRefs,
): Promise<{ count: number; atLeast: boolean } | undefined> {
  if (tips.length === 0) return { count: 0, atLeast: false };
  return countCommits(git, parentPath, [...tips, '--not', ...saved.revs]);
}

/**
 * For a person: `3 commit(s) on branch "feature/x" on no remote`. The branch may come from a sandbox: it is
 * quoted and escaped, never printed raw.
 */
export function describeUnsaved(unsaved: UnsavedCommits): string {
  const count = `${unsaved.atLeast ? 'at least ' : ''}${unsaved.count} commit(s)`;
  const on = unsaved.branch === undefined ? 'a detached HEAD' : `branch ${JSON.stringify(unsaved.branch)}`;
  const missing = unsaved.hasRemote ? 'on no remote' : 'on no branch or tag of the parent';
  return `${count} on ${on} ${missing}`;
}

/** `refs/heads/x` to `x`; anything else (a detached HEAD, another ref) to undefined. */
export function branchOf(headRef: string | undefined): string | undefined {
  return headRef?.startsWith('refs/heads/') ? headRef.slice('refs/heads/'.length) : undefined;
}
