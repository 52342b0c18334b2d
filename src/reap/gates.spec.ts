import { applyGates, type GateFacts, type GateOptions } from './gates.js';

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
