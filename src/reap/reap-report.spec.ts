import { byInterest, decisionTrace, formatBytes, isReaped, reasonOf, toRecord } from './reap-report.js';
import { decide, type DecisionPolicy, type SandboxFacts } from './decide.js';
import { facts, NOW, policy } from '../../test/support/reap-facts.js';
import { dirty, entry, foreign, partly, removed, result, skipped } from '../../test/support/reap-results.js';

describe('records for the outputs', () => {
  it('have exactly the documented fields', () => {
    expect(toRecord(dirty)).toEqual({
      sandbox: 'feature-x',
      project: 'p-abc123',
      isolation: 'disk',
      kind: 'persistent',
      ageDays: 120,
      reason: 'holds work: 2 uncommitted file(s)',
    });
    expect(toRecord(foreign)).toMatchObject({ kind: 'not-a-sandbox', ageDays: null });
  });

  it('say why a decided removal did not happen or went only part of the way', () => {
    expect(reasonOf(skipped)).toBe('stale and holds no work; not removed: in use: a run holds its lock');
    expect(reasonOf(partly)).toBe(
      'stale and holds no work; 1 entry could not be deleted: /r/p/exploration-00000003/src (EPERM)',
    );
    expect(
      reasonOf(entry('x', { action: 'remove', result: 'would remove', reason: 'stale and holds no work' })),
    ).toBe('dry run: would remove: stale and holds no work');
  });

  it('count a partial removal as reaped and a skipped one as kept', () => {
    expect([removed, partly, skipped, dirty].map(isReaped)).toEqual([true, true, false, false]);
  });

  it('list the most telling entries first: removals, stale ones kept, other entries, then fresh ones', () => {
    const order = byInterest(result.sandboxes).map((s) => s.sandbox);
    expect(order).toEqual([
      'exploration-00000001',
      'exploration-00000003',
      'feature-x',
      'exploration-00000004',
      'junk',
      'exploration-00000002',
    ]);
  });
});

describe('formatBytes', () => {
  it('uses binary units', () => {
    expect(formatBytes(undefined)).toBe('–');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GiB');
  });
});

/** The trace of one entry, decided by the real decide(). */
function trace(f: SandboxFacts, lookedAt: boolean, p: Partial<DecisionPolicy> = {}, dryRun = false): string {
  const [decision] = decide([f], { ...policy, ...p }, NOW);
  return decisionTrace(decision, f, lookedAt, dryRun);
}

describe('decisionTrace', () => {
  it('gives a removal with every fact it was made from', () => {
    const f = facts('exploration-00000001', 40, { work: { state: 'clean' }, sizeBytes: 2048 });
    expect(trace(f, true)).toBe(
      'remove p/exploration-00000001 (/root/p/exploration-00000001); class transient, expiry 30 days; ' +
        '40 day(s) old (last activity 2026-04-22T00:00:00.000Z); in use: no; work: none; size 2.0 KiB; ' +
        'reason: stale and holds no work',
    );
  });

  it('says "would remove" in a dry run', () => {
    const f = facts('exploration-00000001', 40, { work: { state: 'clean' } });
    expect(trace(f, true, {}, true)).toMatch(/^would remove p\/exploration-00000001 \(/);
  });

  it('says what kept a stale sandbox: use, work, or a check that could not run', () => {
    expect(trace(facts('feature-a', 100, { inUse: 'a run holds its lock' }), true)).toContain(
      '; in use: a run holds its lock; work: not checked (in use); reason: in use: a run holds its lock',
    );
    expect(
      trace(facts('feature-b', 100, { work: { state: 'work', detail: '2 uncommitted file(s)' } }), true),
    ).toContain('; in use: no; work: 2 uncommitted file(s); reason: holds work: 2 uncommitted file(s)');
    expect(
      trace(facts('feature-c', 100, { work: { state: 'unknown', detail: 'git status failed' } }), true),
    ).toContain('; work: could not check (git status failed); reason: the check for work could not run');
  });

  it('says that a fresh sandbox was not looked at closer', () => {
    expect(trace(facts('exploration-00000002', 3), false)).toBe(
      'keep p/exploration-00000002 (/root/p/exploration-00000002); class transient, expiry 30 days; ' +
        '3 day(s) old (last activity 2026-05-29T00:00:00.000Z); not stale: in use and work not checked; ' +
        'reason: fresh: 3 of 30 days',
    );
  });

  it('gives orphans, volumes, archives and entries that are not sandboxes', () => {
    const orphan = facts('feature-d', 100, { orphan: 'its parent /x is gone' });
    expect(trace(orphan, true, { archive: true })).toContain(
      '; in use: no; orphan: its parent /x is gone; work: not checkable (no parent); ' +
        'reason: orphan (its parent /x is gone): files archived, then removed; archive: every file',
    );
    const volume = facts('feature-e', 100, {
      isolation: 'container',
      where: 'wts-p-feature-e',
      work: { state: 'work', detail: 'commits on no remote' },
    });
    expect(trace(volume, true, { force: true, archive: true })).toMatch(
      /^remove p\/feature-e \(volume wts-p-feature-e\); class persistent, expiry 90 days; .*; archive: patch and bundle$/,
    );
    const junk = facts('junk', 100, { notSandbox: 'no .git file (not a linked worktree)' });
    expect(trace(junk, false)).toMatch(
      /^keep p\/junk \(\/root\/p\/junk\); class not-a-sandbox; not a sandbox: no \.git file \(not a linked worktree\); reason: not a sandbox/,
    );
  });

  it('is one line whatever the names hold', () => {
    const f = facts('a\n::warning::forged', 3, { where: '/root/p/a\r\n::error::x' });
    const line = trace(f, false);
    expect(line).not.toMatch(/[\n\r]/);
    expect(line).toContain('keep p/a\\n::warning::forged (/root/p/a\\r\\n::error::x)');
  });
});
