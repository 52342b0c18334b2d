import { countPorcelainEntries, summarizeWork } from './work-finding.js';

describe('summarizeWork', () => {
  it('is clean only when every check ran and found nothing', () => {
    expect(summarizeWork({ uncommitted: { value: 0 }, unpushed: { value: false } })).toEqual({
      state: 'clean',
    });
  });

  it('names each kind of work found', () => {
    expect(summarizeWork({ uncommitted: { value: 3 }, unpushed: { value: true } })).toEqual({
      state: 'work',
      detail: '3 uncommitted file(s), commits on no remote',
    });
    expect(
      summarizeWork({
        operation: 'a rebase is in progress',
        uncommitted: { value: 0 },
        unpushed: { value: false },
      }),
    ).toEqual({ state: 'work', detail: 'a rebase is in progress' });
  });

  it('never calls a failed check clean', () => {
    expect(
      summarizeWork({ uncommitted: { error: 'git status failed' }, unpushed: { value: false } }),
    ).toEqual({
      state: 'unknown',
      detail: 'git status failed',
    });
    expect(summarizeWork({ uncommitted: { value: 0 }, unpushed: { error: 'no HEAD' } })).toEqual({
      state: 'unknown',
      detail: 'no HEAD',
    });
  });

  it('reports work found even when another check failed', () => {
    expect(summarizeWork({ uncommitted: { value: 1 }, unpushed: { error: 'x' } })).toEqual({
      state: 'work',
      detail: '1 uncommitted file(s)',
    });
  });
});

describe('countPorcelainEntries', () => {
  it('counts modified, untracked and renamed entries', () => {
    expect(countPorcelainEntries('')).toBe(0);
    expect(countPorcelainEntries(' M a.txt\0?? new file\0')).toBe(2);
    expect(countPorcelainEntries('R  new.txt\0old.txt\0 M b\0')).toBe(2);
  });
});
