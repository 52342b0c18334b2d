import { describe, expect, it } from '@jest/globals';
import { decide, parseNetwork, proposeAllowList, type ProxiedPolicy } from './policy.js';
import { PRESETS } from './presets.js';

const allow = (text: string) => parseNetwork(text) as ProxiedPolicy;

describe('decide', () => {
  const policy = allow('api.example.com, *.corp.example, internal:8080, 10.1.2.3, [fd00::1]:443');

  it.each([
    ['api.example.com', 443, true],
    ['API.Example.com.', 80, true],
    ['api.example.com', 22, false],
    ['example.com', 443, false],
    ['evil-api.example.com', 443, false],
    ['api.example.com.evil.net', 443, false],
    ['a.b.corp.example', 443, true],
    ['corp.example', 443, false],
    ['internal', 8080, true],
    ['internal', 443, false],
    ['10.1.2.3', 443, true],
    ['10.1.2.4', 443, false],
    ['[fd00::1]', 443, true],
    ['127.0.0.1', 443, false],
    ['127.1', 443, false],
    ['2130706433', 443, false],
    ['0x7f.1', 443, false],
    ['169.254.169.254', 80, false],
    ['a b', 443, false],
  ])('%s:%d -> %s', (host, port, allowed) => {
    expect(decide(policy, host, port).allowed).toBe(allowed);
  });

  it('lets every name through in audit, but still no non-name', () => {
    const audit: ProxiedPolicy = { mode: 'audit', credentials: [] };
    expect(decide(audit, 'anything.example', 8443).allowed).toBe(true);
    expect(decide(audit, 'a b', 443).allowed).toBe(false);
  });

  it('names the reason for a refusal', () => {
    expect(decide(policy, '127.0.0.1', 443)).toEqual({
      allowed: false,
      reason: 'an IP address that is not listed',
    });
    expect(decide(policy, 'api.example.com', 22)).toEqual({
      allowed: false,
      reason: 'port 22 is not allowed for this host',
    });
  });
});

describe('presets', () => {
  it('lists hosts that are valid patterns', () => {
    for (const [name, hosts] of Object.entries(PRESETS)) {
      expect(hosts.length).toBeGreaterThan(0);
      expect(() => parseNetwork(hosts.join(','))).not.toThrow();
      expect(() => parseNetwork(`@${name}`)).not.toThrow();
    }
  });
});

describe('proposeAllowList', () => {
  it('proposes presets where they cover a host, names otherwise, ports only where not the default', () => {
    expect(
      proposeAllowList([
        { host: 'registry.npmjs.org', port: 443 },
        { host: 'api.anthropic.com', port: 443 },
        { host: 'Example.com', port: 80 },
        { host: 'example.com', port: 443 },
        { host: 'internal', port: 8080 },
      ]),
    ).toBe('@anthropic, @npm, example.com, internal:8080');
  });

  it('proposes a value that parses back to an allow-list', () => {
    const text = proposeAllowList([
      { host: 'a.example', port: 443 },
      { host: '::1', port: 8080 },
    ]);
    expect(parseNetwork(text).mode).toBe('allow');
  });
});
