// `worktree-sandbox list`: every sandbox on the machine (disk and volume) as the reaper sees it: its
// state now and when a reap with the same retention would remove it.
import { formatBytes } from '../reap/reap-report.js';
import { reapOptionsFrom } from '../reap/reap.js';
import {
  removalOutlook,
  sandboxState,
  listSandboxes,
  type RemovalOutlook,
  type SandboxListing,
} from './listing.js';
import type { ReapSettings } from '../settings/settings.js';
import { formatDate, formatDays, formatTable } from './table.js';
import { terminalUi } from './terminal-ui.js';

export async function listCommand(settings: ReapSettings, json: boolean): Promise<void> {
  const ui = terminalUi({ quiet: true, spinner: true });
  const found = await listSandboxes(reapOptionsFrom(settings), ui);
  const entries = listEntries(found);
  if (json) {
    process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
    return;
  }
  process.stdout.write(
    entries.length
      ? `${listText(entries, found.nowMs)}\n`
      : `No sandboxes under ${found.root} or in volumes ${settings.volumePrefix}-*.\n`,
  );
}

export interface ListEntry {
  project: string;
  sandbox: string;
  /** `disk`, or `container` (a volume), as in the reap outputs. */
  isolation: string;
  /** The folder or the volume. */
  where: string;
  /** transient, persistent, orphan, or not-a-sandbox. */
  class: string;
  branch: string | null;
  ageDays: number | null;
  lastActivity: string | null;
  sizeBytes: number | null;
  state: string;
  stateDetail: string | null;
  removal: { when: RemovalOutlook['when']; after: string | null; reason: string };
}

export function listEntries(found: SandboxListing): ListEntry[] {
  return found.sandboxes
    .map(({ facts, decision, branch }) => {
      const state = sandboxState(facts);
      const outlook = removalOutlook(facts, decision, found.policy, found.nowMs);
      return {
        project: facts.project,
        sandbox: facts.sandbox,
        isolation: facts.isolation,
        where: facts.where,
        class: decision.class,
        branch: branch ?? null,
        ageDays: decision.ageDays ?? null,
        lastActivity:
          facts.lastActivityMs === undefined ? null : new Date(facts.lastActivityMs).toISOString(),
        sizeBytes: facts.sizeBytes ?? null,
        state: state.state,
        stateDetail: state.detail ?? null,
        removal: {
          when: outlook.when,
          after: outlook.afterMs === undefined ? null : new Date(outlook.afterMs).toISOString(),
          reason: outlook.reason,
        },
      };
    })
    .sort(
      (a, b) =>
        Number(a.class === 'not-a-sandbox') - Number(b.class === 'not-a-sandbox') ||
        a.project.localeCompare(b.project) ||
        a.sandbox.localeCompare(b.sandbox) ||
        a.where.localeCompare(b.where),
    );
}

export function listText(entries: readonly ListEntry[], nowMs: number): string {
  return formatTable(
    ['PROJECT', 'SANDBOX', 'ISOLATION', 'CLASS', 'BRANCH', 'AGE', 'SIZE', 'STATE', 'REMOVAL', 'DETAIL'],
    entries.map((e) => [
      e.project || '–',
      e.sandbox || e.where,
      e.isolation === 'disk' ? 'disk' : 'volume',
      e.class,
      e.branch ?? '–',
      formatDays(e.ageDays),
      e.sizeBytes === null ? '–' : formatBytes(e.sizeBytes),
      e.state,
      removalText(e, nowMs),
      e.removal.reason,
    ]),
  );
}

function removalText(e: ListEntry, nowMs: number): string {
  switch (e.removal.when) {
    case 'next reap':
      return 'next reap';
    case 'never':
      return 'never';
    case 'kept':
      return e.state === 'clean' ? 'kept' : `kept (${e.state})`;
    case 'after': {
      const at = Date.parse(e.removal.after!);
      return `after ${formatDate(at)} (${formatDays(Math.max(0, Math.ceil((at - nowMs) / 86_400_000)))})`;
    }
  }
}
