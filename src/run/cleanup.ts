// The post step: runs after success, failure and cancel. Removes the command's container if it is still
// there, then applies the cleanup policy. It never fails the job: problems become warnings.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ContainerEngine } from '../engine/engine.js';
import { Git } from '../engine/git.js';
import { sandboxHelperLabels } from '../engine/labels.js';
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
import { collectChanges } from './collect.js';
import { commitsNotIn, holdsWork, type WorkFacts } from './report.js';
import type { RunState } from './state.js';
import type { Ui } from '../ui/ui.js';
import { sandboxText } from '../ui/sandbox-text.js';

export interface CleanupOutcome {
  removed: boolean;
  kept?: string;
  patch?: string;
  bundle?: string;
}

export async function cleanupRun(state: RunState, ui: Ui, tempDir: string): Promise<CleanupOutcome> {
  const engine = new ContainerEngine(state.engine);
  if (state.container && (await engine.removeContainer(state.container))) {
    ui.info(`Removed container ${state.container}.`);
    await fs.rm(containerNotePath(state.location.parent.gitDir, state.location.name), { force: true });
  }
  const git = await Git.create();
  const sandbox = state.location;
  if (!state.ready) return recoverHalfCreated(git, engine, sandbox, ui);
  if (state.cleanup === 'never') return keep(ui, sandbox, 'cleanup: never');
  if (state.cleanup === 'auto' && sandbox.kind === 'persistent')
    return keep(ui, sandbox, 'persistent sandboxes are kept for reuse (cleanup: auto)');
  const prepared: PreparedSandbox = { ...sandbox, reused: true, startSha: state.startSha ?? '' };
  // The main step stopped before it brought the work back: do it now, the same way.
  let collected = state.report;
  if (!collected) {
    try {
      collected = await collectChanges(git, engine, prepared, { ...state.collect, image: state.image });
    } catch (error) {
      // Work that cannot be brought back (over max-import-size, a capture that fails or runs out): kept
      // unless the policy removes the sandbox whatever it holds.
      const why = `its work could not be brought back (${sandboxText((error as Error).message)})`;
      if (state.cleanup !== 'always') return keep(ui, sandbox, why);
      ui.warning(`Removing sandbox ${sandbox.name} all the same (cleanup: always): ${why}.`);
      await removeSandbox(git, engine, sandbox);
      ui.info(`Removed sandbox ${sandbox.name} (cleanup: always).`);
      return { removed: true };
    }
  }
  // Counted now, not when the report was made: the main step may have pushed since.
  const report = { ...collected, unpushedCommits: await unpushedNow(git, sandbox, state.startSha) };
  if (state.cleanup === 'auto') {
    if (holdsWork(report)) return keep(ui, sandbox, describeWork(report));
    await removeSandbox(git, engine, sandbox);
    ui.info(`Removed transient sandbox ${sandbox.name}: it held no work.`);
    return { removed: true };
  }
  const saved = holdsWork(report) ? await saveWork(git, prepared, report, tempDir, ui) : {};
  await removeSandbox(git, engine, sandbox);
  ui.info(`Removed sandbox ${sandbox.name} (cleanup: always).`);
  return { removed: true, ...saved };
}

/** The sandbox's recorded commits that no remote-tracking ref of the parent has. */
async function unpushedNow(git: Git, sandbox: Sandbox, startSha?: string): Promise<number> {
  // Commits since the sandbox's run started that no remote has (what it started from is the parent's).
  const since = startSha && /^[0-9a-f]{40,64}$/.test(startSha) ? [startSha] : [];
  return commitsNotIn(git, sandbox.parent.path, sandboxRefs(sandbox).head, [...since, '--remotes']);
}

function keep(ui: Ui, sandbox: Sandbox, why: string): CleanupOutcome {
  ui.info(`Kept sandbox ${sandbox.name} (${whereIs(sandbox)}): ${why}.`);
  return { removed: false, kept: why };
}

function describeWork(report: WorkFacts): string {
  const parts = [];
  if (report.uncommittedCount || !report.uncommittedExact)
    parts.push(`${report.uncommittedExact ? '' : 'at least '}${report.uncommittedCount} uncommitted file(s)`);
  if (report.unpushedCommits) parts.push(`${report.unpushedCommits} commit(s) on no remote`);
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
  // Creation writes the sandbox without the repository lock, holding only the sandbox's: a `creating`
  // record may be another run's creation under way. The sandbox's lock says: the main step's own lock
  // goes stale LOCK_STALE_MS after it died, so waiting a little longer than that tells a dead holder
  // from a live one. A live one keeps the sandbox: its run finishes or recovers it.
  let release: Release;
  try {
    release = await lockSandbox(parent.gitDir, sandbox.name, LOCK_STALE_MS + 5_000);
  } catch (error) {
    if (!(error instanceof LockTimeoutError)) throw error;
    return keep(ui, sandbox, 'another run holds it now');
  }
  try {
    // Only a `creating` record says that this action made something there; without any record, nothing
    // of ours is there (what is, is not touched).
    const half = await withRepositoryLock(parent.gitDir, () => git.refExists(parent.path, refs.creating));
    if (!half) return keep(ui, sandbox, 'no creation of it was under way when the main step stopped');
    // The create helper the main step started may still be writing the volume: it goes first.
    await engine.removeContainersLabelled(sandboxHelperLabels(sandbox)).catch(() => undefined);
    await removeSandbox(git, engine, sandbox).catch(() => undefined);
  } finally {
    await release();
  }
  ui.info(
    `The main step stopped before sandbox ${sandbox.name} was ready: removed what it had half-created.`,
  );
  return { removed: true };
}

/**
 * `cleanup: always` with work in the sandbox: uncommitted work as a binary patch (from the private store's
 * snapshot) and commits no remote has as a bundle (from the parent), both under RUNNER_TEMP.
 */
async function saveWork(
  git: Git,
  sandbox: PreparedSandbox,
  report: WorkFacts,
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
      '--remotes',
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
async function saveUncommitted(git: Git, store: string, base: string, work: WorkFacts): Promise<string> {
  const patch = `${base}.patch`;
  if (work.uncommittedExact && work.uncommittedCount <= PATCH_MAX_PATHS) {
    await fs.rm(patch, { force: true });
    const written = await git.stream(
      store,
      [
        'diff',
        '--binary',
        '--no-ext-diff',
        '--no-textconv',
        '--no-renames',
        'refs/run/head',
        'refs/run/snapshot',
        '--',
      ],
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
