// The one renderer of text the action did not write (a reply, a log tail, file names, commit subjects, a
// patch, host and model names) into Markdown that GitHub renders: the job summary and the pull-request
// bot's comments. GitHub renders with cmark-gfm, which takes at most 255 backticks as a fence and makes
// no code span longer than 80, so neither a fence "longer than any in the text" nor a code span can hold
// any text (docs/adr/0012-untrusted-text-in-pre-blocks.md). Here nothing depends on what the text holds:
// - a block is an HTML `<pre>` block with `&`, `<` and `>` written as entities. cmark-gfm ends such a
//   block only at a line that holds `</pre>`, which the text can no longer spell; blank lines, fences,
//   `<!--`, `</details>` and images inside it are only characters;
// - inline text (a table cell, a list item, a sentence) has every character Markdown or HTML reads as
//   markup written as a character reference, which cmark-gfm decodes to a literal character and never to
//   markup, and the places GitHub's autolinks start at (`https:`, `www.`, `@`, `#`) broken.
// Both make mentions inert, show control and bidirectional characters as visible escapes, take `\r` as a
// line break (as Markdown and the runner do), replace half a surrogate pair, and are bounded in the
// characters they write: the text is cut between characters before it is escaped, counted after, and what
// was left out is counted (a cut never falls inside a character, nor inside an entity made here).

/** After an `@`, so that `@name` and `@org/team` are no mention and link nobody. */
const MENTION_BREAK = '\u200D';

// C0 controls but tab and line feed, DEL, C1 controls, the line and paragraph separators, and the
// bidirectional marks, overrides and isolates that would show the text in another order than it is.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
/** Half of a surrogate pair with no other half: shown as U+FFFD, as a decoder shows a broken sequence. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `@` that starts a user or team name (GitHub's names: letters, digits, hyphens; we take `_` too). */
const MENTION = /@(?=[A-Za-z0-9_-])/g;

/** Every `@name` and `@org/team` made inert; nothing else changes. */
export function neutraliseMentions(text: string): string {
  return text.replace(MENTION, `@${MENTION_BREAK}`);
}

const visible = (c: string) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Line breaks as `\n` alone (a lone `\r` is a line break to Markdown and to the runner), controls escaped. */
export function plainLines(text: string): string {
  return String(text)
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(/\r\n?/g, '\n')
    .replace(new RegExp(HIDDEN.source, 'g'), visible);
}

export interface Fitted {
  /** The escaped text, at most the characters asked for. */
  shown: string;
  /** Characters (code points) of the text left out. */
  leftOut: number;
}

/**
 * The escaped forms of `pieces` (whole characters, or a few that escape together), as many from the start
 * as fit in `max` characters of output: the cut falls between pieces, never inside one or its escape.
 */
function fit(pieces: readonly string[], escape: (piece: string) => string, max: number): Fitted {
  let shown = '';
  let i = 0;
  for (; i < pieces.length; i++) {
    const out = escape(pieces[i]);
    if (shown.length + out.length > max) break;
    shown += out;
  }
  let leftOut = 0;
  for (let j = i; j < pieces.length; j++) leftOut += [...pieces[j]].length;
  return { shown, leftOut };
}

const HTML_ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

export interface UntrustedBlock {
  /** The Markdown: one `<pre>` block, on lines of its own. */
  markdown: string;
  /** Characters of the text left out to keep within `maxChars`. */
  leftOut: number;
}

/**
 * Untrusted text as one `<pre>` block that nothing in it can end or escape, shown as written (line breaks,
 * indentation, blank lines), mentions inert, at most `maxChars` characters between the tags (counted as
 * written, entities included; the rest left out and counted). `lang` (`diff`) only names the language for
 * GitHub's highlighting; `keepMentions` is for text to copy whose `@` are the action's own (`@npm`), and
 * safe anyway: GitHub links no mention inside `<pre>`. The block starts and ends a line; put a blank line
 * before and after it.
 */
export function untrustedBlock(
  text: string,
  maxChars: number,
  options: { lang?: string; keepMentions?: boolean } = {},
): UntrustedBlock {
  const { lang = '' } = options;
  const safe = options.keepMentions ? plainLines(text) : neutraliseMentions(plainLines(text));
  const { shown, leftOut } = fit(Array.from(safe), (c) => HTML_ENTITY[c] ?? c, Math.max(0, maxChars));
  const open = lang ? `<pre lang="${lang.replace(/[^a-z0-9+-]/gi, '')}">` : '<pre>';
  // HTML drops one line break right after `<pre>`: the text's first line is its own.
  return { markdown: `${open}\n${shown}\n</pre>`, leftOut };
}

// What Markdown or HTML reads as markup (written as character references), and what autolinks start at.
// A colon before a space starts no link: it stays as it is (`holds work: 2 files`).
const INLINE_PIECE = /www\.|: |[\s\S]/giu;
const MARKUP = /^[\\`*_~[\]<>|&!$]$/;
/**
 * Nothing a reader sees, written between the characters that GitHub's autolinks look for: `https://`,
 * `www.`, `user@host`, `@mention` and `#123` are no longer those strings, in the Markdown source or in
 * the text GitHub's renderer decodes from it. A reference, not the character, so that it is visible in a
 * log line.
 */
const BREAK = '&#8203;';

function inlinePiece(piece: string): string {
  if (piece === ': ') return piece;
  if (piece.length > 1 && piece.toLowerCase() === 'www.') return `${piece[0]}${BREAK}${piece.slice(1)}`;
  if (piece === ':') return `:${BREAK}`;
  if (piece === '@' || piece === '#') return `${BREAK}&#${piece.charCodeAt(0)};${BREAK}`;
  if (HIDDEN.test(piece) || piece === '\n' || piece === '\r' || piece === '\t')
    return `&#92;${visible(piece).slice(1)}`;
  if (MARKUP.test(piece)) return `&#${piece.charCodeAt(0)};`;
  return piece;
}

/**
 * Untrusted text inside Markdown (a table cell, a list item, a sentence) or a warning: shown as the same
 * characters and nothing else, on one line. Control and bidirectional characters shown as escapes, every
 * markup character (`|`, `<`, `[`, `` ` ``, `*`, `&`, …) a character reference, autolinks and mentions
 * broken, so that no link, image, HTML, code span, table cell or mention can come of it. At most `max`
 * characters as written (entities included), then how many characters were left out. `quote` shows the
 * text JSON-quoted (where it starts and ends, and its escapes).
 */
export function untrustedInline(text: string, max = INLINE_MAX, quote = false): string {
  const raw = String(text).replace(LONE_SURROGATE, '\uFFFD');
  const { shown, leftOut } = fit(
    (quote ? JSON.stringify(raw) : raw).match(INLINE_PIECE) ?? [],
    inlinePiece,
    max,
  );
  return shown + (leftOut > 0 ? ` … (${leftOut} more characters)` : '');
}

/** The most characters of one piece of inline text, as written. */
export const INLINE_MAX = 2_000;

/** Untrusted inline text shown as code (monospace): `untrustedInline` inside `<code>` tags. */
export function untrustedCode(text: string, max = INLINE_MAX): string {
  return `<code>${untrustedInline(text, max)}</code>`;
}

/** The action's own sentence that may quote untrusted text: one line, inert (untrustedInline). */
export function inlineText(text: string): string {
  return untrustedInline(text, 4 * INLINE_MAX);
}

/** Images listed as links, at most. */
export const MAX_IMAGE_LINKS = 10;

/** An image's address: http(s), and nothing that could end the link or the line around it. */
const IMAGE_URL = String.raw`https?:\/\/[^\s<>()"'\x60\\]{1,2000}`;
/** `![alt](url "title")`, and `<img … src="url" …>`: bounded at every repetition, read in one pass each. */
const MARKDOWN_IMAGE = new RegExp(String.raw`!\[([^\]\n]{0,200})\]\(\s{0,10}<?(${IMAGE_URL})`, 'g');
const HTML_IMAGE = new RegExp(String.raw`<img\b[^>]{0,500}?\bsrc\s{0,10}=\s{0,10}["']?(${IMAGE_URL})`, 'gi');

/**
 * The images that untrusted text would show, as one line of links (the image is never loaded: a reader
 * opens it if they choose), in the order of the text; empty when there are none. Every host is an outside
 * host here: the text is shown in a `<pre>` block, so none of its images is rendered anyway.
 */
export function imageLinks(text: string): string {
  const found: Array<{ at: number; alt: string; url: string }> = [];
  for (const match of text.matchAll(MARKDOWN_IMAGE))
    found.push({ at: match.index, alt: match[1].trim(), url: match[2] });
  for (const match of text.matchAll(HTML_IMAGE)) found.push({ at: match.index, alt: '', url: match[1] });
  if (!found.length) return '';
  found.sort((a, b) => a.at - b.at);
  const links = found
    .slice(0, MAX_IMAGE_LINKS)
    .map(({ alt, url }) => `[${untrustedInline(alt || 'image', 1_000)}](${url})`);
  const more = found.length > MAX_IMAGE_LINKS ? `, and ${found.length - MAX_IMAGE_LINKS} more` : '';
  return `Images in the reply, not shown here: ${links.join(', ')}${more}.`;
}
