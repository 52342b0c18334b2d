// What the secret scan reads of a commit as git stores it, and of the paths a diff names. `git log` shows a
// commit decoded: its message re-encoded by the `encoding` header (a value in the raw bytes can come out as
// unreadable characters while origin keeps the bytes), extra headers and `gpgsig` left out. So the scan
// also reads each new commit object raw (`git cat-file`) and splits it here into lines, each named by its
// place: every header line, and the message as stored, with its declared decoding too. Paths come quoted
// the C way in git's diff output; they are turned back into the names git stores. Pure.
import type { Place } from './secret-scan.js';

/** Header names shown as they are in a finding; any other header's name is sandbox text, not shown. */
const KNOWN_HEADERS = new Set(['tree', 'parent', 'encoding', 'gpgsig', 'gpgsig-sha256', 'mergetag']);

/** One line to scan: where it is, its number there (1 for the first), and its text. */
export interface PlacedLine {
  place: Place;
  line: number;
  text: string;
}

/** The place of a header named `name` (as the object spells it) in `commit`. */
export function headerPlace(name: string, commit: string): Place {
  if (name === 'author' || name === 'committer') return { kind: name, commit };
  return { kind: 'header', name: KNOWN_HEADERS.has(name) ? name : undefined, commit };
}

/**
 * The lines of commit `commit`'s raw object: each header line (a continuation line, which starts with a
 * space, counts in the header it continues), then the message: its bytes read as UTF-8 with NULs taken
 * out (UTF-16 text then reads as its characters, as an added line's does), and, when an `encoding` header
 * names another encoding that the runtime can decode, the message decoded that way too (what `git log`
 * shows).
 */
export function rawCommitLines(commit: string, body: Buffer): PlacedLine[] {
  const out: PlacedLine[] = [];
  const blank = body.indexOf('\n\n');
  const headEnd = blank < 0 ? body.length : blank;
  let place: Place | undefined;
  let line = 0;
  let encoding: string | undefined;
  for (const text of body.subarray(0, headEnd).toString('utf8').split('\n')) {
    if (text.startsWith(' ') && place) {
      out.push({ place, line: ++line, text: text.slice(1) });
      continue;
    }
    const space = text.indexOf(' ');
    const name = space < 0 ? text : text.slice(0, space);
    if (name === 'encoding') encoding = text.slice(space + 1).trim();
    place = headerPlace(name, commit);
    line = 1;
    out.push({ place, line, text });
  }
  if (blank < 0) return out;
  const message = body.subarray(blank + 2);
  const messagePlace: Place = { kind: 'message', commit };
  const stored = withoutNuls(message).toString('utf8').split('\n');
  stored.forEach((text, i) => out.push({ place: messagePlace, line: i + 1, text }));
  const decoded = decodeAs(encoding, message);
  if (decoded !== undefined)
    decoded.split('\n').forEach((text, i) => {
      if (text !== stored[i]) out.push({ place: messagePlace, line: i + 1, text });
    });
  return out;
}

function withoutNuls(bytes: Buffer): Buffer {
  return bytes.includes(0) ? Buffer.from(bytes.filter((b) => b !== 0)) : bytes;
}

/** The message decoded as its `encoding` header says, when that is not UTF-8 and the runtime knows it. */
function decodeAs(encoding: string | undefined, bytes: Buffer): string | undefined {
  if (!encoding || /^utf-?8$/i.test(encoding)) return undefined;
  try {
    return new TextDecoder(encoding).decode(bytes);
  } catch {
    return undefined; // a name the runtime does not know: the bytes as stored were read above
  }
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/**
 * A path as git's diff output prints it, back to the name git stores: `"…"` with C escapes (`\t`, `\"`,
 * `\\`, octal bytes) is unquoted and its bytes read as UTF-8; a path git did not quote is as it is.
 */
export function unquotePath(printed: string): string {
  if (!(printed.length >= 2 && printed.startsWith('"') && printed.endsWith('"'))) return printed;
  const inner = printed.slice(1, -1);
  const bytes: number[] = [];
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = inner[i + 1] ?? '';
    const octal = /^[0-7]{3}/.exec(inner.slice(i + 1, i + 4));
    if (octal) {
      bytes.push(parseInt(octal[0], 8) & 0xff);
      i += 3;
    } else if (next in ESCAPES) {
      bytes.push(ESCAPES[next]);
      i += 1;
    } else bytes.push(92); // not an escape git writes: kept as it reads
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * The path a `--raw` line of `git log` names (`:100644 100644 <old> <new> M\t<path>`), or undefined for
 * a line that is not one, or one whose path is deleted (its name is in the parent already).
 */
export function rawDiffPath(line: string): string | undefined {
  if (!line.startsWith(':')) return undefined;
  const tab = line.indexOf('\t');
  if (tab < 0) return undefined;
  const status = line.slice(0, tab).split(' ').pop() ?? '';
  if (status.startsWith('D')) return undefined;
  return unquotePath(line.slice(tab + 1));
}
