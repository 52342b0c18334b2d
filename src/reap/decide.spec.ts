import { DAY_MS } from './age.js';
import { assessStaleness, decide, type DecisionPolicy, type SandboxFacts } from './decide.js';
import { DEFAULT_RETENTION } from './retention.js';

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
    work: { state: 'clean' },
    ...extra,
  };
}

const byName = (all: ReturnType<typeof decide>) => Object.fromEntries(all.map((d) => [d.sandbox, d]));

describe('assessStaleness', () => {
  it('applies the matrix: fresh and stale × transient, persistent and orphan', () => {
    const cases: Array<[SandboxFacts, string, boolean]> = [
      [facts('exploration-00000001', 29), 'transient', false],
      [facts('exploration-00000002', 31), 'transient', true],
      [facts('feature-a', 89), 'persistent', false],
      [facts('feature-b', 91), 'persistent', true],
      [facts('exploration-00000003', 60, { orphan: 'parent gone' }), 'orphan', false],
      [facts('feature-c', 91, { orphan: 'parent gone' }), 'orphan', true],
    ];
    for (const [f, cls, stale] of cases) {
      expect(assessStaleness(f, DEFAULT_RETENTION, NOW)).toMatchObject({ class: cls, stale });
    }
  });

  it('gives an orphan the orphan expiry', () => {
    const retention = { ...DEFAULT_RETENTION, orphanExpiryDays: 180 };
    const orphan = facts('feature-c', 120, { orphan: 'parent gone' });
    expect(assessStaleness(orphan, retention, NOW)).toEqual({
      class: 'orphan',
      expiryDays: 180,
      ageDays: 120,
      stale: false,
    });
  });

  it('never calls something that is not a sandbox stale', () => {
    expect(assessStaleness(facts('junk', 1000, { notSandbox: 'no .git' }), DEFAULT_RETENTION, NOW)).toEqual({
      class: 'not-a-sandbox',
      stale: false,
    });
  });
});

describe('decide', () => {
  it('removes only stale sandboxes without work, and says why for each', () => {
    const d = byName(
      decide(
        [
          facts('exploration-aaaaaaaa', 10),
          facts('exploration-bbbbbbbb', 40),
          facts('feature-dirty', 100, { work: { state: 'work', detail: '1 uncommitted file(s)' } }),
          facts('feature-unknown', 100, { work: { state: 'unknown', detail: 'git failed' } }),
          facts('feature-busy', 100, { inUse: 'a run holds its lock' }),
          facts('junk', 400, { notSandbox: 'no .git file' }),
        ],
        policy,
        NOW,
      ),
    );
    expect(d['exploration-aaaaaaaa']).toMatchObject({ action: 'keep', reason: 'fresh: 10 of 30 days' });
    expect(d['exploration-bbbbbbbb']).toMatchObject({ action: 'remove', class: 'transient', ageDays: 40 });
    expect(d['feature-dirty']).toMatchObject({ action: 'keep', reason: 'holds work: 1 uncommitted file(s)' });
    expect(d['feature-unknown'].action).toBe('keep');
    expect(d['feature-busy']).toMatchObject({ action: 'keep', reason: 'in use: a run holds its lock' });
    expect(d['junk']).toMatchObject({ action: 'keep', class: 'not-a-sandbox' });
  });

  it('counts a stale sandbox that was never checked as holding work', () => {
    const [d] = decide([facts('feature-x', 100, { work: undefined })], policy, NOW);
    expect(d.action).toBe('keep');
    expect(d.reason).toContain('could not run');
  });

  it('does not need a work check for an orphan', () => {
    const [d] = decide([facts('feature-x', 100, { orphan: 'parent gone', work: undefined })], policy, NOW);
    expect(d).toMatchObject({ action: 'remove', class: 'orphan' });
  });

  it('keeps an entry whose age is unknown', () => {
    const [d] = decide([facts('feature-x', 0, { lastActivityMs: undefined })], policy, NOW);
    expect(d.action).toBe('keep');
    expect(d.reason).toContain('age unknown');
  });

  it('bounds removals with max-removals, oldest first, the rest waiting for the next run', () => {
    const all = [
      facts('feature-a', 100),
      facts('feature-b', 300),
      facts('feature-c', 200),
      facts('fresh', 1),
    ];
    const d = byName(decide(all, { ...policy, maxRemovals: 2 }, NOW));
    expect(d['feature-b'].action).toBe('remove');
    expect(d['feature-c'].action).toBe('remove');
    expect(d['feature-a']).toMatchObject({ action: 'keep' });
    expect(d['feature-a'].reason).toContain('max-removals (2)');
    expect(d['fresh'].reason).toContain('fresh');
  });

  it('treats max-removals 0 as no limit', () => {
    const all = Array.from({ length: 50 }, (_, i) => facts(`feature-${i}`, 100 + i));
    expect(decide(all, policy, NOW).every((d) => d.action === 'remove')).toBe(true);
  });

  it('carries the archive request of force with archive-dir', () => {
    const [d] = decide(
      [facts('feature-x', 100, { work: { state: 'work', detail: 'commits on no remote' } })],
      { ...policy, force: true, archive: true },
      NOW,
    );
    expect(d).toMatchObject({ action: 'remove', archive: 'work' });
  });
});
