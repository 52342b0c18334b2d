import { describe, expect, it } from '@jest/globals';
import { checkedBranchName, issueBranch } from './issue-run.js';

describe("an issue run's branches", () => {
  it('names the issue branch from the prefix and the number', () => {
    expect(issueBranch('worktree-sandbox/issue-', 12)).toBe('worktree-sandbox/issue-12');
  });

  it.each(['trunk', 'main', 'release/2.x', 'dev_1'])('takes %j as the default branch', (name) => {
    expect(checkedBranchName(name)).toBe(name);
  });

  it.each([
    '',
    '-upload-pack=x',
    'a..b',
    'a:refs/heads/main',
    '+main',
    'main.lock',
    'main/',
    'a//b',
    'a/.hidden',
    'refs/heads/*',
    'x y',
    42,
    null,
  ])('refuses %j from the API, and asks for base', (name) => {
    expect(() => checkedBranchName(name)).toThrow(/is not a branch name this action uses: set 'base'/);
  });
});
