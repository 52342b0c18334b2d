import * as core from '@actions/core';
import { describe, expect, it } from '@jest/globals';
import { renderGfm } from '../../test/support/cmark.js';
import { blockWithCut, details, jsonRows, table, tableHead, tableRow, thousands } from './markdown.js';
import { untrustedBlock } from './untrusted-markdown.js';

describe('the action’s own Markdown structure', () => {
  it('writes pipe tables that render with a header row, right-aligned columns and empty cells', () => {
    expect(table(['', ''], [['Command', '✅ exit 0']])).toBe('| | |\n|---|---|\n| Command | ✅ exit 0 |');
    expect(tableHead(['Sandbox', 'Size'], [1])).toBe('| Sandbox | Size |\n|---|---:|');
    expect(tableRow(['⛔ "a.test"', '443', 'refused: no', ''])).toBe('| ⛔ "a.test" | 443 | refused: no | |');
    const html = renderGfm(`${tableHead(['Host', 'Size'], [1])}\n${tableRow(['a&#124;b', ''])}\n`);
    expect(html).toContain('<th align="right">Size</th>');
    expect(html).toContain('<td>a|b</td>\n<td align="right"></td>');
  });

  it('keeps a details body a block of its own, so a blank line in untrusted text ends nothing', () => {
    const body = blockWithCut('line\n\n![x](https://e.test/i.png) <b>', 10_000, () => 'unused');
    const html = renderGfm(`${details('Diff stat', body)}\n`);
    expect(html).not.toContain('<img');
    expect(html).toMatch(
      /<pre>\nline\n\n!\[x\]\(https:\/\/e\.test\/i\.png\) &lt;b&gt;\n<\/pre>\n<\/details>/,
    );
    expect(blockWithCut('x'.repeat(50), 10, (n) => `${n} more not shown.`)).toBe(
      `<pre>\n${'x'.repeat(10)}\n</pre>\n\n40 more not shown.`,
    );
  });

  it('is not core.summary: its table has no header row and its details let untrusted text out', () => {
    const theirs = core.summary
      .emptyBuffer()
      .addTable([[{ data: 'Host', header: true }], ['a']])
      .stringify();
    const body = untrustedBlock('x\n\n![i](https://e.test/i.png)', 100).markdown;
    const theirDetails = core.summary.emptyBuffer().addDetails('Diff stat', body).stringify();
    core.summary.emptyBuffer();
    expect(renderGfm(theirs)).not.toContain('<thead>');
    expect(renderGfm(table(['Host'], [['a']]))).toContain('<thead>');
    // A blank line inside the `<pre>` ends their one-line HTML block: the rest renders as Markdown.
    expect(renderGfm(theirDetails)).toContain('<img');
    expect(renderGfm(details('Diff stat', body))).not.toContain('<img');
  });

  it('fits JSON rows to a byte bound, dropping from the end and counting what was dropped', () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({
      sandbox: `exploration-${i}`,
      reason: 'é'.repeat(10),
    }));
    const all = jsonRows(rows, 1_000_000);
    expect(all.omitted).toBe(0);
    expect(JSON.parse(all.json)).toEqual(rows);
    const some = jsonRows(rows, 2_000);
    expect(Buffer.byteLength(some.json)).toBeLessThanOrEqual(2_000);
    expect(Buffer.byteLength(jsonRows(rows, Buffer.byteLength(some.json) + 1).json)).toBe(
      Buffer.byteLength(some.json),
    );
    expect(JSON.parse(some.json)).toEqual(rows.slice(0, 100 - some.omitted));
    expect(some.omitted).toBeGreaterThan(0);
    expect(jsonRows([], 10)).toEqual({ json: '[]', omitted: 0 });
  });

  it('writes whole numbers as toLocaleString(en-US) does, digits grouped by three', () => {
    const numbers = [
      0,
      7,
      999,
      1_000,
      12_345,
      999_999,
      1_000_000,
      1_048_576,
      -1_234,
      Number.MAX_SAFE_INTEGER,
    ];
    for (const n of numbers) expect(thousands(n)).toBe(n.toLocaleString('en-US'));
    expect(thousands(12_345)).toBe('12,345');
    expect(thousands(1.5)).toBe('1.5');
  });
});
