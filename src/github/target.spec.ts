import { describe, expect, it } from '@jest/globals';
import type { PullRequestInfo } from './api.js';
import { isFork, needsForkAccessCheck, planBranchTarget, planPullRequestTarget } from './target.js';

const sameRepo: PullRequestInfo = {
  number: 7,
  state: 'open',
  htmlUrl: 'https://github.com/o/r/pull/7',
  headRef: 'feature',
  headSha: 'a'.repeat(40),
  headRepo: 'o/r',
  headCloneUrl: 'https://github.com/o/r.git',
  baseRepo: 'o/r',
  maintainerCanModify: false,
};
const fork: PullRequestInfo = {
  ...sameRepo,
  number: 8,
  headRef: 'main',
  headRepo: 'someone/r',
  headCloneUrl: 'https://github.com/someone/r.git',
  maintainerCanModify: true,
};
const forkFetch = { ref: 'refs/pull/8/head', into: 'refs/remotes/origin/pull/8/head' };

describe('planPullRequestTarget', () => {
  it('works on the head branch of a same-repository pull request and pushes it to origin', () => {
    expect(planPullRequestTarget(sameRepo, true, false)).toEqual({
      branch: 'feature',
      fork: false,
      delivery: { kind: 'origin' },
    });
    expect(planPullRequestTarget(sameRepo, false, false).delivery).toEqual({ kind: 'none' });
    expect(isFork({ headRepo: 'O/R', baseRepo: 'o/r' })).toBe(false);
  });

  it("gives a fork's head a local branch of its own: its name could be any base branch (main)", () => {
    const target = planPullRequestTarget(fork, true, true);
    expect(target).toEqual({
      branch: 'pr-8',
      fetch: forkFetch,
      fork: true,
      delivery: {
        kind: 'fork',
        url: 'https://github.com/someone/r.git',
        branch: 'main',
        repo: 'someone/r',
        trackingRef: forkFetch.into,
      },
    });
  });

  it('saves a patch when the fork cannot be pushed to, and says why', () => {
    const noToken = planPullRequestTarget(fork, true, false).delivery;
    expect(noToken).toMatchObject({ kind: 'patch', reason: /GITHUB_TOKEN never can/ });
    const noEdits = planPullRequestTarget({ ...fork, maintainerCanModify: false }, true, true).delivery;
    expect(noEdits).toMatchObject({ kind: 'patch', reason: /does not allow edits from maintainers/ });
    const deleted = planPullRequestTarget({ ...fork, headRepo: '', headCloneUrl: '' }, true, true);
    expect(deleted).toMatchObject({
      branch: 'pr-8',
      fork: true,
      delivery: { kind: 'patch', reason: /deleted/ },
    });
    expect(planPullRequestTarget(fork, false, true).delivery).toEqual({ kind: 'none' });
  });

  it('asks the API about fork access only when a push could happen', () => {
    expect(needsForkAccessCheck(fork, true)).toBe(true);
    expect(needsForkAccessCheck(fork, false)).toBe(false);
    expect(needsForkAccessCheck({ ...fork, maintainerCanModify: false }, true)).toBe(false);
    expect(needsForkAccessCheck({ ...fork, headRepo: '' }, true)).toBe(false);
    expect(needsForkAccessCheck(sameRepo, true)).toBe(false);
  });
});

describe('planBranchTarget', () => {
  it('works on the pushed branch', () => {
    expect(planBranchTarget('topic', true)).toEqual({
      branch: 'topic',
      fork: false,
      delivery: { kind: 'origin' },
    });
  });
});
