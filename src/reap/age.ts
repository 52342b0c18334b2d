// Age is the time since the last activity. The newest of several signals counts, because a folder's own
// mtime only moves when its direct children are added, removed or renamed: edits deeper in the tree and
// git operations are seen through the worktree's index, HEAD and reflog in its admin folder instead.
export const DAY_MS = 86_400_000;

/** The newest of the signals (epoch ms); undefined when none could be read. */
export function lastActivity(signals: ReadonlyArray<number | undefined>): number | undefined {
  let newest: number | undefined;
  for (const signal of signals) {
    if (signal === undefined || !Number.isFinite(signal)) continue;
    if (newest === undefined || signal > newest) newest = signal;
  }
  return newest;
}

/** Whole days since `lastMs` (a time in the future counts as 0). */
export function ageDays(lastMs: number, nowMs: number): number {
  return Math.max(0, Math.floor((nowMs - lastMs) / DAY_MS));
}

/** Stale once unused for longer than `expiryDays`; an unknown age is never stale. */
export function isExpired(lastMs: number | undefined, nowMs: number, expiryDays: number): boolean {
  if (lastMs === undefined) return false;
  return nowMs - lastMs > expiryDays * DAY_MS;
}

/** An ISO-8601 time (e.g. the `created` label of a volume) as epoch ms; undefined when it is not one. */
export function parseTimestamp(text: string | undefined): number | undefined {
  if (!text || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/.test(text))
    return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}
