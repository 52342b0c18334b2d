// Reads a model API's usage fields from its answer as the bytes pass, without holding the answer: a JSON
// answer is kept up to a bound and parsed at its end (over the bound it is not metered, and says so); a
// streamed one (server-sent events) is read a line at a time, and only the few lines that carry a usage
// object or the model's name are parsed at all. Fields are read at the top of each event or answer (or in
// its `message` / `response`), never inside the content, so text or tool input the model wrote is not
// taken for usage. Pure: bytes in, usage out.
import type { ModelApi } from './model-apis.js';

/** Tokens of one answer. `input` counts every input token, cached ones too (the cache columns are parts). */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface ScannedAnswer {
  usage?: Usage;
  model?: string;
  /** The answer (or one of its lines) was over the bound: not read. */
  overBound: boolean;
}

/** The most of one JSON answer, or of one event line, held to be parsed. */
export const MAX_HELD_BYTES = 1024 * 1024;
const MAX_MODEL_CHARS = 200;
const NEWLINE = 0x0a;

/** Number fields kept, by their path in a usage object (the union of the three families' names). */
const FIELDS = [
  'input_tokens',
  'output_tokens',
  'cache_creation_input_tokens',
  'cache_read_input_tokens',
  'prompt_tokens',
  'completion_tokens',
  'prompt_tokens_details.cached_tokens',
  'input_tokens_details.cached_tokens',
  'promptTokenCount',
  'candidatesTokenCount',
  'cachedContentTokenCount',
  'thoughtsTokenCount',
  'toolUsePromptTokenCount',
];

const KEYS = { usage: Buffer.from('"usage"'), usageMetadata: Buffer.from('"usageMetadata"') };
const MODEL_KEYS = [Buffer.from('"model"'), Buffer.from('"modelVersion"')];

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export class UsageScanner {
  /** Last value seen of each field: streams repeat them, the later values being the totals. */
  private readonly fields = new Map<string, number>();
  private model: string | undefined;
  private overBound = false;
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** SSE: the current line is over the bound and is being skipped to its end. */
  private skipping = false;

  constructor(
    private readonly api: ModelApi,
    private readonly format: 'json' | 'sse',
  ) {}

  write(chunk: Buffer): void {
    if (this.format === 'json') this.hold(chunk);
    else this.writeEvents(chunk);
  }

  end(): ScannedAnswer {
    if (this.format === 'json' && !this.overBound && this.heldBytes > 0)
      this.absorbText(Buffer.concat(this.held).toString('utf8'));
    if (this.format === 'sse' && this.heldBytes > 0 && !this.skipping)
      this.readLines(Buffer.concat(this.held));
    this.held = [];
    this.heldBytes = 0;
    return { usage: this.usage(), model: this.model, overBound: this.overBound };
  }

  private hold(part: Buffer): void {
    if (this.overBound && this.format === 'json') return;
    if (this.skipping || part.length === 0) return;
    if (this.heldBytes + part.length > MAX_HELD_BYTES) {
      this.overBound = true;
      this.skipping = this.format === 'sse';
      this.held = [];
      this.heldBytes = 0;
      return;
    }
    // A copy: the caller may reuse its buffer.
    this.held.push(Buffer.from(part));
    this.heldBytes += part.length;
  }

  /** Complete lines are read where they lie in the chunk; only a line's unfinished end is held. */
  private writeEvents(chunk: Buffer): void {
    let from = 0;
    if (this.heldBytes > 0 || this.skipping) {
      const nl = chunk.indexOf(NEWLINE);
      if (nl === -1) {
        this.hold(chunk);
        return;
      }
      this.hold(chunk.subarray(0, nl));
      if (!this.skipping) this.readLines(Buffer.concat(this.held));
      this.held = [];
      this.heldBytes = 0;
      this.skipping = false;
      from = nl + 1;
    }
    const last = chunk.lastIndexOf(NEWLINE);
    if (last >= from) {
      this.readLines(chunk.subarray(from, last));
      from = last + 1;
    }
    if (from < chunk.length) this.hold(chunk.subarray(from));
  }

  /** Lines (newline-separated) of which only those holding a usage object or, once, a model are parsed. */
  private readLines(region: Buffer): void {
    for (const key of [KEYS.usage, KEYS.usageMetadata, ...MODEL_KEYS]) {
      const isModel = key !== KEYS.usage && key !== KEYS.usageMetadata;
      let at = region.indexOf(key);
      while (at !== -1 && !(isModel && this.model !== undefined)) {
        if (!this.worthParsing(region, at + key.length, isModel)) {
          at = region.indexOf(key, at + key.length);
          continue;
        }
        const lineEnd = region.indexOf(NEWLINE, at);
        this.readLine(
          region.subarray(region.lastIndexOf(NEWLINE, at) + 1, lineEnd === -1 ? region.length : lineEnd),
        );
        at = lineEnd === -1 ? -1 : region.indexOf(key, lineEnd);
      }
    }
  }

  /** After a key: `:` and the value's first character, which must open an object (or a model's string). */
  private worthParsing(region: Buffer, after: number, isModel: boolean): boolean {
    let i = after;
    const skip = () => {
      while (i < region.length && (region[i] === 0x20 || region[i] === 0x09 || region[i] === 0x0d)) i++;
    };
    skip();
    if (region[i] !== 0x3a) return false; // not a key (the text `"usage"` inside a string is escaped)
    i++;
    skip();
    return region[i] === (isModel ? 0x22 : 0x7b);
  }

  private readLine(line: Buffer): void {
    let text = line.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (!text.startsWith('data:')) return;
    this.absorbText(text.slice(text.startsWith('data: ') ? 6 : 5));
  }

  private absorbText(text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return;
    }
    // Gemini's streamGenerateContent without `alt=sse` answers a JSON array of the streamed objects.
    for (const item of Array.isArray(parsed) ? parsed : [parsed]) if (isObject(item)) this.absorb(item);
  }

  private absorb(event: Record<string, unknown>): void {
    for (const at of [event, event.message, event.response]) {
      if (!isObject(at)) continue;
      for (const usage of [at.usage, at.usageMetadata]) if (isObject(usage)) this.merge(usage);
      const model = typeof at.model === 'string' ? at.model : at.modelVersion;
      if (this.model === undefined && typeof model === 'string' && model)
        this.model = model.slice(0, MAX_MODEL_CHARS);
    }
  }

  private merge(usage: Record<string, unknown>): void {
    for (const field of FIELDS) {
      const [outer, inner] = field.split('.');
      const holder = inner === undefined ? usage : usage[outer];
      const value = isObject(holder) ? holder[inner ?? outer] : undefined;
      if (typeof value === 'number' && Number.isFinite(value) && value >= 0)
        this.fields.set(field, Math.floor(value));
    }
  }

  private usage(): Usage | undefined {
    const f = (name: string) => this.fields.get(name) ?? 0;
    const has = (...names: string[]) => names.some((n) => this.fields.has(n));
    if (this.api === 'anthropic' && has('input_tokens', 'output_tokens')) {
      const cacheRead = f('cache_read_input_tokens');
      const cacheWrite = f('cache_creation_input_tokens');
      // Anthropic counts cached input apart from input_tokens; the others count it within.
      return {
        input: f('input_tokens') + cacheRead + cacheWrite,
        output: f('output_tokens'),
        cacheRead,
        cacheWrite,
      };
    }
    if (this.api === 'openai' && has('prompt_tokens'))
      return {
        input: f('prompt_tokens'),
        output: f('completion_tokens'),
        cacheRead: f('prompt_tokens_details.cached_tokens'),
        cacheWrite: 0,
      };
    if (this.api === 'openai' && has('input_tokens', 'output_tokens'))
      return {
        input: f('input_tokens'),
        output: f('output_tokens'),
        cacheRead: f('input_tokens_details.cached_tokens'),
        cacheWrite: 0,
      };
    if (this.api === 'gemini' && has('promptTokenCount', 'candidatesTokenCount'))
      return {
        input: f('promptTokenCount') + f('toolUsePromptTokenCount'),
        output: f('candidatesTokenCount') + f('thoughtsTokenCount'),
        cacheRead: f('cachedContentTokenCount'),
        cacheWrite: 0,
      };
    return undefined;
  }
}
