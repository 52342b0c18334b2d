// Run mode, as the steps of docs/run-mode.md, each awaited in order: the parent repository, the branch,
// the sandbox's name and place, the sandbox (under its lock), the run, the import and the report, the
// push. Each long step is a log group. Start-up devices (questions asked early, guesses at reuse) went
// where they did not measurably pay (ADR 0011; docs/benchmarks.md).
import { createEngine } from '../engine/engine.js';
import type { EngineCommands } from '../engine/engine-commands.js';
import { requireVisible } from '../engine/host-paths.js';
import { createGit } from '../engine/git.js';
import type { GitCommands } from '../engine/git-commands.js';
import { resolveBranch, type BranchPlan } from '../sandbox/branch.js';
import { prepareSandbox } from '../sandbox/create.js';
import { sandboxRefs } from '../sandbox/bookkeeping.js';
import { EngineViewProof, mountedPaths, probedFolders } from '../sandbox/engine-view.js';
import { locateSandbox, realRoot, whereIs, type PreparedSandbox, type Sandbox } from '../sandbox/layout.js';
import { lockSandbox } from '../sandbox/lock.js';
import { findParentRepository } from '../sandbox/repository.js';
import { reportCleared, type ClearedTrap } from '../sandbox/git-traps.js';
import { offerUpstream } from '../sandbox/reuse.js';
import { validateBranchNames, type RunSettings } from '../settings/settings.js';
import type { Ui } from '../ui/ui.js';
import { collectChanges } from './collect.js';
import { removeLeftNetworkContainers } from '../network/leftovers.js';
import { isProxied } from '../network/policy.js';
import { containerName, removeLeftContainers, runCommand, startCommandNetwork } from './command.js';
import { pushSandbox, type PushResult } from './push.js';
import { describeSandbox, firstLine, reportCommand } from './run-log.js';
import { reportReply } from './reply.js';
import { checkReply, secretGate } from './secret-gate.js';
import { knownSecrets } from './secret-values.js';
import type { RunDeps, RunOutcome } from './run-types.js';

export type { RunDeps, RunOutcome } from './run-types.js';

export async function runSandbox(settings: RunSettings, deps: RunDeps): Promise<RunOutcome> {
  const { ui } = deps;
  maskSecrets(settings, ui);
  const engine = createEngine(settings.engine);
  const git = await createGit();
  // 1. The parent repository (a bad branch name is the error reported whenever it is one).
  await validateBranchNames(settings, (name) => git.isValidBranchName(name));
  const { head, ...parent } = await findParentRepository(git, settings.repositoryPath);
  if (parent.resolvedFrom)
    ui.info(`${parent.resolvedFrom} is a linked worktree: working from its parent ${parent.path}.`);
  // A path the engine cannot see is refused before anything is created, naming it and the fix.
  const worktreeRoot =
    settings.isolation === 'disk' ? await realRoot(settings.worktreeRoot) : settings.worktreeRoot;
  const readOnlyFiles = deps.command?.readOnlyFiles;
  requireVisible(
    await engine.hostView(),
    mountedPaths(parent, settings.isolation, worktreeRoot, readOnlyFiles),
  );
  // 2. The branch; 3. the sandbox's name and place.
  const plan = await resolveBranch(git, { ...parent, head }, settings.branch, settings.base);
  ui.debug(`Branch plan: ${JSON.stringify(plan)}`);
  const location = locateSandbox(plan, parent, settings.isolation, worktreeRoot, settings.volumePrefix);
  ui.debug(
    `Sandbox plan: ${location.name} (${location.kind}, ${location.isolation}) at ${whereIs(location)}; work tree ${location.worktreePath}, home ${location.homePath}; records under ${sandboxRefs(location).prefix}.`,
  );
  const originUrl = settings.push ? await git.remoteUrl(parent.path, 'origin') : undefined;
  if (settings.push && !originUrl && !deps.pushTo)
    throw new Error(`push: true needs a remote named origin in ${parent.path}.`);
  // The proof that the engine sees the folders where the action sees them, before anything is written or
  // run: by a helper the engine creates (it also proves the image there), or, for a sandbox taken as it
  // is, by its command's own container (EngineViewProof).
  const proof = new EngineViewProof(
    engine,
    settings.image,
    probedFolders(parent, settings.isolation, worktreeRoot),
    () => engine.ensureImage(settings.image),
    // Saved before the engine creates it: a main step killed before `proof.remove` leaves its post step
    // the name (cleanup.ts, removeLeftProbe).
    (name) => deps.save({ probe: name ? { engine: settings.engine, name } : undefined }),
  );
  try {
    const wait = settings.lockTimeoutMinutes * 60_000;
    const release = await lockSandbox(parent.gitDir, location.name, wait, (m) => ui.info(m));
    deps.onSandboxLock?.(true);
    try {
      return await runLocked(settings, deps, { engine, git, plan, location, proof, worktreeRoot, originUrl });
    } finally {
      deps.onSandboxLock?.(false);
      await release();
    }
  } finally {
    // What the probe made goes, if the command's end did not start that (runLocked); never on the way
    // to the command.
    await proof.remove();
  }
}

/** The token, the credentials' values and secret-named env values are masked before anything could print them. */
function maskSecrets(settings: RunSettings, ui: Ui): void {
  if (settings.token) ui.mask(settings.token);
  // A credential's value is the proxy's alone.
  if (settings.network.mode === 'allow' || settings.network.mode === 'audit')
    for (const { value } of settings.network.credentials) ui.mask(value);
  for (const { value } of knownSecrets(settings)) if (value) ui.mask(value);
}

/** What the steps before the sandbox's lock found, for the rest of the run. */
interface Planned {
  engine: EngineCommands;
  git: GitCommands;
  plan: BranchPlan;
  location: Sandbox;
  proof: EngineViewProof;
  worktreeRoot: string;
  originUrl?: string;
}

/** 4. to 6., with the sandbox's lock held: the sandbox, the run, the import and the report, the push. */
async function runLocked(settings: RunSettings, deps: RunDeps, planned: Planned): Promise<RunOutcome> {
  const { ui } = deps;
  const { engine, git, location, proof, originUrl } = planned;
  const prepared = await ui.group(`Sandbox ${location.name} (${location.kind}, ${location.isolation})`, () =>
    sandboxReady(settings, deps, planned),
  );
  const { sandbox, offerCleared } = prepared;
  const commandName = containerName(sandbox.name);
  // With an allow-list or audit, the proxy and its sidecar: stopped with the command, or below if the
  // command never ran.
  const policy = settings.network;
  const network = isProxied(policy)
    ? await startCommandNetwork(engine, policy, sandbox, commandName)
    : undefined;
  try {
    // The command's container carries the probe's files: until the engine has created it, the post step
    // knows the engine's view unproven, and touches nothing of the sandbox (RunState.viewProof).
    const viewProof = proof.helperStarted ? undefined : await proof.forCommand(sandbox);
    deps.save({
      ready: true,
      startSha: sandbox.startSha,
      ...(viewProof ? { viewProof: { files: viewProof.files } } : {}),
    });
    const command = await ui.group(`Run: ${firstLine(settings.command)}`, () =>
      ui.untrusted((write) =>
        runCommand(
          engine,
          sandbox,
          {
            command: settings.command,
            image: settings.image,
            env: settings.env,
            limits: settings.limits,
            timeoutMinutes: settings.timeoutMinutes,
            author: settings.author,
            committer: settings.committer,
            worktreeRoot: planned.worktreeRoot,
            readOnlyFiles: deps.command?.readOnlyFiles,
            extraEnv: deps.command?.extraEnv,
            containerName: commandName,
            network,
            viewProof,
          },
          {
            onStart: (container) => deps.save({ container }),
            onCreated: viewProof ? () => deps.save({ viewProof: undefined }) : undefined,
            onLine: write,
            outputFd: write.fd,
            ready: write.flush,
            onStderrChunk: write.raw,
            drained: write.drained,
            tail: deps.tail,
          },
        ),
      ),
    );
    deps.save({ container: undefined, exitCode: command.exitCode });
    // What the probe made goes while the work is imported, not after it: runSandbox awaits it at the end.
    void proof.remove();
    reportCommand(ui, command);
    // The reply is scanned before it is shown anywhere: with `block`, a secret in it fails the step here,
    // before the work is imported or pushed, and the sandbox keeps everything for a person to look at.
    const gate = secretGate(settings, ui, () => deps.save({ secretsFound: true }));
    const replyText = command.reply?.reply?.text;
    if (replyText) await ui.group('Secret scan: the reply', () => checkReply(replyText, gate));
    reportReply(ui, command.reply);

    const wantsCommit = settings.push && !!sandbox.branch;
    const report = await ui.group('Import', async () => {
      const r = await collectChanges(
        git,
        engine,
        sandbox,
        settings,
        wantsCommit ? settings.commitMessage : undefined,
      );
      if (r.staleLocks)
        ui.info(
          `Removed ${r.staleLocks} stale git lock(s) (HEAD's, the branch's) a killed git left in ${sandbox.name}, to commit its leftovers.`,
        );
      reportCleared(ui, sandbox.name, r.trapsCleared ?? []);
      ui.fenced(r.diffStat || 'No changes.');
      if (r.countsStopped) ui.warning(`The changed files were not all counted: ${r.countsStopped}.`);
      if (r.branchUpdate) ui.info(`The parent's ${sandbox.branch}: ${r.branchUpdate}.`);
      return r;
    });
    deps.save({
      report: {
        uncommittedCount: report.uncommittedCount,
        uncommittedExact: report.uncommittedExact,
        currentBranch: report.currentBranch.slice(0, 256),
      },
    });

    let push: PushResult | undefined;
    if (settings.push) {
      const to = deps.pushTo ?? {
        url: originUrl!,
        branch: sandbox.branch,
        trackingRef: `refs/remotes/origin/${sandbox.branch}`,
        label: `origin/${sandbox.branch}`,
      };
      push = await ui.group('Push', () => pushSandbox(git, sandbox, report, to, settings.token, ui, gate));
    }
    const trapsCleared = [...offerCleared, ...(report.trapsCleared ?? [])];
    return { sandbox, command, report, push, ...(trapsCleared.length ? { trapsCleared } : {}) };
  } finally {
    await network?.stop().catch(() => undefined);
  }
}

/**
 * 4. The sandbox: what killed runs left goes, the sandbox is made or taken as it is, and a reused one is
 * offered origin's new commits. What the post step needs is saved once the engine has the image and is
 * known to see the folders (or, for a sandbox proved by its command's container, is to be shown so), and
 * before anything is written: a run that fails either check leaves the post step nothing to do.
 */
async function sandboxReady(
  settings: RunSettings,
  deps: RunDeps,
  { engine, git, plan, location, proof }: Planned,
): Promise<{ sandbox: PreparedSandbox; offerCleared: ClearedTrap[] }> {
  const { ui } = deps;
  const saveForPost = () =>
    deps.save({
      engine: settings.engine,
      image: settings.image,
      cleanup: settings.cleanup,
      location,
      collect: {
        author: settings.author,
        committer: settings.committer,
        maxImportBytes: settings.maxImportBytes,
      },
    });
  let checked: Promise<void> | undefined;
  const checks = () => (checked ??= proof.byHelper().then(saveForPost));
  // We hold the sandbox lock, so a command container still there belongs to a run that was killed; and,
  // whatever their sandbox, what killed runs with an allow-list left ended on this engine. One engine
  // question each, overlapping the sandbox's records (docs/benchmarks.md).
  const [sandbox, ...left] = await Promise.all([
    prepareSandbox(git, engine, location, plan, { name: settings.image, ready: checks }, ui),
    removeLeftContainers(engine, location),
    removeLeftNetworkContainers(engine),
  ]);
  const orphans = left.flat();
  if (orphans.length) ui.info(`Removed container(s) left by a run that was killed: ${orphans.join(', ')}.`);
  // A sandbox taken as it is, with no helper to run on it first, is proved by its command's container.
  if (sandbox.reused && !sandbox.upstreamNew && !proof.helperStarted) {
    await engine.ensureImage(settings.image);
    saveForPost();
  } else await checks();
  const offer = await offerUpstream(git, engine, sandbox, settings.image);
  describeSandbox(ui, sandbox, plan.source, offer.offered);
  reportCleared(ui, sandbox.name, offer.cleared);
  return { sandbox, offerCleared: offer.cleared };
}
