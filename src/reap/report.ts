// What a reap run tells: the `reaped` and `kept` outputs (JSON arrays of plain records) and the job
// summary (a chart of outcomes and reasons, then a table of every sandbox: class, age, decision, reason,
// size). Pure.
import type { Isolation } from '../settings.js';
import { formatBytes } from './bytes.js';
import { reapChart } from './chart.js';
import type { ReapResult, ReportedSandbox } from './reap.js';

export { formatBytes };

export interface ReapRecord {
  sandbox: string;
  project: string;
  isolation: Isolation;
  /** The retention class: transient, persistent or orphan; `not-a-sandbox` for anything else found. */
  kind: string;
  /** Null when no activity signal could be read. */
  ageDays: number | null;
  reason: string;
}

export function isReaped(s: ReportedSandbox): boolean {
  return s.result === 'removed' || s.result === 'partly removed' || s.result === 'would remove';
}

export function reasonOf(s: ReportedSandbox): string {
  switch (s.result) {
    case 'would remove':
      return `dry run: would remove: ${s.reason}`;
    case 'partly removed':
      return `${s.reason}; ${s.detail}: ${s.problems?.map((p) => `${p.path} (${p.error})`).join(', ')}`;
    case 'removed':
      return s.archived?.length ? `${s.reason} (${s.archived.join(', ')})` : s.reason;
    case 'kept':
      return s.action === 'remove' ? `${s.reason}; not removed: ${s.detail}` : s.reason;
  }
}

export function toRecord(s: ReportedSandbox): ReapRecord {
  return {
    sandbox: s.sandbox,
    project: s.project,
    isolation: s.isolation,
    kind: s.class,
    ageDays: s.ageDays ?? null,
    reason: reasonOf(s),
  };
}

/** The most telling entries first: removals, then stale ones kept, then the rest, oldest first. */
export function byInterest(a: ReportedSandbox, b: ReportedSandbox): number {
  return rank(a) - rank(b) || (b.ageDays ?? -1) - (a.ageDays ?? -1) || a.where.localeCompare(b.where);
}

function rank(s: ReportedSandbox): number {
  if (isReaped(s)) return 0;
  if (s.action === 'remove' || !/^fresh|^age unknown/.test(s.reason))
    return s.class === 'not-a-sandbox' ? 2 : 1;
  return 3;
}

/**
 * A JSON array of the records that fits in `maxBytes` (GitHub keeps outputs to 1 MiB): the most telling
 * first; `omitted` says how many did not fit.
 */
export function jsonWithin(
  records: readonly ReapRecord[],
  maxBytes: number,
): { json: string; omitted: number } {
  const parts: string[] = [];
  let size = 2;
  for (const record of records) {
    const text = JSON.stringify(record);
    if (size + text.length + 1 > maxBytes) break;
    parts.push(text);
    size += text.length + 1;
  }
  return { json: `[${parts.join(',')}]`, omitted: records.length - parts.length };
}

const cell = (text: string) => text.replace(/[|<>]/g, (c) => `&#${c.charCodeAt(0)};`).replace(/\s+/g, ' ');

/** The job summary: the chart (of every entry), then at most `maxRows` rows (the most telling), the rest counted. */
export function summaryMarkdown(result: ReapResult, maxRows = 2000): string {
  const sorted = [...result.sandboxes].sort(byInterest);
  const reaped = sorted.filter(isReaped);
  const lines = [
    `## worktree-sandbox: reap${result.dryRun ? ' (dry run: nothing removed)' : ''}`,
    '',
    reapChart(result),
    '',
    `${result.stats.found} found, ${result.stats.stale} stale, ` +
      `${reaped.length} ${result.dryRun ? 'would be removed' : 'removed'}, ${sorted.length - reaped.length} kept; ` +
      `${formatBytes(result.freedBytes)} ${result.dryRun ? 'would be freed' : 'freed'}.`,
    '',
    '| Sandbox | Project | Isolation | Class | Age (days) | Decision | Reason | Size |',
    '|---|---|---|---|---:|---|---|---:|',
  ];
  for (const s of sorted.slice(0, maxRows)) {
    lines.push(
      `| ${cell(s.sandbox || s.where)} | ${cell(s.project)} | ${s.isolation === 'disk' ? 'disk' : 'volume'} | ${s.class} | ${s.ageDays ?? '?'} | ${s.result} | ${cell(reasonOf(s))} | ${formatBytes(s.sizeBytes)} |`,
    );
  }
  if (sorted.length > maxRows)
    lines.push(
      '',
      `…and ${sorted.length - maxRows} more (fresh) entries, in the \`kept\` output and the log.`,
    );
  if (result.warnings.length) lines.push('', ...result.warnings.map((w) => `> ⚠️ ${cell(w)}`));
  lines.push('', 'Size: disk space taken (measured for stale entries only; – where not measured).');
  return `${lines.join('\n')}\n`;
}
