// The progress comment on the pull request (github/feedback.ts posts it: one comment, created when the run
// starts and rewritten in place when it ends, or by the post step when the job stopped first), and the body
// of the pull request an issue's run opens. Pure rendering of progress-data.ts's data.
// Everything the command produced (log, file names, commit subjects, patch, branch and push reason) is
// untrusted: it goes through the one renderer of such text (ui/untrusted-markdown.ts), where Markdown,
// HTML and @mentions do nothing, with known secrets redacted (the run's one redaction, run/redaction.ts:
// here before each part is cut, and again as the API sends it). The comment is made of whole sections, each
// bounded, and cut only between them, so that no cut leaves a block open.
import { PROGRESS_MARKER, type FinishedRun, type ProgressContext } from '../run/progress-data.js';
import { blockWithCut, details, table } from '../ui/markdown.js';
import { untrustedBlock, untrustedCode, untrustedInline } from '../ui/untrusted-markdown.js';
import { replyMarkdown } from './run-summary.js';
import { modelUsageTotals } from './usage-report.js';

/** GitHub refuses comments over 65,536 characters. */
export const MAX_COMMENT = 65_000;
const MAX_LINE = 300;
const MAX_FILES = 100;
const MAX_INLINE_PATCH = 30_000;
// The characters each section of untrusted text takes at most, as written (entities included).
const MAX_FILES_CHARS = 8_000;
const MAX_TAIL_CHARS = 8_000;
const MAX_COMMITS_CHARS = 12_000;
const MAX_SUBJECT_CHARS = 2_000;
const MAX_FAILURE_CHARS = 4_000;
/** The most characters of the command's reply in the comment (the job summary has more). */
export const MAX_REPLY_IN_COMMENT = 20_000;

export function running(ctx: ProgressContext): string {
  return [
    PROGRESS_MARKER,
    `### ⏳ \`${ctx.what}\` is running`,
    '',
    `${requestLine(ctx)} The sandbox works on ${branchLine(ctx)}; this comment is updated when the run ends.`,
  ].join('\n');
}

export function finished(ctx: ProgressContext, run: FinishedRun, clean: (text: string) => string): string {
  const status = run.timedOut
    ? `⏱ \`${ctx.what}\` timed out`
    : run.oomKilled
      ? `💥 \`${ctx.what}\` ran out of memory`
      : run.exitCode !== 0
        ? `❌ \`${ctx.what}\` failed`
        : run.pushFailed
          ? `⚠️ \`${ctx.what}\` finished, but its commits were not pushed`
          : `✅ \`${ctx.what}\` finished`;
  const rows: Array<[string, string]> = [
    ['Exit code', String(run.exitCode)],
    ['Duration', formatDuration(run.durationMs)],
    ['Files changed', String(run.filesChangedCount)],
    ['Commits', commitsCell(run)],
  ];
  const usage = run.modelUsage && modelUsageTotals(run.modelUsage);
  if (usage) rows.push(['Model usage', usage]);
  if (run.patch) rows.push(['Patch', `saved as ${untrustedCode(run.patch.path)} (output \`patch-path\`)`]);
  const sections = [
    `${PROGRESS_MARKER}\n### ${status}`,
    `${requestLine(ctx)} Branch: ${branchLine(ctx)}.`,
    // Every cell is the action's own words, or untrusted text made inert (a `|` is `&#124;`).
    table(['', ''], rows),
  ];
  const reply = replyMarkdown(run.reply, {
    heading: "**The command's reply**",
    maxChars: MAX_REPLY_IN_COMMENT,
    redact: clean,
    elsewhere: 'the job summary and the output `reply` have the rest',
  });
  if (reply) sections.push(reply);
  if (run.commits.length) sections.push(commitsList(run, clean));
  if (run.filesChanged.length) {
    const shown = run.filesChanged.slice(0, MAX_FILES).map(clean);
    if (run.filesChangedCount > shown.length)
      shown.push(`… and ${run.filesChangedCount - shown.length} more`);
    const stat = run.diffStat ? clean(run.diffStat) : shown.join('\n');
    sections.push(details('Files changed', block(stat, MAX_FILES_CHARS)));
  }
  if (run.tail.length)
    sections.push(details('Last lines of the log', block(tailText(run.tail.map(clean)), MAX_TAIL_CHARS)));
  const body = fitComment(sections);
  // The pull request an issue's run opened comes last, past any cut.
  const opened = run.pullRequest ? `\n\n${pullRequestLine(run.pullRequest)}` : '';
  if (run.patch && run.patch.text.length <= MAX_INLINE_PATCH) {
    // Whole or not at all: half a patch is no patch to apply.
    const patch = untrustedBlock(clean(run.patch.text), 2 * MAX_INLINE_PATCH, { lang: 'diff' });
    const withPatch = `${body}\n\n${details('Patch (apply with <code>git am</code>)', patch.markdown)}`;
    if (!patch.leftOut && withPatch.length <= MAX_COMMENT) return withPatch + opened;
  }
  return body + opened;
}

export const pullRequestLine = (pr: { number: number; htmlUrl: string }) =>
  `Pull request: [#${pr.number}](${pr.htmlUrl}).`;

const CUT_NOTE = '… (cut: too long for a comment; the job summary and the workflow run have the rest)';

/** The sections joined, as many whole ones as fit in MAX_COMMENT; a note says when any were left out. */
export function fitComment(sections: readonly string[], max = MAX_COMMENT): string {
  const all = sections.join('\n\n');
  if (all.length <= max) return all;
  let kept = sections[0];
  for (const section of sections.slice(1)) {
    if (kept.length + section.length + CUT_NOTE.length + 4 > max) break;
    kept += `\n\n${section}`;
  }
  return `${kept}\n\n${CUT_NOTE}`;
}

/** The commits, newest last, each subject inert; as many as fit in MAX_COMMITS_CHARS, the rest counted. */
function commitsList(run: FinishedRun, clean: (text: string) => string): string {
  const lines = [run.pushed ? '**Commits pushed**' : '**Commits (not pushed)**', ''];
  if (run.moreCommits)
    lines.push(`- … older commits left out: only the newest ${run.commits.length} are listed`);
  let size = 0;
  for (const [i, c] of run.commits.entries()) {
    const sha = c.url ? `[\`${c.sha.slice(0, 7)}\`](${c.url})` : untrustedCode(c.sha.slice(0, 7));
    const line = `- ${sha} ${untrustedCode(clean(c.subject), MAX_SUBJECT_CHARS)}`;
    size += line.length + 1;
    if (size > MAX_COMMITS_CHARS) {
      lines.push(`- … ${run.commits.length - i} more not listed here`);
      break;
    }
    lines.push(line);
  }
  return lines.join('\n');
}

/** Untrusted text as a `<pre>` block of at most `max` characters, the cut said after it. */
const block = (text: string, max: number) =>
  blockWithCut(text, max, (n) => `… ${n} more characters not shown here.`);

/** The main step failed before the run could end (an error, not the command's exit code). */
export function failed(ctx: ProgressContext, message: string, clean: (text: string) => string): string {
  return [
    PROGRESS_MARKER,
    `### ❌ \`${ctx.what}\` could not run`,
    '',
    `${requestLine(ctx)} Branch: ${branchLine(ctx)}.`,
    '',
    block(clean(message), MAX_FAILURE_CHARS),
  ].join('\n');
}

/** The job ended before the main step finished the comment: cancelled, timed out or killed. */
export function stopped(ctx: ProgressContext | undefined): string {
  const what = ctx ? `\`${ctx.what}\`` : 'The run';
  return [
    PROGRESS_MARKER,
    `### 🛑 ${what} stopped before it finished`,
    '',
    ...(ctx ? [`${requestLine(ctx)} Branch: ${branchLine(ctx)}.`, ''] : []),
    'The job was cancelled, timed out or failed while the run was in progress: nothing more was pushed.' +
      (ctx ? ` The [workflow run](${ctx.runUrl}) has the details.` : ''),
  ].join('\n');
}

export function formatDuration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}

function commitsCell(run: FinishedRun): string {
  const n = `${run.moreCommits ? 'more than ' : ''}${run.commits.length}`;
  if (run.pushed) return `${n} pushed to ${untrustedCode(run.pushedTo ?? '', 500)}`;
  // git's reason may quote a branch name the pull request chose.
  const reason = run.pushReason && untrustedInline(run.pushReason, 1_000);
  if (!run.commits.length) return reason ? `none (${reason})` : 'none';
  return reason ? `${n}, not pushed: ${reason}` : `${n}, not pushed`;
}

function requestLine(ctx: ProgressContext): string {
  return `Requested by @${ctx.requester} · [workflow run](${ctx.runUrl}).`;
}

function branchLine(ctx: ProgressContext): string {
  // The branch is the pull request's (a fork's may be named anything git allows, backticks included).
  const branch = untrustedCode(ctx.branch, 500);
  return ctx.headSha ? `${branch} at ${untrustedCode(ctx.headSha.slice(0, 12))}` : branch;
}

function tailText(lines: readonly string[]): string {
  // Cut between characters (a code point each), never inside a surrogate pair.
  return lines
    .map((l) => (l.length > MAX_LINE ? `${Array.from(l).slice(0, MAX_LINE).join('')}…` : l))
    .join('\n');
}

/** The body of the pull request an issue's run opens: it closes the issue and holds the reply, inert. */
export function issuePullRequestBody(issueNumber: number, run: FinishedRun, clean: (text: string) => string) {
  const reply = replyMarkdown(run.reply, {
    heading: "**The command's reply**",
    maxChars: MAX_REPLY_IN_COMMENT,
    redact: clean,
  });
  return [`Closes #${issueNumber}`, ...(reply ? ['', reply] : [])].join('\n');
}
