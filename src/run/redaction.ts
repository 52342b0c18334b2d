// One list of the step's known secrets and one redaction for everything the action writes where GitHub masks
// nothing: comments and pull-request bodies (every API call, github/api.ts), the job summary and the
// outputs. GitHub masks registered values in the log only. The list is the scan's (secret-values.ts): the
// token, the values of `credentials`, secret-named `env` values, each in every form the scan knows.
// One pass over the text (Aho-Corasick over all forms at once): its cost grows with the text, not with the
// number of forms. Where two forms overlap, all of both goes. A cut (`…`, or the end of the text: a
// line or a reply cut short) that leaves the start of a form, 4 characters or more, masks that start too.
// Not covered: the end of a form at the start of a text; forms the scan does not know. Pure.
import {
  allForms,
  knownSecrets,
  type KnownSecret,
  type Needle,
  type SecretSettings,
} from './secret-values.js';

export const MASK = '***';
/** The character the action's cuts end with: what stands before it may be the start of a secret. */
const CUT = '…'.charCodeAt(0);
/** The shortest start of a form masked at a cut: shorter ones tell nothing and would blank out text. */
export const MIN_PIECE = 4;

export class Redaction {
  static readonly none = new Redaction([]);

  /** The known secrets of a run's settings, in every form. */
  static of(secrets: readonly KnownSecret[]): Redaction {
    return new Redaction(allForms(secrets));
  }

  // The automaton: node 0 is the root; a node is the prefix of a form that leads to it.
  private readonly next: Array<Map<number, number>> = [new Map()];
  private readonly fail: number[] = [0];
  private readonly depth: number[] = [0];
  /** The longest form that ends at the node (its own, or one its fail links reach); 0: none. */
  private readonly longest: number[] = [0];
  /** That form's name (`env API_KEY (base64)`). */
  private readonly rule: string[] = [''];

  private constructor(needles: readonly Needle[]) {
    for (const { text, rule } of needles) {
      let node = 0;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        let child = this.next[node].get(c);
        if (child === undefined) {
          child = this.next.length;
          this.next.push(new Map());
          this.fail.push(0);
          this.depth.push(this.depth[node] + 1);
          this.longest.push(0);
          this.rule.push('');
          this.next[node].set(c, child);
        }
        node = child;
      }
      if (text.length > this.longest[node]) [this.longest[node], this.rule[node]] = [text.length, rule];
    }
    // Fail links, breadth first: a node's link is the longest proper suffix of its prefix that is a node.
    const queue = [...this.next[0].values()];
    for (let q = 0; q < queue.length; q++) {
      const node = queue[q];
      for (const [c, child] of this.next[node]) {
        let f = this.fail[node];
        while (f !== 0 && !this.next[f].has(c)) f = this.fail[f];
        const to = this.next[f].get(c);
        this.fail[child] = to !== undefined && to !== child ? to : 0;
        if (this.longest[this.fail[child]] > this.longest[child])
          [this.longest[child], this.rule[child]] = [
            this.longest[this.fail[child]],
            this.rule[this.fail[child]],
          ];
        queue.push(child);
      }
    }
  }

  /** How many forms' characters the automaton holds (0: nothing to redact). */
  get size(): number {
    return this.next.length - 1;
  }

  /** `text` with every known form of every secret, and every start of one at a cut, replaced by `***`. */
  readonly redact = (text: string): string => {
    if (this.size === 0 || !text) return text;
    const { starts, ends } = this.scan(text);
    if (!starts.length) return text;
    let out = '';
    let at = 0;
    for (let i = 0; i < starts.length; i++) {
      out += text.slice(at, starts[i]) + MASK;
      at = ends[i];
    }
    return out + text.slice(at);
  };

  /** The names of the forms found whole in `text` (`credentials for api.example.com (base64)`), each once. */
  namesIn(text: string): string[] {
    return this.size === 0 || !text ? [] : [...this.scan(text).names];
  }

  /** The spans to mask, in order and apart (overlapping and touching ones merged), and the forms found. */
  private scan(text: string): { starts: number[]; ends: number[]; names: Set<string> } {
    const starts: number[] = [];
    const ends: number[] = [];
    const names = new Set<string>();
    // Spans come in order of their ends; a new one swallows those it covers and joins one it touches.
    const add = (start: number, end: number) => {
      while (starts.length && starts[starts.length - 1] >= start) {
        starts.pop();
        end = Math.max(end, ends.pop()!);
      }
      if (ends.length && ends[ends.length - 1] >= start)
        ends[ends.length - 1] = Math.max(ends[ends.length - 1], end);
      else {
        starts.push(start);
        ends.push(end);
      }
    };
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === CUT && this.depth[node] >= MIN_PIECE) add(i - this.depth[node], i);
      while (node !== 0 && !this.next[node].has(c)) node = this.fail[node];
      node = this.next[node].get(c) ?? 0;
      const length = this.longest[node];
      if (length) {
        add(i + 1 - length, i + 1);
        names.add(this.rule[node]);
      }
    }
    if (this.depth[node] >= MIN_PIECE) add(text.length - this.depth[node], text.length);
    return { starts, ends, names };
  }
}

/** The redaction of a run: its token, its credentials' values and its secret-named env values. */
export function redactionFor(settings: SecretSettings): Redaction {
  return Redaction.of(knownSecrets(settings));
}
