// The reap's job summary: the chart of everything found, through what became of it, to why, then a table
// of the most telling entries. Pure; the reaper's result in, Markdown out (reap-action.ts writes it).
import {
  byInterest,
  formatBytes,
  type ReapResult,
  type ReapResultKind,
  reapTally,
  reasonOf,
  type ReportedSandbox,
} from '../reap/reap-report.js';
import { tableHead, tableRow } from '../ui/markdown.js';
import { untrustedInline } from '../ui/untrusted-markdown.js';

/** A sandbox's name, project, reason or a warning: may quote a path or a branch from a sandbox. */
const cell = (text: string) => untrustedInline(text, 1_000);

/** One row of the table; the cells that come from a sandbox go through `cell`. */
const row = (s: ReportedSandbox) => [
  cell(s.sandbox || s.where),
  cell(s.project),
  s.isolation === 'disk' ? 'disk' : 'volume',
  s.class,
  `${s.ageDays ?? '?'}`,
  s.result,
  cell(reasonOf(s)),
  formatBytes(s.sizeBytes),
];

/** The job summary: the chart (of every entry), then at most `maxRows` rows (the most telling), the rest counted. */
export function summaryMarkdown(result: ReapResult, maxRows = 2000): string {
  const sorted = byInterest(result.sandboxes);
  const lines = [
    `## worktree-sandbox: reap${result.dryRun ? ' (dry run: nothing removed)' : ''}`,
    '',
    reapChart(result),
    '',
    reapTally(result),
    '',
    tableHead(
      ['Sandbox', 'Project', 'Isolation', 'Class', 'Age (days)', 'Decision', 'Reason', 'Size'],
      [4, 7],
    ),
    ...sorted.slice(0, maxRows).map((s) => tableRow(row(s))),
  ];
  if (sorted.length > maxRows)
    lines.push(
      '',
      `…and ${sorted.length - maxRows} more (fresh) entries, in the \`kept\` output and the log.`,
    );
  if (result.warnings.length) lines.push('', ...result.warnings.map((w) => `> ⚠️ ${cell(w)}`));
  lines.push('', 'Size: disk space taken (measured for stale entries only; – where not measured).');
  return `${lines.join('\n')}\n`;
}

// The reap run at a glance: a Mermaid flowchart (GitHub renders it in the job summary) from everything
// found, through what became of it, to why. Pure. Its labels are our own words and numbers only: a
// sandbox's name, branch or path never reaches Mermaid's syntax, so none can break or forge the chart.
/** Why, in one of our own words: one group per sandbox, so the groups of an outcome add up to it. */
export const REASON_GROUPS = [
  'stale, no work',
  'orphan',
  'forced',
  'in use',
  'uncommitted work',
  'unpushed commits',
  'operation in progress',
  'work not checkable',
  'max-removals reached',
  'active since the scan',
  'error',
  'not stale yet',
  'age unknown',
  'not a sandbox',
  'other',
] as const;

export type ReasonGroup = (typeof REASON_GROUPS)[number];

const OUTCOMES: readonly ReapResultKind[] = ['removed', 'partly removed', 'would remove', 'kept'];

/**
 * The group of a sandbox's reason. A removal decided but not carried out is grouped by what stopped it;
 * otherwise by the decision's reason (the words decide.ts and gates.ts write).
 */
export function reasonGroup(s: ReportedSandbox): ReasonGroup {
  if (s.result === 'kept' && s.action === 'remove') {
    if (/^in use\b/.test(s.detail ?? '')) return 'in use';
    if (/^activity since the scan/.test(s.detail ?? '')) return 'active since the scan';
    return 'error';
  }
  const reason = s.reason;
  if (reason.startsWith('not a sandbox:')) return 'not a sandbox';
  if (reason.startsWith('in use:')) return 'in use';
  if (reason.startsWith('holds work:')) {
    // From the work as data: the reason's words may quote a branch name.
    if (s.held?.uncommitted) return 'uncommitted work';
    if (s.held?.unsaved) return 'unpushed commits';
    return 'operation in progress';
  }
  if (reason.startsWith('the check for work could not run')) return 'work not checkable';
  if (reason.startsWith('orphan (')) return 'orphan';
  if (reason.startsWith('force:')) return 'forced';
  if (reason.startsWith('stale and holds no work')) return 'stale, no work';
  if (reason.startsWith('stale, but max-removals')) return 'max-removals reached';
  if (reason.startsWith('fresh:')) return 'not stale yet';
  if (reason.startsWith('age unknown')) return 'age unknown';
  return 'other';
}

export interface OutcomeCount {
  outcome: ReapResultKind;
  count: number;
  /** Freed (removed, partly removed) or that would be freed (would remove), as far as measured. */
  bytes: number;
  reasons: Array<{ reason: ReasonGroup; count: number }>;
}

/** Counts by outcome, then by reason group, in a fixed order; empty ones left out. */
export function countOutcomes(sandboxes: readonly ReportedSandbox[]): OutcomeCount[] {
  return OUTCOMES.map((outcome) => {
    const these = sandboxes.filter((s) => s.result === outcome);
    const groups = these.map(reasonGroup);
    return {
      outcome,
      count: these.length,
      bytes: these.reduce(
        (sum, s) => sum + (outcome === 'would remove' ? (s.sizeBytes ?? 0) : (s.freedBytes ?? 0)),
        0,
      ),
      reasons: REASON_GROUPS.map((reason) => ({
        reason,
        count: groups.filter((g) => g === reason).length,
      })).filter((r) => r.count > 0),
    };
  }).filter((o) => o.count > 0);
}

const STYLE: Record<ReapResultKind, string> = {
  removed: 'fill:#ffebe9,stroke:#cf222e,color:#1f2328',
  'partly removed': 'fill:#fff1e5,stroke:#bc4c00,color:#1f2328',
  'would remove': 'fill:#fff8c5,stroke:#9a6700,color:#1f2328',
  kept: 'fill:#dafbe1,stroke:#1a7f37,color:#1f2328',
};

function outcomeLabel(o: OutcomeCount): string {
  const freed = o.outcome === 'would remove' ? 'to free' : 'freed';
  return `${o.count} ${o.outcome}${o.bytes > 0 ? ` · ${formatBytes(o.bytes)} ${freed}` : ''}`;
}

/** Labels on one line: renderers wrap at different widths (GitHub's narrower than Mermaid's own). */
const CONFIG = '%%{init: {"flowchart": {"wrappingWidth": 400}}}%%';

/** The chart as a fenced Mermaid block: found, then each outcome, then its reasons, with counts. */
export function reapChart(result: Pick<ReapResult, 'sandboxes'>): string {
  const outcomes = countOutcomes(result.sandboxes);
  const lines = ['```mermaid', CONFIG, 'flowchart LR', `  found["${result.sandboxes.length} found"]`];
  const classes: string[] = [];
  outcomes.forEach((o, i) => {
    const id = `o${i}`;
    lines.push(`  found --> ${id}["${outcomeLabel(o)}"]`);
    const ids = [id];
    o.reasons.forEach((r, j) => {
      lines.push(`  ${id} --> ${id}r${j}["${r.count} ${r.reason}"]`);
      ids.push(`${id}r${j}`);
    });
    const name = o.outcome.replace(/ /g, '_');
    classes.push(`  classDef ${name} ${STYLE[o.outcome]}`, `  class ${ids.join(',')} ${name}`);
  });
  lines.push('  classDef total fill:#ddf4ff,stroke:#0969da,color:#1f2328', '  class found total');
  lines.push(...classes, '```');
  return lines.join('\n');
}
