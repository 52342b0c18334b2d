// The action's two phases on top of the core: inputs in, outputs and a job summary out. `run()` is the main
// step and `cleanup()` the post step, each ending the step failed on an error: index.ts calls one of them
// (the bundle), and so can a runner of the source such as @github/local-action (`npm run local-action`).
import * as core from '@actions/core';
import * as os from 'node:os';
import { cleanupRun, removeLeftProbe } from '../run/cleanup.js';
import { Redaction, redactionFor } from '../run/redaction.js';
import { runSandbox, type RunOutcome } from '../run/run.js';
import { chooseRunKind } from '../github/event.js';
import { parseSettings, type RunSettings } from '../settings/settings.js';
import type { PullRequestRunState } from '../github/feedback.js';
import { currentRunState, loadRunState, saveRunState } from './step-state.js';
import * as progressText from '../present/progress-comment.js';
import { outcomeMarkdown } from '../present/run-summary.js';
import { networkMarkdown, networkOutputs, networkWarnings } from '../present/network-summary.js';
import { modelUsageMarkdown, modelUsageOutput, modelUsageWarnings } from '../present/usage-report.js';
import { actionIo, actionUi } from './action-ui.js';
import { writeSummary } from '../present/step-summary.js';

/** The main step (action.yml `main`). */
export async function run(): Promise<void> {
  await failingStep(mainStep);
}

/** The post step (action.yml `post`): removes or keeps the sandbox, finishes a progress comment. */
export async function cleanup(): Promise<void> {
  await failingStep(postStep);
}

/** A step's error becomes the step's failure (its message, as an error annotation), not a crash. */
async function failingStep(step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (error) {
    core.setFailed((error as Error).message);
  }
}

async function mainStep(): Promise<void> {
  const settings = parseSettings((name) => core.getInput(name));
  if (settings.mode === 'reap') {
    const { reapAction } = await import('./reap-action.js');
    await reapAction(settings);
    return;
  }
  await runAction(settings);
}

async function runAction(settings: RunSettings): Promise<void> {
  const ui = actionUi();
  // One list of the run's secrets, one redaction: every output, the job summary and every API call.
  const io = actionIo(ui, redactionFor(settings));
  const kind = chooseRunKind(process.env.GITHUB_EVENT_NAME, settings.trigger);
  core.debug(`Run kind: ${kind.bot ? 'pull-request bot' : 'plain run mode'} (${kind.why}).`);
  if (kind.warning) ui.warning(kind.warning);
  let outcome: (RunOutcome & { pullRequest?: { number: number; htmlUrl: string } }) | undefined;
  try {
    if (kind.bot) {
      const { runForPullRequest } = await import('../github/pr-run.js');
      outcome = await runForPullRequest(settings, io);
      if (!outcome) return;
    } else outcome = await runSandbox(settings, { ui, save: saveRunState });
  } catch (error) {
    // A run that failed after its sandbox was ready still says which sandbox, and the command's exit code
    // when the command really ran.
    setEarlyOutputs(currentRunState(), io.setOutput);
    throw error;
  }
  setOutputs(outcome, io.setOutput);
  if (settings.pullRequest.open) {
    const { proposePullRequest } = await import('../github/pull-request.js');
    await proposePullRequest(settings, outcome, io);
  }
  const network = outcome.command.network;
  const models = network?.models;
  for (const line of network ? networkWarnings(network) : []) ui.warning(line);
  for (const line of models ? modelUsageWarnings(models) : []) ui.warning(line);
  const networkSection =
    (network ? networkMarkdown(network, settings.network) : '') + (models ? modelUsageMarkdown(models) : '');
  // The run's own report first: when the summary must be cut, the network tables go before it.
  await writeSummary(io.redaction, outcomeMarkdown(outcome), networkSection);
  const { exitCode } = outcome.command;
  if (exitCode !== 0 && !settings.allowFailure) core.setFailed(`The command exited with code ${exitCode}.`);
}

type SetOutput = (name: string, value: string) => void;

function setEarlyOutputs(state: PullRequestRunState | undefined, setOutput: SetOutput): void {
  if (!state?.location) return;
  const sandbox = state.location;
  setOutput('sandbox', sandbox.name);
  setOutput('kind', sandbox.kind);
  setOutput('branch', sandbox.branch);
  setOutput('volume', sandbox.isolation === 'container' ? sandbox.volume : '');
  setOutput('worktree-path', sandbox.worktreePath);
  if (state.exitCode !== undefined) setOutput('exit-code', String(state.exitCode));
}

function setOutputs(outcome: RunOutcome, setOutput: SetOutput): void {
  const { sandbox, command, report, push } = outcome;
  const out: Record<string, string> = {
    sandbox: sandbox.name,
    kind: sandbox.kind,
    branch: sandbox.branch,
    volume: sandbox.isolation === 'container' ? sandbox.volume : '',
    'worktree-path': sandbox.worktreePath,
    'exit-code': String(command.exitCode),
    changed: String(report.changedCount > 0 || report.commits > 0),
    commits: String(report.commits),
    'head-sha': report.headSha,
    pushed: String(push?.pushed ?? false),
    // A count (a lower bound when counting stopped at its bounds) and the bounded stat, which says what
    // it left out: a few kilobytes whatever the sandbox holds.
    'files-changed': String(report.changedCount),
    'diff-stat': report.diffStat,
    // The reply as the command wrote it (at most 64 KiB: reply.ts): an output is data, not a command.
    reply: command.reply?.reply?.text ?? '',
  };
  if (command.network) Object.assign(out, networkOutputs(command.network));
  if (command.network?.models) Object.assign(out, modelUsageOutput(command.network.models));
  for (const [k, v] of Object.entries(out)) setOutput(k, v);
}

async function postStep(): Promise<void> {
  const state = loadRunState();
  if (state?.progress && !state.progress.finished) {
    const { finishProgressInPost } = await import('../github/pr-run.js');
    const { token, redaction } = postSecrets();
    const body = progressText.stopped(state.progress.context);
    await finishProgressInPost(state.progress, body, token, redaction, actionUi());
  }
  await removeLeftProbe(state, actionUi());
  if (!state?.location) {
    core.info('Nothing to clean up: the main step created nothing.');
    return;
  }
  try {
    await cleanupRun(state, actionUi(), process.env.RUNNER_TEMP || os.tmpdir());
  } catch (error) {
    core.warning(`Cleanup did not complete: ${(error as Error).message}`);
  }
}

/** The post step gets the same inputs as main: the token, to finish a progress comment, and its redaction. */
function postSecrets(): { token: string; redaction: Redaction } {
  try {
    const settings = parseSettings((name) => core.getInput(name));
    return {
      token: settings.token,
      redaction:
        settings.mode === 'run'
          ? redactionFor(settings)
          : Redaction.of([{ name: 'token', value: settings.token }]),
    };
  } catch {
    // the main step failed on these inputs before it created anything to finish
    return { token: '', redaction: Redaction.none };
  }
}
