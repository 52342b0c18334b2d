// What a listing says of each sandbox: its state now, and when the reaper would remove it. Pure: read off
// the reaper's own facts and decision, and for a fresh sandbox the same gates applied as if it were stale.
import { DAY_MS } from './retention.js';
import {
  applyGates,
  assessStaleness,
  type Decision,
  type DecisionPolicy,
  gateFactsOf,
  type SandboxFacts,
} from './decide.js';

export type SandboxState = 'clean' | 'holds work' | 'in use' | 'orphan' | 'not a sandbox';

export interface StateView {
  state: SandboxState;
  /** Why (what work, who uses it, where the parent went); undefined for a clean sandbox. */
  detail?: string;
}

/**
 * In use first (whatever else holds, nothing touches it), then orphan (git can check nothing), then work.
 * A check for work that could not run is shown as holding work, because the reaper treats it so.
 */
export function sandboxState(facts: SandboxFacts): StateView {
  if (facts.notSandbox) return { state: 'not a sandbox', detail: facts.notSandbox };
  if (facts.inUse) return { state: 'in use', detail: facts.inUse };
  if (facts.orphan) return { state: 'orphan', detail: facts.orphan };
  const work = facts.work;
  if (work?.state === 'clean') return { state: 'clean' };
  if (work?.state === 'work') return { state: 'holds work', detail: work.detail };
  const why = work && 'detail' in work ? work.detail : 'it was not checked';
  return { state: 'holds work', detail: `the check for work could not run (${why})` };
}

export type RemovalWhen =
  /** Stale and nothing keeps it: the next reap removes it. */
  | 'next reap'
  /** Fresh: a reap after `afterMs` removes it, if it is then as it is now. */
  | 'after'
  /** A gate keeps it (in use, holds work, age unknown) for as long as that holds. */
  | 'kept'
  /** Not a sandbox: the reaper never deletes it. */
  | 'never';

export interface RemovalOutlook {
  when: RemovalWhen;
  /** For `after`: the moment it becomes stale (epoch ms). */
  afterMs?: number;
  reason: string;
}

export function removalOutlook(
  facts: SandboxFacts,
  decision: Decision,
  policy: DecisionPolicy,
  nowMs: number,
): RemovalOutlook {
  if (facts.notSandbox) return { when: 'never', reason: decision.reason };
  if (decision.action === 'remove') return { when: 'next reap', reason: decision.reason };
  const staleness = assessStaleness(facts, policy.retention, nowMs);
  if (staleness.stale || facts.lastActivityMs === undefined || staleness.expiryDays === undefined)
    return { when: 'kept', reason: decision.reason };
  const verdict = applyGates(gateFactsOf(facts), { ...policy, force: false });
  if (!verdict.remove) return { when: 'kept', reason: verdict.reason };
  return {
    when: 'after',
    afterMs: facts.lastActivityMs + staleness.expiryDays * DAY_MS,
    reason: facts.orphan
      ? `${decision.reason}; removed then unless in use (an orphan's work cannot be checked)`
      : `${decision.reason}; removed then if unused and without work`,
  };
}
