// The one renderer of untrusted text, judged by cmark-gfm as GitHub runs it (test/support/cmark.ts): no
// input closes, opens or breaks what the action wrote around it, in a block or inline.
import { describe, expect, it } from '@jest/globals';
import {
  decodedText,
  expectOwnStructure,
  LIVE_MENTION,
  outsidePre,
  renderGfm,
  tagCount,
} from '../../test/support/cmark.js';
import { HOSTILE_REPLY } from '../../test/support/hostile-reply.js';
import {
  imageLinks,
  MAX_IMAGE_LINKS,
  neutraliseMentions,
  plainLines,
  untrustedBlock,
  untrustedCode,
  untrustedInline,
} from './untrusted-markdown.js';

const ticks = (n: number) => '`'.repeat(n);

/** Everything that has escaped a block before, after a line of `n` backticks. */
const escape = (n: number) =>
  [
    'before',
    ticks(n),
    '![x](https://evil.example/x.png) <img src="https://evil.example/y.png">',
    '<!-- hides the rest',
    '</details></pre></PRE ></script></style></textarea>',
    '@someone and @org/team, #12, https://evil.example, www.evil.example',
    '',
    '',
    '    indented after blank lines',
    `~~~\n${ticks(n)}text`,
    '\r::error::pwned \u202egnp.exe\u200b &lt;b&gt; &amp; &#60;',
  ].join('\n');

/** The action's own Markdown around a block: a details block before and a heading after. */
const around = (block: string) =>
  `<details><summary>Own</summary>\n\n${block}\n</details>\n\n### After\n\n**Footer**`;

/** The text of the one `<pre>` block of `html` as a browser shows it (no line break after `<pre>`), decoded. */
const preText = (html: string) => decodedText(/<pre[^>]*>\n([\s\S]*)\n<\/pre>/.exec(html)![1]);

describe('untrustedBlock under cmark-gfm', () => {
  it('holds backtick runs of 1 to 300 (81, 255 and 256 among them): nothing escapes, the structure stays', () => {
    const runs = [...Array.from({ length: 300 }, (_, i) => i + 1)];
    const doc = runs.map((n) => around(untrustedBlock(escape(n), 100_000).markdown)).join('\n\n');
    const html = renderGfm(doc);
    expectOwnStructure(html, { details: 300, pre: 300, headings: 300, links: 0 });
    expect(html.match(/<strong>Footer<\/strong>/g)).toHaveLength(300);
    expect(outsidePre(html)).not.toMatch(/evil|pwned|someone|indented/);
  });

  it('holds 70,000 backticks, bounded, and says what it left out', () => {
    const { markdown, leftOut } = untrustedBlock(escape(70_000), 20_000);
    expect(markdown.length).toBeLessThanOrEqual(20_000 + '<pre>\n\n</pre>'.length);
    expect(leftOut).toBeGreaterThan(50_000);
    const html = renderGfm(around(markdown));
    expectOwnStructure(html, { details: 1, pre: 1, headings: 1, links: 0 });
    expect(html).toContain('<strong>Footer</strong>');
  });

  it('shows the text as written: entities, blank lines and indentation, mentions inert, controls visible', () => {
    const text = escape(255);
    const html = renderGfm(around(untrustedBlock(text, 100_000).markdown));
    const shown = preText(html);
    expect(shown).toBe(neutraliseMentions(plainLines(text)));
    expect(shown).toContain('&lt;b&gt; &amp; &#60;');
    expect(shown).toContain('\n::error::pwned \\u202egnp.exe');
    expect(shown).not.toMatch(LIVE_MENTION);
    expect(shown).not.toContain('\r');
  });

  it('never cuts inside a character or an entity it wrote; half a pair or a broken sequence shows as U+FFFD', () => {
    expect(untrustedBlock('a<b', 3)).toEqual({ markdown: '<pre>\na\n</pre>', leftOut: 2 });
    expect(untrustedBlock('a<b', 5)).toEqual({ markdown: '<pre>\na&lt;\n</pre>', leftOut: 1 });
    expect(untrustedBlock(`ab${'😀'.repeat(10)}`, 5)).toEqual({
      markdown: '<pre>\nab😀\n</pre>',
      leftOut: 9,
    });
    expect(untrustedBlock('ab😀', 3)).toEqual({ markdown: '<pre>\nab\n</pre>', leftOut: 1 });
    expect(untrustedBlock('x\uD83D', 10).markdown).toBe('<pre>\nx\uFFFD\n</pre>');
    // A cut inside `€` (E2 82 AC) and invalid bytes, decoded as the reply and the log are.
    const decoded = Buffer.from([0x61, 0xe2, 0x82, 0x0a, 0xff, 0xfe, 0x3c]).toString('utf8');
    const html = renderGfm(around(untrustedBlock(decoded, 100).markdown));
    expect(preText(html)).toBe('a\uFFFD\n\uFFFD\uFFFD<');
    expectOwnStructure(html, { details: 1, pre: 1, headings: 1 });
  });

  it('keeps a hostile reply inside: no HTML, image, details, comment or mention escapes it', () => {
    const html = renderGfm(around(untrustedBlock(HOSTILE_REPLY, 10_000).markdown));
    expectOwnStructure(html, { details: 1, pre: 1, headings: 1, links: 0 });
    expect(outsidePre(html)).not.toMatch(/evil|wts-pwned|fake/);
  });

  it('names a language for highlighting, and only a name', () => {
    expect(untrustedBlock('+a', 10, { lang: 'diff' }).markdown).toBe('<pre lang="diff">\n+a\n</pre>');
    expect(untrustedBlock('+a @x', 10, { lang: 'd"><x', keepMentions: true }).markdown).toBe(
      '<pre lang="dx">\n+a @x\n</pre>',
    );
  });
});

/** Inline text where the action puts it: a table cell, a list item, a sentence, a code element. */
const inlineDocs = (shown: string) => [
  `| Host | Port |\n|---|---|\n| ${shown} | 443 |\n\n**After**`,
  `- ${shown} and more\n- second\n\n**After**`,
  `The proxy refused ${shown} port 443.\n\n**After**`,
  `- <code>${shown}</code> subject\n\n**After**`,
];

/** Text a command can give as a host name or a reason, shaped to become markup or a link. */
const HOSTILE_MARKDOWN = [
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

const HOSTILE_INLINE = [
  ...HOSTILE_MARKDOWN,
  ...[1, 2, 79, 80, 81, 82, 255, 256, 300].map((n) => `${ticks(n)}x${ticks(n)} ${ticks(n)}`),
  'a | b || c \\| d',
  '![x](https://evil.example/x.png) [l](https://evil.example) <https://evil.example>',
  '<!-- <details></details> </code> <img src=x> <a href="https://evil.example">',
  '@someone @org/team a@b.example #12 GH-12 owner/repo#3 https://evil.example www.evil.example',
  'mailto:x@evil.example xmpp:x@evil.example ftp://evil.example',
  '\r::error::pwned\nnext line\u2028x\u202egnp.exe',
  '*em* _em_ **b** ~~del~~ $x$ &lt;b&gt; &amp;',
];

describe('untrustedInline under cmark-gfm', () => {
  it('renders as text and nothing else: no link, image, code, emphasis, HTML, mention or cell end', () => {
    for (const text of HOSTILE_INLINE) {
      for (const shown of [untrustedInline(text), untrustedInline(text, 2_000, true)]) {
        expect(shown).not.toMatch(/[\r\n]/);
        for (const doc of inlineDocs(shown)) {
          const html = renderGfm(doc);
          expectOwnStructure(html, { links: 0, details: 0, pre: 0 });
          expect(html).not.toMatch(/<(em|del|a|script|b|x)[\s>]/i);
          expect(tagCount(html, 'strong')).toBe(1);
          expect(tagCount(html, 'code')).toBe(doc.includes('<code>') ? 1 : 0);
          if (doc.startsWith('|')) expect(html.match(/<td>/g)).toHaveLength(2);
          if (doc.startsWith('- ')) expect(tagCount(html, 'li')).toBe(doc.includes('second') ? 2 : 1);
          expect(decodedText(html)).not.toMatch(/https?:\/\/|www\.|[a-z0-9]@[a-z0-9]|#\d/i);
        }
      }
    }
  });

  it('shows the same characters, controls and bidi as escapes', () => {
    const text = 'a|b `c` <d> @e\r::f \u202e';
    const html = renderGfm(`x ${untrustedInline(text)} y`);
    expect(decodedText(html).replace(/\u200B/g, '')).toBe('x a|b `c` <d> @e\\r::f \\u202e y\n');
  });

  it('bounds what it writes (entities counted), never cutting inside one, and counts the rest', () => {
    expect(untrustedInline('x'.repeat(310), 300)).toBe(`${'x'.repeat(300)} … (10 more characters)`);
    expect(untrustedInline('ab<c', 4)).toBe('ab … (2 more characters)');
    expect(untrustedInline('ab😀c', 3)).toBe('ab … (2 more characters)');
    expect(untrustedInline('registry.npmjs.org')).toBe('registry.npmjs.org');
    expect(untrustedInline('registry.npmjs.org', 300, true)).toBe('"registry.npmjs.org"');
    expect(untrustedInline('\uDC00')).toBe('\uFFFD');
  });

  it('in <code>, holds 81 backticks and more', () => {
    const html = renderGfm(`- ${untrustedCode(`${ticks(81)} <b>@x</b> ${ticks(81)}`)} after`);
    expectOwnStructure(html, { links: 0 });
    expect(tagCount(html, 'code')).toBe(1);
    expect(tagCount(html, 'b')).toBe(0);
  });
});

describe('imageLinks', () => {
  it('lists the images of the text as links, in order, that load nothing and ping nobody', () => {
    const text = [
      'See <img width="10" src="https://evil.example/a.png?x=1&y=2"> and',
      '![shot @bob](https://evil.example/b.png "title") then ![](http://evil.example/c.gif)',
      '![bad](javascript:alert(1)) ![rel](./d.png) ![x](https://evil.example/e.png)"><img src=x>)',
    ].join('\n');
    const line = imageLinks(text);
    const html = renderGfm(line);
    expect(html).not.toMatch(/<img|javascript:|d\.png/);
    expect(
      [...html.matchAll(/<a href="([^"]+)">([^<]*)<\/a>/g)].map((m) => [m[1], decodedText(m[2])]),
    ).toEqual([
      ['https://evil.example/a.png?x=1&amp;y=2', 'image'],
      ['https://evil.example/b.png', 'shot \u200B@\u200Bbob'],
      ['http://evil.example/c.gif', 'image'],
      ['https://evil.example/e.png', 'x'],
    ]);
    expect(line.split('\n')).toHaveLength(1);
  });

  it(`lists at most ${MAX_IMAGE_LINKS}, and counts the rest; none, nothing`, () => {
    const text = Array.from({ length: 25 }, (_, i) => `![i${i}](https://x.example/${i}.png)`).join(' ');
    const line = imageLinks(text);
    expect(line.match(/\]\(/g)).toHaveLength(MAX_IMAGE_LINKS);
    expect(line).toMatch(/, and 15 more\.$/);
    expect(imageLinks('no images, only [a link](https://x.example) and ![broken](')).toBe('');
  });

  it('reads 64 KiB of near-misses in well under a second', () => {
    for (const text of ['<img '.repeat(13_107), '!['.repeat(32_768), `![${'a'.repeat(199)}](`.repeat(320)]) {
      const start = performance.now();
      expect(imageLinks(text)).toBe('');
      expect(performance.now() - start).toBeLessThan(1_000);
    }
  });
});

describe('neutraliseMentions and plainLines', () => {
  it('breaks user and team mentions with a zero-width joiner, and nothing else', () => {
    expect(neutraliseMentions('hi @alice and @org/team, a@b.c, @ alone, email@')).toBe(
      'hi @\u200Dalice and @\u200Dorg/team, a@\u200Db.c, @ alone, email@',
    );
  });

  it('makes every line break a \\n and shows control characters as escapes', () => {
    expect(plainLines('a\r\nb\rc\nd\te\u001b[31mf\u0000g\u202eh')).toBe(
      'a\nb\nc\nd\te\\u001b[31mf\\u0000g\\u202eh',
    );
  });
});
