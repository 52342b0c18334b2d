// The post step: runs after success, failure and cancel. Removes the command's container if it is still
// there, then applies the cleanup policy. It never fails the job: problems become warnings.
// Everything after the container happens under the sandbox's lock, as every removal does: another run
// (another job on the same branch) may be using the sandbox, and then nothing of it is touched.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ContainerEngine } from '../engine/engine.js';
import { Git } from '../engine/git.js';
import { privateStorePath, sandboxRefs } from '../sandbox/bookkeeping.js';
import { whereIs, type PreparedSandbox, type Sandbox } from '../sandbox/layout.js';
import {
  containerNotePath,
  LOCK_STALE_MS,
  LockTimeoutError,
  lockSandbox,
  withRepositoryLock,
  type Release,
} from '../sandbox/lock.js';
import { removeSandbox } from '../sandbox/remove.js';
import { countUnsaved, describeUnsaved, savedRefs, type UnsavedCommits } from '../sandbox/saved.js';
import { collectChanges } from './collect.js';
import { holdsWork, type WorktreeReport } from './report.js';
import type { RunState } from './state.js';
import type { Ui } from './ui.js';

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
  const engine = new ContainerEngine(state.engine);
  const sandbox = state.location;
  const containerGone = state.container ? await engine.removeContainer(state.container) : false;
  if (containerGone) ui.info(`Removed container ${state.container}.`);
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
  engine: ContainerEngine,
  ui: Ui,
  tempDir: string,
): Promise<CleanupOutcome> {
  const git = await Git.create();
  const sandbox = state.location;
  if (!state.ready) return recoverHalfCreated(git, engine, sandbox, ui);
  if (state.cleanup === 'never') return keep(ui, sandbox, 'cleanup: never');
  if (state.cleanup === 'auto' && sandbox.kind === 'persistent')
    return keep(ui, sandbox, 'persistent sandboxes are kept for reuse (cleanup: auto)');
  const prepared: PreparedSandbox = { ...sandbox, reused: true, startSha: state.startSha ?? '' };
  // The main step stopped before it brought the work back: do it now, the same way.
  const collected =
    state.report ?? (await collectChanges(git, engine, prepared, { ...state.collect, image: state.image }));
  // Counted now, not when the report was made: the main step may have pushed since. Saved means what the
  // reaper means (src/sandbox/saved.ts): on a remote or a tag; on a branch only in a parent with no remote.
  const saved = await savedRefs(git, sandbox.parent.path);
  const count = await countUnsaved(git, sandbox.parent.path, [sandboxRefs(sandbox).head], saved);
  const unsaved: UnsavedCommits | undefined =
    count === 0
      ? undefined
      : {
          count: count ?? 1,
          ...(count === undefined ? { atLeast: true } : {}),
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

function keep(ui: Ui, sandbox: Sandbox, why: string): CleanupOutcome {
  ui.info(`Kept sandbox ${sandbox.name} (${whereIs(sandbox)}): ${why}.`);
  return { removed: false, kept: why };
}

function describeWork(report: WorktreeReport, unsaved: UnsavedCommits | undefined): string {
  const parts = [];
  if (report.uncommitted.length) parts.push(`${report.uncommitted.length} uncommitted file(s)`);
  if (unsaved) parts.push(describeUnsaved(unsaved));
  return `it holds work: ${parts.join(', ')}`;
}

/** The main step stopped while creating the sandbox: undo what it half-created, keep anything whole. */
async function recoverHalfCreated(
  git: Git,
  engine: ContainerEngine,
  sandbox: Sandbox,
  ui: Ui,
): Promise<CleanupOutcome> {
  const refs = sandboxRefs(sandbox);
  const { parent } = sandbox;
  const half = await withRepositoryLock(parent.gitDir, async () => {
    // Only a `creating` record says that this action made something there; without any record, nothing
    // of ours is there (what is, is not touched).
    return git.refExists(parent.path, refs.creating);
  });
  if (!half) return keep(ui, sandbox, 'no creation of it was under way when the main step stopped');
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
  git: Git,
  sandbox: PreparedSandbox,
  report: WorktreeReport,
  savedRevs: readonly string[],
  tempDir: string,
  ui: Ui,
): Promise<{ patch?: string; bundle?: string }> {
  const dir = path.join(tempDir, 'worktree-sandbox');
  await fs.mkdir(dir, { recursive: true });
  const base = path.join(dir, `${sandbox.project}-${sandbox.name}`);
  const saved: { patch?: string; bundle?: string } = {};
  if (report.uncommitted.length) {
    const store = privateStorePath(sandbox.parent, sandbox);
    const patch = await git.run(store, [
      'diff',
      '--binary',
      '--no-ext-diff',
      '--no-textconv',
      'refs/run/head',
      'refs/run/snapshot',
      '--',
    ]);
    saved.patch = `${base}.patch`;
    await fs.writeFile(saved.patch, patch);
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
