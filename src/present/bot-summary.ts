// The job summary of a bot run (github/pr-run.ts and issue-run.ts write it, made of their data): where it
// ran, who asked, and what left (a push, a patch, a pull request), or why nothing did. With the progress
// comment's bodies, it is all a bot run shows (`botText`, which the action hands to github/).
import type { FinishedRun, ProgressContext, ProgressText, RunStart } from '../run/progress-data.js';
import { untrustedCode, untrustedInline } from '../ui/untrusted-markdown.js';
import * as comment from './progress-comment.js';

function head(ctx: ProgressContext, start: RunStart): string[] {
  const on = start.prNumber ? `pull request #${start.prNumber}` : `branch ${untrustedCode(ctx.branch, 500)}`;
  return [
    `## worktree-sandbox: ${on}`,
    '',
    `Started by @${ctx.requester} (${start.trigger !== undefined ? `comment ${start.trigger}` : start.event}).`,
  ];
}

export function summary(ctx: ProgressContext, start: RunStart, run: FinishedRun): string {
  const lines = head(ctx, start);
  // The branch, the fork and git's reason may be text a pull request chose: shown inert.
  if (run.pushed)
    lines.push(`Pushed ${run.commits.length} commit(s) to ${untrustedCode(run.pushedTo ?? '', 500)}.`);
  else if (run.pushReason) lines.push(`Not pushed: ${untrustedInline(run.pushReason, 1_000)}.`);
  if (run.patch) lines.push(`Patch saved as ${untrustedCode(run.patch.path)} (output \`patch-path\`).`);
  if (run.tailFound?.length)
    lines.push(
      `The log tail held a secret (${run.tailFound.map((f) => `\`${f.replace(/`/g, "'")}\``).join(', ')}): masked in the comment.`,
    );
  const text = `${lines.join('\n')}\n\n`;
  if (start.issueNumber === undefined) return text;
  return `${text}${run.pullRequest ? comment.pullRequestLine(run.pullRequest) : ''}\n\n`;
}

/**
 * The summary of a run whose push or patch the secret scan held back (`block`): why nothing left. The
 * places are in the step's error (escaped there); the summary gives only counts, no sandbox text.
 */
export function blockedSummary(ctx: ProgressContext, start: RunStart, findings: number): string {
  const found = findings ? `found ${findings} finding(s) in` : 'could not scan the whole of';
  const lines = [
    ...head(ctx, start),
    `Nothing pushed and no patch saved: the secret scan ${found} what would have left (secret-scan: block). The step's error names each place (never a value); the sandbox keeps the work for a person to look at.`,
  ];
  return `${lines.join('\n')}\n\n`;
}

export function noRunSummary(reason: string): string {
  return `## worktree-sandbox: no run\n\n${untrustedInline(reason)}.\n`;
}

export const botText: ProgressText = { ...comment, summary, blockedSummary, noRunSummary };
