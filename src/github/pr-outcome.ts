// What a pull-request run reports when it is done: its commits (from the parent, where the import put
// them), a patch where they could not be pushed, and the job summary's lines.
import type { GitCommands } from '../engine/git-commands.js';
import * as path from 'node:path';
import type { FinishedRun, ProgressContext } from '../run/progress-data.js';
import type { RunOutcome } from '../run/run.js';
import { checkCommits, type SecretGate, type SecretScanBlocked } from '../run/secret-gate.js';
import type { RunSettings } from '../settings/settings.js';
import { untrustedCode, untrustedInline } from '../ui/untrusted-markdown.js';
import type { PullRequestInfo } from './api.js';
import type { ActionContext } from './context.js';
import type { RunRequest } from './request.js';
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

function summaryHead(
  request: RunRequest,
  pr: PullRequestInfo | undefined,
  progress: ProgressContext,
): string[] {
  const on = pr ? `pull request #${pr.number}` : `branch ${untrustedCode(progress.branch, 500)}`;
  return [
    `## worktree-sandbox: ${on}`,
    '',
    `Started by @${request.requester.login} (${request.comment ? `comment ${request.comment.trigger}` : request.event}).`,
  ];
}

/**
 * The summary of a run whose push or patch the secret scan held back (`block`): why nothing left. The
 * places are in the step's error (escaped there); the summary gives only counts, no sandbox text.
 */
export function blockedSummaryOf(
  request: RunRequest,
  pr: PullRequestInfo | undefined,
  progress: ProgressContext,
  blocked: SecretScanBlocked,
): string {
  const found = blocked.findings.length
    ? `found ${blocked.findings.length} finding(s) in`
    : 'could not scan the whole of';
  const lines = [
    ...summaryHead(request, pr, progress),
    `Nothing pushed and no patch saved: the secret scan ${found} what would have left (secret-scan: block). The step's error names each place (never a value); the sandbox keeps the work for a person to look at.`,
  ];
  return `${lines.join('\n')}\n\n`;
}

export function summaryOf(
  request: RunRequest,
  pr: PullRequestInfo | undefined,
  progress: ProgressContext,
  run: FinishedRun,
): string {
  const lines = summaryHead(request, pr, progress);
  // The branch, the fork and git's reason may be text a pull request chose: shown inert.
  if (run.pushed)
    lines.push(`Pushed ${run.commits.length} commit(s) to ${untrustedCode(run.pushedTo ?? '', 500)}.`);
  else if (run.pushReason) lines.push(`Not pushed: ${untrustedInline(run.pushReason, 1_000)}.`);
  if (run.patch) lines.push(`Patch saved as ${untrustedCode(run.patch.path)} (output \`patch-path\`).`);
  if (run.tailFound?.length)
    lines.push(
      `The log tail held a secret (${run.tailFound.map((f) => `\`${f.replace(/`/g, "'")}\``).join(', ')}): masked in the comment.`,
    );
  return `${lines.join('\n')}\n\n`;
}
