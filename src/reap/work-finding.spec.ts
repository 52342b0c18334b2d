import { summarizeWork } from './work-finding.js';

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
