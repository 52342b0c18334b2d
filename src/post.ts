// The post step: runs after success, failure and cancel. Removes the container if it is still there,
// then applies the cleanup policy. It never fails the job: problems become warnings.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ContainerEngine } from './docker.js';
import { Git } from './git.js';
import { recoverGuard } from './guard.js';
import { withRepositoryLock } from './lock.js';
import { holdsWork, inspectWorktree, type WorktreeReport } from './report.js';
import { removeSandbox, runInWorktree, type SandboxLocation } from './sandbox.js';
import type { RunState } from './state.js';
import type { Ui } from './ui.js';
import { findWorktreeEntry, INITIALIZING, dropEntry } from './worktree-metadata.js';

export interface CleanupOutcome {
  removed: boolean;
  kept?: string;
  patch?: string;
}

export async function cleanupRun(state: RunState, ui: Ui, tempDir: string): Promise<CleanupOutcome> {
  const engine = new ContainerEngine(state.engine);
  if (state.container && (await engine.removeContainer(state.container)))
    ui.info(`Removed container ${state.container}.`);
  const { location } = state;
  // The main step stopped while the command ran: restore what the command may have changed outside its
  // sandbox before any other git command (and the runner's next steps) reads it.
  if (state.guardDir) await recoverGuard(await Git.create(), engine, state.guardDir, ui);
  if (!state.ready) return recoverHalfCreated(engine, location, ui);
  if (state.cleanup === 'never') return keep(ui, location, 'cleanup: never');
  const git = await Git.create();
  const report =
    state.report ?? (await inspectWorktree(git, engine, location, state.image, state.startSha ?? 'HEAD'));
  if (state.cleanup === 'auto') {
    if (location.kind === 'persistent')
      return keep(ui, location, 'persistent sandboxes are kept for reuse (cleanup: auto)');
    if (holdsWork(report)) return keep(ui, location, describeWork(report));
    await removeSandbox(engine, location);
    ui.info(`Removed transient sandbox ${location.name}: it held no work.`);
    return { removed: true };
  }
  let patch: string | undefined;
  if (holdsWork(report)) patch = await savePatch(git, engine, location, state, report, tempDir, ui);
  await removeSandbox(engine, location);
  ui.info(`Removed sandbox ${location.name} (cleanup: always).`);
  return { removed: true, patch };
}

function keep(ui: Ui, location: SandboxLocation, why: string): CleanupOutcome {
  const where = location.volume ? `volume ${location.volume}` : location.hostPath;
  ui.info(`Kept sandbox ${location.name} (${where}): ${why}.`);
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
  engine: ContainerEngine,
  location: SandboxLocation,
  ui: Ui,
): Promise<CleanupOutcome> {
  return withRepositoryLock(location.parent.gitDir, async () => {
    const entry = await findWorktreeEntry(location.parent.gitDir, location.worktreePath);
    if (!entry || entry.locked === INITIALIZING) {
      if (location.hostPath) await fs.rm(location.hostPath, { recursive: true, force: true });
      if (location.volume) await engine.removeVolume(location.volume).catch(() => undefined);
      if (entry) await dropEntry(location.parent.gitDir, entry);
      ui.info(
        `The main step stopped before sandbox ${location.name} was ready: removed what it had half-created.`,
      );
      return { removed: true };
    }
    return keep(ui, location, 'it was ready before the main step stopped');
  });
}

// Uncommitted work as one patch (untracked files included, binary-safe), unsaved commits as a bundle.
export const PATCH_SCRIPT = `set -eu
start="$1"
tmp_index="$(git rev-parse --git-path index).worktree-sandbox"
cp "$(git rev-parse --git-path index)" "$tmp_index"
GIT_INDEX_FILE="$tmp_index" git add -A
GIT_INDEX_FILE="$tmp_index" git diff --no-ext-diff --binary --cached HEAD
rm -f "$tmp_index"
`;

async function savePatch(
  git: Git,
  engine: ContainerEngine,
  location: SandboxLocation,
  state: RunState,
  report: WorktreeReport,
  tempDir: string,
  ui: Ui,
): Promise<string> {
  const dir = path.join(tempDir, 'worktree-sandbox');
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${location.project}-${location.name}.patch`);
  const result = await runInWorktree(git, engine, location, state.image, PATCH_SCRIPT, [
    state.startSha ?? 'HEAD',
  ]);
  if (result.exitCode !== 0)
    throw new Error(
      `Could not save the uncommitted work of ${location.name}; the sandbox is kept: ${result.stderr.trim()}`,
    );
  await fs.writeFile(file, result.stdout);
  ui.info(`Saved the uncommitted work of ${location.name} to ${file}.`);
  if (report.unpushedCommits > 0 && !location.branch) {
    const bundle = file.replace(/\.patch$/, '.bundle');
    const entry = await findWorktreeEntry(location.parent.gitDir, location.worktreePath);
    if (entry) {
      await git.run(location.parent.path, [
        '--git-dir',
        entry.adminDir,
        'bundle',
        'create',
        bundle,
        'HEAD',
        '--not',
        '--remotes',
        '--branches',
      ]);
    }
    ui.info(`Saved ${report.unpushedCommits} unpushed commit(s) of ${location.name} to ${bundle}.`);
  }
  return file;
}
