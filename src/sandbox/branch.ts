// The branch resolution protocol (docs/run-mode.md, step 2): which branch the sandbox checks out and where it comes from.
import type { GitCommands } from '../engine/git-commands.js';
import { GitError } from '../engine/git.js';
import { persistentSandboxName, transientSandboxName, type SandboxKind } from './naming.js';
import { withRepositoryLock } from './lock.js';
import type { ParentRepository } from './repository.js';

export type BranchSource = 'local' | 'remote' | 'new' | 'detached';

export interface BranchPlan {
  kind: SandboxKind;
  sandbox: string;
  /** Empty for a transient sandbox (detached HEAD). */
  branch: string;
  source: BranchSource;
  /** What `git worktree add` starts from: a commit for `new`/`detached`, `origin/<branch>` for `remote`. */
  startPoint: string;
}

export interface BranchFacts {
  branch: string;
  localExists: boolean;
  remoteExists: boolean;
  /** The commit `base` names (or the parent's HEAD). */
  baseCommit: string;
}

/** The protocol itself, as a pure decision. */
export function planBranch(
  facts: BranchFacts,
  newTransientName: () => string = transientSandboxName,
): BranchPlan {
  if (!facts.branch) {
    return {
      kind: 'transient',
      sandbox: newTransientName(),
      branch: '',
      source: 'detached',
      startPoint: facts.baseCommit,
    };
  }
  const sandbox = persistentSandboxName(facts.branch);
  if (facts.localExists)
    return { kind: 'persistent', sandbox, branch: facts.branch, source: 'local', startPoint: facts.branch };
  if (facts.remoteExists) {
    return {
      kind: 'persistent',
      sandbox,
      branch: facts.branch,
      source: 'remote',
      startPoint: `origin/${facts.branch}`,
    };
  }
  return { kind: 'persistent', sandbox, branch: facts.branch, source: 'new', startPoint: facts.baseCommit };
}

/** What resolving a branch asks of git. */
type BranchGit = Pick<GitCommands, 'fetchCommit' | 'readRefs' | 'remoteUrl' | 'resolveCommit' | 'run'>;

/**
 * Asks origin for the branch; when it has it, `origin/<branch>` is set to its commit. The wait on the
 * network holds no lock (git.ts `fetchCommit`), so a slow or hung origin holds up this run only, never
 * another run of the same parent; only the ref update takes the repository lock, for a moment. False
 * when origin refuses (no such branch); a remote that does not answer in time fails the run, naming
 * the fetch, rather than start the branch anew beside one origin may have.
 */
async function fetchOriginBranch(git: BranchGit, parent: ParentRepository, branch: string): Promise<boolean> {
  let commit: string;
  try {
    commit = await git.fetchCommit(
      parent.path,
      'origin',
      `refs/heads/${branch}`,
      `asking origin for branch ${JSON.stringify(branch)}`,
    );
  } catch (error) {
    if (error instanceof GitError) return false;
    throw error;
  }
  await withRepositoryLock(parent.gitDir, () =>
    git.run(parent.path, [
      'update-ref',
      '-m',
      'worktree-sandbox: fetched from origin',
      '--',
      `refs/remotes/origin/${branch}`,
      commit,
    ]),
  );
  return true;
}

/** A branch's two refs: the local one, and origin's. */
function branchRefNames(branch: string): [local: string, remote: string] {
  return [`refs/heads/${branch}`, `refs/remotes/origin/${branch}`];
}

/**
 * Gathers the facts from the parent repository (fetching the branch from origin when it is not known
 * yet). Reading refs needs no lock: git replaces each one in one step, and the sandbox is made from what
 * is read again under the lock (create.ts). The parent is the host's alone: no container can write its
 * refs. `head`, when given, is the parent's HEAD commit as just read: the start when `base` is empty.
 */
export async function resolveBranch(
  git: BranchGit,
  parent: ParentRepository & { head?: string },
  branch: string,
  base: string,
): Promise<BranchPlan> {
  const parentPath = parent.path;
  const [local, remote] = branchRefNames(branch);
  // One git process for both branch refs; the base only costs one more when it is named.
  const [baseCommit, refs] = await Promise.all([
    !base && parent.head ? parent.head : git.resolveCommit(parentPath, base || 'HEAD'),
    branch ? git.readRefs(parentPath, [local, remote]) : new Map<string, string>(),
  ]);
  if (!baseCommit)
    throw new Error(`Invalid input 'base': ${JSON.stringify(base)} names no commit in ${parentPath}.`);
  if (!branch) return planBranch({ branch, localExists: false, remoteExists: false, baseCommit });
  const localExists = refs.has(local);
  let remoteExists = false;
  if (!localExists) {
    remoteExists = refs.has(remote);
    // actions/checkout fetches one ref only: ask origin whether the branch exists before creating it anew.
    if (!remoteExists && (await git.remoteUrl(parentPath, 'origin')))
      remoteExists = await fetchOriginBranch(git, parent, branch);
  }
  return planBranch({ branch, localExists, remoteExists, baseCommit });
}
