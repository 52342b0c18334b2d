import { describe, expect, it } from '@jest/globals';
import type { Ui } from '../ui/ui.js';
import { silentUi } from '../ui/ui.js';
import { Redaction } from './redaction.js';
import { scanLogTail } from './tail-scan.js';

// Credential formats are put together at run time, so that this file itself holds none.
const GITHUB_TOKEN = ['ghp', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'].join('_');
const PRIVATE_KEY = [
  ['-----BEGIN', 'RSA PRIVATE KEY-----'].join(' '),
  'MIIEpAIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB',
  'aFDrBz9vFqU4yV4Fz5J3hbPbsYqQzJ0V5zMv1ZyO5V5aQ0ZP1b9QTt0T9cw1bZJ1',
  ['-----END', 'RSA PRIVATE KEY-----'].join(' '),
];
const KEY = 'sk-known-credential-0123456789';
const redaction = Redaction.of([{ name: 'credentials for api.example.com', value: KEY }]);

function recordingUi(): Ui & { warnings: string[] } {
  const warnings: string[] = [];
  return { ...silentUi, warning: (m: string) => warnings.push(m), warnings };
}

describe('scanLogTail', () => {
  it("masks what the scan's rules find, a key over many lines whole, names it, and names known secrets", async () => {
    const ui = recordingUi();
    const tail = ['step 1', `token=${GITHUB_TOKEN} and more`, ...PRIVATE_KEY, `echoed ${KEY}`, 'done'];
    const scanned = await scanLogTail(tail, 'block', redaction, ui);
    const text = scanned.lines.join('\n');
    expect(text).not.toContain(GITHUB_TOKEN);
    expect(text).not.toContain(PRIVATE_KEY[1]);
    expect(text).not.toContain(PRIVATE_KEY[2]);
    expect(scanned.lines[0]).toBe('step 1');
    expect(scanned.lines[1]).toBe('token=*** and more');
    expect(scanned.lines.at(-1)).toBe('done');
    expect(scanned.found).toEqual(
      expect.arrayContaining([
        'credentials for api.example.com',
        expect.stringMatching(/^@secretlint\/secretlint-rule-github /),
        expect.stringMatching(/^@secretlint\/secretlint-rule-privatekey /),
      ]),
    );
    // The known secret is left to the redaction (the comment's and the API's), named here.
    expect(redaction.redact(text)).not.toContain(KEY);
    expect(ui.warnings).toHaveLength(1);
    expect(ui.warnings[0]).toContain('the run goes on');
    expect(ui.warnings[0]).not.toContain(GITHUB_TOKEN);
  });

  it('leaves a clean tail as it is, and reads nothing with secret-scan: off', async () => {
    const ui = recordingUi();
    expect(await scanLogTail(['all good', 'exit 0'], 'warn', redaction, ui)).toEqual({
      lines: ['all good', 'exit 0'],
      found: [],
    });
    const off = await scanLogTail([`token=${GITHUB_TOKEN}`], 'off', redaction, ui);
    expect(off).toEqual({ lines: [`token=${GITHUB_TOKEN}`], found: [] });
    expect(ui.warnings).toEqual([]);
  });
});
