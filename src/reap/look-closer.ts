// What every reaper command opens with (the reap, `list`, `rm`): git, the engine and the helper image the
// action controls, one scan of the worktree root and the volumes, the facts the scan already has, and a
// closer look (in use? holding work? how big?) at the sandboxes the command cares about.
import { probeEngineView } from '../engine/engine-probe.js';
import { ContainerEngine, type EngineName } from '../engine/engine.js';
import { HostPathError, requireVisible } from '../engine/host-paths.js';
import { helperImageOnDemand, type HelperImage } from '../engine/helper-image.js';
import { Git } from '../engine/git.js';
import type { Ui } from '../ui/ui.js';
import type { SandboxFacts } from './decide.js';
import { inspectInHelpers } from './helper-inspection.js';
import { inUseReason, observeUsage, type Usage } from './in-use.js';
import { inParallel } from './parallel.js';
import { measureTree } from './remove-tree.js';
import { scanSandboxes, type ScannedSandbox } from './scan.js';
import { isCheckable, type ScanResult } from './scanned-sandbox.js';
import { checkWork, type DiskHelpersRefused, type WorkReport } from './work.js';
import type { ExecuteDeps } from './execute.js';

export interface Opened {
  git: Git;
  engine: ContainerEngine;
  /**
   * The image of every helper that looks into sandboxes: the runner's own programs, never `image`'s.
   * Made when the first helper is about to start, not before: most reaps on disk need none.
   */
  helperImage: HelperImage;
  scan: ScanResult;
  /**
   * Why no helper may bind a disk sandbox: the engine does not see the worktree root where the reaper
   * does (said once, as a warning, when first asked). Undefined when it does.
   */
  diskHelpersRefused: DiskHelpersRefused;
}

/** The tools, then the scan in a log group of its own (`tell`: with a line that says what it found). */
export async function openReaper(
  options: { worktreeRoot: string; volumePrefix: string; engine: EngineName },
  ui: Ui,
  { tell = false }: { tell?: boolean } = {},
): Promise<Opened> {
  const engine = new ContainerEngine(options.engine);
  const helperImage = helperImageOnDemand(engine);
  const git = await Git.create();
  const scan = await ui.group('Scan', async () => {
    const started = Date.now();
    const found = await scanSandboxes({
      worktreeRoot: options.worktreeRoot,
      volumePrefix: options.volumePrefix,
      git,
      engine,
      image: helperImage,
    });
    if (tell)
      ui.info(
        `Found ${found.sandboxes.length} entries under ${found.root} and in volumes ${options.volumePrefix}-* (${((Date.now() - started) / 1000).toFixed(2)} s).`,
      );
    return found;
  });
  return {
    git,
    engine,
    helperImage,
    scan,
    diskHelpersRefused: await helpersRefusal(engine, helperImage, scan, ui),
  };
}

/**
 * Does the engine see the root where the reaper does? Where the action's own mounts say no, at once;
 * else proved once, before the first helper binds a disk sandbox (most reaps of disk sandboxes start
 * none). If not, one warning says so, and the disk sandboxes only a helper could judge are kept, not
 * inspected.
 */
async function helpersRefusal(
  engine: ContainerEngine,
  image: HelperImage,
  scan: ScanResult,
  ui: Ui,
): Promise<DiskHelpersRefused> {
  const warnUnseen = (unseen: string | undefined) => {
    if (!unseen) return undefined;
    ui.warning(
      `${unseen} Disk sandboxes that only a helper container could judge are kept, not inspected; the rest is handled as usual.`,
    );
    return `the ${engine.name} engine does not see the worktree-root ${scan.root} (see the warning)`;
  };
  const outOfView = warnUnseen(await rootOutOfView(engine, scan));
  let refusal: Promise<string | undefined> | undefined;
  return () =>
    (refusal ??= outOfView ? Promise.resolve(outOfView) : rootUnproven(engine, image, scan).then(warnUnseen));
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

export const REAP_ROOT_FIX =
  "Run the reap job where the runs that made the sandboxes ran, with the same worktree-root, in a folder the engine shares with the action (a job container: under the runner's work folder, /__w; Actions Runner Controller in Docker-in-Docker mode: under /home/runner/_work)";

/**
 * Whether the engine sees the worktree root where the reaper does, as a run checks its folders, in two
 * steps. `rootOutOfView` first, with no engine call on a plain host (host-paths.ts): in a job container
 * the root must lie under one of its mounts. `rootUnproven` before the first helper binds a disk sandbox
 * (the probe of engine-probe.ts: a Docker-in-Docker engine must share the root, a remote engine never
 * does). Each: undefined when it does, or when the scan found no disk sandbox; else why not, naming the
 * root and the fix.
 */
async function rootOutOfView(engine: ContainerEngine, scan: ScanResult): Promise<string | undefined> {
  if (!scan.sandboxes.some((s) => s.hostPath)) return undefined;
  return rootCheck(engine, scan, async (root) => requireVisible(await engine.hostView(), [root]));
}

async function rootUnproven(
  engine: ContainerEngine,
  image: HelperImage,
  scan: ScanResult,
): Promise<string | undefined> {
  if (!scan.sandboxes.some((s) => s.hostPath)) return undefined;
  // An image that cannot be made is no answer about the root: each helper that needs it says why.
  const made = await image().catch(() => undefined);
  if (!made) return undefined;
  return rootCheck(engine, scan, async (root) => {
    await (await probeEngineView(engine, made, [root])).remove();
  });
}

async function rootCheck(
  engine: ContainerEngine,
  scan: ScanResult,
  check: (root: { path: string; what: string; fix: string }) => Promise<void>,
): Promise<string | undefined> {
  try {
    await check({ path: scan.root, what: 'worktree-root', fix: REAP_ROOT_FIX });
    return undefined;
  } catch (error) {
    if (error instanceof HostPathError) return error.message;
    return `The ${engine.name} engine could not be shown to see the worktree-root ${scan.root} (${(error as Error).message}). ${REAP_ROOT_FIX}.`;
  }
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
  deps: {
    git: Git;
    engine: ContainerEngine;
    image: HelperImage;
    diskHelpersRefused?: DiskHelpersRefused;
    /** The containers' and processes' use, when the caller asked already (`observeUsage`). */
    usage?: Promise<Usage>;
  },
): Promise<Map<string, WorkReport>> {
  if (stale.length === 0) return new Map();
  // Before any work check: those start helper containers of their own, which use the volumes.
  const usage = await (deps.usage ?? observeUsage(deps.engine));
  // A sandbox whose use cannot be told is taken for in use (kept), and the others go on.
  const reasons = await inParallel(stale, 16, (s) =>
    inUseReason(s, usage).catch(
      (error: unknown) => `its use could not be told: ${JSON.stringify((error as Error).message)}`,
    ),
  );
  const free = stale.filter((s, i) => {
    facts.get(s.key)!.inUse = reasons[i];
    return !reasons[i];
  });
  const checkable = free.filter(isCheckable);
  for (const s of free) {
    if (!s.orphan && !isCheckable(s))
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
