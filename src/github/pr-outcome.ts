// How a bot run (pr-run.ts, issue-run.ts) ends: what it did, as data (present/ makes the text): its
// commits (from the parent, where the import put them), a patch where they could not be pushed, the log
// tail scanned; then the progress comment and the job summary, or why the run failed.
import type { GitCommands } from '../engine/git-commands.js';
import * as path from 'node:path';
import type { FinishedRun, ProgressContext, RunStart } from '../run/progress-data.js';
import type { RunOutcome } from '../run/run.js';
import { checkCommits, SecretScanBlocked, secretGate } from '../run/secret-gate.js';
import { scanLogTail } from '../run/tail-scan.js';
import type { RunSettings } from '../settings/settings.js';
import type { PullRequestInfo } from './api.js';
import type { PrRunIo } from './bot-io.js';
import type { ActionContext } from './context.js';
import type { PullRequestFeedback } from './feedback.js';
import { listCommits, savePatch } from './pr-git.js';
import type { RunTarget } from './target.js';

/**
 * Rewrites the progress comment and writes the job summary: with what `run` (the sandbox's run, and what
 * it did) returns, or with why it failed, which is thrown on.
 */
export async function reportRun(
  io: PrRunIo,
  feedback: PullRequestFeedback,
  progress: ProgressContext,
  start: RunStart,
  run: () => Promise<{ outcome: RunOutcome; finished: FinishedRun }>,
): Promise<RunOutcome> {
  const { redact } = io.redaction;
  try {
    const { outcome, finished } = await run();
    // The comment names the commit the sandbox really started from (the branch may have moved since).
    const done: ProgressContext = { ...progress, headSha: outcome.sandbox.startSha };
    const succeeded = outcome.command.exitCode === 0 && !finished.pushFailed;
    await feedback.finish(done, io.text.finished(done, finished, redact), succeeded ? 'rocket' : 'confused');
    await io.summary(io.text.summary(done, start, finished));
    return outcome;
  } catch (error) {
    await feedback.finish(progress, io.text.failed(progress, (error as Error).message, redact), 'confused');
    if (error instanceof SecretScanBlocked)
      await io.summary(io.text.blockedSummary(progress, start, error.findings.length));
    throw error;
  }
}

/** What the run did; its patch's path is the output `patch-path`. */
export async function describeOutcome(
  git: GitCommands,
  parentPath: string,
  settings: RunSettings,
  io: PrRunIo,
  ctx: ActionContext,
  target: RunTarget,
  pr: PullRequestInfo | undefined,
  outcome: RunOutcome,
): Promise<FinishedRun> {
  const { command, report, push, sandbox } = outcome;
  const gate = secretGate(settings, io.ui, () => io.save({ secretsFound: true }));
  const pushed = push?.pushed === true;
  const repoOfCommits =
    target.delivery.kind === 'fork' ? target.delivery.repo : `${ctx.repository.owner}/${ctx.repository.repo}`;
  const listed = await listCommits(git, parentPath, sandbox.startSha, report.headSha);
  const commits = listed.commits.map((c) => ({
    ...c,
    url: pushed ? `${ctx.serverUrl}/${repoOfCommits}/commit/${c.sha}` : undefined,
  }));
  let patch: FinishedRun['patch'];
  if (settings.push && !pushed && commits.length) {
    // The patch is shown on the pull request and offered as a file: scanned as a push would be (the commits
    // raw, their path names, their added lines). Under block a finding throws here: no file is written.
    await checkCommits(git, parentPath, [report.headSha, '--not', sandbox.startSha], gate, 'the patch');
    const name = pr
      ? `pr-${pr.number}-${report.headSha.slice(0, 12)}`
      : `${sandbox.name}-${report.headSha.slice(0, 12)}`;
    patch = await savePatch(
      git,
      parentPath,
      sandbox.startSha,
      report.headSha,
      path.join(ctx.runnerTemp, 'worktree-sandbox'),
      name,
    );
  }
  const tail = await scanLogTail(command.tail, settings.secretScan, io.redaction, io.ui);
  if (patch) io.setOutput('patch-path', patch.path);
  return {
    exitCode: command.exitCode,
    timedOut: command.timedOut,
    oomKilled: command.oomKilled,
    durationMs: command.durationMs,
    filesChanged: report.changedFiles,
    filesChangedCount: report.changedCount,
    diffStat: report.diffStat,
    commits,
    ...(listed.more ? { moreCommits: true } : {}),
    pushed,
    pushedTo: pushed ? pushLabel(target) : undefined,
    pushReason: push && !pushed ? push.reason : undefined,
    pushFailed: deliversByPush(target) && commits.length > 0 && !pushed,
    patch,
    tail: tail.lines,
    reply: command.reply,
    ...(command.network?.models ? { modelUsage: command.network.models } : {}),
    tailFound: tail.found,
  };
}

/** Whether the delivery is a push (to origin or to a fork), rather than a patch or nothing. */
function deliversByPush(target: RunTarget): boolean {
  return target.delivery.kind === 'origin' || target.delivery.kind === 'fork';
}

function pushLabel(target: RunTarget): string {
  return target.delivery.kind === 'fork'
    ? `${target.delivery.repo}:${target.delivery.branch}`
    : `origin/${target.branch}`;
}
