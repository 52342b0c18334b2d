// What the proxy let through and refused, by host and port, within a bound of rows: the proxy's counts
// for the job summary and the outputs (network-summary.ts).

export interface HostCount {
  host: string;
  port: number;
  requests: number;
  bytesSent: number;
  bytesReceived: number;
}

export interface RefusedCount {
  host: string;
  port: number;
  requests: number;
  reason: string;
}

/** What the proxy let through and refused, and the hosts past the bound. */
export interface TallyReport {
  allowed: HostCount[];
  denied: RefusedCount[];
  /** Distinct hosts past the bound that were counted in no row (the command named too many). */
  uncounted: number;
}

/** Distinct host:port rows kept. */
export const MAX_ROWS = 500;

export class Tally {
  readonly allowed = new Map<string, HostCount>();
  readonly denied = new Map<string, RefusedCount>();
  uncounted = 0;

  private row<T>(map: Map<string, T>, host: string, port: number, make: () => T): T | undefined {
    const key = `${host}\n${port}`;
    const found = map.get(key);
    if (found) return found;
    if (this.allowed.size + this.denied.size >= MAX_ROWS) {
      this.uncounted++;
      return undefined;
    }
    const made = make();
    map.set(key, made);
    return made;
  }

  allow(host: string, port: number): HostCount | undefined {
    const row = this.row(this.allowed, host, port, () => ({
      host,
      port,
      requests: 0,
      bytesSent: 0,
      bytesReceived: 0,
    }));
    if (row) row.requests++;
    return row;
  }

  deny(host: string, port: number, reason: string): void {
    const row = this.row(this.denied, host, port, () => ({ host, port, requests: 0, reason }));
    if (row) row.requests++;
  }

  report(): TallyReport {
    const order = (a: { host: string; port: number }, b: { host: string; port: number }) =>
      a.host.localeCompare(b.host) || a.port - b.port;
    return {
      allowed: [...this.allowed.values()].sort(order),
      denied: [...this.denied.values()].sort(order),
      uncounted: this.uncounted,
    };
  }
}
