// What the command spent on model APIs, for people and later steps: a job-summary section beside the
// network's, the `model-usage` output, and, when the budget stopped the agent, a warning that says so and
// at what count, and the bot's comment's row (present/progress-comment.ts). Model names come from the
// servers' answers (and a host from the sandbox): printed only JSON-quoted, with the characters Markdown
// and HTML read replaced.
import type { ModelUsageReport } from '../network/model-meter.js';
import { table, thousands } from '../ui/markdown.js';
import { shownHost } from './network-summary.js';

const n = thousands;

export function modelUsageOutput(report: ModelUsageReport): Record<'model-usage', string> {
  return { 'model-usage': JSON.stringify(report) };
}

/** The budget's verdict in one sentence, or '' when no limit refused a request. */
export function budgetSentence(report: ModelUsageReport): string {
  const { stopped, limits } = report;
  if (!stopped) return '';
  const limit = stopped.by === 'max-model-requests' ? limits.maxRequests : limits.maxTokens;
  return (
    `The model budget stopped the agent: \`${stopped.by}\` ${n(limit)} was reached at ${n(stopped.requests)} ` +
    `request(s) and ${n(stopped.tokens)} token(s); the proxy answered ${n(report.refused)} further ` +
    `request(s) itself (429).`
  );
}

export function modelUsageWarnings(report: ModelUsageReport): string[] {
  const lines: string[] = [];
  const sentence = budgetSentence(report);
  if (sentence) lines.push(sentence.replace(/`/g, ''));
  if (report.refusedUnreadable > 0)
    lines.push(
      `Model usage: ${report.refusedUnreadable} request(s) were refused because their usage could not be read (see the job summary).`,
    );
  if (report.totals.unmetered > 0)
    lines.push(
      `Model usage: ${report.totals.unmetered} answer(s) gave no usage the proxy could read (see the job summary).`,
    );
  return lines;
}

export function modelUsageMarkdown(report: ModelUsageReport): string {
  const { rows, totals, limits } = report;
  if (totals.requests === 0 && report.refused === 0 && !limits.maxRequests && !limits.maxTokens) return '';
  const parts = ['### Model usage'];
  if (rows.length === 0) parts.push('The command made no request to a model API the proxy meters.');
  else {
    const cache = rows.some((r) => r.cacheReadTokens > 0 || r.cacheWriteTokens > 0);
    const head = ['Host', 'Model', 'Requests', 'Input tokens', 'Output tokens'];
    if (cache) head.push('Cache read', 'Cache write');
    const cells = rows.map((r) => [
      `${shownHost(r.host)}:${r.port}`,
      r.model ? shownHost(r.model) : '(none named)',
      n(r.requests),
      n(r.inputTokens),
      n(r.outputTokens),
      ...(cache ? [n(r.cacheReadTokens), n(r.cacheWriteTokens)] : []),
    ]);
    cells.push(['**Total**', '', n(totals.requests), n(totals.inputTokens), n(totals.outputTokens)]);
    if (cache) cells[cells.length - 1].push('', '');
    parts.push(table(head, cells));
  }
  if (totals.unmetered > 0)
    parts.push(
      `${n(totals.unmetered)} answer(s) gave no usage the proxy could read (none in the answer, such as a ` +
        'batch or a stream cut short, or an answer or event over 16 MiB): their tokens are not counted.',
    );
  if (report.refusedUnreadable > 0)
    parts.push(
      `${n(report.refusedUnreadable)} request(s) were refused because their usage could not be read ` +
        '(under `max-model-tokens`, a request whose tokens the proxy cannot count is not sent).',
    );
  if (report.uncounted > 0)
    parts.push(`${n(report.uncounted)} answer(s) for further models were counted in the total only.`);
  const set = [
    `\`max-model-requests\` ${n(limits.maxRequests)} requests`,
    `\`max-model-tokens\` ${n(limits.maxTokens)} tokens`,
  ].filter((_, i) => (i === 0 ? limits.maxRequests : limits.maxTokens) > 0);
  const verdict = budgetSentence(report) || (report.refused > 0 ? '' : 'It refused no request.');
  if (set.length) parts.push(`Budget: ${set.join(', ')}. ${verdict}`);
  return `\n${parts.join('\n\n')}\n`;
}

/** The model usage row: requests, tokens, the budget's verdict; '' when no model API was metered. */
export function modelUsageTotals(report: ModelUsageReport): string {
  const { totals } = report;
  if (totals.requests === 0 && report.refused === 0) return '';
  const parts = [
    `${n(totals.requests)} request(s)`,
    `${n(totals.inputTokens)} input and ${n(totals.outputTokens)} output tokens`,
  ];
  if (report.stopped) parts.push(`stopped by \`${report.stopped.by}\` (${n(report.refused)} refused)`);
  return parts.join(', ');
}
