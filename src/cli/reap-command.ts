// `worktree-sandbox reap`: the action's reap mode from a terminal or a cron job. The same reaper; its
// result as a text table (every entry, the most telling first) or as JSON.
import { reap, reapOptionsFrom } from '../reap/reap.js';
import {
  byInterest,
  formatBytes,
  reapTally,
  type ReapResult,
  reasonOf,
  type ReportedSandbox,
} from '../reap/reap-report.js';
import type { ReapSettings } from '../settings/settings.js';
import { formatDays, formatTable } from './table.js';
import { terminalUi } from './terminal-ui.js';

export async function reapCommand(settings: ReapSettings, json: boolean): Promise<void> {
  const ui = terminalUi({ quiet: true, spinner: true });
  const result = await reap(reapOptionsFrom(settings), ui);
  process.stdout.write(json ? `${JSON.stringify(reapJson(result), null, 2)}\n` : reapText(result));
  const partly = result.sandboxes.filter((s) => s.result === 'partly removed');
  if (partly.length)
    ui.warning(
      `${partly.length} sandbox(es) could only be partly removed: ${partly.map((s) => s.where).join(', ')}`,
    );
  const notRemoved = result.sandboxes.filter((s) => s.failed);
  if (notRemoved.length)
    ui.warning(
      `${notRemoved.length} sandbox(es) could not be removed and are kept: ${notRemoved.map((s) => `${s.where} (${JSON.stringify(s.detail ?? '')})`).join(', ')}`,
    );
}

export function reapJson(result: ReapResult) {
  return {
    dryRun: result.dryRun,
    found: result.stats.found,
    stale: result.stats.stale,
    freedBytes: result.freedBytes,
    warnings: result.warnings,
    sandboxes: byInterest(result.sandboxes).map((s) => ({
      result: s.result,
      project: s.project,
      sandbox: s.sandbox,
      isolation: s.isolation,
      where: s.where,
      class: s.class,
      ageDays: s.ageDays ?? null,
      sizeBytes: s.sizeBytes ?? null,
      reason: reason(s),
      archived: s.archived ?? [],
    })),
  };
}

export function reapText(result: ReapResult): string {
  const sorted = byInterest(result.sandboxes);
  const headline = `Reap${result.dryRun ? ' (dry run: nothing removed)' : ''}: ${reapTally(result)}`;
  if (sorted.length === 0) return `${headline}\n`;
  const table = formatTable(
    ['RESULT', 'PROJECT', 'SANDBOX', 'ISOLATION', 'CLASS', 'AGE', 'SIZE', 'REASON'],
    sorted.map((s) => [
      s.result,
      s.project,
      s.sandbox || s.where,
      s.isolation === 'disk' ? 'disk' : 'volume',
      s.class,
      formatDays(s.ageDays),
      s.sizeBytes === undefined ? '–' : formatBytes(s.sizeBytes),
      reason(s),
    ]),
  );
  return `${headline}\n\n${table}\n`;
}

/** The RESULT column already says "would remove". */
function reason(s: ReportedSandbox): string {
  return s.result === 'would remove' ? s.reason : reasonOf(s);
}
