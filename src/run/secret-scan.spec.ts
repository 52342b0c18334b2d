import { describe, expect, it } from '@jest/globals';
import {
  loadLint,
  MAX_FINDINGS,
  PIECE_CHARS,
  RULE_ALLOWS,
  SecretScanner,
  type Place,
} from './secret-scan.js';

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

  it("lets the vendors' documented example keys and placeholder passwords pass, and finds their real-shaped neighbours", async () => {
    const place: Place = { kind: 'reply' };
    const examples = RULE_ALLOWS['@secretlint/secretlint-rule-shopify'];
    // A key of the same shape that is not one of the examples: one letter changed.
    const real = `${examples[1].slice(0, -3)}Zex`;
    const url = (user: string, password: string) => `git clone https://${user}:${password}@git.example.com/r`;
    const lines = [
      ...examples.map((key) => `e.g.) ${key}`),
      `token: ${real}`,
      url('deploy', 'pa55word'),
      url('deploy', 'P4ssw0rd-2024'),
      url('pa55word', 'q8Lr2vXz'),
      url('deploy', 'q8Lr2vXz'),
    ];
    const scanner = new SecretScanner([], await loadLint());
    await feed(
      scanner,
      lines.map((text, i): [Place, number, string] => [place, i + 1, text]),
    );
    const shopify = '@secretlint/secretlint-rule-shopify (SHOPIFY_KEY)';
    const basic = '@secretlint/secretlint-rule-basicauth (BasicAuth)';
    expect(scanner.findings).toEqual([
      { place, line: 5, rule: shopify },
      { place, line: 8, rule: basic },
      { place, line: 9, rule: basic },
    ]);
  });
});
