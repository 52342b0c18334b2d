import { parseInspection } from './volume-inspection.js';

const mark = (dir: string, section: string) => `\0@@v:${dir}:${section}\0`;
const chunk = [
  { volume: 'a', sandbox: 'exploration-1', checkStatus: true },
  { volume: 'b', sandbox: 'feature', checkStatus: true },
  { volume: 'c', sandbox: 'gone', checkStatus: true },
  { volume: 'd', sandbox: 'orphan', checkStatus: false },
];

describe('parseInspection', () => {
  it('reads size and git status of each volume from the helper output', () => {
    const stdout = [
      mark('/v/0', 'size'),
      '12\n',
      mark('/v/0', 'status'),
      '',
      mark('/v/0', 'rc=0'),
      mark('/v/1', 'size'),
      '40\n',
      mark('/v/1', 'status'),
      ' M README.md\0?? notes.txt\0',
      mark('/v/1', 'rc=0'),
      mark('/v/2', 'size'),
      '4\n',
      mark('/v/2', 'rc=missing'),
      mark('/v/3', 'size'),
      '8\n',
      mark('end', 'end'),
    ].join('');
    const result = parseInspection(stdout, 0, '', chunk);
    expect(result.get('a')).toEqual({ sizeBytes: 12 * 1024, uncommitted: { value: 0 } });
    expect(result.get('b')).toEqual({ sizeBytes: 40 * 1024, uncommitted: { value: 2 } });
    expect(result.get('c')?.uncommitted).toEqual({ error: 'the worktree is missing from its volume' });
    expect(result.get('d')).toEqual({ sizeBytes: 8 * 1024 });
  });

  it('counts a failed git status as a failed check, never as clean', () => {
    const stdout = `${mark('/v/0', 'size')}1\n${mark('/v/0', 'status')}${mark('/v/0', 'rc=128')}${mark('end', 'end')}`;
    expect(parseInspection(stdout, 0, '', chunk.slice(0, 1)).get('a')?.uncommitted).toEqual({
      error: 'git status failed in the volume (exit 128)',
    });
  });

  it('counts a helper that died before reaching a volume as a failed check', () => {
    const result = parseInspection('', 125, 'docker: Error response from daemon: no such image\n', chunk);
    expect(result.get('a')?.uncommitted).toEqual({
      error: 'the helper container failed (exit 125): docker: Error response from daemon: no such image',
    });
    expect(result.get('a')?.sizeBytes).toBeUndefined();
  });
});
