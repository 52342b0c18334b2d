import { planRefFixes, describeRefFix, DISPLACED_NAMESPACE } from './guard-refs.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);

describe('planRefFixes', () => {
  const before = [
    { name: 'refs/heads/main', value: A },
    { name: 'refs/heads/feature', value: A },
    { name: 'refs/heads/other', value: A },
    { name: 'refs/remotes/origin/HEAD', value: 'ref: refs/remotes/origin/main' },
    { name: 'refs/remotes/origin/main', value: A },
  ];

  test('the own branch may move or be created; anything else is undone', () => {
    const after = [
      { name: 'refs/heads/main', value: B },
      { name: 'refs/heads/feature', value: C },
      { name: 'refs/heads/other', value: A },
      { name: 'refs/remotes/origin/HEAD', value: 'ref: refs/remotes/origin/evil' },
      { name: 'refs/remotes/origin/main', value: A },
      { name: 'refs/remotes/origin/feature', value: C },
      { name: 'refs/tags/v1', value: B },
    ];
    expect(planRefFixes(before, after, { ownBranch: 'feature', branchesInUse: [] })).toEqual([
      { name: 'refs/heads/main', restore: A, displaced: B },
      {
        name: 'refs/remotes/origin/HEAD',
        restore: 'ref: refs/remotes/origin/main',
        displaced: 'ref: refs/remotes/origin/evil',
      },
      { name: 'refs/remotes/origin/feature', restore: undefined, displaced: C },
      { name: 'refs/tags/v1', restore: undefined, displaced: B },
    ]);
  });

  test('deleting the own branch or another branch is undone', () => {
    const after = before.filter((r) => r.name !== 'refs/heads/feature' && r.name !== 'refs/heads/other');
    expect(planRefFixes(before, after, { ownBranch: 'feature', branchesInUse: [] })).toEqual([
      { name: 'refs/heads/feature', restore: A, displaced: undefined },
      { name: 'refs/heads/other', restore: A, displaced: undefined },
    ]);
  });

  test('a transient sandbox owns no branch', () => {
    const after = [...before, { name: 'refs/heads/new', value: B }];
    expect(planRefFixes(before, after, { ownBranch: '', branchesInUse: [] })).toEqual([
      { name: 'refs/heads/new', restore: undefined, displaced: B },
    ]);
  });

  test('branches of sandboxes in use by other runs are theirs; new displaced refs are ours', () => {
    const after = [
      ...before.map((r) => (r.name === 'refs/heads/other' ? { ...r, value: B } : r)),
      { name: 'refs/remotes/origin/other', value: B },
      { name: `${DISPLACED_NAMESPACE}x/refs/heads/main`, value: B },
    ];
    expect(planRefFixes(before, after, { ownBranch: 'feature', branchesInUse: ['other'] })).toEqual([]);
  });

  test('descriptions say what happened and where the commit is kept', () => {
    expect(describeRefFix({ name: 'refs/heads/main', restore: A, displaced: B }, 'refs/x')).toBe(
      `ref refs/heads/main was moved from ${A.slice(0, 12)} to ${B.slice(0, 12)}: restored; what it pointed at is kept as refs/x`,
    );
    expect(describeRefFix({ name: 'refs/tags/t', restore: undefined, displaced: B })).toBe(
      `ref refs/tags/t was created (${B.slice(0, 12)}): deleted`,
    );
    expect(describeRefFix({ name: 'refs/heads/o', restore: A, displaced: undefined })).toBe(
      `ref refs/heads/o was deleted: restored at ${A.slice(0, 12)}`,
    );
  });
});
