// The reaper's log lines: each decision with every fact it was made from, for a debug log, and text from
// the disk made safe to print. Pure.
import { formatBytes } from './bytes.js';
import type { Decision, SandboxFacts } from './decide.js';

/**
 * Text made safe for one log line: control characters (a newline in a folder's name could start a line
 * the runner reads as a workflow command) written as escapes.
 */
export function printable(text: string): string {
  return text.replace(/\p{Cc}/gu, (c) =>
    c === '\n' ? '\\n' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

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
  return printable(parts.join('; '));
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
