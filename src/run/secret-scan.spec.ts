import { describe, expect, it } from '@jest/globals';
import { loadLint, MAX_FINDINGS, PIECE_CHARS, SecretScanner, type Place } from './secret-scan.js';

// Put together at run time: this file holds no credential itself.
const BEGIN = ['-----BEGIN', 'OPENSSH PRIVATE KEY-----'].join(' ');
const END = ['-----END', 'OPENSSH PRIVATE KEY-----'].join(' ');
const BODY = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW';

async function feed(scanner: SecretScanner, lines: Array<[Place, number, string]>): Promise<void> {
  for (const [place, line, text] of lines) await scanner.add(place, line, text);
  await scanner.finish();
}

describe('SecretScanner', () => {
  it('finds a private key that straddles two pieces, once', async () => {
    const place: Place = { kind: 'file', path: 'big.txt', commit: 'c'.repeat(40) };
    const filler = 'const value = computeSomethingOrdinary(index, other);';
    const lines: Array<[Place, number, string]> = [];
    let chars = 0;
    let n = 0;
    while (chars < PIECE_CHARS - 3 * 70) {
      lines.push([place, ++n, filler]);
      chars += filler.length + 1;
    }
    const keyLine = n + 1;
    for (const text of [BEGIN, BODY, BODY, BODY, BODY, BODY, END]) lines.push([place, ++n, text]);
    for (let i = 0; i < 50; i++) lines.push([place, ++n, filler]);
    const scanner = new SecretScanner([], await loadLint());
    await feed(scanner, lines);
    expect(scanner.findings).toEqual([
      { place, line: keyLine, rule: '@secretlint/secretlint-rule-privatekey (PrivateKey)' },
    ]);
  });

  it('finds a known value across lines, at the line where it starts', async () => {
    const place: Place = { kind: 'reply' };
    const scanner = new SecretScanner(
      [{ rule: 'env SSH_KEY', text: 'line-one\nline-two' }],
      await loadLint(),
    );
    await feed(scanner, [
      [place, 1, 'x'],
      [place, 2, 'a line-one'],
      [place, 3, 'line-two b'],
    ]);
    expect(scanner.findings).toEqual([{ place, line: 2, rule: 'env SSH_KEY' }]);
  });

  it(`keeps ${MAX_FINDINGS} findings and counts the rest`, async () => {
    const place: Place = { kind: 'reply' };
    const scanner = new SecretScanner([{ rule: 'token', text: 'secret-value-1' }], await loadLint());
    const lines: Array<[Place, number, string]> = [];
    for (let i = 1; i <= MAX_FINDINGS + 5; i++) lines.push([place, i, 'secret-value-1']);
    await feed(scanner, lines);
    expect(scanner.findings).toHaveLength(MAX_FINDINGS);
    expect(scanner.more).toBe(5);
  });
});
