import { describe, expect, it } from '@jest/globals';
import { base64Forms, knownSecrets, needlesOf, SECRET_ENV_NAME, shortSecrets } from './secret-values.js';
import type { NetworkPolicy } from '../network/policy.js';

const credential = (value: string) => ({
  host: 'api.example.com',
  scheme: 'https' as const,
  ports: [443],
  header: 'Authorization',
  value,
});

describe('knownSecrets', () => {
  it('takes the token, every credentials value (its part after a scheme) and secret-named env values', () => {
    const network: NetworkPolicy = {
      mode: 'allow',
      rules: [],
      credentials: [credential('Bearer sk-live-0123456789')],
    };
    const env = [
      { name: 'OPENAI_API_KEY', value: 'key-value-123456' },
      { name: 'db_password', value: 'hunter2hunter2' },
      { name: 'NPM_TOKEN', value: 'npm-token-value-1' },
      { name: 'WEBHOOK_SECRET', value: 'whsec-0123456789' },
      { name: 'KEYBOARD_LAYOUT', value: 'us-international' },
      { name: 'TOKENIZER', value: 'cl100k_base-long' },
      { name: 'HOME_DIR', value: '/home/someone/x' },
    ];
    expect(knownSecrets({ token: 'ghs_token0123456789', network, env })).toEqual([
      { name: 'token', value: 'ghs_token0123456789' },
      { name: 'credentials for api.example.com', value: 'sk-live-0123456789' },
      { name: 'env OPENAI_API_KEY', value: 'key-value-123456' },
      { name: 'env db_password', value: 'hunter2hunter2' },
      { name: 'env NPM_TOKEN', value: 'npm-token-value-1' },
      { name: 'env WEBHOOK_SECRET', value: 'whsec-0123456789' },
    ]);
  });

  it('names secret env entries by their suffix only', () => {
    for (const name of ['KEY', 'API_KEY', 'GH_TOKEN', 'TOKEN', 'X_SECRET', 'PG_PASSWORD', 'aws_secret'])
      expect([name, SECRET_ENV_NAME.test(name)]).toEqual([name, true]);
    for (const name of ['KEYS', 'MONKEY', 'TOKENS', 'SECRETARY', 'PASSWORD_HINT', 'PATH'])
      expect([name, SECRET_ENV_NAME.test(name)]).toEqual([name, false]);
  });

  it('says which secrets are too short to be searched for', () => {
    const secrets = [
      { name: 'env A_KEY', value: 'short' },
      { name: 'env B_KEY', value: '' },
      { name: 'token', value: 'long-enough-token' },
    ];
    expect(shortSecrets(secrets)).toEqual(['env A_KEY']);
    expect(needlesOf(secrets).map((n) => n.text)).not.toContain('short');
  });
});

describe('needlesOf', () => {
  it('searches each value as written, URL-encoded, JSON-escaped, as hex and as base64', () => {
    const value = 'p@ss/word+"quoted"';
    const texts = needlesOf([{ name: 'env X_PASSWORD', value }]).map((n) => n.text);
    expect(texts).toEqual(
      expect.arrayContaining([
        value,
        encodeURIComponent(value),
        'p@ss/word+\\"quoted\\"',
        Buffer.from(value).toString('hex'),
      ]),
    );
    // The base64 of the value, whatever precedes it, contains one of the forms.
    for (const before of ['', 'a', 'ab', 'user:', 'x-access-token:']) {
      const encoded = Buffer.from(`${before}${value}!`).toString('base64');
      expect(texts.some((t) => encoded.includes(t))).toBe(true);
      const urlSafe = encoded.replace(/\+/g, '-').replace(/\//g, '_');
      expect(texts.some((t) => urlSafe.includes(t))).toBe(true);
    }
  });

  it('leaves out a form that holds another (whoever finds the longer finds the shorter)', () => {
    const texts = needlesOf([
      { name: 'a', value: 'abcdefgh-long-value' },
      { name: 'b', value: 'xx-abcdefgh-long-value-yy' },
    ]).map((n) => n.text);
    expect(texts).toContain('abcdefgh-long-value');
    expect(texts).not.toContain('xx-abcdefgh-long-value-yy');
  });

  it('keeps only whole characters of the value at each base64 alignment', () => {
    const bytes = Buffer.from('abcdefghij');
    const forms = base64Forms(bytes);
    expect(forms).toHaveLength(3);
    expect(forms[0]).toBe(bytes.toString('base64').replace(/=+$/, '').slice(0, 13));
    for (const [i, form] of forms.entries()) {
      const padded = Buffer.concat([Buffer.from('zz'.slice(0, i)), bytes, Buffer.from('Q')]).toString(
        'base64',
      );
      expect(padded).toContain(form);
    }
  });
});
