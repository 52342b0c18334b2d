import { describe, expect, it } from '@jest/globals';
import { InputError, parseSettings, type RunSettings } from './settings.js';

const run = (inputs: Record<string, string>) =>
  parseSettings((name) => ({ command: 'true', ...inputs })[name] ?? '', { HOME: '/home/u' }) as RunSettings;

describe('network and credentials inputs', () => {
  it('keeps bridge (the default) and none as they were', () => {
    expect(run({}).network).toEqual({ mode: 'bridge' });
    expect(run({}).limits.network).toBe('bridge');
    expect(run({ network: 'NONE' }).network).toEqual({ mode: 'none' });
    expect(run({ network: 'none' }).limits.network).toBe('none');
  });

  it('reads an allow-list of names, wildcards, ports and presets, one per line or comma-separated', () => {
    const s = run({ network: 'Example.COM., *.corp.example:8443\n@anthropic , [::1]:8080\n10.0.0.5' });
    expect(s.limits.network).toBe('none');
    expect(s.network).toEqual({
      mode: 'allow',
      credentials: [],
      rules: [
        { host: 'example.com', wildcard: false, ports: [443, 80] },
        { host: 'corp.example', wildcard: true, ports: [8443] },
        { host: 'api.anthropic.com', wildcard: false, ports: [443, 80] },
        { host: '::1', wildcard: false, ports: [8080] },
        { host: '10.0.0.5', wildcard: false, ports: [443, 80] },
      ],
    });
  });

  it('reads audit, with the container on no network of its own', () => {
    expect(run({ network: 'audit' })).toMatchObject({
      network: { mode: 'audit' },
      limits: { network: 'none' },
    });
  });

  it('reads credentials, allowing their hosts implicitly', () => {
    const s = run({
      network: '@npm',
      credentials: 'api.anthropic.com x-api-key: sk-ant-123 456\n\nllm.internal Authorization:Bearer t0k',
    });
    expect(s.network).toMatchObject({
      mode: 'allow',
      credentials: [
        { host: 'api.anthropic.com', header: 'x-api-key', value: 'sk-ant-123 456' },
        { host: 'llm.internal', header: 'Authorization', value: 'Bearer t0k' },
      ],
    });
    const hosts = s.network.mode === 'allow' ? s.network.rules.map((r) => r.host) : [];
    expect(hosts).toEqual(
      expect.arrayContaining(['registry.npmjs.org', 'api.anthropic.com', 'llm.internal']),
    );
  });

  it('allows a credential host on the port its line names', () => {
    const s = run({ network: 'audit', credentials: 'gw.internal:8443 Authorization: Bearer x' });
    expect(s.network).toMatchObject({ credentials: [{ host: 'gw.internal', header: 'Authorization' }] });
    const allow = run({ network: 'a.example', credentials: 'gw.internal:8443 Authorization: Bearer x' });
    expect(allow.network.mode === 'allow' && allow.network.rules[1]).toEqual({
      host: 'gw.internal',
      wildcard: false,
      ports: [8443],
    });
  });

  it("reads a credential line's scheme: over TLS unless it names http://, which goes in clear on its ports", () => {
    const s = run({
      network: 'audit',
      credentials: [
        'api.example.com x-api-key: a',
        'https://gw.example.com:8443 x-api-key: b',
        'http://llm.internal Authorization: Bearer c',
        'HTTP://cache.internal:8080 X-Token: d',
      ].join('\n'),
    });
    expect(s.network.mode === 'audit' && s.network.credentials).toEqual([
      { host: 'api.example.com', scheme: 'https', ports: [443, 80], header: 'x-api-key', value: 'a' },
      { host: 'gw.example.com', scheme: 'https', ports: [8443], header: 'x-api-key', value: 'b' },
      { host: 'llm.internal', scheme: 'http', ports: [80], header: 'Authorization', value: 'Bearer c' },
      { host: 'cache.internal', scheme: 'http', ports: [8080], header: 'X-Token', value: 'd' },
    ]);
  });

  it.each([
    ['network', { network: 'exa mple.com' }, /Invalid input 'network'.*malformed|one host pattern/],
    ['network', { network: 'example..com' }, /Invalid input 'network'.*malformed/],
    ['network', { network: 'https://example.com' }, /Invalid input 'network'.*malformed/],
    ['network', { network: 'example.com:0' }, /Invalid input 'network'.*port/],
    ['network', { network: 'example.com:99999' }, /Invalid input 'network'.*port/],
    ['network', { network: '*.com' }, /Invalid input 'network'.*\*\.example\.com/],
    ['network', { network: 'a.*.example.com' }, /Invalid input 'network'.*malformed/],
    ['network', { network: '@npm, @nope' }, /Invalid input 'network': "@nope".*unknown preset.*@github/],
    ['network', { network: '*' }, /Invalid input 'network': "\*".*bare \*/],
    ['network', { network: '*:443' }, /Invalid input 'network'.*bare \*/],
    ['network', { network: 'example.com, bridge' }, /Invalid input 'network'.*stands alone/],
    ['network', { network: 'host' }, /Invalid input 'network'.*bridge, none/],
    ['network', { network: ',' }, /Invalid input 'network'/],
    [
      'credentials',
      { credentials: 'api.x.com x-api-key: k' },
      /Invalid input 'credentials'.*allow-list or audit.*bridge/,
    ],
    [
      'credentials',
      { network: 'none', credentials: 'api.x.com x-api-key: k' },
      /Invalid input 'credentials'.*none/,
    ],
    [
      'credentials',
      { network: 'audit', credentials: 'api.x.com sk-secret' },
      /Invalid input 'credentials': "line 1 \(api\.x\.com\)".*Header-Name/,
    ],
    [
      'credentials',
      { network: 'audit', credentials: 'api.x.com x-api-key:' },
      /Invalid input 'credentials'.*Header-Name/,
    ],
    [
      'credentials',
      { network: 'audit', credentials: '*.x.com x-api-key: v' },
      /Invalid input 'credentials'.*a host name/,
    ],
    [
      'credentials',
      { network: 'audit', credentials: 'ftp://x.com x-api-key: v' },
      /Invalid input 'credentials'.*http:\/\/ or https:\/\//,
    ],
    [
      'credentials',
      { network: 'audit', credentials: 'http://x.com/path x-api-key: v' },
      /Invalid input 'credentials'.*a host name/,
    ],
  ])('rejects a bad %s naming it (%j)', (_input, inputs, message) => {
    expect(() => run(inputs)).toThrow(InputError);
    expect(() => run(inputs)).toThrow(message);
  });

  it('never prints a credential value in its errors', () => {
    for (const credentials of ['api.x.com sk-SECRET-1', 'api.x.com: sk-SECRET-1', 'a b x: sk-SECRET-1']) {
      let message = '';
      try {
        run({ network: 'audit', credentials });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/Invalid input 'credentials'/);
      expect(message).not.toContain('SECRET');
    }
  });
});

describe('the model budget: max-model-requests and max-model-tokens', () => {
  it('is no limit by default (0), and a limit with an allow-list or audit', () => {
    expect(run({ network: 'audit' }).network).toEqual({ mode: 'audit', credentials: [] });
    expect(run({ network: '@anthropic', 'max-model-requests': '20' }).network).toMatchObject({
      mode: 'allow',
      modelLimits: { maxRequests: 20, maxTokens: 0 },
    });
    expect(run({ network: 'audit', 'max-model-tokens': ' 500000 ' }).network).toMatchObject({
      modelLimits: { maxRequests: 0, maxTokens: 500000 },
    });
    expect(run({ 'max-model-requests': '0' }).network).toEqual({ mode: 'bridge' });
  });

  it.each([
    ['max-model-requests', '-1'],
    ['max-model-tokens', '10k'],
    ['max-model-tokens', '1.5'],
    ['max-model-requests', 'many'],
  ])('refuses %s %j by name', (name, value) => {
    expect(() => run({ network: 'audit', [name]: value })).toThrow(InputError);
    expect(() => run({ network: 'audit', [name]: value })).toThrow(`Invalid input '${name}'`);
  });

  it.each(['bridge', 'none'])('refuses a limit with network %s by name: nothing would count', (network) => {
    expect(() => run({ network, 'max-model-tokens': '1000' })).toThrow(
      /Invalid input 'max-model-tokens'.*allow-list or audit/,
    );
    expect(() => run({ network, 'max-model-requests': '5' })).toThrow(/Invalid input 'max-model-requests'/);
  });
});
