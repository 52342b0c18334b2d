// Run mode, as a story: validate, find the parent, resolve the branch, prepare the sandbox, run the
// command, report, push. Each step is a function; each long step a log group.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { resolveBranch } from './branch.js';
import { commandLabels, runCommand, type CommandResult } from './command-run.js';
import { ContainerEngine } from './docker.js';
import { Git } from './git.js';
import {
  GitGuard,
  guardDirectory,
  recoverGuard,
  runGuarded,
  verifyParent,
  type GuardReport,
} from './guard.js';
import { lockSandbox, withRepositoryLock } from './lock.js';
import { announceRefs } from './metadata-changes.js';
import { persistentSandboxName } from './naming.js';
import { pushBranch, type PushResult } from './push.js';
import { inspectWorktree, type WorktreeReport } from './report.js';
import { findParentRepository } from './repository.js';
import { clearStaleWorktreeLocks, locateSandbox, prepareSandbox, type Sandbox } from './sandbox.js';
import { validateBranchNames, type RunSettings } from './settings.js';
import type { RunState } from './state.js';
import type { Ui } from './ui.js';
import { findWorktreeEntry } from './worktree-metadata.js';

export interface RunOutcome {
  sandbox: Sandbox;
  command: CommandResult;
  report: WorktreeReport;
  push?: PushResult;
  /** What the command changed outside its sandbox (undone). */
  boundary: GuardReport;
}

export interface RunDeps {
  ui: Ui;
  /** Persist progress for the post step (or nothing, from the CLI). */
  save: (state: Partial<RunState>) => void;
  /** Extra wiring from the PR bot: files to mount, variables to set. */
  command?: { readOnlyFiles?: string[]; extraEnv?: Record<string, string> };
  /**
   * PR bot, with `push: true`: where the sandbox's HEAD goes instead of its own branch on origin (a fork),
   * or why nothing is pushed (the changes are still committed, for a patch).
   */
  pushTo?: PushDestination | { withheld: string };
}

export interface PushDestination {
  url: string;
  branch: string;
  /** Updated after a push, so that the pushed commits count as on a remote. */
  trackingRef: string;
  /** How reports name the destination (`origin/feature`). */
  label: string;
}

export async function runSandbox(settings: RunSettings, deps: RunDeps): Promise<RunOutcome> {
  const { ui } = deps;
  if (settings.token) ui.mask(settings.token);
  const engine = new ContainerEngine(settings.engine);
  // Start-up latency counts (a reused sandbox should start almost as fast as a bare `docker run`): the image
  // check, which is also the engine's reachability check, overlaps the git questions and is awaited before
  // anything is created; independent git questions are asked at the same time.
  const imageReady = engine.ensureImage(settings.image);
  imageReady.catch(() => undefined); // awaited below; an earlier failure must not leave it unhandled
  const git = await Git.create();
  // Asked at the same time, but a bad branch name is the error reported whenever it is one (the parent's
  // failure, if any, is awaited second: Promise.all would report whichever fails first).
  const parentFound = findParentRepository(git, settings.repositoryPath);
  parentFound.catch(() => undefined); // awaited below
  await validateBranchNames(settings, (name) => git.isValidBranchName(name));
  const parent = await parentFound;
  if (parent.resolvedFrom)
    ui.info(`${parent.resolvedFrom} is a linked worktree: working from its parent ${parent.path}.`);
  const plan = await withRepositoryLock(parent.gitDir, async () => {
    // A transient sandbox's name is new; a branch's sandbox is this run's, recovered under its lock below.
    const sandbox = settings.branch ? persistentSandboxName(settings.branch) : 'transient';
    await verifyParent(git, engine, parent, sandbox, ui);
    return resolveBranch(git, parent, settings.branch, settings.base);
  });
  const worktreeRoot =
    settings.isolation === 'disk' ? await realRoot(settings.worktreeRoot) : settings.worktreeRoot;
  const location = locateSandbox(plan, parent, settings.isolation, worktreeRoot, settings.volumePrefix);
  const originUrl = settings.push ? await git.remoteUrl(parent.path, 'origin') : undefined;
  if (settings.push && !originUrl && !deps.pushTo)
    throw new Error(`push: true needs a remote named origin in ${parent.path}.`);
  await imageReady;

  const release = await lockSandbox(
    parent.gitDir,
    location.name,
    settings.lockTimeoutMinutes * 60_000,
    (msg) => ui.info(msg),
  );
  try {
    deps.save({ engine: settings.engine, image: settings.image, cleanup: settings.cleanup, location });
    const guardDir = guardDirectory(location);
    const interrupted = await recoverGuard(git, engine, guardDir, ui);
    if (interrupted) enforceBoundary(interrupted, settings.strict);
    const sandbox = await ui.group(
      `Sandbox ${location.name} (${location.kind}, ${location.isolation})`,
      async () => {
        // We hold the sandbox lock, so a command container still there belongs to a run that was killed.
        const [created, orphans] = await Promise.all([
          prepareSandbox(git, engine, location, plan, settings.image, ui),
          engine.removeContainersLabelled(commandLabels(location)),
        ]);
        if (orphans.length)
          ui.info(`Removed container(s) left by a run that was killed: ${orphans.join(', ')}.`);
        await clearStaleWorktreeLocks(created, (m) => ui.info(m));
        describeSandbox(ui, created, plan.source);
        return created;
      },
    );
    deps.save({ ready: true, startSha: sandbox.startSha });

    const guard = await GitGuard.take(git, engine, sandbox, guardDir, ui);
    deps.save({ guardDir });
    const { value: command, guard: boundary } = await runGuarded(guard, git, engine, ui, () =>
      ui.group(`Run: ${firstLine(settings.command)}`, () =>
        ui.untrusted((write) =>
          runCommand(
            engine,
            sandbox,
            { ...settings, readOnlyFiles: deps.command?.readOnlyFiles, extraEnv: deps.command?.extraEnv },
            {
              onStart: (container) => {
                guard.noteContainer(container);
                deps.save({ container });
              },
              onLine: write,
            },
          ),
        ),
      ),
    );
    deps.save({ container: undefined, guardDir: undefined });
    reportCommand(ui, command);
    enforceBoundary(boundary, settings.strict);

    const wantsCommit = settings.push && !!sandbox.branch;
    const report = await ui.group('Report', async () => {
      const r = wantsCommit
        ? await commitAndInspect(git, engine, sandbox, settings)
        : await inspectWorktree(git, engine, sandbox, settings.image, sandbox.startSha);
      ui.info(r.diffStat || 'No changes.');
      return r;
    });
    deps.save({ report });

    let push: PushResult | undefined;
    if (settings.push) {
      const to = deps.pushTo ?? {
        url: originUrl!,
        branch: sandbox.branch,
        trackingRef: `refs/remotes/origin/${sandbox.branch}`,
        label: `origin/${sandbox.branch}`,
      };
      push = await ui.group('Push', () => pushSandbox(git, sandbox, report, to, settings.token, ui));
    }
    return { sandbox, command, report, push, boundary };
  } finally {
    await release();
  }
}

/**
 * The leftovers committed on the sandbox's branch, a ref every worktree shares: under the repository lock,
 * announced to the git guards of commands running in other sandboxes meanwhile.
 */
async function commitAndInspect(
  git: Git,
  engine: ContainerEngine,
  sandbox: Sandbox,
  settings: RunSettings,
): Promise<WorktreeReport> {
  // Only on its own branch: a command that checked out another branch does not get it moved by the host.
  const onBranch = (await readWorktreeHead(sandbox)) === `ref: refs/heads/${sandbox.branch}`;
  return withRepositoryLock(sandbox.parent.gitDir, async () => {
    const report = await inspectWorktree(
      git,
      engine,
      sandbox,
      settings.image,
      sandbox.startSha,
      onBranch
        ? { message: settings.commitMessage, author: settings.author, committer: settings.committer }
        : undefined,
    );
    if (report.committed && report.currentBranch === sandbox.branch)
      await announceRefs(git, sandbox.parent, [
        { name: `refs/heads/${sandbox.branch}`, value: report.headSha },
      ]);
    return report;
  });
}

/** The worktree's HEAD as its admin folder on the host holds it (`ref: refs/heads/x` or a commit). */
async function readWorktreeHead(sandbox: Sandbox): Promise<string> {
  const entry = await findWorktreeEntry(sandbox.parent.gitDir, sandbox.worktreePath);
  if (!entry) return '';
  return (await fs.readFile(path.join(entry.adminDir, 'HEAD'), 'utf8').catch(() => '')).trim();
}

async function pushSandbox(
  git: Git,
  sandbox: Sandbox,
  report: WorktreeReport,
  to: PushDestination | { withheld: string },
  token: string,
  ui: Ui,
): Promise<PushResult> {
  if (!sandbox.branch) return { pushed: false, reason: 'a transient sandbox has no branch to push' };
  if (report.currentBranch !== sandbox.branch) {
    return {
      pushed: false,
      reason: `the sandbox is no longer on ${sandbox.branch} (HEAD: ${report.currentBranch || 'detached'}); nothing pushed`,
    };
  }
  if ('withheld' in to) {
    if (report.commits === 0) return { pushed: false, reason: 'no new commits' };
    ui.info(`Nothing pushed: ${to.withheld}.`);
    return { pushed: false, reason: to.withheld };
  }
  // Counted against the destination, not against this run's start: a run killed before its push
  // completed left commits that the next run must still push.
  const unpushed = await unpushedCount(git, sandbox, report.headSha, to.trackingRef);
  if (unpushed === 0) return { pushed: false, reason: `no commits that ${to.label} does not have` };
  const result = await pushBranch(git, sandbox.parent, to.url, to.branch, report.headSha, token, {
    trackingRef: to.trackingRef,
    label: to.label,
  });
  if (result.pushed) ui.info(`Pushed ${unpushed} commit(s) to ${to.label}.`);
  else ui.warning(result.reason ?? 'push failed');
  return result;
}

async function unpushedCount(git: Git, sandbox: Sandbox, headSha: string, tracking: string): Promise<number> {
  const not = (await git.refExists(sandbox.parent.path, tracking)) ? [tracking] : ['--remotes'];
  const out = await git.exec(sandbox.parent.path, ['rev-list', '--count', headSha, '--not', ...not, '--']);
  return out.exitCode === 0 ? Number(out.stdout.trim()) : 1;
}

function describeSandbox(ui: Ui, sandbox: Sandbox, source: string): void {
  const where = sandbox.volume
    ? `volume ${sandbox.volume}, ${sandbox.worktreePath} in the container`
    : sandbox.hostPath!;
  const what = sandbox.branch
    ? `branch ${sandbox.branch} (${sandbox.reused ? 'reused' : source})`
    : `detached at ${sandbox.startSha.slice(0, 12)}`;
  ui.info(`${sandbox.reused ? 'Reusing' : 'Created'} ${sandbox.name}: ${what}; ${where}.`);
}

/** `strict: true` turns any change outside the sandbox (already undone) into a failure of the step. */
function enforceBoundary(report: GuardReport, strict: boolean): void {
  if (!strict || report.violations.length === 0) return;
  throw new Error(
    `strict: the command changed ${report.violations.length} thing(s) outside its sandbox (each undone): ${report.violations.join('; ')}.`,
  );
}

function reportCommand(ui: Ui, command: CommandResult): void {
  const seconds = (command.durationMs / 1000).toFixed(1);
  if (command.timedOut)
    ui.warning(
      `The command was stopped by timeout-minutes after ${seconds}s (exit code ${command.exitCode}).`,
    );
  else if (command.oomKilled)
    ui.warning(`The command was killed by the memory limit (exit code ${command.exitCode}).`);
  else ui.info(`The command exited with code ${command.exitCode} after ${seconds}s.`);
}

/** The real path of a folder that may not exist yet (its nearest existing ancestor resolved), creating nothing. */
export async function realRoot(root: string): Promise<string> {
  const rest: string[] = [];
  let current = path.resolve(root);
  for (;;) {
    try {
      return path.join(await fs.realpath(current), ...rest.reverse());
    } catch {
      const up = path.dirname(current);
      if (up === current) return path.resolve(root);
      rest.push(path.basename(current));
      current = up;
    }
  }
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0];
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}
