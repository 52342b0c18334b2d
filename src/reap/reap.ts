// The reaper, as a story: scan, judge the age of everything found, look closer at the stale only (in
// use? holding work?), decide, then carry out (or, in a dry run, only report). Independent of
// @actions/core: the action and a CLI both drive it through a Ui.
import type { EngineName } from '../engine/engine.js';
import { removeStaleProbes } from '../engine/engine-probe.js';
import type { ReapSettings } from '../settings.js';
import { silentUi, type Ui } from '../ui/ui.js';
import { assessStaleness, decide, type Decision, type SandboxFacts } from './decide.js';
import { carryOut, type RemovalOutcome } from './execute.js';
import { measureTree } from './remove.js';
import type { RetentionPolicy } from './retention.js';
import { sandboxText } from '../ui/sandbox-text.js';
import { decisionTrace, type ReapResult, type ReportedSandbox } from './report.js';
import { factsOf, lookCloser, openReaper, rootOutOfView, rootUnproven } from './look.js';
import type { DiskHelpersRefused } from './work.js';

export interface ReapOptions {
  worktreeRoot: string;
  volumePrefix: string;
  engine: EngineName;
  /**
   * Run mode's image. The reaper never runs it: its helpers run an image made from the runner's own
   * programs (engine/helper-image.ts), so that no image can lie about a sandbox's work.
   */
  image: string;
  retention: RetentionPolicy;
  dryRun: boolean;
  /** 0: no limit. */
  maxRemovals: number;
  force: boolean;
  /** Empty: nothing is archived. */
  archiveDir: string;
  /** Epoch ms; defaults to the clock. */
  now?: number;
}

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

export async function reap(options: ReapOptions, ui: Ui = silentUi): Promise<ReapResult> {
  const nowMs = options.now ?? Date.now();
  const { git, engine, helperImage, scan } = await openReaper(options, ui, { tell: true });
  for (const warning of scan.warnings) ui.warning(warning);
  if (!options.dryRun) {
    const probes = await removeStaleProbes(engine);
    if (probes.length)
      ui.info(`Removed ${probes.length} helper(s) that killed runs left unstarted: ${probes.join(', ')}.`);
  }

  // Does the engine see the root where the reaper does? Where the action's own mounts say no, at once;
  // else proved once, before the first helper binds a disk sandbox (most reaps of disk sandboxes start
  // none). If not, one message says so, and the disk sandboxes only a helper could judge are kept, not
  // inspected.
  const warnUnseen = (unseen: string | undefined) => {
    if (!unseen) return undefined;
    ui.warning(
      `${unseen} Disk sandboxes that only a helper container could judge are kept, not inspected; the rest is reaped as usual.`,
    );
    return `the ${engine.name} engine does not see the worktree-root ${scan.root} (see the warning)`;
  };
  const outOfView = warnUnseen(await rootOutOfView(engine, scan));
  let refusal: Promise<string | undefined> | undefined;
  const diskHelpersRefused: DiskHelpersRefused = () =>
    (refusal ??= outOfView
      ? Promise.resolve(outOfView)
      : rootUnproven(engine, helperImage, scan).then(warnUnseen));
  const stale = scan.sandboxes.filter((s) => assessStaleness(s, options.retention, nowMs).stale);
  const facts = new Map<string, SandboxFacts>(scan.sandboxes.map((s) => [s.key, factsOf(s)]));
  const reports = await ui.group(`Look at ${stale.length} stale sandbox(es)`, async () => {
    const started = Date.now();
    const looked = await lookCloser(stale, facts, { git, engine, image: helperImage, diskHelpersRefused });
    const proved = [...looked.values()].filter((r) => r.provedByFilesystem).length;
    ui.info(
      `In use, work and size checked (${elapsed(started)}; ${proved} proved clean by the filesystem alone, ${looked.size - proved} looked at by the parent or a helper container).`,
    );
    return looked;
  });

  const decisions = decide([...facts.values()], { ...options, archive: !!options.archiveDir }, nowMs);
  const lookedAt = new Set(stale.map((s) => s.key));
  await ui.group('Decisions', async () => {
    for (const d of decisions) {
      ui.info(
        sandboxText(
          `${d.action === 'remove' ? (options.dryRun ? 'would remove' : 'remove') : 'keep'} ${d.project}/${d.sandbox} [${d.isolation}, ${d.class}]: ${d.reason}`,
        ),
      );
      ui.debug(decisionTrace(d, facts.get(d.key)!, lookedAt.has(d.key), options.dryRun));
    }
  });

  const byKey = new Map(scan.sandboxes.map((s) => [s.key, s]));
  const removals = decisions
    .filter((d) => d.action === 'remove')
    .map((decision) => ({ decision, sandbox: byKey.get(decision.key)! }));
  let outcomes = new Map<string, RemovalOutcome>();
  if (!options.dryRun && removals.length) {
    outcomes = await ui.group(`Remove ${removals.length} sandbox(es)`, async () => {
      const started = Date.now();
      const done = await carryOut(removals, {
        git,
        engine,
        image: helperImage,
        root: scan.root,
        archiveDir: options.archiveDir,
        now: new Date(nowMs),
        log: (line) => ui.info(line),
        found: scan.sandboxes.length,
        diskHelpersRefused,
      });
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

function elapsed(started: number): string {
  return `${((Date.now() - started) / 1000).toFixed(2)} s`;
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
