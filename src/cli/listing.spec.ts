import { DAY_MS } from '../reap/retention.js';
import { decide, type SandboxFacts } from '../reap/decide.js';
import { removalOutlook, sandboxState } from './listing.js';
import { facts, NOW, policy } from '../../test/support/reap-facts.js';

function outlook(f: SandboxFacts) {
  const [decision] = decide([f], policy, NOW);
  return removalOutlook(f, decision, policy, NOW);
}

describe('sandboxState', () => {
  it('in use before orphan before work, and a failed check shown as work', () => {
    expect(sandboxState(facts('a', 1))).toEqual({ state: 'clean' });
    expect(sandboxState(facts('a', 1, { work: { state: 'work', detail: '2 uncommitted file(s)' } }))).toEqual(
      {
        state: 'holds work',
        detail: '2 uncommitted file(s)',
      },
    );
    expect(sandboxState(facts('a', 1, { work: { state: 'unknown', detail: 'git status failed' } }))).toEqual({
      state: 'holds work',
      detail: 'the check for work could not run (git status failed)',
    });
    expect(sandboxState(facts('a', 1, { work: undefined }))).toEqual({
      state: 'holds work',
      detail: 'the check for work could not run (it was not checked)',
    });
    expect(
      sandboxState(facts('a', 1, { orphan: 'its parent repository /r is gone', work: undefined })),
    ).toEqual({
      state: 'orphan',
      detail: 'its parent repository /r is gone',
    });
    expect(
      sandboxState(
        facts('a', 1, {
          orphan: 'gone',
          inUse: 'a run holds its lock',
          work: { state: 'work', detail: 'x' },
        }),
      ),
    ).toEqual({ state: 'in use', detail: 'a run holds its lock' });
    expect(sandboxState(facts('a', 1, { notSandbox: 'no .git file' }))).toEqual({
      state: 'not a sandbox',
      detail: 'no .git file',
    });
  });
});

describe('removalOutlook', () => {
  it('stale and clean: the next reap', () => {
    expect(outlook(facts('exploration-00000001', 31))).toEqual({
      when: 'next reap',
      reason: 'stale and holds no work',
    });
  });

  it('fresh and clean: once its class expiry has passed since its last activity', () => {
    const transient = outlook(facts('exploration-00000001', 10));
    expect(transient).toMatchObject({ when: 'after', afterMs: NOW + 20 * DAY_MS });
    expect(transient.reason).toBe('fresh: 10 of 30 days; removed then if unused and without work');
    expect(outlook(facts('feature-x', 10))).toMatchObject({ when: 'after', afterMs: NOW + 80 * DAY_MS });
  });

  it('a fresh orphan: after the orphan expiry, whatever it holds (its work cannot be checked)', () => {
    const o = outlook(facts('exploration-00000001', 10, { orphan: 'gone', work: undefined }));
    expect(o).toMatchObject({ when: 'after', afterMs: NOW + 80 * DAY_MS });
    expect(o.reason).toContain("an orphan's work cannot be checked");
  });

  it('work or use keeps it, fresh or stale, for as long as that holds', () => {
    const work = { state: 'work', detail: 'commits on no remote' } as const;
    expect(outlook(facts('feature-x', 10, { work }))).toEqual({
      when: 'kept',
      reason: 'holds work: commits on no remote',
    });
    expect(outlook(facts('feature-x', 100, { work }))).toEqual({
      when: 'kept',
      reason: 'holds work: commits on no remote',
    });
    expect(outlook(facts('exploration-00000001', 5, { inUse: 'a run holds its lock' }))).toEqual({
      when: 'kept',
      reason: 'in use: a run holds its lock',
    });
  });

  it('an unknown age is kept; what is not a sandbox is never removed', () => {
    expect(outlook(facts('exploration-00000001', undefined))).toEqual({
      when: 'kept',
      reason: 'age unknown (no activity signal could be read): kept',
    });
    expect(outlook(facts('junk', 400, { notSandbox: 'no .git file' }))).toEqual({
      when: 'never',
      reason: 'not a sandbox: no .git file',
    });
  });
});
