// The action's own structure around what it shows (the job summary, the bot's comments, the outputs):
// tables, collapsed sections, cut notes, bounded JSON. Its inputs come inert (untrusted-markdown.ts). Not
// `core.summary.addTable`/`addDetails`: under cmark-gfm they render otherwise (see the spec).
import { untrustedBlock } from './untrusted-markdown.js';

/** One table line; an empty cell is one space. */
export const tableRow = (cells: readonly string[]) => `|${cells.map((c) => (c ? ` ${c} ` : ' ')).join('|')}|`;

/** A table's head: its cells, then the delimiter row (columns in `right` aligned right). */
export function tableHead(head: readonly string[], right: readonly number[] = []): string {
  return `${tableRow(head)}\n|${head.map((_, i) => (right.includes(i) ? '---:' : '---')).join('|')}|`;
}

/** A whole table, one line a row. */
export function table(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return [tableHead(head), ...rows.map(tableRow)].join('\n');
}

/** A collapsed section: the body (a `<pre>` block too) starts a block of its own after a blank line. */
export function details(summary: string, body: string): string {
  return `<details><summary>${summary}</summary>\n\n${body}\n</details>`;
}

/** Untrusted text as a `<pre>` block of at most `max` characters; `cut` says, after it, how many were left out. */
export function blockWithCut(text: string, max: number, cut: (leftOut: string) => string): string {
  const { markdown, leftOut } = untrustedBlock(text, max);
  return leftOut ? `${markdown}\n\n${cut(thousands(leftOut))}` : markdown;
}

export const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * A whole number as `toLocaleString('en-US')` writes it (12,345), without its cost: the first call loads
 * ICU's number formats, 20–30 ms of a run's step.
 */
export function thousands(n: number): string {
  return Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+$)/g, ',') : n.toLocaleString('en-US');
}

/** A JSON array of the first rows that fit in `maxBytes` (UTF-8, as GitHub bounds an output); `omitted` counts the others. */
export function jsonRows(rows: readonly object[], maxBytes: number): { json: string; omitted: number } {
  const parts: string[] = [];
  let size = 2;
  for (const row of rows) {
    const text = JSON.stringify(row);
    const n = byteLength(text) + (parts.length ? 1 : 0);
    if (size + n > maxBytes) break;
    parts.push(text);
    size += n;
  }
  return { json: `[${parts.join(',')}]`, omitted: rows.length - parts.length };
}
