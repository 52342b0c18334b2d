// What a run mounts from the action's side, for the engine-view checks (engine/host-paths.ts,
// engine/engine-probe.ts): every bind source layout.ts gives a container, named for a person, with what to
// change when the engine cannot see it; and how a run proves that the engine sees them.
import * as path from 'node:path';
import { plantProbe, probeEngineView, type PlantedProbe, type Probe } from '../engine/engine-probe.js';
import type { EngineCommands } from '../engine/engine-commands.js';
import { SHARED_ROOT_FIX, type MountedPath } from '../engine/host-paths.js';
import type { Isolation, Sandbox } from './layout.js';
import type { ParentRepository } from './repository.js';

const WORKSPACE_FIX =
  'Check the repository out inside a folder the engine shares with the action (the workspace, $GITHUB_WORKSPACE)';

/** Every folder and file a run binds into a container: the parent, its object stores, the disk root, extra files. */
export function mountedPaths(
  parent: ParentRepository,
  isolation: Isolation,
  worktreeRoot: string,
  readOnlyFiles: readonly string[] = [],
): MountedPath[] {
  const paths: MountedPath[] = [
    { path: parent.path, what: 'parent repository', fix: WORKSPACE_FIX },
    ...parent.objectStores.map((dir) => ({ path: dir, what: 'object store', fix: WORKSPACE_FIX })),
  ];
  if (isolation === 'disk') paths.push({ path: worktreeRoot, what: 'worktree-root', fix: SHARED_ROOT_FIX });
  for (const file of readOnlyFiles)
    paths.push({
      path: file,
      what: 'file',
      fix: 'Keep RUNNER_TEMP inside a folder the engine shares with the action',
    });
  return paths;
}

/**
 * The folders the probe writes its file in: the parent's git folder (the parent and its object store are
 * mounted from beside it) and, for a disk sandbox, the root it is made under.
 */
export function probedFolders(
  parent: ParentRepository,
  isolation: Isolation,
  worktreeRoot: string,
): MountedPath[] {
  const folders: MountedPath[] = [{ path: parent.gitDir, what: 'parent repository', fix: WORKSPACE_FIX }];
  if (isolation === 'disk')
    folders.push({ path: path.resolve(worktreeRoot), what: 'worktree-root', fix: SHARED_ROOT_FIX });
  return folders;
}

/**
 * The folders the probe writes its file in when a sandbox that is there is proved by its command's
 * container: the parent's git folder and, for a disk sandbox, its project folder (which holds the
 * sandbox and its home; the reaper takes what starts with a dot there for the action's own).
 */
export function reusedProbeFolders(sandbox: Sandbox): MountedPath[] {
  const folders: MountedPath[] = [
    { path: sandbox.parent.gitDir, what: 'parent repository', fix: WORKSPACE_FIX },
  ];
  if (sandbox.isolation === 'disk')
    folders.push({ path: path.dirname(sandbox.hostPath), what: 'sandbox folder', fix: SHARED_ROOT_FIX });
  return folders;
}

/**
 * How a run proves that the engine sees its folders where the action sees them (engine/engine-probe.ts),
 * one of two ways. Before a sandbox is made, or a helper runs on it: a helper the engine creates (never
 * starts). For a sandbox taken as it is, straight to its command: the command's own
 * container binds the probe's files, and the engine refuses to create it when it does not find them, so
 * nothing in it starts with an empty or a wrong folder; that costs no engine call of its own.
 */
export class EngineViewProof {
  private helper?: Promise<Probe>;
  private proved?: Promise<void>;
  private planted?: Promise<PlantedProbe>;
  private removed?: Promise<void>;

  constructor(
    private readonly engine: EngineCommands,
    private readonly image: string,
    private readonly folders: readonly MountedPath[],
    /** The image check (it pulls), asked by the helper's proof only when the engine lacks the image. */
    private readonly imageReady: () => Promise<void>,
    /**
     * Told the helper's name before the engine creates it, and undefined once `remove` removed it: a run
     * saves it for its post step, which removes a helper that a killed main step (or an engine that did
     * not answer) left.
     */
    private readonly onHelper?: (name: string | undefined) => void,
  ) {}

  /**
   * Proves it with a helper, started now unless it already was; rejects naming what the engine does not
   * see. Once it resolved, the engine has the image too (the helper is created with `--pull never`).
   */
  byHelper(): Promise<void> {
    if (!this.proved) {
      this.helper = probeEngineView(
        this.engine,
        this.image,
        this.folders,
        this.imageReady,
        undefined,
        this.onHelper,
      );
      this.proved = this.helper.then(() => undefined);
      // Awaited by whoever needs it; a rejection before then is not an unhandled one (which would end
      // the process), and the await still throws it.
      for (const promise of [this.helper, this.proved]) promise.catch(() => undefined);
    }
    return this.proved;
  }

  /** Whether a helper proves it (or is proving it). */
  get helperStarted(): boolean {
    return this.helper !== undefined;
  }

  /** The probe's files in the folders of `sandbox`, for its command's container to bind. */
  forCommand(sandbox: Sandbox): Promise<PlantedProbe> {
    this.planted ??= plantProbe(this.engine, reusedProbeFolders(sandbox));
    return this.planted;
  }

  /** What the proof made that is still there (the helper, files) goes; once, whoever asks again. */
  remove(): Promise<void> {
    this.removed ??= this.removeNow();
    return this.removed;
  }

  private async removeNow(): Promise<void> {
    await Promise.all([
      // A helper the engine did not remove (or that a failed probe could not) stays named for the post
      // step, which tries again.
      this.helper
        ?.then(async (p) => {
          if (await p.remove()) this.onHelper?.(undefined);
        })
        .catch(() => undefined),
      this.planted?.then((p) => p.remove()).catch(() => undefined),
    ]);
  }
}
