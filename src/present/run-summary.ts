// The job summary and the plain-text report: one table a person reads at a glance; and the reply as a
// section of Markdown, for the summary and the progress comment alike.
import { describeCleared } from '../sandbox/git-traps.js';
import { whereIs } from '../sandbox/layout.js';
import { blockWithCut, details, table, thousands } from '../ui/markdown.js';
import { imageLinks, inlineText, untrustedBlock, untrustedInline } from '../ui/untrusted-markdown.js';
import { cutSentence, REPLY_MAX_BYTES, type ReplyRead } from '../run/reply.js';
import type { RunOutcome } from '../run/run.js';

/** Why nothing outside the sandbox can have changed, in one sentence. */
export const BOUNDARY_SENTENCE =
  "Nothing outside the sandbox could change: the command's container could write only its sandbox (the parent's objects were mounted read-only, its .git hidden), and its work came back as a git bundle that git checked as it fetched it.";

// A branch (in a value, and in the key of the parent's branch), a sandbox's place, git's reason for a
// refused push: text that may come from the sandbox or a pull request, inert in the table (no cell end,
// no link, no HTML).
const esc = (text: string) => untrustedInline(text);

export function outcomeRows(outcome: RunOutcome): Array<[string, string]> {
  const { sandbox, command, report, push } = outcome;
  const status = command.timedOut
    ? `⏱ timed out (exit ${command.exitCode})`
    : command.oomKilled
      ? `💥 out of memory (exit ${command.exitCode})`
      : command.exitCode === 0
        ? '✅ exit 0'
        : `❌ exit ${command.exitCode}`;
  const rows: Array<[string, string]> = [
    ['Command', status],
    ['Duration', `${(command.durationMs / 1000).toFixed(1)} s`],
    ['Sandbox', `${sandbox.name} (${sandbox.kind}, ${sandbox.reused ? 'reused' : 'new'})`],
    ['Branch', sandbox.branch || `detached at ${sandbox.startSha.slice(0, 12)}`],
    ['Where', whereIs(sandbox)],
    ['Files changed', filesChanged(report)],
    ['New commits', `${report.commitsAtLeast ? 'at least ' : ''}${report.commits}`],
    ['HEAD', report.headSha.slice(0, 12)],
  ];
  if (push) rows.push(['Pushed', push.pushed ? 'yes' : `no: ${push.reason}`]);
  if (report.branchUpdate) rows.push([`Parent's ${sandbox.branch}`, report.branchUpdate]);
  // Named by the helpers that removed them (git-traps.ts): a few entries, each path escaped and bounded.
  if (outcome.trapsCleared?.length) rows.push(['Removed from .git', describeCleared(outcome.trapsCleared)]);
  rows.push(['Boundary', BOUNDARY_SENTENCE]);
  return rows;
}

/** The count of changed files; "at least" when counting stopped at its bounds (the reason follows). */
export function filesChanged(report: RunOutcome['report']): string {
  const n = thousands(report.changedCount);
  return report.countsStopped ? `at least ${n} (counting stopped: ${report.countsStopped})` : n;
}

// Size: the table is a few hundred bytes of the action's own text and names it chose; the diff stat is at
// most STAT_MAX_BYTES (report.ts: 64 KiB) and says what it left out, and at most STAT_MAX_CHARS once
// escaped; the reply at most REPLY_MAX_BYTES (reply.ts: 64 KiB), and twice that once escaped. The whole
// stays below the runner's 1 MiB limit for one step's summary (step-summary.ts holds it there).
export function outcomeMarkdown(outcome: RunOutcome): string {
  const rows = outcomeRows(outcome).map(([k, v]) => [esc(k), esc(v)]);
  // The diff stat (file names from the sandbox) in a block nothing in it can leave, its cut said.
  const { diffStat } = outcome.report;
  const cut = (n: string) => `${n} more characters of the diff stat are not shown.`;
  const stat = diffStat ? `\n\n${details('Diff stat', blockWithCut(diffStat, STAT_MAX_CHARS, cut))}` : '';
  const reply = replyMarkdown(outcome.command.reply, {
    heading: "### The command's reply",
    maxChars: 2 * REPLY_MAX_BYTES,
  });
  return `## worktree-sandbox: run\n\n${table(['', ''], rows)}${reply ? `\n\n${reply}` : ''}${stat}\n`;
}

/** The diff stat's characters as written (64 KiB of names, some written as entities). */
const STAT_MAX_CHARS = 200_000;

export function outcomeText(outcome: RunOutcome): string {
  const rows = outcomeRows(outcome);
  const width = Math.max(...rows.map(([k]) => k.length));
  return [
    ...rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`),
    outcome.report.diffStat ? `\n${outcome.report.diffStat}` : '',
  ]
    .join('\n')
    .trimEnd();
}

/**
 * The reply as a section of Markdown (the job summary, the progress comment): a heading, the text in a
 * block nothing in it can escape (untrusted-markdown.ts), the images it would show as links, and what was
 * cut. Empty when there is no reply. `redact` takes known secrets out of the text first.
 */
export function replyMarkdown(
  read: ReplyRead | undefined,
  options: { heading: string; maxChars: number; redact?: (text: string) => string; elsewhere?: string },
): string {
  const reply = read?.reply;
  if (!reply && read?.warning) return `${options.heading}\n\n${inlineText(read.warning)}`;
  if (!reply || !reply.text.trim()) return '';
  const text = options.redact ? options.redact(reply.text) : reply.text;
  const block = untrustedBlock(text, options.maxChars);
  const notes: string[] = [];
  if (reply.cut) notes.push(cutSentence(reply));
  if (block.leftOut > 0)
    notes.push(
      `${thousands(block.leftOut)} more characters are left out here${options.elsewhere ? `: ${options.elsewhere}` : ''}.`,
    );
  const said = notes.length ? `\n\n_${notes.join(' ')}_` : '';
  const images = imageLinks(text);
  return `${options.heading}\n\n${block.markdown}${images ? `\n\n${images}` : ''}${said}`;
}
