import { describe, expect, it } from '@jest/globals';
import { countTag, HOSTILE_REPLY, renderedOutsideCode } from '../../test/support/hostile-reply.js';
import {
  fenceOf,
  imageLinks,
  MAX_IMAGE_LINKS,
  neutraliseMentions,
  plainLines,
  untrustedBlock,
} from './untrusted-markdown.js';

describe('neutraliseMentions', () => {
  it('breaks user and team mentions with a zero-width joiner, and nothing else', () => {
    expect(neutraliseMentions('hi @alice and @org/team, a@b.c, @ alone, email@')).toBe(
      'hi @\u200Dalice and @\u200Dorg/team, a@\u200Db.c, @ alone, email@',
    );
  });
});

describe('plainLines', () => {
  it('makes every line break a \\n and shows control characters as escapes', () => {
    expect(plainLines('a\r\nb\rc\nd\te\u001b[31mf\u0000g\u202eh')).toBe(
      'a\nb\nc\nd\te\\u001b[31mf\\u0000g\\u202eh',
    );
  });
});

describe('fenceOf', () => {
  it('uses a fence longer than any run of backticks in the text', () => {
    expect(fenceOf('a ````` b')).toBe('``````\na ````` b\n``````');
    expect(fenceOf('plain')).toBe('```\nplain\n```');
  });
});

describe('untrustedBlock', () => {
  it('keeps a hostile reply inside one code block: no HTML, image, details or comment escapes it', () => {
    const own = (reply: string) =>
      `<details><summary>Before</summary>\n\nx\n</details>\n\n${reply}\n\n<details><summary>After</summary>\n\ny\n</details>\n\nFOOTER`;
    const { markdown, leftOut } = untrustedBlock(HOSTILE_REPLY, 10_000);
    expect(leftOut).toBe(0);
    const html = renderedOutsideCode(own(markdown));
    const squeezed = (h: string) => h.replace(/>\s+</g, '><');
    expect(squeezed(html)).toBe(squeezed(renderedOutsideCode(own(''))));
    expect(countTag(html, 'details')).toBe(2);
    expect(html).toContain('FOOTER');
    expect(html).not.toMatch(/<img|<!--|evil\.example|wts-pwned|@/);
    // The text itself is all there, mentions aside, each line on a line of its own.
    expect(markdown.replace(/\u200D/g, '')).toContain(HOSTILE_REPLY.replace('\r', '\n'));
    expect(markdown).not.toContain('\r');
    expect(markdown).not.toMatch(/@(wts-victim|octo-org|ghost)/);
  });

  it('shows what was left out past maxChars, never half a character', () => {
    const { markdown, leftOut } = untrustedBlock(`ab${'😀'.repeat(10)}`, 5);
    expect(markdown).toBe('```text\nab😀\n```');
    expect(leftOut).toBe(18);
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
    const html = renderedOutsideCode(line);
    expect(html).not.toMatch(/<img|javascript:|d\.png/);
    expect([...html.matchAll(/<a href="([^"]+)">([^<]*)<\/a>/g)].map((m) => [m[1], m[2]])).toEqual([
      ['https://evil.example/a.png?x=1&amp;y=2', 'image'],
      ['https://evil.example/b.png', 'shot @\u200Dbob'],
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
