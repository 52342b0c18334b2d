// Reads a model API's usage fields from its answer as the bytes pass, without holding the answer: a JSON
// answer is kept up to a bound and parsed at its end; a streamed one (server-sent events) is read a line
// at a time as it comes, and each usage it reports is handed on at once (`onUsage`), so that the budget
// counts the tokens of an answer still streaming (Anthropic's input tokens in `message_start`, each
// `message_delta`, OpenAI's and Gemini's usage as it comes). Of the lines, only those that carry a usage
// object or, once, the model's name are parsed: the search for the key's word is all most bytes cost.
// Fields are read at the top of each event or answer (or in its `message` / `response`), never inside the
// content, so text or tool input the model wrote is not taken for usage. An answer or a line past the
// bound is not read, and says so: the meter treats it as unreadable. Pure: bytes in, usage out.
import type { Usage } from './apis/api.js';
import { MODEL_APIS, modelApi, type ModelApi } from './model-apis.js';

export type { Usage };

export interface ScannedAnswer {
  usage?: Usage;
  model?: string;
  /** The answer (or one of its lines) was over the bound: not read. */
  overBound: boolean;
}

/**
 * The most of one JSON answer, or of one event line, held to be parsed. What the APIs send: an Embeddings
 * answer of a few MB, a Responses stream's final event (the whole response again) of hundreds of KB.
 */
export const MAX_HELD_BYTES = 16 * 1024 * 1024;
const MAX_MODEL_CHARS = 200;
const NEWLINE = 0x0a;

/** Number fields kept, by their path in a usage object: every API's, whichever the answer is for. */
const FIELDS = [...new Set(MODEL_APIS.flatMap((api) => api.fields))];

/**
 * The keys looked for, by the word the search is for and the endings after it: `"usage"`,
 * `"usageMetadata"`, `"model"`, `"modelVersion"`. The search is for the bare word, whose first letter is
 * rare in JSON (a search that starts at a quote stops at every string), and the quotes are checked after.
 */
const USAGE = { word: Buffer.from('usage'), endings: [Buffer.from('"'), Buffer.from('Metadata"')] };
const MODEL = { word: Buffer.from('model'), endings: [Buffer.from('"'), Buffer.from('Version"')] };
const QUOTE = 0x22;
const BOTH = [USAGE, MODEL];
const ONLY_USAGE = [USAGE];

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export class UsageScanner {
  /** Last value seen of each field: streams repeat them, the later values being the totals. */
  private readonly fields = new Map<string, number>();
  private model: string | undefined;
  private overBound = false;
  /** JSON: the answer so far. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** SSE: the unfinished line's bytes so far, in a buffer reused from line to line. */
  private carry = Buffer.allocUnsafe(1024);
  private carried = 0;
  /** SSE: the unfinished line holds a key's word, so it is read when it ends (else it is not). */
  private pending = false;
  /** SSE: the current line is over the bound and is being skipped to its end. */
  private skipping = false;
  /** SSE: each key word's first place in the chunk being read (reused). */
  private readonly firstHits: number[] = [];

  /** `onUsage`: called with the usage so far each time a line changes it (streams only). */
  constructor(
    private readonly api: ModelApi,
    private readonly format: 'json' | 'sse',
    private readonly onUsage?: (usage: Usage) => void,
  ) {}

  /** The next bytes (not kept: the caller may reuse its buffer). */
  write(chunk: Buffer): void {
    if (this.format === 'json') this.hold(chunk);
    else if (chunk.length > 0) this.writeEvents(chunk);
  }

  end(): ScannedAnswer {
    if (this.format === 'json' && !this.overBound && this.heldBytes > 0)
      this.absorbText(Buffer.concat(this.held).toString('utf8'));
    if (this.format === 'sse' && this.carried > 0 && !this.skipping)
      this.readLines(this.carry.subarray(0, this.carried), 0, this.carried);
    this.held = [];
    this.heldBytes = 0;
    this.carried = 0;
    return { usage: this.usage(), model: this.model, overBound: this.overBound };
  }

  private hold(part: Buffer): void {
    if (this.overBound || part.length === 0) return;
    if (this.heldBytes + part.length > MAX_HELD_BYTES) {
      this.overBound = true;
      this.held = [];
      this.heldBytes = 0;
      return;
    }
    // A copy: the caller may reuse its buffer.
    this.held.push(Buffer.from(part));
    this.heldBytes += part.length;
  }

  /**
   * One search per key word over each chunk, whose hits are sorted by where they lie: in the end of a line
   * begun in an earlier chunk (that line is then read when it ends), in the complete lines (read where they
   * lie, by offsets), or in the chunk's unfinished last line (read when it ends). A word cut by the chunk's
   * edge is caught by comparing the bytes on either side. Lines with no hit are never copied whole: only
   * the unfinished end is kept, in a buffer reused from line to line, so most chunks cost a search and
   * no allocation.
   */
  private writeEvents(chunk: Buffer): void {
    const keys = this.model === undefined ? BOTH : ONLY_USAGE;
    const open = this.carried > 0 || this.skipping;
    const firstHits = this.firstHits;
    for (let k = 0; k < keys.length; k++) {
      if (this.carried > 0 && cutByEdge(this.carry, this.carried, chunk, keys[k].word)) this.pending = true;
      firstHits[k] = chunk.indexOf(keys[k].word);
    }
    firstHits.length = keys.length;
    if (
      !this.pending &&
      this.carried + chunk.length <= MAX_HELD_BYTES &&
      firstHits.every((at) => at === -1)
    ) {
      // Nothing to read in this chunk, and no line in it past the bound: the open line (if any) ends at its
      // first newline, unread; only the unfinished last line is kept. (Most chunks: event-sized ones cost
      // a third less this way.)
      const last = chunk.lastIndexOf(NEWLINE);
      if (last !== -1) {
        this.carried = 0;
        this.skipping = false;
      }
      this.carryOn(chunk, last + 1, chunk.length);
      return;
    }
    let from = 0;
    if (open) {
      const lineEnd = chunk.indexOf(NEWLINE);
      const ends = lineEnd === -1 ? chunk.length : lineEnd;
      if (firstHits.some((at) => at !== -1 && at < ends)) this.pending = true;
      this.carryOn(chunk, 0, ends);
      if (lineEnd === -1) return;
      if (this.pending && !this.skipping)
        this.readLines(this.carry.subarray(0, this.carried), 0, this.carried);
      this.carried = 0;
      this.pending = false;
      this.skipping = false;
      from = lineEnd + 1;
    }
    const last = chunk.lastIndexOf(NEWLINE);
    const end = last >= from ? last : from;
    if (this.readLines(chunk, from, end, firstHits)) this.pending = true;
    const rest = last >= from ? last + 1 : from;
    if (rest < chunk.length) this.carryOn(chunk, rest, chunk.length);
  }

  /** Keeps a copy of `part` from `from` to `to` at the end of the unfinished line, within the bound. */
  private carryOn(part: Buffer, from: number, to: number): void {
    const length = to - from;
    if (this.skipping || length <= 0) return;
    if (this.carried + length > MAX_HELD_BYTES) {
      this.overBound = true;
      this.skipping = true;
      this.carried = 0;
      this.pending = false;
      return;
    }
    if (this.carried + length > this.carry.length) {
      const bigger = Buffer.allocUnsafe(Math.min(MAX_HELD_BYTES, 2 * (this.carried + length)));
      this.carry.copy(bigger, 0, 0, this.carried);
      this.carry = bigger;
    }
    if (length <= 64) for (let i = 0; i < length; i++) this.carry[this.carried + i] = part[from + i];
    else part.copy(this.carry, this.carried, from, to);
    this.carried += length;
  }

  /**
   * The lines of `buffer` from `start` to `end` (a newline, or the end of a whole line): only those holding
   * a usage object or, once, a model are parsed. `firstHits`: each key word's first place in `buffer`, when
   * the caller has searched already. Whether a word lies past `end`, in the unfinished line after it.
   */
  private readLines(buffer: Buffer, start: number, end: number, firstHits?: number[]): boolean {
    let past = false;
    const keys = this.model === undefined ? BOTH : ONLY_USAGE;
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k];
      let at = firstHits?.[k] ?? buffer.indexOf(key.word, start);
      if (at !== -1 && at < start) at = buffer.indexOf(key.word, start);
      while (at !== -1 && at < end && !(key === MODEL && this.model !== undefined)) {
        const after = keyEnd(buffer, at, key);
        if (after === -1 || !opensValue(buffer, after, key === MODEL ? QUOTE : 0x7b)) {
          at = buffer.indexOf(key.word, at + key.word.length);
          continue;
        }
        const newline = buffer.indexOf(NEWLINE, at);
        const lineEnd = newline === -1 || newline > end ? end : newline;
        this.readLine(buffer.subarray(Math.max(start, buffer.lastIndexOf(NEWLINE, at) + 1), lineEnd));
        at = lineEnd >= end ? buffer.indexOf(key.word, end) : buffer.indexOf(key.word, lineEnd);
      }
      if (at !== -1 && at >= end) past = true;
    }
    return past;
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
    let changed = false;
    for (const at of [event, event.message, event.response]) {
      if (!isObject(at)) continue;
      for (const usage of [at.usage, at.usageMetadata])
        if (isObject(usage) && this.merge(usage)) changed = true;
      const model = typeof at.model === 'string' ? at.model : at.modelVersion;
      if (this.model === undefined && typeof model === 'string' && model)
        this.model = model.slice(0, MAX_MODEL_CHARS);
    }
    if (changed && this.onUsage) {
      const usage = this.usage();
      if (usage) this.onUsage(usage);
    }
  }

  /** Whether a field changed. */
  private merge(usage: Record<string, unknown>): boolean {
    let changed = false;
    for (const field of FIELDS) {
      const [outer, inner] = field.split('.');
      const holder = inner === undefined ? usage : usage[outer];
      const value = isObject(holder) ? holder[inner ?? outer] : undefined;
      if (typeof value === 'number' && Number.isFinite(value) && value >= 0) {
        const was = this.fields.get(field);
        this.fields.set(field, Math.floor(value));
        changed ||= was !== Math.floor(value);
      }
    }
    return changed;
  }

  private usage(): Usage | undefined {
    return modelApi(this.api).usage({
      get: (name) => this.fields.get(name) ?? 0,
      has: (...names) => names.some((n) => this.fields.has(n)),
    });
  }
}

/** Whether `word` lies across the edge between the first `carried` bytes of `carry` and `chunk`. */
function cutByEdge(carry: Buffer, carried: number, chunk: Buffer, word: Buffer): boolean {
  for (let before = 1; before < word.length; before++) {
    if (before > carried || word.length - before > chunk.length) continue;
    let i = 0;
    while (i < word.length && word[i] === (i < before ? carry[carried - before + i] : chunk[i - before])) i++;
    if (i === word.length) return true;
  }
  return false;
}

/** Where a key found by its word ends (after its closing quote), or -1 when the word is not such a key. */
function keyEnd(region: Buffer, at: number, key: { word: Buffer; endings: readonly Buffer[] }): number {
  if (region[at - 1] !== QUOTE) return -1;
  const from = at + key.word.length;
  for (const ending of key.endings)
    if (region.subarray(from, from + ending.length).equals(ending)) return from + ending.length;
  return -1;
}

/**
 * After a key: `:` and the value's first byte, which must be `opens` (an object's brace, a string's
 * quote). The text `"usage":{` inside a JSON string is escaped (`\"usage\":{`), so this holds only for keys.
 */
function opensValue(region: Buffer, after: number, opens: number): boolean {
  let i = after;
  const blank = (b: number | undefined) => b === 0x20 || b === 0x09 || b === 0x0d;
  while (blank(region[i])) i++;
  if (region[i] !== 0x3a) return false;
  i++;
  while (blank(region[i])) i++;
  return region[i] === opens;
}
