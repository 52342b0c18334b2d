// Text a sandbox wrote for people (the command's reply), made safe to put into Markdown that GitHub renders:
// the job summary and the pull-request bot's comment. The text is shown as it was written, in a fenced code
// block whose fence is longer than any run of backticks in it, so that nothing in it can close the block or
// the comment's own structure around it (its `<details>`, its tables): HTML (`</details>`, `<!--` that would
// hide the rest, `<img>` that would load from anywhere), images, links and issue references are only text
// there. Mentions are made inert inside it as well (a zero-width joiner after the `@`), so that no
// renderer, reader or copy of the text pings anyone; control characters become visible escapes, and line
// breaks are `\n` alone.

/** After an `@`, so that `@name` and `@org/team` are no mention and link nobody. */
const MENTION_BREAK = '\u200D';

// C0 controls but tab and line feed, DEL, C1 controls, and the bidirectional overrides and isolates that
// would show the text in another order than it is.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `@` that starts a user or team name (GitHub's names: letters, digits, hyphens; we take `_` too). */
const MENTION = /@(?=[A-Za-z0-9_-])/g;

/** Every `@name` and `@org/team` made inert; nothing else changes. */
export function neutraliseMentions(text: string): string {
  return text.replace(MENTION, `@${MENTION_BREAK}`);
}

/** Line breaks as `\n` alone (a lone `\r` is a line break to Markdown and to the runner), controls escaped. */
export function plainLines(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(HIDDEN, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A fenced code block whose fence is longer than any run of backticks in the text (so none closes it). */
export function fenceOf(text: string, info = ''): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const marks = '`'.repeat(Math.max(3, longest + 1));
  return `${marks}${info}\n${text}\n${marks}`;
}

export interface UntrustedBlock {
  /** The Markdown: one fenced code block. */
  markdown: string;
  /** Characters of the (made safe) text left out to keep within `maxChars`. */
  leftOut: number;
}

/**
 * Untrusted text as one fenced code block that nothing in it can escape, with mentions made inert, at most
 * `maxChars` characters of it (counted after it was made safe; the rest left out and counted).
 */
export function untrustedBlock(text: string, maxChars: number): UntrustedBlock {
  const safe = neutraliseMentions(plainLines(text));
  let shown = safe.length > maxChars ? safe.slice(0, maxChars) : safe;
  // A cut between the halves of a surrogate pair would leave half a character.
  if (shown.length < safe.length && /[\uD800-\uDBFF]$/.test(shown)) shown = shown.slice(0, -1);
  return { markdown: fenceOf(shown, 'text'), leftOut: safe.length - shown.length };
}

/** The action's own sentence (it may quote untrusted text): on one line, no HTML, no mention, no markup. */
export function inlineText(text: string): string {
  const one = plainLines(text).replace(/\n/g, ' ');
  return neutraliseMentions(one.replace(/[<>&]/g, (c) => `&#${c.charCodeAt(0)};`)).replace(
    /[\\`*_[\]|]/g,
    '\\$&',
  );
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
 * host here: the text is shown as code, so none of its images is rendered anyway.
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
    .map(({ alt, url }) => `[${inlineText(alt || 'image')}](${url})`);
  const more = found.length > MAX_IMAGE_LINKS ? `, and ${found.length - MAX_IMAGE_LINKS} more` : '';
  return `Images in the reply, not shown here: ${links.join(', ')}${more}.`;
}
