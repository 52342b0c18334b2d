// The reaper, as a story: scan, judge the age of everything found, look closer at the stale only (in
// use? holding work?), decide, then carry out (or, in a dry run, only report). Independent of
// @actions/core: the action and a CLI both drive it through a Ui.
import { removeStaleProbes } from '../engine/engine-probe.js';
import { reportLeftNetworkContainers } from '../network/leftovers.js';
import type { ReapSettings } from '../settings/settings.js';
import { silentUi, type Ui } from '../ui/ui.js';
import { assessStaleness, decide, type Decision, type SandboxFacts } from './decide.js';
import { carryOut, type ExecuteDeps } from './execute.js';
import { measureTree } from './remove-tree.js';
import type { RetentionPolicy } from './retention.js';
import { sandboxText } from '../ui/sandbox-text.js';
import { decisionTrace, type ReapResult, type RemovalOutcome, type ReportedSandbox } from './reap-report.js';
import {
  factsOf,
  lookCloser,
  observeUsage,
  type Opened,
  openReaper,
  type ReaperTools,
} from './look-closer.js';

/**
 * What the reaper is given of the settings. `image` is run mode's: the reaper never runs it, its helpers
 * run an image made from the runner's own programs (engine/helper-image.ts), so that no image can lie about
 * a sandbox's work. `now`: epoch ms, the clock by default.
 */
export type ReapOptions = Pick<
  ReapSettings,
  'worktreeRoot' | 'volumePrefix' | 'engine' | 'image' | 'dryRun' | 'maxRemovals' | 'force' | 'archiveDir'
> & { retention: RetentionPolicy; now?: number };

/** The reaper's options from the validated settings (the action and the CLI alike). */
export function reapOptionsFrom(settings: ReapSettings): ReapOptions {
  const { worktreeRoot, volumePrefix, engine, image, dryRun, maxRemovals, force, archiveDir } = settings;
  return {
    worktreeRoot,
    volumePrefix,
    engine,
    image,
    retention: settings,
    dryRun,
    maxRemovals,
    force,
    archiveDir,
  };
}

export async function reap(
  options: ReapOptions,
  ui: Ui = silentUi,
  tools?: ReaperTools,
): Promise<ReapResult> {
  const nowMs = options.now ?? Date.now();
  const opened = await openReaper(options, ui, { tell: true, tools });
  const { git, engine, helperImage, scan, diskHelpersRefused } = opened;
  if (!options.dryRun) await reportLeftNetworkContainers(engine, ui);
  for (const warning of scan.warnings) ui.warning(warning);
  const stale = scan.sandboxes.filter((s) => assessStaleness(s, options.retention, nowMs).stale);
  // Which containers use what is asked now, beside the removal of left probes: two engine calls at once.
  const usage = stale.length ? observeUsage(engine) : undefined;
  if (!options.dryRun) {
    const probes = await removeStaleProbes(engine);
    if (probes.length)
      ui.info(`Removed ${probes.length} helper(s) that killed runs left unstarted: ${probes.join(', ')}.`);
  }

  const facts = new Map<string, SandboxFacts>(scan.sandboxes.map((s) => [s.key, factsOf(s)]));
  const byKey = new Map(scan.sandboxes.map((s) => [s.key, s]));
  const reports = await ui.group(`Look at ${stale.length} stale sandbox(es)`, async () => {
    const started = Date.now();
    const looked = await lookCloser(stale, facts, {
      git,
      engine,
      image: helperImage,
      diskHelpersRefused,
      usage,
    });
    const proved = [...looked.values()].filter((r) => r.provedByFilesystem).length;
    ui.info(
      `In use, work and size checked (${elapsed(started)}; ${proved} proved clean by the filesystem alone, ${looked.size - proved} looked at by the parent or a helper container).`,
    );
    return looked;
  });
  const decisions = decide([...facts.values()], { ...options, archive: !!options.archiveDir }, nowMs);

  const lookedAt = new Set(stale.map((s) => s.key));
  await ui.group('Decisions', async () => {
    const lines = decisions.map((d) =>
      sandboxText(
        `${d.action === 'remove' ? (options.dryRun ? 'would remove' : 'remove') : 'keep'} ${d.project}/${d.sandbox} [${d.isolation}, ${d.class}]: ${d.reason}`,
      ),
    );
    // A line per decision, in one write; with the facts of each below it when debug lines are shown.
    if (!ui.debugging) {
      if (lines.length) ui.info(lines.join('\n'));
    } else
      decisions.forEach((d, i) => {
        ui.info(lines[i]);
        ui.debug(decisionTrace(d, facts.get(d.key)!, lookedAt.has(d.key), options.dryRun));
      });
  });

  const removals = decisions
    .filter((d) => d.action === 'remove')
    .map((decision) => ({ decision, sandbox: byKey.get(decision.key)! }));
  let outcomes = new Map<string, RemovalOutcome>();
  if (!options.dryRun && removals.length) {
    outcomes = await ui.group(`Remove ${removals.length} sandbox(es)`, async () => {
      const started = Date.now();
      const deps = removalDeps(opened, {
        archiveDir: options.archiveDir,
        now: new Date(nowMs),
        log: (line) => ui.info(line),
      });
      const done = await carryOut(removals, deps);
      ui.info(`Done in ${elapsed(started)}.`);
      return done;
    });
  } else if (options.dryRun) {
    for (const { decision, sandbox } of removals)
      if (decision.sizeBytes === undefined && sandbox.hostPath)
        decision.sizeBytes = measureTree(sandbox.hostPath);
  }
  const sandboxes = decisions.map((d) => report(d, options.dryRun, outcomes.get(d.key)));
  const freedBytes = sandboxes.reduce(
    (sum, s) =>
      sum + (options.dryRun ? (s.result === 'would remove' ? (s.sizeBytes ?? 0) : 0) : (s.freedBytes ?? 0)),
    0,
  );
  return {
    dryRun: options.dryRun,
    sandboxes,
    freedBytes,
    warnings: scan.warnings,
    stats: {
      found: scan.sandboxes.length,
      stale: stale.length,
      provedByFilesystem: [...reports.values()].filter((r) => r.provedByFilesystem).length,
    },
  };
}

function elapsed(started: number, ended = Date.now()): string {
  return `${((ended - started) / 1000).toFixed(2)} s`;
}

function report(d: Decision, dryRun: boolean, outcome: RemovalOutcome | undefined): ReportedSandbox {
  if (d.action !== 'remove') return { ...d, result: 'kept' };
  if (dryRun) return { ...d, result: 'would remove' };
  if (!outcome) return { ...d, result: 'kept', detail: 'not attempted' };
  const base = {
    ...d,
    sizeBytes: d.sizeBytes ?? (d.isolation === 'disk' ? outcome.freedBytes : undefined),
    freedBytes: outcome.freedBytes,
    archived: outcome.archived,
    problems: outcome.problems,
    detail: outcome.detail,
  };
  if (outcome.status === 'removed') return { ...base, result: 'removed' };
  if (outcome.status === 'partly removed') return { ...base, result: 'partly removed' };
  if (outcome.status === 'not removed') return { ...base, result: 'kept', failed: true };
  return { ...base, result: 'kept' };
}

/** What carrying out removals needs, from what the reaper opened with. */
export function removalDeps(
  opened: Opened,
  options: { archiveDir: string; now: Date; log: (line: string) => void },
): ExecuteDeps {
  const { git, engine, helperImage, scan, diskHelpersRefused } = opened;
  return {
    git,
    engine,
    image: helperImage,
    root: scan.root,
    diskHelpersRefused,
    ...options,
  };
}
