import { describe, expect, it } from '@jest/globals';
import { holdsWork, parseInspectOutput } from './report.js';

const mark = (name: string) => `\u0000@@ws:${name}\u0000`;

describe('parseInspectOutput', () => {
  it('reads every section, file names with spaces and newlines included', () => {
    const out = [
      mark('committed'),
      '0\n',
      mark('head'),
      'b'.repeat(40),
      '\n',
      mark('branch'),
      'feat/x\n',
      mark('commits'),
      '2\n',
      mark('status'),
      ' M a file.txt\u0000?? new\nline.txt\u0000R  to.txt\u0000from.txt\u0000',
      mark('names'),
      'a file.txt\u0000b.txt\u0000',
      mark('stat'),
      ' a file.txt | 2 +-\n b.txt | 1 +\n',
      mark('unpushed'),
      '2\n',
      mark('end'),
    ].join('');
    const report = parseInspectOutput(out);
    expect(report).toEqual({
      committed: false,
      headSha: 'b'.repeat(40),
      currentBranch: 'feat/x',
      commits: 2,
      uncommitted: ['a file.txt', 'new\nline.txt', 'to.txt'],
      changedFiles: ['a file.txt', 'b.txt', 'new\nline.txt'],
      diffStat: ' a file.txt | 2 +-\n b.txt | 1 +\n new\nline.txt (new, untracked)',
      unpushedCommits: 2,
    });
    expect(holdsWork(report)).toBe(true);
  });

  it('refuses an incomplete report rather than calling the sandbox clean', () => {
    expect(() => parseInspectOutput(`${mark('head')}abc\n`)).toThrow(/incomplete/);
  });

  it('a clean sandbox holds no work', () => {
    const out = `${mark('committed')}0\n${mark('head')}c\n${mark('branch')}${mark('commits')}0\n${mark('status')}${mark('names')}${mark('stat')}${mark('unpushed')}0\n${mark('end')}`;
    expect(holdsWork(parseInspectOutput(out))).toBe(false);
  });
});
