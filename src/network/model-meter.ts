// What the run spent on model APIs, and the budget that stops it: one object per run, shared by every
// connection and host the proxy serves. Requests are decided before they are sent (`admit`), tokens are
// added as the answers end (`record`): a limit, once reached, refuses every later request of the run.
// Pure: no sockets. ADR 0009.
import type { ModelApi } from './model-apis.js';
import type { ScannedAnswer } from './usage-scanner.js';

/** `max-model-requests` and `max-model-tokens` (input plus output); 0 is no limit. */
export interface ModelLimits {
  maxRequests: number;
  maxTokens: number;
}

export interface ModelUsageRow {
  host: string;
  port: number;
  api: ModelApi;
  /** As the answer named it (from the server: untrusted text); empty when no answer named one. */
  model: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Answers (2xx) whose usage could not be read: none given, over the bound, or encoded. */
  unmetered: number;
}

export interface ModelUsageReport {
  rows: ModelUsageRow[];
  /** Over every row, and over requests past the row bound. */
  totals: { requests: number; inputTokens: number; outputTokens: number; unmetered: number };
  limits: ModelLimits;
  /** Set when a limit refused a request: which, and the counts when it first did. */
  stopped?: { by: 'max-model-requests' | 'max-model-tokens'; requests: number; tokens: number };
  /** Requests the proxy answered itself (429) because of the budget. */
  refused: number;
  /** Host and model pairs past the row bound, counted in the totals only. */
  uncounted: number;
}

/** One answer as it ended: its status, and what the scanner read (none when it was not read). */
export interface MeteredAnswer {
  status?: number;
  scanned?: ScannedAnswer;
}

const MAX_ROWS = 200;

export class ModelMeter {
  private readonly rows = new Map<string, ModelUsageRow>();
  private readonly totals = { requests: 0, inputTokens: 0, outputTokens: 0, unmetered: 0 };
  private admitted = 0;
  private refused = 0;
  private uncounted = 0;
  private stopped: ModelUsageReport['stopped'];

  constructor(private readonly limits: ModelLimits = { maxRequests: 0, maxTokens: 0 }) {}

  private get tokens(): number {
    return this.totals.inputTokens + this.totals.outputTokens;
  }

  /** Before a metered request is sent: undefined (counted, send it) or why the budget refuses it. */
  admit(): string | undefined {
    const { maxRequests, maxTokens } = this.limits;
    const by =
      maxRequests > 0 && this.admitted >= maxRequests
        ? 'max-model-requests'
        : maxTokens > 0 && this.tokens >= maxTokens
          ? 'max-model-tokens'
          : undefined;
    if (!by) {
      this.admitted++;
      return undefined;
    }
    this.refused++;
    this.stopped ??= { by, requests: this.admitted, tokens: this.tokens };
    return by === 'max-model-requests'
      ? `the run's model budget is spent: ${this.admitted} of max-model-requests ${maxRequests} requests made`
      : `the run's model budget is spent: ${this.tokens} tokens used of max-model-tokens ${maxTokens}`;
  }

  /** After an admitted request's answer ended (or failed): its tokens, in its host and model's row. */
  record(host: string, port: number, api: ModelApi, answer: MeteredAnswer, pathModel = ''): void {
    const usage = answer.scanned?.usage;
    const ok = answer.status !== undefined && answer.status >= 200 && answer.status < 300;
    const unmetered = ok && !usage ? 1 : 0;
    this.totals.requests++;
    this.totals.inputTokens += usage?.input ?? 0;
    this.totals.outputTokens += usage?.output ?? 0;
    this.totals.unmetered += unmetered;
    const model = answer.scanned?.model ?? pathModel;
    const key = `${host}\n${port}\n${api}\n${model}`;
    let row = this.rows.get(key);
    if (!row) {
      if (this.rows.size >= MAX_ROWS) {
        this.uncounted++;
        return;
      }
      row = {
        host,
        port,
        api,
        model,
        requests: 0,
        inputTokens: 0,
        outputTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        unmetered: 0,
      };
      this.rows.set(key, row);
    }
    row.requests++;
    row.inputTokens += usage?.input ?? 0;
    row.outputTokens += usage?.output ?? 0;
    row.cacheReadTokens += usage?.cacheRead ?? 0;
    row.cacheWriteTokens += usage?.cacheWrite ?? 0;
    row.unmetered += unmetered;
  }

  report(): ModelUsageReport {
    const rows = [...this.rows.values()].sort(
      (a, b) => a.host.localeCompare(b.host) || a.port - b.port || a.model.localeCompare(b.model),
    );
    return {
      rows,
      totals: { ...this.totals },
      limits: { ...this.limits },
      ...(this.stopped ? { stopped: { ...this.stopped } } : {}),
      refused: this.refused,
      uncounted: this.uncounted,
    };
  }
}
