// What a pull-request run reports when it is done, as data (present/ makes the text): its commits (from
// the parent, where the import put them), a patch where they could not be pushed.
import type { GitCommands } from '../engine/git-commands.js';
import * as path from 'node:path';
import type { FinishedRun } from '../run/progress-data.js';
import type { RunOutcome } from '../run/run.js';
import { checkCommits, type SecretGate } from '../run/secret-gate.js';
import type { RunSettings } from '../settings/settings.js';
import type { PullRequestInfo } from './api.js';
import type { ActionContext } from './context.js';
import { listCommits, savePatch } from './pr-git.js';
import type { RunTarget } from './target.js';

export async function describeOutcome(
  git: GitCommands,
  parentPath: string,
  settings: RunSettings,
  ctx: ActionContext,
  target: RunTarget,
  pr: PullRequestInfo | undefined,
  outcome: RunOutcome,
  gate: SecretGate,
): Promise<FinishedRun> {
  const { command, report, push, sandbox } = outcome;
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
    tail: command.tail,
    reply: command.reply,
    ...(command.network?.models ? { modelUsage: command.network.models } : {}),
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
