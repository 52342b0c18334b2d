import { describe, expect, it } from '@jest/globals';
import { marked } from 'marked';
import { SANDBOX_TEXT_MAX, logLines, markdownText, sandboxText } from './sandbox-text.js';

/** The lines the runner reads: it breaks at \r\n, \n and a lone \r, and trims blanks before a command. */
const runnerLines = (text: string) => text.split(/\r\n|\n|\r/);
const opensCommand = (line: string) => /^\s*(::|##\[)/.test(line);

describe('sandboxText', () => {
  it('keeps ordinary text as it is', () => {
    expect(sandboxText('src/a b/ü.ts: 3 +-')).toBe('src/a b/ü.ts: 3 +-');
    expect(sandboxText('a::b')).toBe('a::b');
  });

  it('escapes carriage returns, newlines and every other control character visibly', () => {
    expect(sandboxText('a\rb\nc\r\nd\te\u001b[31mf\u0000g\u007f\u0085h\u2028i')).toBe(
      'a\\rb\\nc\\r\\nd\\te\\u001b[31mf\\u0000g\\u007f\\u0085h\\u2028i',
    );
  });

  it('never lets a line start a workflow command, lone carriage returns included', () => {
    const hostile = [
      '\r::error::pwned',
      'x\r::set-output name=x::y',
      '::warning::pwned',
      '  ::add-mask::x',
      '##[set-output name=x;]y',
      'a\n::stop-commands::t',
    ];
    for (const text of hostile) {
      const out = sandboxText(text);
      expect(runnerLines(out)).toHaveLength(1);
      expect(opensCommand(out)).toBe(false);
      expect(runnerLines(`Archiving failed: ${out}`).filter(opensCommand)).toEqual([]);
    }
    expect(sandboxText('::error::x')).toBe('\\::error::x');
  });

  it('bounds the length and says how much was left out', () => {
    const out = sandboxText('x'.repeat(SANDBOX_TEXT_MAX + 500));
    expect(out).toBe(`${'x'.repeat(SANDBOX_TEXT_MAX)}… (500 more characters)`);
    expect(sandboxText('abcdef', 3)).toBe('abc… (3 more characters)');
  });
});

describe('logLines', () => {
  it('keeps a message’s own lines but disarms each, and escapes lone carriage returns', () => {
    expect(logLines('one\ntwo')).toBe('one\ntwo');
    const out = logLines('Saved x\r::error::pwned\n::set-output name=a::b\r\n  ##[error]y');
    expect(runnerLines(out).filter(opensCommand)).toEqual([]);
    expect(out).toBe('Saved x\\r::error::pwned\n\\::set-output name=a::b\n  \\##[error]y');
  });
});

/** Text a command can give as a host name or a reason, shaped to become markup or a link. */
export const HOSTILE_MARKDOWN = [
  'https://login.example/x',
  '(http://127.0.0.1/t.png)',
  '![x](http://127.0.0.1/t.png)',
  '[log in](https://login.example/)',
  '<https://login.example/>',
  '<img src=http://127.0.0.1/t.png>',
  '<a href="https://login.example/">x</a>',
  'www.login.example/x',
  'WWW.LOGIN.EXAMPLE',
  'ftp://files.example/x',
  'user@login.example',
  'mailto:user@login.example',
  'xmpp:user@login.example',
  '@octocat',
  'see #1',
  '&lt;img src=x&gt;',
  '&#60;a href=x&#62;',
  'a | b | c',
  '`code` *em* _em_ ~~del~~ $x$',
  'x\n\n![y](http://127.0.0.1/t.png)',
  'x\r\n| a |\n|---|',
  '\u202egro.elpmaxe.www//:sptth',
];

/** The characters a numeric reference in the HTML stands for (what a reader and a linkifier see). */
const decoded = (html: string) =>
  html.replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n))).replace(/&amp;/g, '&');

/** What GitHub's Markdown makes a link of, wherever it finds it in text. */
const AUTOLINK = /https?:\/\/|ftp:\/\/|www\.|mailto:\w|xmpp:\w|[a-z0-9]@[a-z0-9]|(^|\s)@[a-z]|#\d/i;

describe('markdownText', () => {
  it('keeps plain host names as they are', () => {
    expect(markdownText('registry.npmjs.org')).toBe('registry.npmjs.org');
    expect(markdownText('registry.npmjs.org', 300, true)).toBe('"registry.npmjs.org"');
  });

  it('renders as text and nothing else, with no link or image, in a table cell, a sentence or a list', () => {
    for (const text of HOSTILE_MARKDOWN) {
      for (const shown of [markdownText(text), markdownText(text, 300, true)]) {
        expect(shown).not.toMatch(/[\r\n]/);
        for (const doc of [
          `| Host | Port |\n|---|---|\n| ${shown} | 443 |\n`,
          `The proxy refused ${shown} port 443.\n`,
          `- ${shown}\n`,
        ]) {
          const html = marked.parse(doc, { async: false, gfm: true });
          expect(html).not.toMatch(/<a[\s>]|<img|<script|<del|<em|<strong|<code/i);
          expect(shown.replace(/&#\d+;/g, '¤')).not.toMatch(AUTOLINK);
          expect(decoded(html)).not.toMatch(AUTOLINK);
          if (doc.startsWith('|')) expect(html.match(/<td>/g)).toHaveLength(2);
        }
      }
    }
  });

  it('shows bidirectional controls as escapes and bounds the length', () => {
    expect(markdownText('a\u202eb')).toBe('a\\u202eb'.replace('\\', '&#92;'));
    expect(markdownText('x'.repeat(310), 300)).toBe(`${'x'.repeat(300)} … (10 more characters)`);
  });
});
