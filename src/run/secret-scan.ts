// The scan of text that is about to leave a run (added lines, commit objects and path names, a reply):
// the values the step knows to be secret (secret-values.ts), searched for literally, and well-known
// credential formats, found by secretlint with the rules of its recommended preset. Lines are fed in as
// they are read and scanned in pieces of about a megabyte, each piece overlapping the last by a few lines
// (a private key spans lines), so that memory stays bounded whatever the size of what is scanned.
// secretlint is loaded only when a scan runs.
import type { Needle } from './secret-values.js';

/**
 * Where a line is: a file a commit adds it to, a commit's message, author, committer or other header (its
 * name when it is one git defines), the path names a commit adds, or the reply.
 */
export type Place =
  | { kind: 'file'; path: string; commit: string }
  | { kind: 'message' | 'author' | 'committer' | 'path'; commit: string }
  | { kind: 'header'; name: string | undefined; commit: string }
  | { kind: 'reply' };

export interface Finding {
  place: Place;
  /** The line's number in its file (as the commit leaves it), message, header or reply: 1 for the first. */
  line: number;
  /** What was found: the secret's name and form (never its value), or secretlint's rule and message id. */
  rule: string;
}

/** Each piece handed to secretlint holds about this many characters (whole lines). */
export const PIECE_CHARS = 1 << 20;
/** The lines of one piece that the next piece starts with again: a PEM private key is about 50 lines. */
const OVERLAP_LINES = 100;
/** Findings kept (the rest are counted): the failure names each one, and a log line has its limits. */
export const MAX_FINDINGS = 200;

/** The comment filter lets text switch the scan off (`secretlint-disable`): the text here is hostile. */
const IGNORED_RULES = new Set(['@secretlint/secretlint-rule-filter-comments']);

/**
 * Text that a rule of the preset matches but that is no secret, passed to the rule as its own `allows`
 * option (strings match literally; `/…/` are patterns). secretlint already does the same for AWS's
 * documented example keys and for placeholder passwords; these two follow the same two ideas where its
 * lists stop short.
 */
export const RULE_ALLOWS: Readonly<Record<string, readonly string[]>> = {
  // The example keys of Shopify's changelog, which the Shopify rule's own source quotes (and so every
  // bundle that carries secretlint carries them too), like AWS's AKIAIOSFODNN7EXAMPLE.
  '@secretlint/secretlint-rule-shopify': [
    ['shpss', 'QlRSJy5AXX1cILNjVatTsEIhFxuPF5ex'].join('_'),
    ['shpat', 'r8TRc9ZXAvcVvcrmtr7qoVw69WeeY1ex'].join('_'),
    ['shpca', '7jqbg9cupMkZRxJKXWz3v8BvS8QBa7hMdJfAex'].join('_'),
    ['shppa', '7jqbg9cupMkZRxJKXWz3v8BvS8QBa7hMdJfAex'].join('_'),
  ],
  // The basic-auth rule takes a password containing "password" for a placeholder; so is the word spelt
  // with digits for letters (pa55word, passw0rd, p4ssw0rd). The pattern reads only the password: the
  // part between the user's colon and the `@` (the URL's scheme is followed by `//`, not a name).
  '@secretlint/secretlint-rule-basicauth': ['/:[-\\w]*p[a4][s5][s5]w[o0]rd[-\\w]*@/i'],
};

/**
 * Lines as one text (built by concatenation, which V8 keeps as a rope and flattens once: many times
 * cheaper than joining an array of lines), each line's start in it, and where each line is.
 */
interface Piece {
  text: string;
  starts: number[];
  places: Place[];
  numbers: number[];
}

const emptyPiece = (): Piece => ({ text: '', starts: [], places: [], numbers: [] });

/** secretlint's findings in a text: the rule, the line, and where the secret is (offsets: the log tail masks it). */
type Lint = (
  content: string,
) => Promise<Array<{ ruleId: string; messageId: string; line: number; range: readonly [number, number] }>>;

let lintLoaded: Promise<Lint> | undefined;

/** secretlint and its recommended rules, loaded once, on the first scan (the bundle keeps them apart). */
export function loadLint(): Promise<Lint> {
  return (lintLoaded ??= (async () => {
    const [{ lintSource }, { rules }, { secretLintProfiler }] = await Promise.all([
      import('@secretlint/core'),
      import('@secretlint/secretlint-rule-preset-recommend'),
      import('@secretlint/profiler'),
    ]);
    // Its profiler keeps a performance mark per rule and piece for as long as the process lives.
    secretLintProfiler.setEnabled(false);
    const config = {
      rules: rules
        .filter((rule) => !IGNORED_RULES.has(rule.meta.id))
        .map((rule) => {
          const allows = RULE_ALLOWS[rule.meta.id];
          return allows
            ? { id: rule.meta.id, rule, options: { allows: [...allows] } }
            : { id: rule.meta.id, rule };
        }),
    };
    return async (content: string) => {
      const result = await lintSource({
        // No file name: no rule reads a file of that name from the disk (the GCP rule reads `.p12`
        // files), and the npm rules look for their tokens in any text. (secretlint wants a name or an
        // extension: a neutral one.)
        source: { content, filePath: '', ext: '.txt', contentType: 'text' },
        options: { config, maskSecrets: true, noPhysicFilePath: true },
      });
      return result.messages.map((m) => ({
        ruleId: m.ruleId,
        messageId: m.messageId,
        line: m.loc.start.line,
        range: m.range,
      }));
    };
  })());
}

/**
 * Lines in, findings out. `add` returns a promise while a piece is being scanned: the reader waits for it
 * before it reads on (backpressure), so at most two pieces are held.
 */
export class SecretScanner {
  readonly findings: Finding[] = [];
  /** Reports past MAX_FINDINGS, counted only. */
  more = 0;
  private piece = emptyPiece();
  private seen = new Set<string>();
  private placeIds = new Map<Place, number>();
  private busy: Promise<void> | undefined;
  private failure: unknown;

  constructor(
    private readonly needles: readonly Needle[],
    private readonly lint: Lint,
  ) {}

  /** A line of `place`; a promise when the caller should wait before it adds more. */
  add(place: Place, line: number, text: string): Promise<void> | undefined {
    const piece = this.piece;
    piece.starts.push(piece.text.length);
    piece.text += `${text}\n`;
    piece.places.push(place);
    piece.numbers.push(line);
    if (piece.text.length >= PIECE_CHARS && !this.busy) {
      // The next piece starts with the last lines of this one.
      const keep = Math.min(OVERLAP_LINES, piece.starts.length);
      const from = piece.starts[piece.starts.length - keep];
      this.piece = {
        text: piece.text.slice(from),
        starts: piece.starts.slice(-keep).map((start) => start - from),
        places: piece.places.slice(-keep),
        numbers: piece.numbers.slice(-keep),
      };
      this.busy = this.scanPiece(piece)
        .catch((error: unknown) => {
          this.failure = error;
        })
        .finally(() => {
          this.busy = undefined;
        });
    }
    return this.busy;
  }

  /** Scans what is left; throws when a piece could not be scanned. */
  async finish(): Promise<void> {
    await this.busy;
    if (this.piece.starts.length) await this.scanPiece(this.piece);
    this.piece = emptyPiece();
    if (this.failure) throw this.failure;
  }

  private async scanPiece(piece: Piece): Promise<void> {
    const { text, starts, places, numbers } = piece;
    for (const needle of this.needles) {
      for (let at = text.indexOf(needle.text); at >= 0; at = text.indexOf(needle.text, at + 1))
        this.report(places, numbers, lineAt(starts, at), needle.rule);
    }
    for (const message of await this.lint(text)) {
      const index = Math.min(Math.max(message.line - 1, 0), starts.length - 1);
      this.report(places, numbers, index, `${message.ruleId} (${message.messageId})`);
    }
  }

  private report(places: readonly Place[], numbers: readonly number[], index: number, rule: string): void {
    const at = { place: places[index], line: numbers[index] };
    let id = this.placeIds.get(at.place);
    if (id === undefined) this.placeIds.set(at.place, (id = this.placeIds.size));
    // Past the kept findings, only counted (a line of the overlap may then count twice).
    if (this.findings.length >= MAX_FINDINGS) {
      this.more++;
      return;
    }
    // A line in the overlap of two pieces is scanned twice: reported once.
    const key = `${id}:${at.line}:${rule}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.findings.push({ place: at.place, line: at.line, rule });
  }
}

/** The index of the line that holds `offset`, by binary search over the lines' starts. */
function lineAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid] <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}
