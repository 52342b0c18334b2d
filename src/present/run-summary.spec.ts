// The reply as a section of Markdown: what a reader sees of it, hostile text included.
import { describe, expect, it } from '@jest/globals';
import { HOSTILE_REPLY, LIVE_MENTION, renderedOutsideCode } from '../../test/support/hostile-reply.js';
import { replyMarkdown } from './run-summary.js';

describe('replyMarkdown', () => {
  const options = { heading: '### Reply', maxChars: 100_000 };

  it('is empty without a reply, and says why when the file was refused', () => {
    expect(replyMarkdown(undefined, options)).toBe('');
    expect(replyMarkdown({ reply: { text: ' \n', bytes: 2, cut: false } }, options)).toBe('');
    expect(replyMarkdown({ warning: 'The reply file is a FIFO <x> @bob: no reply.' }, options)).toBe(
      '### Reply\n\nThe reply file is a FIFO &#60;x&#62; &#8203;&#64;&#8203;bob: no reply.',
    );
  });

  it('shows a hostile reply in a block nothing escapes, the cut said, secrets redacted', () => {
    const markdown = replyMarkdown(
      { reply: { text: `${HOSTILE_REPLY}\nkey: s3cr3t-value`, bytes: 10_000_000, cut: true } },
      { ...options, redact: (t) => t.split('s3cr3t-value').join('***') },
    );
    expect(markdown).not.toMatch(LIVE_MENTION);
    expect(markdown).not.toContain('s3cr3t-value');
    expect(markdown).toContain(
      'The reply was cut: its file had 10,000,000 bytes, and only the first 65,536 were read.',
    );
    const html = renderedOutsideCode(markdown);
    expect(html).not.toMatch(/<img|<details|<!--|wts-pwned/);
    // Its two images are links, in the one line that lists them, and nothing else of it is.
    expect(html.match(/evil\.example/g)).toHaveLength(2);
    expect(html).toContain(
      '<p>Images in the reply, not shown here: <a href="https://evil.example/pixel.png">image</a>, <a href="https://evil.example/p.png">pixel</a>.</p>',
    );
  });

  it('says what the comment left out, and where the rest is', () => {
    const markdown = replyMarkdown(
      { reply: { text: 'x'.repeat(50), bytes: 50, cut: false } },
      { heading: 'R', maxChars: 10, elsewhere: 'see the summary' },
    );
    expect(markdown).toBe(
      'R\n\n<pre>\nxxxxxxxxxx\n</pre>\n\n_40 more characters are left out here: see the summary._',
    );
  });
});
