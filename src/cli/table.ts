// Plain text tables for a terminal or a log: columns padded to their widest cell, the last one left
// ragged (reasons are long). Cells are made single-line, so one row is always one line.
export function formatTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const clean = (cell: string) => cell.replace(/\s+/g, ' ').trim();
  const all = [headers, ...rows].map((row) => row.map(clean));
  const widths = headers.map((_, i) => Math.max(...all.map((row) => width(row[i] ?? ''))));
  return all
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i] - width(cell))))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Characters as a terminal counts them (code points; the names and reasons here are not East Asian). */
function width(text: string): number {
  return [...text].length;
}

/** Whole days, e.g. `40 d`; `?` when unknown. */
export function formatDays(days: number | undefined | null): string {
  return days === undefined || days === null ? '?' : `${days} d`;
}

/** A UTC date, e.g. `2026-09-01`. */
export function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
