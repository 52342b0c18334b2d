// The chain's last handler (chain.ts): what went where. Each request let through counts in its host's row,
// each refusal in its reason's, and when proxy-chain's connection closes, its bytes in the row it counted in.
import type { Handler } from '../chain.js';
import type { HostCount, Tally } from '../tally.js';

export function tallyHandler(tally: Tally): Handler {
  const rowOf = new Map<number, HostCount>();
  return {
    allowed({ connectionId, host, port }) {
      const row = tally.allow(host, port);
      if (row) rowOf.set(connectionId, row);
    },
    refused: (host, port, reason) => tally.deny(host, port, reason),
    closed(connectionId, stats) {
      const row = rowOf.get(connectionId);
      rowOf.delete(connectionId);
      if (!row || !stats) return;
      row.bytesSent += stats.srcRxBytes ?? 0;
      row.bytesReceived += stats.srcTxBytes ?? 0;
    },
  };
}
