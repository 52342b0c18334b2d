import { formatDate, formatDays, formatTable } from './table.js';

describe('formatTable', () => {
  it('pads every column but the last to its widest cell', () => {
    expect(
      formatTable(
        ['NAME', 'STATE', 'DETAIL'],
        [
          ['exploration-00000001', 'clean', 'fresh: 3 of 30 days'],
          ['x', 'holds work', 'holds work: 1 uncommitted file(s)'],
        ],
      ),
    ).toBe(
      [
        'NAME                  STATE       DETAIL',
        'exploration-00000001  clean       fresh: 3 of 30 days',
        'x                     holds work  holds work: 1 uncommitted file(s)',
      ].join('\n'),
    );
  });

  it('keeps one row on one line, and trailing blanks out', () => {
    expect(formatTable(['A', 'B'], [['multi\nline', '']])).toBe('A           B\nmulti line');
  });
});

describe('formats', () => {
  it('days and dates', () => {
    expect(formatDays(40)).toBe('40 d');
    expect(formatDays(undefined)).toBe('?');
    expect(formatDays(null)).toBe('?');
    expect(formatDate(Date.UTC(2026, 8, 1, 23, 59))).toBe('2026-09-01');
  });
});
