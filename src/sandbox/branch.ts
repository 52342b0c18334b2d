// ADR 0026's branch resolution protocol: which branch the sandbox checks out and where it comes from.
import type { Git } from '../engine/git.js';
import { persistentSandboxName, transientSandboxName, type SandboxKind } from './naming.js';
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

/**
 * Gathers the facts from the parent repository (fetching the branch from origin when it is not known yet).
 * Call it holding the repository lock. The parent is the host's alone: no container can write its refs.
 */
export async function resolveBranch(
  git: Git,
  parent: ParentRepository,
  branch: string,
  base: string,
): Promise<BranchPlan> {
  const parentPath = parent.path;
  const [baseCommit, localExists] = await Promise.all([
    git.resolveCommit(parentPath, base || 'HEAD'),
    branch ? git.refExists(parentPath, `refs/heads/${branch}`) : false,
  ]);
  if (!baseCommit)
    throw new Error(`Invalid input 'base': ${JSON.stringify(base)} names no commit in ${parentPath}.`);
  if (!branch) return planBranch({ branch, localExists: false, remoteExists: false, baseCommit });
  let remoteExists = false;
  if (!localExists) {
    remoteExists = await git.refExists(parentPath, `refs/remotes/origin/${branch}`);
    // actions/checkout fetches one ref only: ask origin whether the branch exists before creating it anew.
    if (!remoteExists && (await git.remoteUrl(parentPath, 'origin'))) {
      remoteExists = await git.tryFetchBranch(parentPath, 'origin', branch);
    }
  }
  return planBranch({ branch, localExists, remoteExists, baseCommit });
}
