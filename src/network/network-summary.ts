// What the proxy saw, for people and for later steps: a job-summary section, one warning per refused
// host, the `network-allowed` / `network-denied` outputs, and, in audit, the `network:` value that would
// have let the run through. Host names come from the sandbox (a CONNECT line is the command's text):
// printed only JSON-quoted, with the characters Markdown and HTML read replaced.
import { proposeAllowList, type NetworkPolicy } from './policy.js';
import type { NetworkReport } from './proxy.js';

const MAX_WARNINGS = 20;

/** A host name as the command gave it, safe in a Markdown table cell or a log line. */
export function shownHost(host: string): string {
  return JSON.stringify(host).replace(/[|<>`&[\]*_\\]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

export function networkOutputs(report: NetworkReport): Record<'network-allowed' | 'network-denied', string> {
  return {
    'network-allowed': JSON.stringify(report.allowed),
    'network-denied': JSON.stringify(report.denied),
  };
}

export function networkWarnings(report: NetworkReport): string[] {
  const lines = report.denied
    .slice(0, MAX_WARNINGS)
    .map(
      (d) =>
        `Network: the proxy refused ${shownHost(d.host)} port ${d.port} ${d.requests} time(s): ${d.reason}.`,
    );
  if (report.denied.length > MAX_WARNINGS)
    lines.push(`Network: ${report.denied.length - MAX_WARNINGS} more refused host(s): see the job summary.`);
  if (report.uncounted > 0)
    lines.push(
      `Network: ${report.uncounted} connection(s) to further hosts were handled but not counted (the report keeps 500 rows).`,
    );
  return lines;
}

/** The `network:` value an audit proposes (empty when nothing was reached). */
export function auditProposal(report: NetworkReport): string {
  return proposeAllowList(report.allowed);
}

export function networkMarkdown(report: NetworkReport, policy: NetworkPolicy): string {
  const parts = [`### Network (${policy.mode === 'audit' ? 'audit: every host let through' : 'allow-list'})`];
  const rows = [
    ...report.allowed.map(
      (r) =>
        `| ✅ ${shownHost(r.host)} | ${r.port} | ${r.requests} | ${bytes(r.bytesSent)} | ${bytes(r.bytesReceived)} |`,
    ),
    ...report.denied.map(
      (r) => `| ⛔ ${shownHost(r.host)} | ${r.port} | ${r.requests} | refused: ${shownHost(r.reason)} | |`,
    ),
  ];
  if (rows.length === 0) parts.push('The command reached no host and was refused none.');
  else
    parts.push(['| Host | Port | Requests | Sent | Received |', '|---|---|---|---|---|', ...rows].join('\n'));
  if (report.uncounted > 0)
    parts.push(`${report.uncounted} connection(s) to further hosts were not counted.`);
  if (policy.mode === 'audit') {
    const proposal = auditProposal(report);
    parts.push(
      proposal
        ? `The allow-list this run needed:\n\n\`\`\`yaml\nnetwork: '${proposal}'\n\`\`\``
        : 'The run reached no host: `network: none` would have let it through.',
    );
  }
  return `\n${parts.join('\n\n')}\n`;
}
