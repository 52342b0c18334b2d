// Reported sandboxes for the specs of the reap's report and job summary: an entry built from its name,
// and one of each outcome, in one result.
import type { ReapResult, ReportedSandbox } from '../../src/reap/reap-report.js';

export function entry(sandbox: string, extra: Partial<ReportedSandbox>): ReportedSandbox {
  return {
    key: `disk:/r/p/${sandbox}`,
    sandbox,
    project: 'p-abc123',
    isolation: 'disk',
    where: `/r/p/${sandbox}`,
    class: 'transient',
    ageDays: 40,
    expiryDays: 30,
    action: 'keep',
    reason: 'fresh: 1 of 30 days',
    result: 'kept',
    ...extra,
  };
}

export const removed = entry('exploration-00000001', {
  action: 'remove',
  result: 'removed',
  reason: 'stale and holds no work',
  sizeBytes: 2048,
  freedBytes: 2048,
});
export const dirty = entry('feature-x', {
  class: 'persistent',
  ageDays: 120,
  reason: 'holds work: 2 uncommitted file(s)',
});
export const fresh = entry('exploration-00000002', { ageDays: 1 });
export const foreign = entry('junk', {
  class: 'not-a-sandbox',
  ageDays: undefined,
  reason: 'not a sandbox: no .git file',
});
export const partly = entry('exploration-00000003', {
  action: 'remove',
  result: 'partly removed',
  reason: 'stale and holds no work',
  detail: '1 entry could not be deleted',
  problems: [{ path: '/r/p/exploration-00000003/src', error: 'EPERM' }],
});
export const skipped = entry('exploration-00000004', {
  action: 'remove',
  result: 'kept',
  reason: 'stale and holds no work',
  detail: 'in use: a run holds its lock',
});

export const result: ReapResult = {
  dryRun: false,
  sandboxes: [fresh, foreign, dirty, removed, partly, skipped],
  freedBytes: 2048,
  warnings: ['Volume sandboxes were not scanned: docker is unreachable'],
  stats: { found: 6, stale: 5, provedByFilesystem: 1 },
};
