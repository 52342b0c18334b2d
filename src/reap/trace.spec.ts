import { DAY_MS } from './age.js';
import { decide, type DecisionPolicy, type SandboxFacts } from './decide.js';
import { DEFAULT_RETENTION } from './retention.js';
import { decisionTrace } from './trace.js';

const NOW = Date.UTC(2026, 5, 1);
const policy: DecisionPolicy = { retention: DEFAULT_RETENTION, force: false, archive: false, maxRemovals: 0 };

function facts(sandbox: string, days: number, extra: Partial<SandboxFacts> = {}): SandboxFacts {
  return {
    key: `disk:/root/p/${sandbox}`,
    sandbox,
    project: 'p',
    isolation: 'disk',
    where: `/root/p/${sandbox}`,
    lastActivityMs: NOW - days * DAY_MS,
    ...extra,
  };
}

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
