// The post step: runs after success, failure and cancel. Removes the command's container if it is still
// there, then applies the cleanup policy. It never fails the job: problems become warnings.
// Everything after the container happens under the sandbox's lock, as every removal does: another run
// (another job on the same branch) may be using the sandbox, and then nothing of it is touched.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { EngineCommands } from '../engine/engine-commands.js';
import { NO_EXTERNAL_DIFF, type GitCommands } from '../engine/git-commands.js';
import { PROBE_FILE_PREFIX, PROBE_NAME } from '../engine/engine-probe.js';
import { createEngine } from '../engine/engine.js';
import { createGit } from '../engine/git.js';
import { sandboxHelperLabels } from '../engine/labels.js';
import { sidecarName } from '../network/leftovers.js';
import { privateStorePath, sandboxRefs } from '../sandbox/bookkeeping.js';
import { reportCleared } from '../sandbox/git-traps.js';
import { type PreparedSandbox, type Sandbox, whereIs } from '../sandbox/layout.js';
import {
  containerNotePath,
  LOCK_STALE_MS,
  lockSandbox,
  LockTimeoutError,
  type Release,
  withRepositoryLock,
} from '../sandbox/lock.js';
import { removeSandbox } from '../sandbox/remove.js';
import { countUnsaved, describeUnsaved, savedRefs, type UnsavedCommits } from '../sandbox/saved.js';
import { collectChanges } from './collect.js';
import { holdsWork, type WorkFacts } from './report.js';
import type { RunState } from './run-state.js';
import type { Ui } from '../ui/ui.js';
import { sandboxText } from '../ui/sandbox-text.js';

export interface CleanupOutcome {
  removed: boolean;
  kept?: string;
  /** The commits that kept the sandbox, as data. */
  unsaved?: UnsavedCommits;
  /** Who held the sandbox's lock, when another run did (nothing was removed then). */
  heldBy?: string;
  patch?: string;
  bundle?: string;
}

/**
 * How long the post step waits for the sandbox's lock: long enough for the lock of a main step that was
 * killed (on cancel) to go stale, so that its own run's lock never keeps it; a live holder refreshes its
 * lock, and the post step then gives up and touches nothing.
 */
export const POST_LOCK_WAIT_MS = LOCK_STALE_MS + 3_000;

export interface CleanupOptions {
  /** How long to wait for the sandbox's lock (default POST_LOCK_WAIT_MS). */
  lockWaitMs?: number;
  /** The caller's run holds the sandbox's lock in this very process (the CLI's Ctrl-C): used as it is. */
  lockHeld?: boolean;
}

export async function cleanupRun(
  state: RunState,
  ui: Ui,
  tempDir: string,
  options: CleanupOptions = {},
): Promise<CleanupOutcome> {
  const engine = createEngine(state.engine);
  const sandbox = state.location;
  // With the engine's view unproven, only a command container the engine created proves it (asked before
  // it goes: removing a container that never was may succeed too).
  const proven =
    !state.viewProof ||
    state.exitCode !== undefined ||
    (!!state.container && (await engine.containerExists(state.container)) === true);
  const containerGone = state.container ? await engine.removeContainer(state.container) : false;
  if (containerGone) ui.info(`Removed container ${state.container}.`);
  // A killed run's network sidecar (named after the command's container), after the command's: Podman
  // keeps a container that another one still joins.
  const sidecar = state.container && sidecarName(state.container);
  if (sidecar && (await engine.removeContainer(sidecar))) ui.info(`Removed container ${sidecar}.`);
  if (state.viewProof) {
    await removeProbeFiles(state.viewProof.files);
    // The engine never created the command's container that was to prove it sees the sandbox's folders:
    // a helper now might find other folders under the same names.
    if (!proven)
      return keep(
        ui,
        sandbox,
        "the main step stopped before the engine was shown to see its folders (its command's container was never created): nothing of it was touched",
      );
  }
  const lock = options.lockHeld
    ? { release: async () => undefined }
    : await lockForCleanup(sandbox, options.lockWaitMs ?? POST_LOCK_WAIT_MS);
  if ('heldBy' in lock) {
    const who = lock.heldBy ? `another run holds it (${lock.heldBy})` : 'another run holds its lock';
    return { ...keep(ui, sandbox, `${who}: nothing of it was touched`), heldBy: lock.heldBy };
  }
  if ('failed' in lock)
    return keep(ui, sandbox, `its lock could not be taken (${lock.failed}): nothing of it was touched`);
  try {
    // The note says a container of this sandbox may exist: ours is gone, and no other run holds it.
    if (containerGone) await fs.rm(containerNotePath(sandbox.parent.gitDir, sandbox.name), { force: true });
    return await cleanupLocked(state, engine, ui, tempDir);
  } finally {
    await lock.release();
  }
}

/**
 * The engine-view probe's helper that a main step killed before its end left (created, never started):
 * removed, whatever else the main step got to (it is saved before anything else). Never throws: the helper
 * is labelled, and the reaper removes such helpers after an hour (engine-probe.ts, removeStaleProbes).
 */
export async function removeLeftProbe(state: Partial<RunState> | undefined, ui: Ui): Promise<void> {
  const probe = state?.probe;
  if (!probe || !PROBE_NAME.test(probe.name)) return;
  const engine = createEngine(probe.engine);
  // Asked first: removing a container that is not there succeeds too, with some engines.
  if ((await engine.containerExists(probe.name).catch(() => undefined)) !== true) return;
  if (await engine.removeContainer(probe.name).catch(() => false))
    ui.info(`Removed the helper ${probe.name} that checked what the engine sees.`);
}

async function lockForCleanup(
  sandbox: Sandbox,
  waitMs: number,
): Promise<{ release: Release } | { heldBy: string } | { failed: string }> {
  try {
    return { release: await lockSandbox(sandbox.parent.gitDir, sandbox.name, waitMs) };
  } catch (error) {
    if (error instanceof LockTimeoutError) return { heldBy: error.holder };
    // Without the lock nothing is removed (the parent may be gone: the reaper sees to orphans).
    return { failed: (error as Error).message };
  }
}

async function cleanupLocked(
  state: RunState,
  engine: EngineCommands,
  ui: Ui,
  tempDir: string,
): Promise<CleanupOutcome> {
  const git = await createGit();
  const sandbox = state.location;
  if (!state.ready) return recoverHalfCreated(git, engine, sandbox, ui);
  if (state.secretsFound)
    return keep(
      ui,
      sandbox,
      'the secret scan held its work back: kept for a person to look at, whatever cleanup says',
    );
  if (state.cleanup === 'never') return keep(ui, sandbox, 'cleanup: never');
  if (state.cleanup === 'auto' && sandbox.kind === 'persistent')
    return keep(ui, sandbox, 'persistent sandboxes are kept for reuse (cleanup: auto)');
  const prepared: PreparedSandbox = { ...sandbox, reused: true, startSha: state.startSha ?? '' };
  // The main step stopped before it brought the work back: do it now, the same way.
  let collected = state.report;
  if (!collected) {
    try {
      const report = await collectChanges(git, engine, prepared, { ...state.collect, image: state.image });
      reportCleared(ui, sandbox.name, report.trapsCleared ?? []);
      collected = report;
    } catch (error) {
      // Work that cannot be brought back (over max-import-size, a capture that fails or runs out) cannot
      // be saved either: the sandbox is kept whatever the policy, so that nothing is lost; the reaper
      // judges it later like any other.
      const why = `its work could not be brought back, so it could not be saved (${sandboxText((error as Error).message)})`;
      ui.warning(`Kept sandbox ${sandbox.name} (${whereIs(sandbox)}): ${why}.`);
      return { removed: false, kept: why };
    }
  }
  // Counted now, not when the report was made: the main step may have pushed since. Saved means what the
  // reaper means (src/sandbox/saved.ts): on a remote or a tag; on a branch only in a parent with no remote.
  const saved = await savedRefs(git, sandbox.parent.path);
  const count = await countUnsaved(git, sandbox.parent.path, [sandboxRefs(sandbox).head], saved);
  const unsaved: UnsavedCommits | undefined =
    count?.count === 0
      ? undefined
      : {
          count: count?.count ?? 1,
          ...(count === undefined || count.atLeast ? { atLeast: true } : {}),
          branch: collected.currentBranch || sandbox.branch || undefined,
          hasRemote: saved.hasRemote,
        };
  const report = { ...collected, unpushedCommits: unsaved?.count ?? 0 };
  if (state.cleanup === 'auto') {
    if (holdsWork(report)) return { ...keep(ui, sandbox, describeWork(report, unsaved)), unsaved };
    await removeSandbox(git, engine, sandbox);
    ui.info(`Removed transient sandbox ${sandbox.name}: it held no work.`);
    return { removed: true };
  }
  const files = holdsWork(report) ? await saveWork(git, prepared, report, saved.revs, tempDir, ui) : {};
  await removeSandbox(git, engine, sandbox);
  ui.info(`Removed sandbox ${sandbox.name} (cleanup: always).`);
  return { removed: true, ...files };
}

/** A killed run's probe files (named as the probe names them; anything else named there is left). */
async function removeProbeFiles(files: readonly string[]): Promise<void> {
  await Promise.all(
    files
      .filter((file) => path.isAbsolute(file) && path.basename(file).startsWith(PROBE_FILE_PREFIX))
      .map((file) => fs.rm(file, { force: true }).catch(() => undefined)),
  );
}

function keep(ui: Ui, sandbox: Sandbox, why: string): CleanupOutcome {
  ui.info(`Kept sandbox ${sandbox.name} (${whereIs(sandbox)}): ${why}.`);
  return { removed: false, kept: why };
}

function describeWork(report: WorkFacts, unsaved: UnsavedCommits | undefined): string {
  const parts = [];
  if (report.uncommittedCount || !report.uncommittedExact)
    parts.push(`${report.uncommittedExact ? '' : 'at least '}${report.uncommittedCount} uncommitted file(s)`);
  if (unsaved) parts.push(describeUnsaved(unsaved));
  return `it holds work: ${parts.join(', ')}`;
}

/** The main step stopped while creating the sandbox: undo what it half-created, keep anything whole. */
async function recoverHalfCreated(
  git: GitCommands,
  engine: EngineCommands,
  sandbox: Sandbox,
  ui: Ui,
): Promise<CleanupOutcome> {
  const refs = sandboxRefs(sandbox);
  const { parent } = sandbox;
  // Creation writes the sandbox without the repository lock, holding only the sandbox's: a `creating`
  // record may be another run's creation under way. cleanupRun holds the sandbox's lock here (it waited
  // longer than a dead main step's lock stays live), so no live run is creating it now.
  // Only a `creating` record says that this action made something there; without any record, nothing of
  // ours is there (what is, is not touched).
  const half = await withRepositoryLock(parent.gitDir, () => git.refExists(parent.path, refs.creating));
  if (!half) return keep(ui, sandbox, 'no creation of it was under way when the main step stopped');
  // The create helper the main step started may still be writing the volume: it goes first.
  await engine.removeContainersLabelled(sandboxHelperLabels(sandbox)).catch(() => undefined);
  await removeSandbox(git, engine, sandbox).catch(() => undefined);
  ui.info(
    `The main step stopped before sandbox ${sandbox.name} was ready: removed what it had half-created.`,
  );
  return { removed: true };
}

/**
 * `cleanup: always` with work in the sandbox: uncommitted work as a binary patch (from the private store's
 * snapshot) and the commits the parent has not saved as a bundle (from the parent), both under RUNNER_TEMP.
 */
async function saveWork(
  git: GitCommands,
  sandbox: PreparedSandbox,
  report: WorkFacts,
  savedRevs: readonly string[],
  tempDir: string,
  ui: Ui,
): Promise<{ patch?: string; bundle?: string }> {
  const dir = path.join(tempDir, 'worktree-sandbox');
  await fs.mkdir(dir, { recursive: true });
  const base = path.join(dir, `${sandbox.project}-${sandbox.name}`);
  const saved: { patch?: string; bundle?: string } = {};
  if (report.uncommittedCount || !report.uncommittedExact) {
    const store = privateStorePath(sandbox.parent, sandbox);
    saved.patch = await saveUncommitted(git, store, base, report);
    ui.info(`Saved the uncommitted work of ${sandbox.name} to ${saved.patch}.`);
  }
  if (report.unpushedCommits > 0) {
    saved.bundle = `${base}.bundle`;
    await git.run(sandbox.parent.path, [
      'bundle',
      'create',
      '--quiet',
      saved.bundle,
      sandboxRefs(sandbox).head,
      '--not',
      ...savedRevs,
    ]);
    ui.info(
      `Saved ${report.unpushedCommits} commit(s) of ${sandbox.name} that no remote has to ${saved.bundle}.`,
    );
  }
  return saved;
}

/** Up to this many uncommitted files, they are saved as a patch; above, as a bundle of the snapshot commit. */
const PATCH_MAX_PATHS = 10_000;
/** The largest patch written; a larger one is replaced by the bundle. */
const PATCH_MAX_BYTES = 2 * 1024 ** 3;

/**
 * The uncommitted work as a binary patch, streamed to its file (never held here); when there are too many
 * files for git's diff to stay small (it holds every path it compares), or the patch would be larger than
 * PATCH_MAX_BYTES, as a bundle of the snapshot commit instead (`git fetch <bundle>` then `git checkout`
 * it): a bundle stores each object once, however many paths name it.
 */
async function saveUncommitted(
  git: GitCommands,
  store: string,
  base: string,
  work: WorkFacts,
): Promise<string> {
  const patch = `${base}.patch`;
  if (work.uncommittedExact && work.uncommittedCount <= PATCH_MAX_PATHS) {
    await fs.rm(patch, { force: true });
    const written = await git.stream(
      store,
      ['diff', '--binary', ...NO_EXTERNAL_DIFF, 'refs/run/head', 'refs/run/snapshot', '--'],
      { stdoutFile: { path: patch, maxBytes: PATCH_MAX_BYTES } },
    );
    if (written.exitCode === 0 && !written.overLimit) return patch;
    await fs.rm(patch, { force: true });
    if (!written.overLimit) throw new Error(`git diff failed: ${written.stderrTail.slice(-3).join(' ')}`);
  }
  const bundle = `${base}.uncommitted.bundle`;
  await git.run(store, [
    'bundle',
    'create',
    '--quiet',
    bundle,
    'refs/run/snapshot',
    '--not',
    'refs/run/head',
  ]);
  return bundle;
}
