// The reaper, as a story: scan, judge the age of everything found, look closer at the stale only (in
// use? holding work?), decide, then carry out (or, in a dry run, only report). Independent of
// @actions/core: the action and a CLI both drive it through a Ui.
import type { EngineName } from '../engine/engine.js';
import { removeStaleProbes } from '../engine/engine-probe.js';
import { ContainerEngine } from '../engine/engine.js';
import { Git } from '../engine/git.js';
import type { ReapSettings } from '../settings.js';
import { silentUi, type Ui } from '../run/ui.js';
import { assessStaleness, decide, type Decision, type SandboxFacts } from './decide.js';
import { carryOut, type RemovalOutcome } from './execute.js';
import { inUseReason, observeUsage } from './in-use.js';
import { inParallel } from './parallel.js';
import { measureTree } from './remove.js';
import type { RetentionPolicy } from './retention.js';
import { scanSandboxes, type ScannedSandbox } from './scan.js';
import { decisionTrace, printable } from './trace.js';
import { inspectInHelpers } from './helper-inspection.js';
import { checkWork, type WorkReport } from './work.js';

export interface ReapOptions {
  worktreeRoot: string;
  volumePrefix: string;
  engine: EngineName;
  /** Image (sh, git, du, tar) of the helper containers that look into volumes. */
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

export type ReapResultKind = 'removed' | 'partly removed' | 'would remove' | 'kept';

export interface ReportedSandbox extends Decision {
  result: ReapResultKind;
  /** Why a removal did not happen or went only part of the way. */
  detail?: string;
  freedBytes?: number;
  archived?: string[];
  problems?: Array<{ path: string; error: string }>;
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

export async function reap(options: ReapOptions, ui: Ui = silentUi): Promise<ReapResult> {
  const nowMs = options.now ?? Date.now();
  const git = await Git.create();
  const engine = new ContainerEngine(options.engine);
  const scan = await ui.group('Scan', async () => {
    const started = Date.now();
    const found = await scanSandboxes({
      worktreeRoot: options.worktreeRoot,
      volumePrefix: options.volumePrefix,
      git,
      engine,
      image: options.image,
    });
    ui.info(
      `Found ${found.sandboxes.length} entries under ${found.root} and in volumes ${options.volumePrefix}-* (${elapsed(started)}).`,
    );
    return found;
  });
  for (const warning of scan.warnings) ui.warning(warning);
  if (!options.dryRun) {
    const probes = await removeStaleProbes(engine);
    if (probes.length)
      ui.info(`Removed ${probes.length} helper(s) that killed runs left unstarted: ${probes.join(', ')}.`);
  }

  const stale = scan.sandboxes.filter((s) => assessStaleness(s, options.retention, nowMs).stale);
  const facts = new Map<string, SandboxFacts>(scan.sandboxes.map((s) => [s.key, factsOf(s)]));
  const reports = await ui.group(`Look at ${stale.length} stale sandbox(es)`, async () => {
    const started = Date.now();
    const looked = await lookCloser(stale, facts, { git, engine, image: options.image });
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
        printable(
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
        image: options.image,
        root: scan.root,
        archiveDir: options.archiveDir,
        now: new Date(nowMs),
        log: (line) => ui.info(line),
        found: scan.sandboxes.length,
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

/** The facts a decision needs that the scan already has (in use, work and size come from `lookCloser`). */
export function factsOf(s: ScannedSandbox): SandboxFacts {
  return {
    key: s.key,
    sandbox: s.sandbox,
    project: s.project,
    isolation: s.isolation,
    where: s.where,
    notSandbox: s.notSandbox,
    orphan: s.orphan,
    lastActivityMs: s.lastActivityMs,
  };
}

/**
 * In use? Holding work? How big? Asked in batches; the reaper asks it of the stale sandboxes only, the
 * CLI's `list` of all of them and `rm` of one.
 */
export async function lookCloser(
  stale: readonly ScannedSandbox[],
  facts: Map<string, SandboxFacts>,
  deps: { git: Git; engine: ContainerEngine; image: string },
): Promise<Map<string, WorkReport>> {
  if (stale.length === 0) return new Map();
  // What runs now first: the work checks start helper containers of their own, which use the volumes.
  const usage = await observeUsage(deps.engine);
  const reasons = await inParallel(stale, 16, (s) => inUseReason(s, usage));
  const free = stale.filter((s, i) => {
    facts.get(s.key)!.inUse = reasons[i];
    return !reasons[i];
  });
  const checkable = free.filter((s) => !s.orphan && s.recorded);
  for (const s of free) {
    if (!s.orphan && !s.recorded)
      facts.get(s.key)!.work = {
        state: 'unknown',
        detail: `unregistered: ${s.unregistered ?? 'its parent holds no record of it'}`,
      };
  }
  const reports = await checkWork(checkable, deps);
  for (const [key, report] of reports) {
    facts.get(key)!.work = report.work;
    if (report.sizeBytes !== undefined) facts.get(key)!.sizeBytes = report.sizeBytes;
  }
  // Sizes: disk sandboxes that will not be removed now (removal measures the rest); volumes not seen yet.
  for (const s of stale) {
    const f = facts.get(s.key)!;
    if (s.hostPath && (f.inUse || (f.work && f.work.state !== 'clean')))
      f.sizeBytes = measureTree(s.hostPath);
  }
  const unseen = stale.filter((s) => s.volume && facts.get(s.key)!.sizeBytes === undefined);
  if (unseen.length) {
    // Sizes are for the report only: a volume that could not be measured stays unmeasured.
    const sizes = await inspectInHelpers(
      deps.engine,
      deps.image,
      undefined,
      unseen.map((s) => ({ key: s.key, target: { volume: s.volume!, name: s.sandbox }, size: true })),
    );
    for (const s of unseen) facts.get(s.key)!.sizeBytes = sizes.get(s.key)?.sizeBytes;
  }
  return reports;
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
  return { ...base, result: 'kept' };
}
