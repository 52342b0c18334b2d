// What the run spent on model APIs, and the budget that stops it: one object per run, shared by every
// connection and host the proxy serves. Requests are decided before they are sent (`admit`); tokens are
// counted as each answer reports them, while it streams (`open`), and recorded when it ends (`record`): a
// limit, once reached by the answers ended and those still streaming, refuses every later request of the
// run. It fails closed: under `max-model-tokens`, a request whose usage cannot be read is refused, and once
// an answer's usage could not be read, every later request is. Pure: no sockets. ADR 0009.
import type { ModelApi } from './model-apis.js';
import type { ScannedAnswer, Usage } from './usage-scanner.js';

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

/** An answer still coming: its usage so far (`update`), then its end (`done`). */
export interface OpenAnswer {
  update(usage: Usage): void;
  done(answer: MeteredAnswer): void;
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
  /** Of `refused`, requests refused under `max-model-tokens` because their usage could not be read. */
  refusedUnreadable: number;
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
  private refusedUnreadable = 0;
  private uncounted = 0;
  /** Tokens reported so far by answers still coming. */
  private streaming = 0;
  private stopped: ModelUsageReport['stopped'];

  constructor(private readonly limits: ModelLimits = { maxRequests: 0, maxTokens: 0 }) {}

  /** The answers ended and those still streaming. */
  private get tokens(): number {
    return this.totals.inputTokens + this.totals.outputTokens + this.streaming;
  }

  /**
   * Before a metered request is sent: undefined (counted, send it) or why the budget refuses it.
   * `unreadable` says why its usage could not be read, when it cannot.
   */
  admit(unreadable?: string): string | undefined {
    const { maxRequests, maxTokens } = this.limits;
    let why: string | undefined;
    if (maxRequests > 0 && this.admitted >= maxRequests) {
      this.stopped ??= { by: 'max-model-requests', requests: this.admitted, tokens: this.tokens };
      why = `the run's model budget is spent: ${this.admitted} of max-model-requests ${maxRequests} requests made`;
    } else if (maxTokens > 0 && this.tokens >= maxTokens) {
      this.stopped ??= { by: 'max-model-tokens', requests: this.admitted, tokens: this.tokens };
      why = `the run's model budget is spent: ${this.tokens} tokens used of max-model-tokens ${maxTokens}`;
    } else if (maxTokens > 0 && this.totals.unmetered > 0) {
      this.stopped ??= { by: 'max-model-tokens', requests: this.admitted, tokens: this.tokens };
      why =
        `the run's token count is unknown: ${this.totals.unmetered} answer(s) gave no usage the proxy ` +
        `could read, so max-model-tokens ${maxTokens} cannot be kept`;
    } else if (maxTokens > 0 && unreadable) {
      this.refusedUnreadable++;
      why = `refused under max-model-tokens ${maxTokens}: ${unreadable}`;
    }
    if (why === undefined) this.admitted++;
    else this.refused++;
    return why;
  }

  /** An admitted request's answer, counted as it reports its usage; `done` records it (once). */
  open(host: string, port: number, api: ModelApi, pathModel = ''): OpenAnswer {
    let counted = 0;
    let ended = false;
    return {
      update: (usage) => {
        if (ended) return;
        const now = usage.input + usage.output;
        this.streaming += now - counted;
        counted = now;
      },
      done: (answer) => {
        if (ended) return;
        ended = true;
        this.streaming -= counted;
        this.record(host, port, api, answer, pathModel);
      },
    };
  }

  /** After an admitted request's answer ended (or failed): its tokens, in its host and model's row. */
  record(host: string, port: number, api: ModelApi, answer: MeteredAnswer, pathModel = ''): void {
    const usage = answer.scanned?.usage;
    const ok = answer.status !== undefined && answer.status >= 200 && answer.status < 300;
    // A line past the bound may have held the totals: what was read of it is counted, and it is unreadable.
    const unmetered = ok && (!usage || answer.scanned?.overBound) ? 1 : 0;
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
      refusedUnreadable: this.refusedUnreadable,
    };
  }
}
