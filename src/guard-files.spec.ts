import { diffStates, type FileRecord } from './guard-files.js';

describe('diffStates', () => {
  const file = (path: string, sha256: string, mode = 0o644): FileRecord => ({
    path,
    kind: 'file',
    sha256,
    mode,
  });
  test('added, removed, changed (content, mode, kind); unchanged paths are left out', () => {
    const before: FileRecord[] = [
      { path: '/g/hooks', kind: 'dir', mode: 0o755 },
      file('/g/hooks/a', '1'),
      file('/g/hooks/b', '2'),
      file('/g/hooks/c', '3'),
      file('/g/config', '4'),
      { path: '/g/info/attributes', kind: 'absent' },
    ];
    const after: FileRecord[] = [
      { path: '/g/hooks', kind: 'dir', mode: 0o755 },
      file('/g/hooks/a', '1'),
      file('/g/hooks/b', '2', 0o755),
      { path: '/g/hooks/c', kind: 'symlink', target: '/etc/passwd' },
      file('/g/hooks/new', '5'),
      file('/g/config', '6'),
      file('/g/info/attributes', '7'),
    ];
    expect(diffStates(before, after).map((c) => [c.path, c.change])).toEqual([
      ['/g/config', 'changed'],
      ['/g/hooks/b', 'changed'],
      ['/g/hooks/c', 'changed'],
      ['/g/hooks/new', 'added'],
      ['/g/info/attributes', 'added'],
    ]);
    expect(diffStates(after, before).find((c) => c.path === '/g/hooks/new')?.change).toBe('removed');
  });
});
