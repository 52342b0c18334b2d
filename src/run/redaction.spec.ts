import { describe, expect, it } from '@jest/globals';
import { MASK, Redaction, redactionFor } from './redaction.js';
import { credentialPolicy } from '../../test/support/credentials.js';

const KEY = 'sk-live-0123456789abcdef';
const of = (...values: string[]) => Redaction.of(values.map((value, i) => ({ name: `secret ${i}`, value })));

describe('Redaction', () => {
  it('masks a secret as written and in every form the scan knows', () => {
    const r = of('k3y+with/odd "chars"&more');
    const value = 'k3y+with/odd "chars"&more';
    const forms = [
      value,
      encodeURIComponent(value),
      JSON.stringify(value).slice(1, -1),
      Buffer.from(value).toString('hex'),
      Buffer.from(value).toString('base64'),
      Buffer.from(value).toString('base64url'),
      // inside a longer base64 text, at each of the other two alignments
      Buffer.from(`x${value}`).toString('base64'),
      Buffer.from(`xy${value}`).toString('base64'),
    ];
    for (const form of forms) {
      const out = r.redact(`before ${form} after`);
      expect(out).toContain(MASK);
      expect(out).not.toContain(form);
      expect(out.startsWith('before ')).toBe(true);
    }
    expect(r.namesIn(`x ${Buffer.from(value).toString('hex')} y`)).toEqual(['secret 0 (hex)']);
  });

  it('takes the token, credentials values and secret-named env values of the settings, not other env values', () => {
    const r = redactionFor({
      token: 'ghs_token0123456789',
      network: credentialPolicy(`Bearer ${KEY}`),
      env: [
        { name: 'DEPLOY_TOKEN', value: 'deploy-value-123' },
        { name: 'MODEL', value: 'some-model-name' },
      ],
    });
    expect(r.redact(`ghs_token0123456789 Bearer ${KEY} deploy-value-123 some-model-name`)).toBe(
      '*** Bearer *** *** some-model-name',
    );
  });

  it('masks every character of overlapping and touching secrets, whatever their order', () => {
    const r = of('ABCDEFGHIJ', 'HIJKLMNOPQ', 'abcdefgh');
    expect(r.redact('x ABCDEFGHIJKLMNOPQ y')).toBe('x *** y');
    expect(r.redact('x HIJKLMNOPQ ABCDEFGHIJ y')).toBe('x *** *** y');
    // one secret inside another: the longer goes whole
    expect(of('abcdefgh', 'zzabcdefghzz').redact('-zzabcdefghzz-')).toBe('-***-');
    expect(r.redact('abcdefghabcdefgh')).toBe('***');
    // a secret repeated over itself
    expect(of('aaaaaaaa').redact('baaaaaaaaaaab')).toBe('b***b');
  });

  it('masks the start of a secret left by a cut (…, or the end of the text), 4 characters or more', () => {
    const r = of(KEY);
    expect(r.redact(`line ${KEY.slice(0, 10)}…\nnext`)).toBe('line ***…\nnext');
    expect(r.redact(`reply ends with ${KEY.slice(0, 6)}`)).toBe('reply ends with ***');
    expect(r.redact(`short ${KEY.slice(0, 3)}…`)).toBe(`short ${KEY.slice(0, 3)}…`);
    expect(r.redact(`${KEY.slice(0, 10)} in the middle is no cut`)).toBe(
      `${KEY.slice(0, 10)} in the middle is no cut`,
    );
  });

  it('changes nothing without secrets, or without a match', () => {
    expect(Redaction.none.redact('anything at all …')).toBe('anything at all …');
    expect(Redaction.of([]).size).toBe(0);
    expect(of('abc').size).toBe(0); // too short to be searched for, as for the scan
    expect(of(KEY).redact('')).toBe('');
    expect(of(KEY).redact('nothing here')).toBe('nothing here');
    expect(of(KEY).namesIn('nothing here')).toEqual([]);
  });

  it('redacts a megabyte against many secrets in bounded time, and a text built to make it backtrack', () => {
    const secrets = Array.from({ length: 50 }, (_, i) => `secret-${i}-${'x'.repeat(20)}-${i}`);
    const r = of(...secrets);
    const filler = 'The quick brown fox jumps over the lazy dog; secret-1-xxx almost. ';
    let text = '';
    while (text.length < 1_000_000) text += filler;
    text += secrets[7];
    let start = performance.now();
    const out = r.redact(text);
    const ms = performance.now() - start;
    expect(out.endsWith(`dog; secret-1-xxx almost. ${MASK}`)).toBe(true);
    expect(ms).toBeLessThan(1_500);
    // Many forms that share their starts, against a text of that start over and over.
    const same = of(...Array.from({ length: 50 }, (_, i) => `${'a'.repeat(60)}${i}`));
    start = performance.now();
    const masked = same.redact('a'.repeat(1_000_000));
    // the start of a form, at the end of the text, is masked: the longest start the forms have
    expect(masked.length).toBe(1_000_000 - 60 + MASK.length);
    expect(masked.endsWith(`a${MASK}`)).toBe(true);
    expect(performance.now() - start).toBeLessThan(1_500);
  });
});
