import { DEFAULT_RETENTION } from './retention.js';
import {
  applyGates,
  assessStaleness,
  decide,
  type GateFacts,
  type GateOptions,
  type SandboxFacts,
  summarizeWork,
} from './decide.js';
import { facts, NOW, policy } from '../../test/support/reap-facts.js';

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

const plain: GateOptions = { force: false, archive: false };
const clean: GateFacts = { work: { state: 'clean' } };
const dirty: GateFacts = { work: { state: 'work', detail: '2 uncommitted file(s)' } };
const unknown: GateFacts = { work: { state: 'unknown', detail: 'git status failed' } };
const orphan: GateFacts = { orphan: 'parent /x is gone', work: { state: 'unchecked' } };

describe('applyGates', () => {
  it('removes a stale sandbox that holds no work', () => {
    expect(applyGates(clean, plain)).toEqual({ remove: true, reason: 'stale and holds no work' });
  });

  it('keeps a sandbox that holds work, saying what work', () => {
    expect(applyGates(dirty, plain)).toEqual({ remove: false, reason: 'holds work: 2 uncommitted file(s)' });
  });

  it('carries the unsaved commits that keep a sandbox as data, kept or forced', () => {
    const unsaved = { count: 3, branch: 'feature/x', hasRemote: true };
    const work: GateFacts = {
      work: { state: 'work', detail: '3 commit(s) on branch "feature/x" on no remote', held: { unsaved } },
    };
    expect(applyGates(work, plain)).toEqual({
      remove: false,
      reason: 'holds work: 3 commit(s) on branch "feature/x" on no remote',
      held: { unsaved },
    });
    expect(applyGates(work, { force: true, archive: true })).toMatchObject({
      remove: true,
      archive: 'work',
      held: { unsaved },
    });
  });

  it('keeps a sandbox whose check could not run: never counted as clean', () => {
    const verdict = applyGates(unknown, plain);
    expect(verdict.remove).toBe(false);
    expect(verdict.reason).toContain('could not run (git status failed)');
  });

  it('keeps a sandbox in use, even with force', () => {
    for (const options of [plain, { force: true, archive: true }]) {
      const verdict = applyGates({ ...clean, inUse: 'container bot-1 mounts it' }, options);
      expect(verdict).toEqual({ remove: false, reason: 'in use: container bot-1 mounts it' });
    }
  });

  it('keeps an orphan that is in use', () => {
    expect(applyGates({ ...orphan, inUse: 'a run holds its lock' }, plain).remove).toBe(false);
  });

  it('never removes what is not a sandbox, even with force', () => {
    const verdict = applyGates({ ...clean, notSandbox: '.git is a folder' }, { force: true, archive: true });
    expect(verdict).toEqual({ remove: false, reason: 'not a sandbox: .git is a folder' });
  });

  it('lets force lift the work gate, archiving first when archive-dir is set', () => {
    expect(applyGates(dirty, { force: true, archive: false })).toMatchObject({ remove: true });
    expect(applyGates(dirty, { force: true, archive: false })).not.toHaveProperty('archive');
    expect(applyGates(dirty, { force: true, archive: true })).toMatchObject({
      remove: true,
      archive: 'work',
    });
    expect(applyGates(unknown, { force: true, archive: true })).toMatchObject({
      remove: true,
      archive: 'work',
    });
  });

  it('does not archive a clean sandbox', () => {
    expect(applyGates(clean, { force: true, archive: true })).not.toHaveProperty('archive');
  });

  it('removes an orphan past its expiry: the expiry is its safety margin', () => {
    const verdict = applyGates(orphan, plain);
    expect(verdict.remove).toBe(true);
    expect(verdict.reason).toContain('parent /x is gone');
  });

  it("archives an orphan's files first when archive-dir is set", () => {
    expect(applyGates(orphan, { force: false, archive: true })).toMatchObject({
      remove: true,
      archive: 'files',
    });
  });
});

const none = { value: undefined };
const three = { count: 3, branch: 'feature/x', hasRemote: true };

describe('summarizeWork', () => {
  it('is clean only when every check ran and found nothing', () => {
    expect(summarizeWork({ uncommitted: { value: 0 }, unsaved: none })).toEqual({
      state: 'clean',
    });
  });

  it('names each kind of work found, and carries it as data', () => {
    expect(summarizeWork({ uncommitted: { value: 3 }, unsaved: { value: three } })).toEqual({
      state: 'work',
      detail: '3 uncommitted file(s), 3 commit(s) on branch "feature/x" on no remote',
      held: { uncommitted: 3, unsaved: three },
    });
    expect(
      summarizeWork({
        operation: 'a rebase is in progress',
        uncommitted: { value: 0 },
        unsaved: none,
      }),
    ).toEqual({
      state: 'work',
      detail: 'a rebase is in progress',
      held: { operation: 'a rebase is in progress' },
    });
  });

  it('says where unsaved commits are missing from, for a parent with and without a remote', () => {
    const detached = { count: 1, hasRemote: false };
    expect(summarizeWork({ uncommitted: { value: 0 }, unsaved: { value: detached } })).toMatchObject({
      detail: '1 commit(s) on a detached HEAD on no branch or tag of the parent',
    });
    const bound = { count: 10_000, atLeast: true, branch: 'b"\r\nx', hasRemote: true };
    expect(summarizeWork({ uncommitted: { value: 0 }, unsaved: { value: bound } })).toMatchObject({
      // a branch name read from a sandbox is quoted and escaped: no raw line break reaches the log
      detail: 'at least 10000 commit(s) on branch "b\\"\\r\\nx" on no remote',
    });
  });

  it('never calls a failed check clean', () => {
    expect(summarizeWork({ uncommitted: { error: 'git status failed' }, unsaved: none })).toEqual({
      state: 'unknown',
      detail: 'git status failed',
    });
    expect(summarizeWork({ uncommitted: { value: 0 }, unsaved: { error: 'no HEAD' } })).toEqual({
      state: 'unknown',
      detail: 'no HEAD',
    });
  });

  it('reports work found even when another check failed', () => {
    expect(summarizeWork({ uncommitted: { value: 1 }, unsaved: { error: 'x' } })).toEqual({
      state: 'work',
      detail: '1 uncommitted file(s)',
      held: { uncommitted: 1 },
    });
  });

  it('names a failure shared by two checks once', () => {
    expect(summarizeWork({ uncommitted: { error: 'no HEAD' }, unsaved: { error: 'no HEAD' } })).toEqual({
      state: 'unknown',
      detail: 'no HEAD',
    });
  });
});
