import { describe, expect, it } from '@jest/globals';
import { planBranch, worktreeAddArgs } from './branch.js';

const base = 'a'.repeat(40);
const facts = (branch: string, localExists = false, remoteExists = false) => ({
  branch,
  localExists,
  remoteExists,
  baseCommit: base,
});

describe('planBranch (ADR 0026 protocol)', () => {
  it('no branch: a transient sandbox on a detached HEAD at base', () => {
    const plan = planBranch(facts(''), () => 'exploration-0000abcd');
    expect(plan).toEqual({
      kind: 'transient',
      sandbox: 'exploration-0000abcd',
      branch: '',
      source: 'detached',
      startPoint: base,
    });
  });

  it('an existing local branch is checked out', () => {
    expect(planBranch(facts('fix', true, true))).toMatchObject({
      kind: 'persistent',
      sandbox: 'fix',
      source: 'local',
      startPoint: 'fix',
    });
  });

  it('a branch only on origin becomes a local branch tracking it', () => {
    expect(planBranch(facts('feat/x', false, true))).toMatchObject({
      source: 'remote',
      startPoint: 'origin/feat/x',
    });
  });

  it('a new branch is created from base', () => {
    expect(planBranch(facts('new-work'))).toMatchObject({
      source: 'new',
      startPoint: base,
      branch: 'new-work',
    });
  });
});

describe('worktreeAddArgs', () => {
  it('puts -- before the path and the start point', () => {
    const args = worktreeAddArgs(planBranch(facts('new-work')), '/p/w', false);
    expect(args).toEqual(['worktree', 'add', '--quiet', '--no-track', '-b', 'new-work', '--', '/p/w', base]);
  });

  it('locks volume worktrees as they are added', () => {
    const args = worktreeAddArgs(
      planBranch(facts('', false, false), () => 'exploration-1'),
      '/sandbox/exploration-1',
      true,
    );
    expect(args).toEqual([
      'worktree',
      'add',
      '--quiet',
      '--lock',
      '--detach',
      '--',
      '/sandbox/exploration-1',
      base,
    ]);
  });

  it('tracks the remote branch', () => {
    expect(worktreeAddArgs(planBranch(facts('r', false, true)), '/w', false)).toEqual([
      'worktree',
      'add',
      '--quiet',
      '--track',
      '-b',
      'r',
      '--',
      '/w',
      'origin/r',
    ]);
  });
});
