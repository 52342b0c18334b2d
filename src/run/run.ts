// Run mode, as a story: find the parent, resolve the branch, prepare the sandbox, run the command, bring
// its work back as data (capture in a helper, import on the host), report, push. Each step is a function;
// each long step a log group.
import { ContainerEngine } from '../engine/engine.js';
import { requireVisible } from '../engine/host-paths.js';
import { Git } from '../engine/git.js';
import type { ProcResult } from '../engine/proc.js';
import { readBranchRefs, resolveBranch } from '../sandbox/branch.js';
import { prepareSandbox } from '../sandbox/create.js';
import { sandboxRefs } from '../sandbox/bookkeeping.js';
import {
  EngineViewProof,
  guessReusedVolume,
  looksReused,
  mountedPaths,
  probedFolders,
} from '../sandbox/engine-view.js';
import { locateSandbox, realRoot, whereIs } from '../sandbox/layout.js';
import { loadLocking, lockSandbox } from '../sandbox/lock.js';
import { findParentRepository, type FoundParent } from '../sandbox/repository.js';
import { reportCleared, type ClearedTrap } from '../sandbox/git-traps.js';
import { offerUpstream } from '../sandbox/reuse.js';
import { lookBeforeLock, lookFor, type VolumeLook } from '../sandbox/volume-look.js';
import { validateBranchNames, type RunSettings } from '../settings/settings.js';
import { collectChanges } from './collect.js';
import { removeLeftNetworkContainers } from '../network/leftovers.js';
import { isProxied } from '../network/policy.js';
import {
  beginCommandNetwork,
  containerName,
  removeLeftContainers,
  runCommand,
  startCommandNetwork,
} from './command.js';
import { pushSandbox, type PushResult } from './push.js';
import { describeSandbox, firstLine, reportCommand } from './run-log.js';
import { reportReply } from './reply.js';
import { checkReply, secretGate } from './secret-gate.js';
import { knownSecrets } from './secret-values.js';
import type { RunDeps, RunOutcome } from './run-types.js';

export type { RunDeps, RunOutcome } from './run-types.js';

/**
 * A promise the run awaits further on: marked as handled now, so that a rejection before the await is not
 * an unhandled rejection (which ends the process); the await still throws it.
 */
function awaitedLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

export async function runSandbox(settings: RunSettings, deps: RunDeps): Promise<RunOutcome> {
  const { ui } = deps;
  if (settings.token) ui.mask(settings.token);
  // A credential's value is the proxy's alone: masked in the log before anything could print it.
  if (settings.network.mode === 'allow' || settings.network.mode === 'audit')
    for (const { value } of settings.network.credentials) ui.mask(value);
  // And the values of secret-named env entries (secret-values.ts), before the command could print them.
  for (const { value } of knownSecrets(settings)) if (value) ui.mask(value);
  const engine = new ContainerEngine(settings.engine);
  // The image check (also the engine's reachability check), asked at most once: below, once it is known
  // whether the probe's helper proves the image instead. When the given path alone shows the branch's
  // volume sandbox there (guessReusedVolume), the two questions its command will wait for go out now: the
  // look at the volume (used only as lookFor and volumePresent allow: volume-look.ts) and the image
  // check's first call (`image inspect`, which never pulls); on Docker, both in one CLI start. (Started
  // this early for a disk sandbox, the image check alone made its command later: it competes with git's
  // first processes for the cores, and on disk nothing else waits for the engine.)
  const { isolation, volumePrefix, branch } = settings;
  const guessed =
    isolation === 'container' ? guessReusedVolume(settings.repositoryPath, volumePrefix, branch) : undefined;
  let imageInspected: Promise<ProcResult> | undefined;
  const guessedLook =
    guessed !== undefined
      ? lookBeforeLock(engine, guessed, () => {
          const both = engine.inspectImageAndVolume(settings.image, guessed.volume);
          imageInspected = awaitedLater(both.image);
          return both.volume;
        })
      : undefined;
  let imageAsked: Promise<void> | undefined;
  const askImage = () => (imageAsked ??= awaitedLater(engine.ensureImage(settings.image, imageInspected)));
  const network = isProxied(settings.network) ? beginCommandNetwork(settings.network) : undefined;
  // Where the engine finds the action's paths: no engine call on a plain host (host-paths.ts).
  const viewFound = awaitedLater(engine.hostView());
  // git's version check, the branch names and the parent overlap too: one round of processes, not three.
  const { git, checked } = Git.checking();
  const parentFound = awaitedLater(findParentRepository(git, settings.repositoryPath));
  const namesValid = awaitedLater(validateBranchNames(settings, (name) => git.isValidBranchName(name)));
  // Once git answered its version (the first round's processes are out by then): the branch's refs, read
  // while the parent's answer is checked (used only once the name is known valid: runChecked), and the
  // lock's code, loaded while the engine's image check runs (it is needed once the branch plan is made).
  const branchRefs = checked.then(() => {
    void awaitedLater(loadLocking());
    return settings.branch ? readBranchRefs(git, settings.repositoryPath, settings.branch) : undefined;
  });
  branchRefs.catch(() => undefined);
  await checked;
  await namesValid;
  const { head, ...parent } = await parentFound;
  if (parent.resolvedFrom)
    ui.info(`${parent.resolvedFrom} is a linked worktree: working from its parent ${parent.path}.`);
  // A path the engine cannot see is refused before anything is created, naming it and the fix. The probe
  // then proves that the engine sees the folders where the action sees them, before anything is written
  // or run: for a sandbox to be made, by a helper started now (it overlaps the branch plan and the
  // records); for one that is there, taken as it is, by the command's own container (EngineViewProof).
  const worktreeRoot =
    settings.isolation === 'disk' ? await realRoot(settings.worktreeRoot) : settings.worktreeRoot;
  const readOnlyFiles = deps.command?.readOnlyFiles;
  requireVisible(await viewFound, mountedPaths(parent, settings.isolation, worktreeRoot, readOnlyFiles));
  const proof = new EngineViewProof(
    engine,
    settings.image,
    probedFolders(parent, settings.isolation, worktreeRoot),
    askImage,
    // Saved before the engine creates it: a main step killed before `proof.remove` leaves its post step
    // the name (cleanup.ts, removeLeftProbe).
    (name) => deps.save({ probe: name ? { engine: settings.engine, name } : undefined }),
  );
  // The image is ready once the engine has it: awaited before anything uses the image or writes anything
  // (prepareSandbox), overlapping the branch plan and the sandbox's records; a reused sandbox does not
  // wait for it before then. The probe's helper is created from the image with `--pull never`, so once
  // created it has proved the image there too: on that path the engine is not asked about the image
  // again (the probe asks the image check itself, which pulls, only when the engine lacks it). A bad
  // branch name is the error reported whenever it is one.
  // A volume sandbox that looks reused: the engine is asked about its volume before the sandbox's lock
  // (unless the guess above did), and the answer is trusted after it only if no removal came between.
  const reusable = await looksReused(parent, isolation, worktreeRoot, volumePrefix, branch);
  const volumeLook = reusable?.isolation === 'container' ? lookFor(engine, reusable, guessedLook) : undefined;
  const imageReady = awaitedLater(reusable ? askImage() : proof.byHelper());
  try {
    return await runChecked(settings, deps, {
      engine,
      git,
      parent,
      head,
      imageReady,
      proof,
      worktreeRoot,
      network,
      branchRefs,
      volumeLook,
    });
  } finally {
    // What the probe made goes now, not on the way to the command.
    await proof.remove();
  }
}

/** What the checks before the branch plan found, for the rest of the run. */
interface Checked {
  engine: ContainerEngine;
  git: Git;
  parent: Omit<FoundParent, 'head'>;
  head: FoundParent['head'];
  imageReady: Promise<void>;
  proof: EngineViewProof;
  worktreeRoot: string;
  /** With an allow-list: what began as the run started (beginCommandNetwork). */
  network?: ReturnType<typeof beginCommandNetwork>;
  /** The branch's refs, read while the parent's answer was checked (readBranchRefs). */
  branchRefs?: Promise<Map<string, string> | undefined>;
  /** A look at the volume of the sandbox that looked reused, taken before its lock. */
  volumeLook?: VolumeLook;
}

async function runChecked(settings: RunSettings, deps: RunDeps, checked: Checked): Promise<RunOutcome> {
  const { ui } = deps;
  const { engine, git, parent, head, imageReady, proof, worktreeRoot, network, branchRefs, volumeLook } =
    checked;
  const originRead = awaitedLater(
    settings.push ? git.remoteUrl(parent.path, 'origin') : Promise.resolve(undefined),
  );
  const plan = await resolveBranch(git, { ...parent, head }, settings.branch, settings.base, branchRefs);
  ui.debug(`Branch plan: ${JSON.stringify(plan)}`);
  const location = locateSandbox(plan, parent, settings.isolation, worktreeRoot, settings.volumePrefix);
  ui.debug(
    `Sandbox plan: ${location.name} (${location.kind}, ${location.isolation}) at ${whereIs(location)}; work tree ${location.worktreePath}, home ${location.homePath}; records under ${sandboxRefs(location).prefix}.`,
  );
  const originUrl = await originRead;
  if (settings.push && !originUrl && !deps.pushTo)
    throw new Error(`push: true needs a remote named origin in ${parent.path}.`);

  const release = await lockSandbox(parent.gitDir, location.name, settings.lockTimeoutMinutes * 60_000, (m) =>
    ui.info(m),
  );
  deps.onSandboxLock?.(true);
  // We hold the sandbox lock, so a command container still there belongs to a run that was killed. They
  // go before this run's sidecar starts: it has the same labels.
  const orphansRemoved = awaitedLater(removeLeftContainers(engine, location));
  // And, whatever their sandbox, what killed runs with an allow-list left ended on this engine.
  const leftovers = awaitedLater(removeLeftNetworkContainers(engine));
  // With an allow-list, the proxy and its sidecar start while the sandbox is prepared; stopped with the
  // command, or below if the command never ran.
  const commandName = containerName(location.name);
  const policy = settings.network;
  const networkReady = isProxied(policy)
    ? awaitedLater(
        Promise.all([imageReady, orphansRemoved]).then(() =>
          startCommandNetwork(engine, policy, location, commandName, network),
        ),
      )
    : undefined;
  try {
    // What the post step needs, saved once the engine has the image and is known to see the folders (or,
    // for a sandbox proved by its command's container, is to be shown so: below), and before anything is
    // written: a run that fails either check leaves the post step nothing to do.
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
    let checksDone: Promise<void> | undefined;
    const ready = () =>
      (checksDone ??= awaitedLater(Promise.all([imageReady, proof.byHelper()]).then(saveForPost)));
    let offerCleared: ClearedTrap[] = [];
    const sandbox = await ui.group(
      `Sandbox ${location.name} (${location.kind}, ${location.isolation})`,
      async () => {
        const [prepared, ...left] = await Promise.all([
          prepareSandbox(git, engine, location, plan, { name: settings.image, ready }, ui, volumeLook),
          orphansRemoved,
          leftovers,
        ]);
        const orphans = left.flat();
        if (orphans.length)
          ui.info(`Removed container(s) left by a run that was killed: ${orphans.join(', ')}.`);
        // A sandbox taken as it is, with no helper to run on it first and no helper proof under way, is
        // proved by its command's container; anything else waits for the helper's proof here.
        if (prepared.reused && !prepared.upstreamNew && !proof.helperStarted) {
          await imageReady;
          saveForPost();
        } else await ready();
        const offer = await offerUpstream(git, engine, prepared, settings.image);
        describeSandbox(ui, prepared, plan.source, offer.offered);
        offerCleared = offer.cleared;
        reportCleared(ui, prepared.name, offerCleared);
        return prepared;
      },
    );
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
            ...settings,
            worktreeRoot,
            readOnlyFiles: deps.command?.readOnlyFiles,
            extraEnv: deps.command?.extraEnv,
            containerName: commandName,
            networkReady,
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
          },
        ),
      ),
    );
    deps.save({ container: undefined, exitCode: command.exitCode });
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
    deps.onSandboxLock?.(false);
    await networkReady?.then((session) => session.stop()).catch(() => undefined);
    await release();
  }
}
