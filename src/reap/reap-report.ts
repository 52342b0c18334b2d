// What a reap run tells: the records of the `reaped` and `kept` outputs, and what the job summary
// (action/reap-summary.ts) reads: the order of interest, each entry's reason, sizes. Pure.
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

/** What a reap did, in one sentence: the CLI's headline and the job summary's line. */
export function reapTally(result: ReapResult): string {
  const reaped = result.sandboxes.filter(isReaped).length;
  const [removed, freed] = result.dryRun ? ['would be removed', 'would be freed'] : ['removed', 'freed'];
  return `${result.stats.found} found, ${result.stats.stale} stale, ${reaped} ${removed}, ${result.sandboxes.length - reaped} kept; ${formatBytes(result.freedBytes)} ${freed}.`;
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
