import { isCredentialKey, parseConfigList, secretsOf } from './credentials.js';

describe('credentials in git config', () => {
  test('parses git config --null --list', () => {
    expect(
      parseConfigList(
        'core.bare\nfalse\0http.https://github.com/.extraheader\nAUTHORIZATION: basic eA==\0flag\0',
      ),
    ).toEqual([
      { key: 'core.bare', value: 'false' },
      { key: 'http.https://github.com/.extraheader', value: 'AUTHORIZATION: basic eA==' },
      { key: 'flag', value: '' },
    ]);
  });

  test.each([
    ['http.https://github.com/.extraheader', true],
    ['http.extraheader', true],
    ['http.https://x/.cookiefile', true],
    ['credential.helper', true],
    ['credential.https://x.username', true],
    ['include.path', true],
    ['includeif.gitdir:/x/.path', true],
    ['remote.origin.url', false],
    ['core.fsmonitor', false],
    ['http.sslverify', false],
  ])('%s is a credential key: %s', (key, expected) => {
    expect(isCredentialKey(key)).toBe(expected);
  });

  test('finds the secrets of an auth header (and the token inside) and of URLs', () => {
    const basic = Buffer.from('x-access-token:ghs_secret123').toString('base64');
    expect(
      secretsOf({ key: 'http.https://github.com/.extraheader', value: `AUTHORIZATION: basic ${basic}` }),
    ).toEqual([basic, 'ghs_secret123']);
    expect(secretsOf({ key: 'http.extraheader', value: 'Authorization: bearer tok_abcdef' })).toEqual([
      'tok_abcdef',
    ]);
    expect(secretsOf({ key: 'remote.origin.url', value: 'https://user:pa55word@github.com/o/r' })).toEqual([
      'pa55word',
    ]);
    expect(
      secretsOf({ key: 'url.https://tok_0123456789@github.com/.insteadof', value: 'https://github.com/' }),
    ).toEqual(['tok_0123456789']);
    expect(secretsOf({ key: 'remote.origin.url', value: 'https://github.com/o/r' })).toEqual([]);
  });
});
