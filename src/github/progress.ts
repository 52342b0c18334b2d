// The progress comment on the pull request: one comment, created when the run starts and rewritten in
// place when it ends (or by the post step when the job stopped first). Pure rendering.
// Everything the command produced (log, file names, commit subjects, patch) is untrusted: it goes into
// code blocks or code spans, where Markdown, HTML and @mentions do nothing, with known secrets redacted
// (the run's one redaction, run/redaction.ts: here before each part is cut, and again as the API sends it).
import { replyMarkdown, type ReplyRead } from '../run/reply.js';
import { PROGRESS_MARKER } from './event.js';

export interface ProgressContext {
  /** The trigger (`/fix`) or the event that started the run. */
  what: string;
  requester: string;
  runUrl: string;
  /** The branch the run works on, as people know it (`feature`, or `owner:feature` for a fork). */
  branch: string;
  headSha?: string;
}

export interface CommitLine {
  sha: string;
  subject: string;
  /** Set when the commit is on GitHub (pushed). */
  url?: string;
}

export interface FinishedRun {
  exitCode: number;
  timedOut: boolean;
  oomKilled: boolean;
  durationMs: number;
  /** The first changed files (the report keeps at most 1,000) and how many changed in all. */
  filesChanged: string[];
  filesChangedCount: number;
  diffStat: string;
  commits: CommitLine[];
  /** Older commits than those in `commits` were left out (the list is capped). */
  moreCommits?: boolean;
  pushed: boolean;
  /** Where the commits went (`origin/feature`), when pushed. */
  pushedTo?: string;
  /** Why not, when not pushed. */
  pushReason?: string;
  /** The commits were meant to be pushed and were not (rejected, failed). */
  pushFailed?: boolean;
  patch?: { path: string; text: string };
  tail: string[];
  /** What the secret scan found in the tail and masked (run/tail-scan.ts), by rule: for the job summary. */
  tailFound?: string[];
  /** What the command wrote to SANDBOX_REPLY_FILE: untrusted text (run/reply.ts). */
  reply?: ReplyRead;
  /** Model API totals the proxy metered (requests, tokens, the budget's verdict), when there were any. */
  modelUsage?: string;
}

/** GitHub refuses comments over 65,536 characters. */
export const MAX_COMMENT = 65_000;
const MAX_LINE = 300;
const MAX_FILES = 100;
const MAX_INLINE_PATCH = 30_000;
/** The most characters of the command's reply in the comment (the job summary has more). */
export const MAX_REPLY_IN_COMMENT = 20_000;

export function renderRunning(ctx: ProgressContext): string {
  return [
    PROGRESS_MARKER,
    `### ⏳ \`${ctx.what}\` is running`,
    '',
    `${requestLine(ctx)} The sandbox works on ${branchLine(ctx)}; this comment is updated when the run ends.`,
  ].join('\n');
}

/** `clean` is the run's redaction (run/redaction.ts), applied to each part before it is cut. */
export function renderFinished(
  ctx: ProgressContext,
  run: FinishedRun,
  clean: (text: string) => string,
): string {
  const ok = run.exitCode === 0;
  const status = run.timedOut
    ? `⏱ \`${ctx.what}\` timed out`
    : run.oomKilled
      ? `💥 \`${ctx.what}\` ran out of memory`
      : !ok
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
  if (run.modelUsage) rows.push(['Model usage', run.modelUsage]);
  if (run.patch) rows.push(['Patch', `saved as ${code(run.patch.path)} (output \`patch-path\`)`]);
  const sections = [
    PROGRESS_MARKER,
    `### ${status}`,
    '',
    `${requestLine(ctx)} Branch: ${branchLine(ctx)}.`,
    '',
    '| | |',
    '|---|---|',
    ...rows.map(([k, v]) => `| ${k} | ${v.replace(/\|/g, '\\|')} |`),
  ];
  const reply = replyMarkdown(run.reply, {
    heading: "**The command's reply**",
    maxChars: MAX_REPLY_IN_COMMENT,
    redact: clean,
    elsewhere: 'the job summary and the output `reply` have the rest',
  });
  if (reply) sections.push('', reply);
  if (run.commits.length) {
    sections.push('', run.pushed ? '**Commits pushed**' : '**Commits (not pushed)**', '');
    if (run.moreCommits)
      sections.push(`- … older commits left out: only the newest ${run.commits.length} are listed`);
    for (const c of run.commits) {
      const sha = c.url ? `[\`${c.sha.slice(0, 7)}\`](${c.url})` : code(c.sha.slice(0, 7));
      sections.push(`- ${sha} ${code(clean(c.subject))}`);
    }
  }
  if (run.filesChanged.length) {
    const shown = run.filesChanged.slice(0, MAX_FILES).map(clean);
    if (run.filesChangedCount > shown.length)
      shown.push(`… and ${run.filesChangedCount - shown.length} more`);
    const stat = run.diffStat ? clean(run.diffStat) : shown.join('\n');
    sections.push('', details('Files changed', fence(stat)));
  }
  if (run.tail.length)
    sections.push('', details('Last lines of the log', fence(tailText(run.tail.map(clean)))));
  const body = sections.join('\n');
  if (run.patch && run.patch.text.length <= MAX_INLINE_PATCH) {
    const withPatch = `${body}\n\n${details('Patch (apply with `git am`)', fence(clean(run.patch.text), 'diff'))}`;
    if (withPatch.length <= MAX_COMMENT) return withPatch;
  }
  return body.length <= MAX_COMMENT ? body : `${body.slice(0, MAX_COMMENT - 40)}\n\n… (cut: too long)`;
}

/** The main step failed before the run could end (an error, not the command's exit code). */
export function renderFailed(ctx: ProgressContext, message: string, clean: (text: string) => string): string {
  return [
    PROGRESS_MARKER,
    `### ❌ \`${ctx.what}\` could not run`,
    '',
    `${requestLine(ctx)} Branch: ${branchLine(ctx)}.`,
    '',
    fence(clean(message).slice(0, 4_000)),
  ].join('\n');
}

/** The job ended before the main step finished the comment: cancelled, timed out or killed. */
export function renderStopped(ctx: ProgressContext | undefined): string {
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

/** A fenced code block whose fence is longer than any run of backticks in the text. */
export function fence(text: string, lang = ''): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const marks = '`'.repeat(Math.max(3, longest + 1));
  return `${marks}${lang}\n${text}\n${marks}`;
}

export function formatDuration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}

function commitsCell(run: FinishedRun): string {
  const n = `${run.moreCommits ? 'more than ' : ''}${run.commits.length}`;
  if (run.pushed) return `${n} pushed to ${code(run.pushedTo ?? '')}`;
  if (!run.commits.length) return run.pushReason ? `none (${run.pushReason})` : 'none';
  return run.pushReason ? `${n}, not pushed: ${run.pushReason}` : `${n}, not pushed`;
}

function requestLine(ctx: ProgressContext): string {
  return `Requested by @${ctx.requester} · [workflow run](${ctx.runUrl}).`;
}

function branchLine(ctx: ProgressContext): string {
  return ctx.headSha ? `${code(ctx.branch)} at ${code(ctx.headSha.slice(0, 12))}` : code(ctx.branch);
}

/** An inline code span that holds any text on one line (backticks cannot close it early). */
function code(text: string): string {
  const one = text.replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...(one.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  const pad = one.startsWith('`') || one.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${one}${pad}${ticks}`;
}

function details(summary: string, body: string): string {
  return `<details><summary>${summary}</summary>\n\n${body}\n</details>`;
}

function tailText(lines: readonly string[]): string {
  return lines.map((l) => (l.length > MAX_LINE ? `${l.slice(0, MAX_LINE)}…` : l)).join('\n');
}
