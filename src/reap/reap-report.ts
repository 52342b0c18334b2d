// What a reap run tells: the `reaped` and `kept` outputs (JSON arrays of plain records) and the job
// summary (a chart of outcomes and reasons, then a table of every sandbox: class, age, decision, reason,
// size). Pure.
import type { Isolation } from '../settings/settings.js';
import { sandboxText } from '../ui/sandbox-text.js';
import type { Decision, SandboxFacts } from './decide.js';
import type { RemovalProblem } from './remove-tree.js';

export type RemovalStatus = 'removed' | 'partly removed' | 'not removed' | 'skipped';

export interface RemovalOutcome {
  status: RemovalStatus;
  /** Why it was skipped or not removed. */
  detail?: string;
  freedBytes: number;
  archived: string[];
  /** Entries that could not be deleted (disk). */
  problems: RemovalProblem[];
}

export type ReapResultKind = 'removed' | 'partly removed' | 'would remove' | 'kept';

export interface ReportedSandbox extends Decision {
  result: ReapResultKind;
  /** Why a removal did not happen or went only part of the way. */
  detail?: string;
  freedBytes?: number;
  archived?: string[];
  problems?: Array<{ path: string; error: string }>;
  /** Its removal was decided but failed (detail says why): it is kept, and the others went on. */
  failed?: boolean;
}

export interface ReapStats {
  found: number;
  stale: number;
  /** Stale disk sandboxes proved clean by the filesystem alone (no git process). */
  provedByFilesystem: number;
}

export interface ReapResult {
  dryRun: boolean;
  sandboxes: ReportedSandbox[];
  /** Bytes freed (in a dry run: that a real run would free, as far as measured). */
  freedBytes: number;
  warnings: string[];
  stats: ReapStats;
}

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

/** `localeCompare`'s order, with the collator made once. */
const collator = new Intl.Collator();

/**
 * The most telling entries first: removals, then stale ones kept, then the rest, oldest first (a copy).
 * Each entry's rank is worked out once, not at every comparison: a reap lists thousands.
 */
export function byInterest(sandboxes: readonly ReportedSandbox[]): ReportedSandbox[] {
  return sandboxes
    .map((s) => ({ s, rank: rank(s), age: s.ageDays ?? -1 }))
    .sort((a, b) => a.rank - b.rank || b.age - a.age || collator.compare(a.s.where, b.s.where))
    .map(({ s }) => s);
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
  const sorted = byInterest(result.sandboxes);
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

// The reaper's log lines: each decision with every fact it was made from, for a debug log, and text from
// the disk made safe to print. Pure.
/** The longest debug line of one decision (its facts include text from the disk). */
const TRACE_MAX = 8_000;

/**
 * One line for the debug log: a decision and every fact it was made from. `lookedAt`: the entry was
 * stale, so whether it is in use and holds work was checked; `dryRun`: a removal is only reported.
 */
export function decisionTrace(d: Decision, facts: SandboxFacts, lookedAt: boolean, dryRun = false): string {
  const verb = d.action === 'remove' ? (dryRun ? 'would remove' : 'remove') : 'keep';
  const parts = [
    `${verb} ${d.project}/${d.sandbox} (${d.isolation === 'disk' ? d.where : `volume ${d.where}`})`,
    `class ${d.class}${d.expiryDays === undefined ? '' : `, expiry ${d.expiryDays} days`}`,
    ...checked(d, facts, lookedAt),
  ];
  if (facts.sizeBytes !== undefined) parts.push(`size ${formatBytes(facts.sizeBytes)}`);
  parts.push(`reason: ${d.reason}`);
  if (d.archive) parts.push(`archive: ${d.archive === 'work' ? 'patch and bundle' : 'every file'}`);
  // Folder names, helper errors and work details came from the disk: one escaped line, bounded.
  return sandboxText(parts.join('; '), TRACE_MAX);
}

/** What was looked at: nothing but sandboxes has an age, and only stale ones are looked at closer. */
function checked(d: Decision, facts: SandboxFacts, lookedAt: boolean): string[] {
  if (facts.notSandbox) return [`not a sandbox: ${facts.notSandbox}`];
  const age =
    d.ageDays === undefined
      ? 'age unknown (no activity signal)'
      : `${d.ageDays} day(s) old (last activity ${new Date(d.lastActivityMs!).toISOString()})`;
  if (!lookedAt) return [age, 'not stale: in use and work not checked'];
  return [
    age,
    `in use: ${facts.inUse ?? 'no'}`,
    ...(facts.orphan ? [`orphan: ${facts.orphan}`] : []),
    `work: ${workText(facts)}`,
  ];
}

function workText(facts: SandboxFacts): string {
  if (facts.inUse) return 'not checked (in use)';
  if (facts.orphan) return 'not checkable (no parent)';
  const work = facts.work;
  if (!work) return 'not checked';
  if (work.state === 'clean') return 'none';
  if (work.state === 'work') return work.detail;
  if (work.state === 'unknown') return `could not check (${work.detail})`;
  return 'not checkable';
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

// Sizes as a person reads them, in binary units: the job summary, its chart and the CLI alike.
export function formatBytes(bytes: number | undefined): string {
  if (bytes === undefined) return '–';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}
