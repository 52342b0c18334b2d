// Markdown rendered as GitHub renders it: cmark-gfm (Debian's `cmark-gfm`, installed by scripts/setup.sh)
// with GitHub's extensions and raw HTML passed through (GitHub's sanitizer runs after; a test judges the
// HTML before it, which is the stricter judgement). And the checks a test makes of what untrusted text
// may not do once rendered: no image, no live HTML comment, no `<details>` or `</details>`, no link or
// HTML element of its own, no mention, the action's own structure intact.
import { execFileSync } from 'node:child_process';
import { expect } from '@jest/globals';

const ARGS = ['-e', 'table', '-e', 'autolink', '-e', 'tagfilter', '-e', 'strikethrough', '--unsafe'];

/** The HTML cmark-gfm makes of `markdown`, as GitHub runs it; within 20 s. */
export function renderGfm(markdown: string): string {
  return execFileSync('cmark-gfm', ARGS, {
    input: markdown,
    encoding: 'utf8',
    timeout: 20_000,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** How often `tag` opens (`<tag …>`) or closes (`</tag>`) in `html`. */
export function tagCount(html: string, tag: string, closing = false): number {
  return (html.match(new RegExp(`<${closing ? '/' : ''}${tag}[\\s>/]`, 'gi')) ?? []).length;
}

/** The HTML with the contents of every `<pre>` taken away (what untrusted text there is, it is inert). */
export function outsidePre(html: string): string {
  return html.replace(/<pre\b[^>]*>[\s\S]*?<\/pre>/g, '<pre></pre>');
}

/** The characters a reader sees of `html`'s text: entities decoded (what a linkifier or mention filter reads). */
export function decodedText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** A mention or team mention GitHub would link (and notify): `@` after no word character, then a name. */
export const LIVE_MENTION = /(^|[^\w`])@[A-Za-z0-9][A-Za-z0-9-]*/m;

/**
 * What the action's own Markdown must still be once rendered, whatever untrusted text sits in it: `own`
 * says how many of each element the action wrote, and the rendered HTML must have exactly those, and no
 * image, HTML comment, link, or mention beyond them.
 */
export function expectOwnStructure(
  html: string,
  own: {
    details?: number;
    links?: number;
    pre?: number;
    headings?: number;
    mentions?: string[];
    comments?: number;
  },
): void {
  expect(html).not.toMatch(/<img/i);
  expect(html.split('<!--').length - 1).toBe(own.comments ?? 0);
  expect(tagCount(html, 'details')).toBe(own.details ?? 0);
  expect(tagCount(html, 'details', true)).toBe(own.details ?? 0);
  if (own.pre !== undefined) {
    expect(tagCount(html, 'pre')).toBe(own.pre);
    expect(tagCount(html, 'pre', true)).toBe(own.pre);
  }
  if (own.links !== undefined) expect(tagCount(html, 'a')).toBe(own.links);
  if (own.headings !== undefined) expect(tagCount(html, 'h[1-6]')).toBe(own.headings);
  const mentions = [...decodedText(html).matchAll(new RegExp(LIVE_MENTION.source, 'gm'))];
  expect(mentions.map((m) => m[0].slice(m[1].length))).toEqual(own.mentions ?? []);
}
