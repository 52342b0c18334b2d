import { describe, expect, it } from '@jest/globals';
import { SANDBOX_TEXT_MAX, logLines, sandboxText } from './sandbox-text.js';

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
