// One sandbox removed because a person asked (the CLI's `rm NAME`): found by the reaper's scan, looked at
// by the reaper's checks, judged by the reaper's gates (the age aside: the person judged it), removed by
// the reaper's execution: its lock taken, one last look at its activity, the work archived first when
// the gates say so, then removed with every record its parent keeps of it. A dry run stops after the
// judgement.
import * as path from 'node:path';
import type { Isolation } from '../settings/settings.js';
import { silentUi, type Ui } from '../ui/ui.js';
import { decideOnRequest, type Decision, type SandboxFacts } from '../reap/decide.js';
import { carryOut } from '../reap/execute.js';
import type { RemovalOutcome } from '../reap/reap-report.js';
import { factsOf, lookCloser, openReaper } from '../reap/look-closer.js';
import { removalDeps } from '../reap/reap.js';
import { measureTree } from '../reap/remove-tree.js';
import type { ScannedSandbox } from '../reap/scan.js';
import type { ListingOptions } from './listing.js';

export interface SandboxQuery {
  /** A sandbox name, a volume name, or the path of a disk sandbox. */
  name: string;
  project?: string;
  isolation?: Isolation;
}

export type Match =
  | { found: ScannedSandbox }
  | { found?: undefined; candidates: ScannedSandbox[]; problem: 'none' | 'ambiguous' };

/**
 * Which scanned entry the query names. Sandboxes first: an entry that is not a sandbox is only matched
 * when no sandbox is (so that `rm` can say why it will not touch it).
 */
export function matchSandbox(
  scanned: readonly ScannedSandbox[],
  query: SandboxQuery,
  cwd = process.cwd(),
): Match {
  const asPath = path.resolve(cwd, query.name);
  const named = scanned.filter(
    (s) =>
      (s.sandbox === query.name || s.where === query.name || (s.hostPath && s.hostPath === asPath)) &&
      (!query.project || s.project === query.project) &&
      (!query.isolation || s.isolation === query.isolation),
  );
  const sandboxes = named.filter((s) => !s.notSandbox);
  const candidates = sandboxes.length ? sandboxes : named;
  if (candidates.length === 1) return { found: candidates[0] };
  return { candidates, problem: candidates.length ? 'ambiguous' : 'none' };
}

/** Where to look, as for a listing; `retention` is used for the class and age shown, never to refuse. */
export interface RemoveByNameOptions extends SandboxQuery, ListingOptions {
  /** Lifts the work gate (never the in-use gate). */
  force: boolean;
  /** Where work (force) or an orphan's files are saved before removal. Required: `rm` always saves. */
  archiveDir: string;
  /** Judge it as a removal would, then stop: nothing is locked, archived or removed. */
  dryRun?: boolean;
}

export interface UnmatchedName {
  status: 'not found' | 'ambiguous';
  candidates: ScannedSandbox[];
  warnings: string[];
}

export interface JudgedSandbox {
  /**
   * `kept`: a gate kept it (nothing was tried); `would remove`: the gates let it go, but this was a dry
   * run; otherwise how the removal went.
   */
  status: 'kept' | 'would remove' | RemovalOutcome['status'];
  sandbox: ScannedSandbox;
  decision: Decision;
  facts: SandboxFacts;
  /** Undefined when kept by a gate, and in a dry run. */
  outcome?: RemovalOutcome;
  warnings: string[];
}

export type RemoveByNameResult = UnmatchedName | JudgedSandbox;

export async function removeByName(
  options: RemoveByNameOptions,
  ui: Ui = silentUi,
): Promise<RemoveByNameResult> {
  const nowMs = options.now ?? Date.now();
  const opened = await openReaper(options, ui);
  const { git, engine, helperImage, scan, diskHelpersRefused } = opened;
  const warnings = scan.warnings;
  const match = matchSandbox(scan.sandboxes, options);
  if (!match.found)
    return {
      status: match.problem === 'none' ? 'not found' : 'ambiguous',
      candidates: match.candidates,
      warnings,
    } satisfies UnmatchedName;
  const sandbox = match.found;

  const facts = factsOf(sandbox);
  if (!sandbox.notSandbox)
    await ui.group(`Check ${sandbox.project}/${sandbox.sandbox}`, () =>
      lookCloser([sandbox], new Map([[sandbox.key, facts]]), {
        git,
        engine,
        image: helperImage,
        diskHelpersRefused,
      }),
    );
  const decision = decideOnRequest(
    facts,
    { retention: options.retention, force: options.force, archive: true },
    nowMs,
  );
  if (decision.action === 'keep') return { status: 'kept', sandbox, decision, facts, warnings };
  if (options.dryRun) {
    // As reap's dry run does: a removal would measure what it frees.
    if (decision.sizeBytes === undefined && sandbox.hostPath)
      decision.sizeBytes = measureTree(sandbox.hostPath);
    return { status: 'would remove', sandbox, decision, facts, warnings };
  }

  const outcomes = await ui.group(`Remove ${sandbox.project}/${sandbox.sandbox}`, () =>
    carryOut(
      [{ decision, sandbox }],
      removalDeps(opened, {
        archiveDir: options.archiveDir,
        now: new Date(nowMs),
        log: (line) => ui.info(line),
      }),
    ),
  );
  const outcome = outcomes.get(decision.key)!;
  return { status: outcome.status, sandbox, decision, facts, outcome, warnings };
}
