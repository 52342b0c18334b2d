// Decisions as data: for each entry found, remove or keep, and why. Pure, so that a dry run shows exactly
// what a real run would do and every rule is testable without a machine.
import type { Isolation } from '../settings/settings.js';
import {
  ageDays,
  expiryDays,
  isExpired,
  retentionClass,
  type RetentionClass,
  type RetentionPolicy,
} from './retention.js';
import { describeUnsaved, type UnsavedCommits } from '../sandbox/saved.js';

export interface SandboxIdentity {
  /** Unique among everything found: `disk:<path>` or `volume:<name>`. */
  key: string;
  sandbox: string;
  project: string;
  isolation: Isolation;
  /** The host path (disk) or the volume name. */
  where: string;
}

export interface SandboxFacts extends SandboxIdentity {
  /** Set for anything found under the root that is not a sandbox: reported, never deleted. */
  notSandbox?: string;
  /** Why git can check nothing (the parent is gone or unreadable). */
  orphan?: string;
  /** Newest activity signal (epoch ms); undefined when none could be read. */
  lastActivityMs?: number;
  /** Gathered for stale sandboxes only. */
  inUse?: string;
  /** Gathered for stale sandboxes only; missing counts as "could not check". */
  work?: WorkFinding;
  sizeBytes?: number;
}

export type DecisionClass = RetentionClass | 'not-a-sandbox';

export interface Staleness {
  class: DecisionClass;
  expiryDays?: number;
  ageDays?: number;
  stale: boolean;
}

export interface Decision extends SandboxIdentity {
  class: DecisionClass;
  ageDays?: number;
  expiryDays?: number;
  lastActivityMs?: number;
  action: 'remove' | 'keep';
  reason: string;
  archive?: ArchiveKind;
  /** The work the reason speaks of (kept for it, or removed by force despite it), as data. */
  held?: HeldWork;
  sizeBytes?: number;
}

export interface DecisionPolicy extends GateOptions {
  retention: RetentionPolicy;
  /** At most this many removals in one run (0: no limit); the oldest go first. */
  maxRemovals: number;
}

/** Class, expiry and age of one entry: the first question, asked before any check for work runs. */
export function assessStaleness(facts: SandboxFacts, retention: RetentionPolicy, nowMs: number): Staleness {
  if (facts.notSandbox) return { class: 'not-a-sandbox', stale: false };
  const cls = retentionClass(facts.sandbox, facts.orphan !== undefined);
  const expiry = expiryDays(cls, retention);
  const age = facts.lastActivityMs === undefined ? undefined : ageDays(facts.lastActivityMs, nowMs);
  return {
    class: cls,
    expiryDays: expiry,
    ageDays: age,
    stale: isExpired(facts.lastActivityMs, nowMs, expiry),
  };
}

export function decide(all: readonly SandboxFacts[], policy: DecisionPolicy, nowMs: number): Decision[] {
  const decisions = all.map((facts) => decideOne(facts, policy, nowMs));
  return capRemovals(decisions, policy.maxRemovals);
}

function decideOne(facts: SandboxFacts, policy: DecisionPolicy, nowMs: number): Decision {
  const staleness = assessStaleness(facts, policy.retention, nowMs);
  const base = keepDecision(facts, staleness);
  if (facts.notSandbox) return { ...base, reason: `not a sandbox: ${facts.notSandbox}` };
  if (!staleness.stale) return { ...base, reason: freshReason(staleness) };
  const verdict = applyGates(gateFactsOf(facts), policy);
  const held = verdict.held ? { held: verdict.held } : {};
  if (!verdict.remove) return { ...base, reason: verdict.reason, ...held };
  return { ...base, action: 'remove', reason: verdict.reason, archive: verdict.archive, ...held };
}

/**
 * A removal asked for by name (the CLI's `rm`): the person asking has judged the age, so only the safety
 * gates apply, exactly as the reaper applies them to a stale sandbox.
 */
export function decideOnRequest(
  facts: SandboxFacts,
  policy: GateOptions & { retention: RetentionPolicy },
  nowMs: number,
): Decision {
  const base = keepDecision(facts, assessStaleness(facts, policy.retention, nowMs));
  const verdict = applyGates(gateFactsOf(facts), policy);
  const held = verdict.held ? { held: verdict.held } : {};
  if (!verdict.remove) return { ...base, reason: verdict.reason, ...held };
  // The gates speak of a stale sandbox; this one may be fresh.
  const reason = verdict.reason.replace(/^stale and /, '');
  return { ...base, action: 'remove', reason, archive: verdict.archive, ...held };
}

function keepDecision(facts: SandboxFacts, staleness: Staleness): Decision {
  return {
    key: facts.key,
    sandbox: facts.sandbox,
    project: facts.project,
    isolation: facts.isolation,
    where: facts.where,
    class: staleness.class,
    ageDays: staleness.ageDays,
    expiryDays: staleness.expiryDays,
    lastActivityMs: facts.lastActivityMs,
    sizeBytes: facts.sizeBytes,
    action: 'keep',
    reason: '',
  };
}

/** What the gates look at: an orphan's work is unchecked; work never checked counts as "could not check". */
export function gateFactsOf(facts: SandboxFacts): GateFacts {
  return {
    notSandbox: facts.notSandbox,
    inUse: facts.inUse,
    orphan: facts.orphan,
    work: facts.orphan
      ? { state: 'unchecked' }
      : (facts.work ?? { state: 'unknown', detail: 'it was not checked' }),
  };
}

function freshReason(staleness: Staleness): string {
  if (staleness.ageDays === undefined) return 'age unknown (no activity signal could be read): kept';
  return `fresh: ${staleness.ageDays} of ${staleness.expiryDays} days`;
}

/** Like actions/stale's operations-per-run: the oldest removals go first, the rest wait for the next run. */
function capRemovals(decisions: Decision[], maxRemovals: number): Decision[] {
  if (maxRemovals <= 0) return decisions;
  const removals = decisions
    .filter((d) => d.action === 'remove')
    .sort((a, b) => (a.lastActivityMs ?? 0) - (b.lastActivityMs ?? 0) || a.key.localeCompare(b.key));
  const deferred = new Set(removals.slice(maxRemovals).map((d) => d.key));
  return decisions.map((d) =>
    deferred.has(d.key)
      ? {
          ...d,
          action: 'keep',
          archive: undefined,
          reason: `stale, but max-removals (${maxRemovals}) is reached: waits for the next run`,
        }
      : d,
  );
}

// The safety gates: what keeps a stale sandbox, and what must happen before one is removed. Pure: the
// facts come from the checks in work.ts and look-closer.ts; every uncertainty arrives here as "keep".
/** The work a sandbox holds, as data (the finding's detail says it in words). */
export interface HeldWork {
  /** A merge, rebase... in progress. */
  operation?: string;
  /** Uncommitted files. */
  uncommitted?: number;
  /** Commits the parent has not saved. */
  unsaved?: UnsavedCommits;
}

/** What the check for work found. */
export type WorkFinding =
  | { state: 'clean' }
  /** Uncommitted changes, commits on no remote, or an operation (merge, rebase...) in progress. */
  | { state: 'work'; detail: string; held?: HeldWork }
  /** The parent exists but the check could not run: counted as work, never as clean. */
  | { state: 'unknown'; detail: string }
  /** An orphan: without its parent, git can check nothing. */
  | { state: 'unchecked' };

export interface GateFacts {
  /** Why the entry is not a sandbox (only `<root>/<project>/<sandbox>` with a `.git` file counts). */
  notSandbox?: string;
  /** Why the sandbox is in use: a running container, a process's working directory, a run's lock. */
  inUse?: string;
  /** Why git can check nothing (the parent is gone or unreadable); undefined when the parent is there. */
  orphan?: string;
  work: WorkFinding;
}

export interface GateOptions {
  /** `force: true`: lifts the work gate, never the in-use gate. */
  force: boolean;
  /** `archive-dir` is set: save the work (or an orphan's files) there before removal. */
  archive: boolean;
}

/** `work`: a patch and a bundle of the work; `files`: an archive of every file (orphans). */
export type ArchiveKind = 'work' | 'files';

/** `held`: the work the reason speaks of, when a sandbox is kept (or forced) for its work. */
export type GateVerdict =
  | { remove: false; reason: string; held?: HeldWork }
  | { remove: true; reason: string; archive?: ArchiveKind; held?: HeldWork };

export function applyGates(facts: GateFacts, options: GateOptions): GateVerdict {
  if (facts.notSandbox) return { remove: false, reason: `not a sandbox: ${facts.notSandbox}` };
  if (facts.inUse) return { remove: false, reason: `in use: ${facts.inUse}` };
  const { work } = facts;
  if (work.state === 'unchecked' || facts.orphan) {
    const why = facts.orphan ?? 'its parent repository is gone';
    return options.archive
      ? { remove: true, reason: `orphan (${why}): files archived, then removed`, archive: 'files' }
      : { remove: true, reason: `orphan (${why}): removed after the orphan expiry` };
  }
  if (work.state === 'clean') return { remove: true, reason: 'stale and holds no work' };
  const why =
    work.state === 'work'
      ? `holds work: ${work.detail}`
      : `the check for work could not run (${work.detail})`;
  const held = work.state === 'work' && work.held ? { held: work.held } : {};
  if (!options.force) return { remove: false, reason: why, ...held };
  return options.archive
    ? { remove: true, reason: `force: ${why}; work archived, then removed`, archive: 'work', ...held }
    : { remove: true, reason: `force: ${why}; removed without archive`, ...held };
}

// What counts as work, from the separate checks: pure, so that "a check that could not run is never
// clean" is a rule in one place.
export type CheckResult<T> = { value: T } | { error: string };

export interface WorkChecks {
  /** A merge, rebase... left half-done in the worktree. */
  operation?: string;
  /** Entries of `git status --porcelain` (tracked changes, untracked files that are not ignored). */
  uncommitted: CheckResult<number>;
  /** The commits the sandbox names that the parent has not saved (src/sandbox/saved.ts); undefined: none. */
  unsaved: CheckResult<UnsavedCommits | undefined>;
}

export function summarizeWork(checks: WorkChecks): WorkFinding {
  const found: string[] = [];
  const failed: string[] = [];
  const held: HeldWork = {};
  if (checks.operation) {
    found.push(checks.operation);
    held.operation = checks.operation;
  }
  if ('error' in checks.uncommitted) failed.push(checks.uncommitted.error);
  else if (checks.uncommitted.value > 0) {
    found.push(`${checks.uncommitted.value} uncommitted file(s)`);
    held.uncommitted = checks.uncommitted.value;
  }
  if ('error' in checks.unsaved) failed.push(checks.unsaved.error);
  else if (checks.unsaved.value) {
    found.push(describeUnsaved(checks.unsaved.value));
    held.unsaved = checks.unsaved.value;
  }
  if (found.length) return { state: 'work', detail: found.join(', '), held };
  if (failed.length) return { state: 'unknown', detail: [...new Set(failed)].join('; ') };
  return { state: 'clean' };
}
