// The reaper's log lines: each decision with every fact it was made from, for a debug log, and text from
// the disk made safe to print. Pure.
import { sandboxText } from '../ui/sandbox-text.js';
import { formatBytes } from './bytes.js';
import type { Decision, SandboxFacts } from './decide.js';

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
