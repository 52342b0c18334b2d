// Verify, don't assume: before a run makes or uses a sandbox, prove that the engine sees the folders the
// action mounts where the action sees them. In each folder the action writes a file with a random name;
// the engine is asked to create (not start) a helper container that binds each file. An engine refuses
// to create a container whose bind source it does not find, so creation succeeds only when it finds
// every file on its side: the same folder, not one that merely has the same name (a remote engine, a
// Docker-in-Docker engine that does not share it, a translation that points elsewhere). Creating costs
// one short engine call; starting the helper would cost a container start and prove nothing more. A
// container the run creates anyway can carry the files instead of a helper (plantProbe): the engine then
// checks them when it creates that container, before anything in it starts, and no helper is needed.
// Everything the probe made (files, folders it had to make, the helper) is removed, whatever happens.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { userArg, type Mount } from './container-args.js';
import { EngineError } from './engine-error.js';
import type { EngineCommands } from './engine-commands.js';
import { enginePath, HostPathError, SHARED_ROOT_FIX, type HostView, type MountedPath } from './host-paths.js';
import { HELPER_LABELS } from './labels.js';
import type { ProcResult } from './proc.js';

/** How long the engine may take to create the probe's helper before the run stops. */
export const PROBE_TIMEOUT_MS = 30_000;
export const PROBE_FILE_PREFIX = '.worktree-sandbox-probe-';

/**
 * The engine's address when it is on another machine, for a person; undefined for a socket or a loopback
 * address (a Docker-in-Docker sidecar shares the runner pod's network, and may well share its folders).
 */
export function remoteEngine(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const host = env.DOCKER_HOST || env.CONTAINER_HOST || '';
  const match = /^(tcp|ssh|https?):\/\/(?:[^@/]*@)?(\[[^\]]*\]|[^:/]*)/i.exec(host);
  if (!match) return undefined;
  const name = match[2].replace(/^\[|\]$/g, '');
  return /^(localhost|127\.\d+\.\d+\.\d+|::1)$/i.test(name) ? undefined : host;
}

/** The folder the engine did not see, from its own words (it names the source it looked for). Pure. */
export function unseenFolder(
  said: string,
  probes: readonly { folder: MountedPath; source: string }[],
): MountedPath | undefined {
  if (!/bind source path does not exist|no such file or directory|not found|does not exist/i.test(said))
    return undefined;
  return (
    probes.find((p) => said.includes(p.source))?.folder ??
    (probes.length === 1 ? probes[0].folder : undefined)
  );
}

/** What to say when the engine does not see a folder. Pure. */
export function notSeenMessage(
  engine: string,
  folder: MountedPath,
  view: HostView,
  remote: string | undefined,
): string {
  const where = `The ${engine} engine does not see the ${folder.what} ${folder.path} where the action sees it`;
  if (remote)
    return `${where}: it is a remote engine (${remote}), and a remote engine cannot see this runner's files. Nothing was created. Run the engine on the runner's machine (Docker-in-Docker beside the runner, sharing its work folder at the same path), or give the runner a local engine.`;
  const translated =
    view.kind === 'container' ? ` (looked for at ${enginePath(view, folder.path)} on its side)` : '';
  const inContainer =
    view.kind === 'container' || view.containerized
      ? ' The action runs in a container, and the engine does not share this folder with it.'
      : '';
  return `${where}${translated}.${inContainer} Nothing was created. ${folder.fix ?? SHARED_ROOT_FIX}.`;
}

interface Planted {
  folder: MountedPath;
  file: string;
  /** The first folder the probe had to make (removed again), if any. */
  made?: string;
}

/** A finished probe: its files are gone; `remove` removes the helper it created. */
export interface Probe {
  /** Removes the helper; true once the engine said it is gone. */
  remove(): Promise<boolean>;
}

/** Where a container sees the probe's files: on its own root file system, beside nothing of the host's. */
export const PROBE_TARGET = '/.worktree-sandbox-probe';

/**
 * The probe's files, planted in the folders to prove, for a container that binds them: the engine creates
 * that container only when it finds every file on its side. Used by the helper `probeEngineView` creates,
 * or by a container the run starts anyway (a reused sandbox's command container), which then proves it
 * at no extra cost.
 */
export interface PlantedProbe {
  /** The random files, as the action sees them. */
  files: string[];
  /** The files bound read-only: first in a container's mounts, so that the engine names one when it misses it. */
  mounts: Mount[];
  /**
   * The engine's refusal to create a container that binds `mounts`, as a HostPathError naming the folder
   * and the fix; undefined when it refused for another reason.
   */
  unseen(said: string): Promise<HostPathError | undefined>;
  /** Removes the files (and, when the probe failed, the folders it had to make). */
  remove(options?: { madeToo?: boolean }): Promise<void>;
}

/** A file with a random name in each folder (made with the folders above it that are missing). */
export async function plantProbe(
  engine: EngineCommands,
  folders: readonly MountedPath[],
): Promise<PlantedProbe> {
  const planted: Planted[] = [];
  const remove = async ({ madeToo = false } = {}) => {
    await Promise.all(planted.map((p) => fs.rm(p.file, { force: true })));
    if (madeToo)
      await Promise.all(
        planted.flatMap((p) => (p.made ? [fs.rm(p.made, { recursive: true, force: true })] : [])),
      );
  };
  try {
    for (const folder of folders) planted.push(await plant(folder));
  } catch (error) {
    await remove({ madeToo: true });
    throw error;
  }
  return {
    files: planted.map((p) => p.file),
    mounts: planted.map((p, n) => ({
      type: 'bind',
      source: p.file,
      target: `${PROBE_TARGET}/${n}`,
      readonly: true,
    })),
    async unseen(said) {
      const view = await engine.hostView();
      const sources = planted.map((p) => ({ folder: p.folder, source: enginePath(view, p.file) ?? p.file }));
      const folder = unseenFolder(said, sources);
      return folder && new HostPathError(notSeenMessage(engine.name, folder, view, remoteEngine()));
    },
    remove,
  };
}

/**
 * Proves that the engine sees each folder where the action sees it; rejects with a HostPathError naming
 * the folder and the fix when it does not. The helper is created with `--pull never`, so a probe that
 * succeeded also proved the image there: the caller need not ask the engine about the image. When the
 * engine says the image is missing, the probe calls `imageReady` (the image check, which pulls it) and
 * asks once more (it never pulls itself); when the probe fails for anything but a folder the engine does
 * not see, the image check's error, if it has one, is the one thrown. Once it succeeded, its files are
 * removed and the helper (created, never started) stays until the caller calls `remove`, after the run:
 * that engine call then does not compete with the command container's start.
 */
export async function probeEngineView(
  engine: EngineCommands,
  image: string,
  folders: readonly MountedPath[],
  imageReady: () => Promise<void> = () => Promise.resolve(),
  timeoutMs = PROBE_TIMEOUT_MS,
  /** Told the helper's name before the engine is asked to create it (a run saves it for its post step). */
  onName?: (name: string) => void,
): Promise<Probe> {
  const name = `worktree-sandbox-probe-${randomBytes(4).toString('hex')}`;
  onName?.(name);
  const probe = await plantProbe(engine, folders);
  try {
    const run = await engine.runArgs({
      name,
      image,
      user: userArg(),
      mounts: probe.mounts,
      labels: HELPER_LABELS,
      entrypoint: 'true',
      args: [],
    });
    // The same hardened arguments as every helper, created and never started.
    const args = ['create', '--pull', 'never', ...run.slice(1)];
    let result = await createWithin(engine, name, args, timeoutMs);
    if (
      result.exitCode !== 0 &&
      /no such image|image not known|not found.*image|unable to find image/i.test(result.stderr)
    ) {
      await imageReady();
      result = await createWithin(engine, name, args, timeoutMs);
    }
    if (result.exitCode === 0) {
      // The files go at once (a created helper never reads them); the helper after the run.
      await probe.remove();
      return { remove: () => engine.removeContainer(name) };
    }
    const said = (result.stderr || result.stdout).trim();
    throw (await probe.unseen(said)) ?? engine.failure(['create', 'probe'], result);
  } catch (error) {
    await Promise.all([engine.removeContainer(name), probe.remove({ madeToo: true })]);
    // Anything but a folder the engine does not see: the image check's words come first (an image it
    // could not pull, an engine it cannot reach or that cannot run containers), as when it runs alone.
    if (!(error instanceof HostPathError)) await imageReady();
    throw error;
  }
}

/** `create`, the helper removed and the probe failed when the engine takes longer than `timeoutMs`. */
async function createWithin(
  engine: EngineCommands,
  name: string,
  args: readonly string[],
  timeoutMs: number,
): Promise<ProcResult> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void engine.removeContainer(name);
  }, timeoutMs);
  try {
    // The CLI itself is killed a few seconds after the helper's removal if it has not returned by then.
    const result = await engine.exec(args, {
      limitMs: timeoutMs + 5_000,
      purpose: 'creating the engine-view probe',
    });
    if (timedOut)
      throw new EngineError(
        `The ${engine.name} engine took longer than ${timeoutMs / 1000} s to create the helper that checks what it sees; nothing was created.`,
      );
    return result;
  } finally {
    clearTimeout(timer);
  }
}

/** A file with a random name in `folder`, made with the folders above it that are missing. */
async function plant(folder: MountedPath): Promise<Planted> {
  const made = await fs.mkdir(folder.path, { recursive: true });
  const file = path.join(folder.path, `${PROBE_FILE_PREFIX}${randomBytes(16).toString('hex')}`);
  try {
    await fs.writeFile(file, '', { flag: 'wx', mode: 0o644 });
  } catch (error) {
    if (made) await fs.rm(made, { recursive: true, force: true });
    throw error;
  }
  return { folder, file, made };
}

/** The names probeEngineView gives its helpers. */
export const PROBE_NAME = /^worktree-sandbox-probe-[0-9a-f]{8}$/;
/** How old a never-started probe helper must be to count as left by a killed run. */
export const STALE_PROBE_MS = 60 * 60_000;

/** `CreatedAt` as Docker and Podman print it (`2026-11-26 08:00:00[.123] +0000 UTC`), in epoch ms. Pure. */
export function parseCreatedAt(text: string): number | undefined {
  const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.\d+)? ([+-])(\d\d)(\d\d)/.exec(text.trim());
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}T${m[2]}${m[3]}${m[4]}:${m[5]}`);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * The probe helpers that runs killed before their end left behind (created, never started, named and
 * labelled as the probe makes them, older than `olderThanMs`): removed. Returns their names.
 */
export async function removeStaleProbes(
  engine: EngineCommands,
  nowMs = Date.now(),
  olderThanMs = STALE_PROBE_MS,
): Promise<string[]> {
  const listed = await engine.exec([
    'ps',
    '--all',
    '--filter',
    'status=created',
    '--filter',
    `label=${Object.keys(HELPER_LABELS)[0]}=${Object.values(HELPER_LABELS)[0]}`,
    '--format',
    '{{.Names}}\t{{.CreatedAt}}',
  ]);
  if (listed.exitCode !== 0) return [];
  const stale = listed.stdout
    .split('\n')
    .map((line) => line.split('\t'))
    .filter(([name, created]) => {
      const at = parseCreatedAt(created ?? '');
      return PROBE_NAME.test(name ?? '') && at !== undefined && nowMs - at >= olderThanMs;
    })
    .map(([name]) => name);
  const removed: string[] = [];
  for (const name of stale) if (await engine.removeContainer(name)) removed.push(name);
  return removed;
}
