// The post step: runs after success, failure and cancel. Removes the command's container if it is still
// there, then applies the cleanup policy. It never fails the job: problems become warnings.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ContainerEngine } from '../engine/engine.js';
import { Git } from '../engine/git.js';
import { privateStorePath, sandboxRefs } from '../sandbox/bookkeeping.js';
import { whereIs, type PreparedSandbox, type Sandbox } from '../sandbox/layout.js';
import { containerNotePath, withRepositoryLock } from '../sandbox/lock.js';
import { removeSandbox } from '../sandbox/remove.js';
import { collectChanges } from './collect.js';
import { commitsNotIn, holdsWork, type WorktreeReport } from './report.js';
import type { RunState } from './state.js';
import type { Ui } from './ui.js';

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
  // A killed run's network sidecar (src/network/session.ts names it after the command's container), after
  // the command's: Podman keeps a container that another one still joins.
  if (state.container && (await engine.removeContainer(`${state.container}-net`)))
    ui.info(`Removed container ${state.container}-net.`);
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

function describeWork(report: WorktreeReport): string {
  const parts = [];
  if (report.uncommitted.length) parts.push(`${report.uncommitted.length} uncommitted file(s)`);
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
 * snapshot) and commits no remote has as a bundle (from the parent), both under RUNNER_TEMP.
 */
async function saveWork(
  git: Git,
  sandbox: PreparedSandbox,
  report: WorktreeReport,
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
      '--remotes',
    ]);
    ui.info(
      `Saved ${report.unpushedCommits} commit(s) of ${sandbox.name} that no remote has to ${saved.bundle}.`,
    );
  }
  return saved;
}
