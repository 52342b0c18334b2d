import { summarizeWork, UNSAVED } from './work-finding.js';

describe('summarizeWork', () => {
  it('is clean only when every check ran and found nothing', () => {
    expect(summarizeWork({ uncommitted: { value: 0 }, unsaved: { value: false } })).toEqual({
      state: 'clean',
    });
  });

  it('names each kind of work found', () => {
    expect(summarizeWork({ uncommitted: { value: 3 }, unsaved: { value: true } })).toEqual({
      state: 'work',
      detail: `3 uncommitted file(s), ${UNSAVED}`,
    });
    expect(
      summarizeWork({
        operation: 'a rebase is in progress',
        uncommitted: { value: 0 },
        unsaved: { value: false },
      }),
    ).toEqual({ state: 'work', detail: 'a rebase is in progress' });
  });

  it('never calls a failed check clean', () => {
    expect(summarizeWork({ uncommitted: { error: 'git status failed' }, unsaved: { value: false } })).toEqual(
      {
        state: 'unknown',
        detail: 'git status failed',
      },
    );
    expect(summarizeWork({ uncommitted: { value: 0 }, unsaved: { error: 'no HEAD' } })).toEqual({
      state: 'unknown',
      detail: 'no HEAD',
    });
  });

  it('reports work found even when another check failed', () => {
    expect(summarizeWork({ uncommitted: { value: 1 }, unsaved: { error: 'x' } })).toEqual({
      state: 'work',
      detail: '1 uncommitted file(s)',
    });
  });

  it('names a failure shared by two checks once', () => {
    expect(summarizeWork({ uncommitted: { error: 'no HEAD' }, unsaved: { error: 'no HEAD' } })).toEqual({
      state: 'unknown',
      detail: 'no HEAD',
    });
  });
});
