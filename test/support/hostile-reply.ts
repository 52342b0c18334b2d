// A reply a hostile command writes to $SANDBOX_REPLY_FILE, and how a test judges the Markdown it ends up
// in: rendered with cmark-gfm as GitHub runs it (raw HTML passed through), then everything inside `<pre>`
// blocks and code taken away: what is left must be the action's own.
import { renderGfm } from './cmark.js';

/** Every way such text has broken a comment: mentions, HTML that closes or hides, fences, images, commands. */
export const HOSTILE_REPLY = [
  'Fixed it. Thanks @wts-victim, @octo-org/security-team and @ghost!',
  '</details>',
  '</details></details>',
  '<!-- what follows is hidden',
  '```',
  '~~~',
  '<img src="https://evil.example/pixel.png">',
  '![pixel](https://evil.example/p.png)',
  '<details><summary>fake</summary>',
  '::error::wts-pwned-error',
  'text\r::warning::wts-pwned-cr',
  '````unclosed fence',
].join('\n');

/** The HTML of `markdown` as GitHub's cmark-gfm makes it, with all `<pre>` blocks and code taken away. */
export function renderedOutsideCode(markdown: string): string {
  const html = renderGfm(markdown);
  return html.replace(/<pre\b[^>]*>[\s\S]*?<\/pre>/g, '').replace(/<code>[\s\S]*?<\/code>/g, '');
}

/** How often `tag` opens in rendered HTML. */
export function countTag(html: string, tag: string): number {
  return (html.match(new RegExp(`<${tag}[\\s>]`, 'g')) ?? []).length;
}

/** A mention GitHub would link (and notify): `@` after no word character, then a name. */
export const LIVE_MENTION = /(^|[^\w`])@[A-Za-z0-9][A-Za-z0-9-]*/m;
