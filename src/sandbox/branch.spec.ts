import { describe, expect, it } from '@jest/globals';
import { planBranch } from './branch.js';

const base = 'a'.repeat(40);
const facts = (branch: string, localExists = false, remoteExists = false) => ({
  branch,
  localExists,
  remoteExists,
  baseCommit: base,
});

describe('planBranch (the branch resolution protocol)', () => {
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
