// The reaper's view of every sandbox on the machine, for `worktree-sandbox list`: the reaper's own scan,
// facts and decisions (a dry run), except that every sandbox is looked at closely (in use? holding work?
// how big?), not only the stale ones. Nothing is removed and nothing is written: the checks are the
// reaper's read-only ones, so a listing never moves an activity signal.
// What it says of each sandbox (sandboxState, removalOutlook) is pure: read off the reaper's own facts
// and decision, and for a fresh sandbox the same gates applied as if it were stale.
import * as path from 'node:path';
import type { EngineName } from '../engine/engine.js';
import { silentUi, type Ui } from '../ui/ui.js';
import { parseHead, readBounded } from '../sandbox/sandbox-files.js';
import { factsOf, lookCloser, openReaper } from '../reap/look-closer.js';
import { measureTree } from '../reap/remove-tree.js';
import type { ScannedSandbox } from '../reap/scan.js';
import { gitDirOf } from '../reap/scanned-sandbox.js';
import { DAY_MS, type RetentionPolicy } from '../reap/retention.js';
import {
  applyGates,
  assessStaleness,
  decide,
  type Decision,
  type DecisionPolicy,
  gateFactsOf,
  type SandboxFacts,
} from '../reap/decide.js';

export interface ListingOptions {
  worktreeRoot: string;
  volumePrefix: string;
  engine: EngineName;
  /**
   * Run mode's image. The reaper never runs it: its helpers run an image made from the runner's own
   * programs (engine/helper-image.ts), so that no image can lie about a sandbox's work.
   */
  image: string;
  retention: RetentionPolicy;
  /** Epoch ms; defaults to the clock. */
  now?: number;
}

export interface ListedSandbox {
  scanned: ScannedSandbox;
  facts: SandboxFacts;
  /** What a reap with the same retention would do now (a dry run without force or archive). */
  decision: Decision;
  /** The branch checked out (undefined: detached, or not readable). */
  branch?: string;
}

export interface SandboxListing {
  /** The real path of the root of disk sandboxes. */
  root: string;
  sandboxes: ListedSandbox[];
  warnings: string[];
  nowMs: number;
  /** The policy the decisions were made with (a reap without force or archive). */
  policy: DecisionPolicy;
}

export async function listSandboxes(options: ListingOptions, ui: Ui = silentUi): Promise<SandboxListing> {
  const nowMs = options.now ?? Date.now();
  const { git, engine, helperImage, scan, diskHelpersRefused } = await openReaper(options, ui);
  for (const warning of scan.warnings) ui.warning(warning);

  const sandboxes = scan.sandboxes.filter((s) => !s.notSandbox);
  const facts = new Map<string, SandboxFacts>(scan.sandboxes.map((s) => [s.key, factsOf(s)]));
  await ui.group(`Look at ${sandboxes.length} sandbox(es)`, async () => {
    await lookCloser(sandboxes, facts, { git, engine, image: helperImage, diskHelpersRefused });
    // The reaper leaves clean disk sandboxes unmeasured (removal measures them); a listing shows all.
    for (const s of sandboxes) {
      const f = facts.get(s.key)!;
      if (f.sizeBytes === undefined && s.hostPath) f.sizeBytes = measureTree(s.hostPath);
    }
  });

  const policy: DecisionPolicy = {
    retention: options.retention,
    force: false,
    archive: false,
    maxRemovals: 0,
  };
  const decisions = new Map(decide([...facts.values()], policy, nowMs).map((d) => [d.key, d]));
  return {
    root: scan.root,
    sandboxes: scan.sandboxes.map((s) => ({
      scanned: s,
      facts: facts.get(s.key)!,
      decision: decisions.get(s.key)!,
      branch: branchOf(s),
    })),
    warnings: scan.warnings,
    nowMs,
    policy,
  };
}

/** The branch from the sandbox's HEAD (read as data: on the host for disk, by the scan's helper for volumes), else its label. */
function branchOf(s: ScannedSandbox): string | undefined {
  if (s.notSandbox) return undefined;
  let ref = s.headRef;
  if (s.hostPath) {
    const file = readBounded(path.join(gitDirOf(s), 'HEAD'), 1024);
    const head = 'data' in file ? parseHead(file.data.toString('utf8')) : undefined;
    ref = head && 'ref' in head ? head.ref : undefined;
    if (!ref) return undefined;
  }
  if (ref) return ref.startsWith('refs/heads/') ? ref.slice(11) : undefined;
  return s.branchLabel || undefined;
}

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
