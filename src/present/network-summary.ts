// What the proxy saw, for people and for later steps: a job-summary section, one warning per refused
// host, the `network-allowed` / `network-denied` outputs, and, in audit, the `network:` value that would
// have let the run through. Host names and reasons come from the sandbox (a CONNECT line or a Host header
// is the command's text): shown only through `shownHost` (untrustedInline), and within byte bounds, because
// a command that names hundreds of long hosts would otherwise fill the job summary (GitHub drops a step
// summary over 1 MiB whole, the run's own report with it) and the outputs.
import { byteLength, jsonRows, tableHead, tableRow, thousands } from '../ui/markdown.js';
import { untrustedBlock, untrustedInline } from '../ui/untrusted-markdown.js';
import { proposeAllowList, type NetworkPolicy } from '../network/policy.js';
import type { NetworkReport } from '../network/proxy.js';

const MAX_WARNINGS = 20;
/**
 * The characters, as written (entities included), of one host name or reason shown: a DNS name has at most
 * 253, and a few take 7 more each where autolinks are broken. The rest is counted.
 */
const SHOWN_MAX = 1_000;
/**
 * The network section's share of the job summary. About two hundred rows of the longest host names: more
 * than anyone reads, and small beside GitHub's 1 MiB for the whole summary, which the run's own report
 * (up to a 64 KiB diff stat) shares. Rows past it are counted, not shown.
 */
export const NETWORK_SECTION_MAX_BYTES = 64 * 1024;
/** The audit's proposal is shown when it is at most this long; past it, the outputs have the hosts. */
const PROPOSAL_MAX_BYTES = 16 * 1024;
/**
 * Each network output's bound. GitHub holds an output to 1 MB and a job's outputs together to 1 MB: the
 * two network outputs and the diff stat fit in that. Rows past it are left out, and a warning counts them.
 */
export const NETWORK_OUTPUT_MAX_BYTES = 400_000;

/** A host name as the command gave it: JSON-quoted, inert in Markdown and in a log line. */
export function shownHost(host: string): string {
  return untrustedInline(host, SHOWN_MAX, true);
}

/** Why the proxy refused: its own words, but they may name a host the command gave. */
const shownReason = (reason: string) => untrustedInline(reason, SHOWN_MAX);

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

const OUTPUT_ROWS = { 'network-allowed': 'allowed', 'network-denied': 'denied' } as const;
type NetworkOutput = keyof typeof OUTPUT_ROWS;

export function networkOutputs(report: NetworkReport): Record<NetworkOutput, string> {
  return {
    'network-allowed': jsonRows(report.allowed, NETWORK_OUTPUT_MAX_BYTES).json,
    'network-denied': jsonRows(report.denied, NETWORK_OUTPUT_MAX_BYTES).json,
  };
}

export function networkWarnings(report: NetworkReport): string[] {
  const lines = report.denied
    .slice(0, MAX_WARNINGS)
    .map(
      (d) =>
        `Network: the proxy refused ${shownHost(d.host)} port ${d.port} ${d.requests} time(s): ${shownReason(d.reason)}.`,
    );
  if (report.denied.length > MAX_WARNINGS)
    lines.push(`Network: ${report.denied.length - MAX_WARNINGS} more refused host(s): see the job summary.`);
  if (report.uncounted > 0)
    lines.push(
      `Network: ${report.uncounted} connection(s) to further hosts were handled but not counted (the report keeps 500 rows).`,
    );
  for (const [output, key] of Object.entries(OUTPUT_ROWS)) {
    const { omitted } = jsonRows(report[key], NETWORK_OUTPUT_MAX_BYTES);
    if (omitted > 0)
      lines.push(
        `Network: the ${output} output lists the first rows only: ${omitted} more did not fit in its ${thousands(NETWORK_OUTPUT_MAX_BYTES)} bytes.`,
      );
  }
  return lines;
}

/** The `network:` value an audit proposes (empty when nothing was reached). */
export function auditProposal(report: NetworkReport): string {
  return proposeAllowList(report.allowed);
}

function proposalText(report: NetworkReport): string {
  const proposal = auditProposal(report);
  if (!proposal) return 'The run reached no host: `network: none` would have let it through.';
  // Its hosts are the command's (in audit, whatever it reached): in a block nothing in them can leave.
  const shown = untrustedBlock(`network: '${proposal}'`, PROPOSAL_MAX_BYTES, {
    lang: 'yaml',
    // Presets (`@npm`) to copy as they are; a host name holds no `@`.
    keepMentions: true,
  });
  const block = `The allow-list this run needed:\n\n${shown.markdown}`;
  // Whole or not at all: part of an allow-list is a wrong one.
  if (!shown.leftOut && byteLength(block) <= PROPOSAL_MAX_BYTES) return block;
  const entries = proposal.split(', ').length;
  return `The allow-list this run needed has ${entries} entries, too long to show here: the \`network-allowed\` output lists the hosts.`;
}

/** Room kept for the sentence that counts the rows left out. */
const CUT_NOTE_BYTES = 400;

/** The job summary's network section: at most NETWORK_SECTION_MAX_BYTES, the rows left out counted. */
export function networkMarkdown(report: NetworkReport, policy: NetworkPolicy): string {
  const heading = `### Network (${policy.mode === 'audit' ? 'audit: every host let through' : 'allow-list'})`;
  const row = (r: { host: string; port: number; requests: number }, mark: string, ...rest: string[]) =>
    tableRow([`${mark} ${shownHost(r.host)}`, String(r.port), String(r.requests), ...rest]);
  const rows = [
    ...report.allowed.map((r) => row(r, '✅', bytes(r.bytesSent), bytes(r.bytesReceived))),
    ...report.denied.map((r) => row(r, '⛔', `refused: ${shownReason(r.reason)}`, '')),
  ];
  const after: string[] = [];
  if (report.uncounted > 0)
    after.push(`${report.uncounted} connection(s) to further hosts were not counted.`);
  if (policy.mode === 'audit') after.push(proposalText(report));
  const header = tableHead(['Host', 'Port', 'Requests', 'Sent', 'Received']);
  let room =
    NETWORK_SECTION_MAX_BYTES - byteLength([heading, header, ...after].join('\n\n')) - CUT_NOTE_BYTES;
  const shown: string[] = [];
  for (const row of rows) {
    room -= byteLength(row) + 1;
    if (room < 0) break;
    shown.push(row);
  }
  const parts = [heading];
  if (rows.length === 0) parts.push('The command reached no host and was refused none.');
  else parts.push([header, ...shown].join('\n'));
  if (shown.length < rows.length)
    parts.push(
      `${rows.length - shown.length} more host(s) not shown: this section keeps to ${NETWORK_SECTION_MAX_BYTES / 1024} KiB of the job summary. The \`network-allowed\` and \`network-denied\` outputs list them.`,
    );
  return `\n${[...parts, ...after].join('\n\n')}\n`;
}
