// Where a pull-request run works and where its changes go: a pure decision from what the API says about
// the pull request. A head in the base repository is pushed to; a fork is pushed to only with a token that
// has access to it and when its owner lets maintainers edit; otherwise the changes become a patch.
import type { PullRequestInfo } from './api.js';

export type Delivery =
  /** Same repository: the sandbox branch is pushed to origin under its own name. */
  | { kind: 'origin' }
  /** A fork the token can push to: the sandbox's HEAD goes to the pull request's head branch there. */
  | { kind: 'fork'; url: string; branch: string; repo: string; trackingRef: string }
  /** Nothing is pushed: the changes are committed in the sandbox and saved as a patch. */
  | { kind: 'patch'; reason: string }
  /** `push: false`: nothing leaves the sandbox. */
  | { kind: 'none' };

export interface RunTarget {
  /** The sandbox branch. */
  branch: string;
  /** Fork pull requests: `refs/pull/N/head` is fetched from origin into `into`, the branch starts there. */
  fetch?: { ref: string; into: string };
  fork: boolean;
  delivery: Delivery;
}

export function isFork(pr: Pick<PullRequestInfo, 'headRepo' | 'baseRepo'>): boolean {
  return !pr.headRepo || pr.headRepo.toLowerCase() !== pr.baseRepo.toLowerCase();
}

/** Only then is it worth asking the API whether the token can push to the fork. */
export function needsForkAccessCheck(pr: PullRequestInfo, push: boolean): boolean {
  return push && isFork(pr) && !!pr.headRepo && pr.maintainerCanModify;
}

/** The local name of a fork's branch: its own name could be any branch of the base repository (`main`). */
export function forkBranchName(number: number): string {
  return `pr-${number}`;
}

export function planPullRequestTarget(
  pr: PullRequestInfo,
  push: boolean,
  tokenCanPushFork: boolean,
): RunTarget {
  if (!isFork(pr))
    return { branch: pr.headRef, fork: false, delivery: push ? { kind: 'origin' } : { kind: 'none' } };
  const into = `refs/remotes/origin/pull/${pr.number}/head`;
  const base = {
    branch: forkBranchName(pr.number),
    fetch: { ref: `refs/pull/${pr.number}/head`, into },
    fork: true,
  };
  if (!push) return { ...base, delivery: { kind: 'none' } };
  const patch = (reason: string): RunTarget => ({ ...base, delivery: { kind: 'patch', reason } });
  if (!pr.headRepo) return patch('the fork of this pull request was deleted');
  if (!pr.maintainerCanModify)
    return patch(
      `the pull request comes from the fork ${pr.headRepo}, whose author does not allow edits from maintainers`,
    );
  if (!tokenCanPushFork)
    return patch(
      `the pull request comes from the fork ${pr.headRepo} and the token cannot push there (GITHUB_TOKEN never can: give a personal access token or GitHub App token with access to the fork)`,
    );
  return {
    ...base,
    delivery: {
      kind: 'fork',
      url: pr.headCloneUrl,
      branch: pr.headRef,
      repo: pr.headRepo,
      trackingRef: into,
    },
  };
}

/** A push with no pull request (or one whose head is the pushed branch): the pushed branch itself. */
export function planBranchTarget(branch: string, push: boolean): RunTarget {
  return { branch, fork: false, delivery: push ? { kind: 'origin' } : { kind: 'none' } };
}

/** One line for the debug log: the pull request (same repository or fork) and where the changes go. */
export function describeTarget(pr: PullRequestInfo | undefined, target: RunTarget): string {
  const on = pr
    ? `pull request #${pr.number}, head ${pr.headRepo || 'deleted fork'}:${pr.headRef} at ${pr.headSha.slice(0, 12)}, ${target.fork ? 'a fork' : 'the same repository'}`
    : 'no open pull request';
  const { delivery } = target;
  const to =
    delivery.kind === 'origin'
      ? `push to origin/${target.branch}`
      : delivery.kind === 'fork'
        ? `push to ${delivery.repo}:${delivery.branch}`
        : delivery.kind === 'patch'
          ? `no push, a patch: ${delivery.reason}`
          : 'no push (push: false)';
  return `${on}; sandbox branch ${target.branch}; ${to}`;
}
