// What every reaper command opens with (the reap, `list`, `rm`): git, the engine and the helper image the
// action controls, one scan of the worktree root and the volumes, the facts the scan already has, and a
// closer look (in use? holding work? how big?) at the sandboxes the command cares about. In use: a
// running container mounts it, a process has its working directory inside it, or a run holds its lock;
// containers and processes are looked at once for all sandboxes.
import type { ContainerInfo, EngineCommands } from '../engine/engine-commands.js';
import type { GitCommands } from '../engine/git-commands.js';
import { probeEngineView } from '../engine/engine-probe.js';
import { createEngine, type EngineName } from '../engine/engine.js';
import { HostPathError, requireVisible } from '../engine/host-paths.js';
import { helperImageOnDemand, type HelperImage } from '../engine/helper-image.js';
import { createGit } from '../engine/git.js';
import type { Ui } from '../ui/ui.js';
import type { SandboxFacts } from './decide.js';
import { inspectInHelpers } from './helper-inspection.js';
import { inParallel } from './parallel.js';
import { measureTree } from './remove-tree.js';
import { scanSandboxes, type ScannedSandbox } from './scan.js';
import { isCheckable, type ScanResult } from './scanned-sandbox.js';
import { checkWork, type DiskHelpersRefused, type WorkDeps, type WorkReport } from './work.js';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isSandboxLocked } from '../sandbox/lock.js';

export interface Opened {
  git: GitCommands;
  engine: EngineCommands;
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

/** git and the engine: the reaper makes its own unless given them (a spec gives fakes). */
export interface ReaperTools {
  git: GitCommands;
  engine: EngineCommands;
}

/** The tools, then the scan in a log group of its own (`tell`: with a line that says what it found). */
export async function openReaper(
  options: { worktreeRoot: string; volumePrefix: string; engine: EngineName },
  ui: Ui,
  { tell = false, tools }: { tell?: boolean; tools?: ReaperTools } = {},
): Promise<Opened> {
  const engine = tools?.engine ?? createEngine(options.engine);
  const helperImage = helperImageOnDemand(engine);
  const git = tools?.git ?? (await createGit());
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
  engine: EngineCommands,
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
async function rootOutOfView(engine: EngineCommands, scan: ScanResult): Promise<string | undefined> {
  if (!scan.sandboxes.some((s) => s.hostPath)) return undefined;
  return rootCheck(engine, scan, async (root) => requireVisible(await engine.hostView(), [root]));
}

async function rootUnproven(
  engine: EngineCommands,
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
  engine: EngineCommands,
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
  /** `usage`: the containers' and processes' use, when the caller asked already (`observeUsage`). */
  deps: WorkDeps & { usage?: Promise<Usage> },
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

// Is a stale sandbox in use? A running container mounts it, a process has its working directory inside
// it, or a run holds its lock. Containers and processes are looked at once for all sandboxes.
export interface Usage {
  /** Undefined when the engine could not be asked (then `containersError` says why). */
  containers?: ContainerInfo[];
  containersError?: string;
  /** Working directories of the processes this user may see; undefined without /proc. */
  workingDirs?: Array<{ pid: number; cwd: string }>;
}

export async function observeUsage(engine: EngineCommands | undefined): Promise<Usage> {
  const usage: Usage = { workingDirs: processWorkingDirs() };
  if (!engine) return { ...usage, containers: [] };
  try {
    const containers = await engine.listContainers();
    // Bind sources are compared as real paths, like the sandbox paths.
    for (const c of containers) c.binds = c.binds.map(realOrSelf);
    return { ...usage, containers };
  } catch (error) {
    const message = (error as Error).message;
    // No engine installed: no container can be using anything.
    if (/not installed or not on PATH/.test(message)) return { ...usage, containers: [] };
    return { ...usage, containersError: message };
  }
}

function processWorkingDirs(): Array<{ pid: number; cwd: string }> | undefined {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return undefined;
  }
  const dirs: Array<{ pid: number; cwd: string }> = [];
  for (const pid of pids) {
    try {
      dirs.push({ pid: Number(pid), cwd: fs.readlinkSync(`/proc/${pid}/cwd`) });
    } catch {
      /* gone, or another user's process */
    }
  }
  return dirs;
}

function realOrSelf(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

const inside = (child: string, dir: string) => child === dir || child.startsWith(`${dir}${path.sep}`);

/** Why the sandbox is in use, or undefined. A usage that could not be observed counts as "in use". */
export async function inUseReason(sandbox: ScannedSandbox, usage: Usage): Promise<string | undefined> {
  if (sandbox.parent && !sandbox.orphan && (await isSandboxLocked(sandbox.parent.gitDir, sandbox.sandbox)))
    return 'a run holds its lock';
  if (sandbox.linked?.locked) return 'its registration is locked (git worktree lock)';
  if (!usage.containers) return `the container engine could not be asked (${usage.containersError})`;
  if (sandbox.volume) {
    const users = usage.containers.filter((c) => c.volumes.includes(sandbox.volume!));
    const running = users.filter((c) => c.running).map((c) => c.name);
    if (running.length) return `running container ${running.join(', ')} mounts it`;
    if (users.length)
      return `stopped container ${users.map((c) => c.name).join(', ')} still references the volume (remove it to let the volume go)`;
    return undefined;
  }
  // The work tree and the command's home: a container or a process in either is using the sandbox.
  const dirs = [sandbox.hostPath!, ...(sandbox.homePath ? [sandbox.homePath] : [])];
  const within = (p: string) => dirs.some((dir) => inside(p, dir));
  const mounting = usage.containers.filter((c) => c.running && c.binds.some(within));
  if (mounting.length) return `running container ${mounting.map((c) => c.name).join(', ')} mounts it`;
  if (!usage.workingDirs) return 'the working directories of processes cannot be read (no /proc)';
  const process = usage.workingDirs.find((p) => within(p.cwd));
  if (process) return `process ${process.pid} has its working directory in it`;
  return undefined;
}
