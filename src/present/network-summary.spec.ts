import { describe, expect, it } from '@jest/globals';
import { marked } from 'marked';
import { parseNetwork } from '../network/policy.js';
import type { NetworkReport } from '../network/proxy.js';
import {
  NETWORK_OUTPUT_MAX_BYTES,
  NETWORK_SECTION_MAX_BYTES,
  networkMarkdown,
  networkOutputs,
  networkWarnings,
  shownHost,
} from './network-summary.js';

const report: NetworkReport = {
  allowed: [
    { host: 'registry.npmjs.org', port: 443, requests: 3, bytesSent: 2048, bytesReceived: 5 * 1024 ** 2 },
  ],
  denied: [{ host: 'evil|<b>x</b>\r\n::warning::', port: 443, requests: 2, reason: 'not a host name' }],
  uncounted: 0,
};

describe('network report', () => {
  it('quotes and escapes host names that came from the sandbox', () => {
    const md = networkMarkdown(report, parseNetwork('@npm'));
    expect(md).toContain('| ✅ "registry.npmjs.org" | 443 | 3 | 2.0 KiB | 5.0 MiB |');
    expect(md).not.toMatch(/<b>|\r|evil\|/);
    expect(md).toContain(shownHost(report.denied[0].host));
    for (const line of networkWarnings(report)) expect(line).not.toMatch(/[\r\n]/);
    expect(networkWarnings(report)[0]).toMatch(/refused "evil.*port 443 2 time\(s\): not a host name/);
  });

  it('gives the outputs as JSON', () => {
    const out = networkOutputs(report);
    expect(JSON.parse(out['network-allowed'])).toEqual(report.allowed);
    expect(JSON.parse(out['network-denied'])).toEqual(report.denied);
  });

  it('proposes the network value in audit', () => {
    const md = networkMarkdown(
      {
        ...report,
        allowed: [
          ...report.allowed,
          { host: 'api.example.com', port: 8443, requests: 1, bytesSent: 1, bytesReceived: 1 },
        ],
      },
      { mode: 'audit', credentials: [] },
    );
    expect(md).toContain("network: '@npm, api.example.com:8443'");
  });

  it('bounds the warnings', () => {
    const many: NetworkReport = {
      allowed: [],
      denied: Array.from({ length: 30 }, (_, i) => ({
        host: `h${i}.example`,
        port: 443,
        requests: 1,
        reason: 'not in the allow-list',
      })),
      uncounted: 4,
    };
    const lines = networkWarnings(many);
    expect(lines).toHaveLength(22);
    expect(lines[20]).toMatch(/10 more/);
  });
});

/** A host name of 253 characters (DNS's longest), distinct for each `i`, of characters escaping inflates. */
const longHost = (i: number, fill = '&') => `${i}`.padStart(4, '0') + fill.repeat(249);

/** `n` refused hosts of 253 characters, each refused with a reason that names another long one. */
function flood(n: number, mode: 'allowed' | 'denied'): NetworkReport {
  const hosts = Array.from({ length: n }, (_, i) => longHost(i));
  return mode === 'denied'
    ? {
        allowed: [],
        denied: hosts.map((host) => ({
          host,
          port: 80,
          requests: 1,
          reason: `the Host header differs from the request's host ${'|'.repeat(253)}`,
        })),
        uncounted: 100,
      }
    : {
        allowed: hosts.map((host, i) => ({
          host: `${i}${'a'.repeat(59)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(60)}`,
          port: 8080,
          requests: 1,
          bytesSent: 1,
          bytesReceived: 1,
        })),
        denied: [],
        uncounted: 100,
      };
}

describe('network report under a flood of long host names', () => {
  it.each([
    ['allow-list', 'denied', parseNetwork('@npm')],
    ['audit', 'allowed', { mode: 'audit', credentials: [] }],
  ] as const)('keeps the %s section within its budget and counts the rows cut', (_, kind, policy) => {
    const report = flood(500, kind);
    const md = networkMarkdown(report, policy as Parameters<typeof networkMarkdown>[1]);
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(NETWORK_SECTION_MAX_BYTES);
    const shown = md.split('\n').filter((l) => /^\| (✅|⛔) /.test(l)).length;
    expect(shown).toBeGreaterThan(10);
    expect(md).toContain(`${500 - shown} more host(s) not shown`);
    expect(md).toContain('100 connection(s) to further hosts were not counted.');
    if (kind === 'allowed')
      expect(md).toMatch(/The allow-list this run needed has 500 entries, too long to show here/);
    // Still a table, still no link.
    const html = marked.parse(md, { async: false, gfm: true });
    expect(html.match(/<tr>/g)).toHaveLength(shown + 1);
    expect(html).not.toMatch(/<a[\s>]|<img/);
  });

  it('shows every row when they fit', () => {
    const md = networkMarkdown(flood(20, 'denied'), parseNetwork('@npm'));
    expect(md.split('\n').filter((l) => l.startsWith('| ⛔ '))).toHaveLength(20);
    expect(md).not.toContain('not shown');
  });

  it('keeps each output to its bound, whole JSON, and warns of the rows left out', () => {
    const huge: NetworkReport = {
      ...flood(500, 'denied'),
      denied: flood(500, 'denied').denied.map((d) => ({ ...d, reason: d.reason + 'x'.repeat(16_000) })),
    };
    const out = networkOutputs(huge);
    expect(Buffer.byteLength(out['network-denied'])).toBeLessThanOrEqual(NETWORK_OUTPUT_MAX_BYTES);
    const kept = JSON.parse(out['network-denied']) as unknown[];
    expect(kept).toEqual(huge.denied.slice(0, kept.length));
    expect(networkWarnings(huge).at(-1)).toBe(
      `Network: the network-denied output lists the first rows only: ${500 - kept.length} more did not fit in its 400,000 bytes.`,
    );
    // A flood of the longest names fits whole.
    expect(JSON.parse(networkOutputs(flood(500, 'denied'))['network-denied'])).toHaveLength(500);
  });

  it('shows hosts and reasons in warnings as in the summary: no link, no cell end', () => {
    const report: NetworkReport = {
      allowed: [],
      denied: [
        { host: 'https://login.example/x', port: 80, requests: 1, reason: 'see www.login.example' },
        { host: '(http://127.0.0.1/t.png)', port: 80, requests: 1, reason: 'x' },
      ],
      uncounted: 0,
    };
    for (const line of networkWarnings(report)) {
      expect(line).not.toMatch(/https?:\/\/|www\./);
      expect(marked.parse(line, { async: false, gfm: true })).not.toMatch(/<a[\s>]|<img/);
    }
  });
});
