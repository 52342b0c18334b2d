import { describe, expect, it } from '@jest/globals';
import {
  baseBranch,
  bodyWithMarker,
  openedByThisAction,
  planPullRequest,
  PULL_REQUEST_MARKER,
} from './pull-request.js';

describe('planPullRequest', () => {
  const pushed = { branch: 'feature', pushed: true };

  it('ensures a pull request for a pushed branch, against the base branch or the default one', () => {
    expect(planPullRequest(pushed, '')).toEqual({ action: 'ensure', head: 'feature', base: undefined });
    expect(planPullRequest(pushed, 'refs/heads/release')).toEqual({
      action: 'ensure',
      head: 'feature',
      base: 'release',
    });
  });

  it('reports the pull request the bot worked on instead of opening another', () => {
    const workedOn = { number: 7, htmlUrl: 'https://github.com/o/r/pull/7', body: '' };
    expect(planPullRequest({ ...pushed, workedOn }, '')).toEqual({ action: 'report', pr: workedOn });
  });

  it('skips, saying why, what cannot be proposed', () => {
    expect(planPullRequest({ branch: '', pushed: false }, '')).toMatchObject({
      action: 'skip',
      reason: /transient sandbox/,
    });
    expect(planPullRequest({ branch: 'feature', pushed: false, pushReason: 'no new commits' }, '')).toEqual({
      action: 'skip',
      reason: 'the branch was not pushed (no new commits)',
    });
    expect(planPullRequest({ branch: 'main', pushed: true }, 'main')).toMatchObject({
      action: 'skip',
      reason: /is the base branch itself/,
    });
  });
});

describe('baseBranch', () => {
  it('reads a branch name out of the base input, and leaves commits to the default branch', () => {
    expect(baseBranch('main')).toBe('main');
    expect(baseBranch('origin/release/1.x')).toBe('release/1.x');
    expect(baseBranch('refs/remotes/origin/dev')).toBe('dev');
    expect(baseBranch('')).toBeUndefined();
    expect(baseBranch('HEAD')).toBeUndefined();
    expect(baseBranch('0123abc')).toBeUndefined();
    expect(baseBranch('a'.repeat(40))).toBeUndefined();
  });
});

describe('the marker of pull requests this action opened', () => {
  it('ends the body, and is what tells them apart', () => {
    const body = bodyWithMarker('Made by a bot.\n\n');
    expect(body).toBe(`Made by a bot.\n\n${PULL_REQUEST_MARKER}\n`);
    expect(openedByThisAction({ body })).toBe(true);
    expect(openedByThisAction({ body: 'Written by a person.' })).toBe(false);
  });
});
