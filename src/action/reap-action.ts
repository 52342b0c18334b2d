// Reap mode of the action: settings in, the reaper run, outputs (`reaped`, `kept`, `freed-bytes`) and a
// job summary out. The reaper itself (src/reap/) knows nothing of @actions/core.
import * as core from '@actions/core';
import { actionUi } from './action-ui.js';
import { Redaction } from '../run/redaction.js';
import { writeSummary } from '../present/step-summary.js';
import { byInterest, isReaped, type ReapResult, toRecord } from '../reap/reap-report.js';
import { jsonRows } from '../ui/markdown.js';
import { summaryMarkdown } from './reap-summary.js';
import { reap, reapOptionsFrom } from '../reap/reap.js';
import type { ReapSettings } from '../settings/settings.js';

/** GitHub keeps each output to 1 MiB; leave room for the rest. */
const OUTPUT_LIMIT = 900_000;
/** Rows of the summary's table; the summary as a whole is held under GitHub's 1 MiB by writeSummary. */
const SUMMARY_ROWS = 2500;

export async function reapAction(settings: ReapSettings): Promise<ReapResult> {
  // The facts behind every decision, in the step's debug log (ACTIONS_STEP_DEBUG).
  const ui = actionUi();
  const result = await reap(reapOptionsFrom(settings), ui);
  const sorted = byInterest(result.sandboxes);
  const reaped = jsonRows(sorted.filter(isReaped).map(toRecord), OUTPUT_LIMIT);
  const kept = jsonRows(sorted.filter((s) => !isReaped(s)).map(toRecord), OUTPUT_LIMIT);
  for (const [name, list] of [
    ['reaped', reaped],
    ['kept', kept],
  ] as const) {
    if (list.omitted)
      core.warning(`The ${name} output lists the first entries only: ${list.omitted} more did not fit.`);
  }
  core.setOutput('reaped', reaped.json);
  core.setOutput('kept', kept.json);
  core.setOutput('freed-bytes', String(result.freedBytes));
  const redaction = Redaction.of([{ name: 'token', value: settings.token }]);
  await writeSummary(redaction, summaryMarkdown({ ...result, sandboxes: sorted }, SUMMARY_ROWS));
  const failed = result.sandboxes.filter((s) => s.result === 'partly removed');
  if (failed.length)
    core.warning(
      `${failed.length} sandbox(es) could only be partly removed; what is left is reported as not a sandbox from now on: ${failed.map((s) => s.where).join(', ')}`,
    );
  // A sandbox that could not be removed is kept with its reason: a normal outcome, not the step's failure.
  const notRemoved = result.sandboxes.filter((s) => s.failed);
  if (notRemoved.length)
    core.warning(
      `${notRemoved.length} sandbox(es) could not be removed and are kept: ${notRemoved.map((s) => `${s.where} (${JSON.stringify(s.detail ?? '')})`).join(', ')}`,
    );
  return result;
}
