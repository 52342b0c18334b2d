import { describe, expect, it } from '@jest/globals';
import { parseNetwork } from './policy.js';
import type { NetworkReport } from './proxy.js';
import { networkMarkdown, networkOutputs, networkWarnings, shownHost } from './network-summary.js';

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
