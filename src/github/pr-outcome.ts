// What a pull-request run reports when it is done: its commits (from the parent, where the import put
// them), a patch where they could not be pushed, and the job summary's lines.
import * as path from 'node:path';
import type { Git } from '../engine/git.js';
import { modelUsageTotals } from '../network/usage-report.js';
import type { RunOutcome } from '../run/run.js';
import { checkCommits, type SecretGate } from '../run/secret-gate.js';
import type { RunSettings } from '../settings/settings.js';
import { untrustedCode, untrustedInline } from '../ui/untrusted-markdown.js';
import type { PullRequestInfo } from './api.js';
import type { ActionContext } from './context.js';
import type { RunRequest } from './event.js';
import { listCommits, savePatch } from './pr-git.js';
import type { FinishedRun, ProgressContext } from './progress.js';
import type { RunTarget } from './target.js';

export async function describeOutcome(
  git: Git,
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
    // The patch is shown on the pull request and offered as a file: scanned as a push would be.
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
    ...(command.network?.models && modelUsageTotals(command.network.models)
      ? { modelUsage: modelUsageTotals(command.network.models) }
      : {}),
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

export function summaryOf(
  request: RunRequest,
  pr: PullRequestInfo | undefined,
  progress: ProgressContext,
  run: FinishedRun,
): string {
  const on = pr ? `pull request #${pr.number}` : `branch ${untrustedCode(progress.branch, 500)}`;
  const lines = [
    `## worktree-sandbox: ${on}`,
    '',
    `Started by @${request.requester.login} (${request.comment ? `comment ${request.comment.trigger}` : request.event}).`,
  ];
  // The branch, the fork and git's reason may be text a pull request chose: shown inert.
  if (run.pushed)
    lines.push(`Pushed ${run.commits.length} commit(s) to ${untrustedCode(run.pushedTo ?? '', 500)}.`);
  else if (run.pushReason) lines.push(`Not pushed: ${untrustedInline(run.pushReason, 1_000)}.`);
  if (run.patch) lines.push(`Patch saved as ${untrustedCode(run.patch.path)} (output \`patch-path\`).`);
  return `${lines.join('\n')}\n\n`;
}
