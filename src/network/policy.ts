// The network policy: what `network` and `credentials` say, parsed, and the one decision the proxy asks
// for every CONNECT and every request (`decide`). Pure: no sockets, no DNS.
import * as net from 'node:net';
import type { ModelLimits } from './model-meter.js';
import { PRESETS, PRESET_NAMES } from './presets.js';

/** One allowed host: an exact name, or (`*.example.com`) every name below it; ports [443, 80] by default. */
export interface HostRule {
  /** Lower-case, no trailing dot; for a wildcard the suffix without `*.`. */
  host: string;
  wildcard: boolean;
  ports: readonly number[];
}

export interface Credential {
  host: string;
  /**
   * `https` (a line without a scheme): the header is set only inside TLS the proxy ends for this host.
   * `http` (a line that names `http://`): only on plain-HTTP requests, for an internal service on the
   * runner's network; the one way a header travels in clear.
   */
  scheme: 'https' | 'http';
  /** The ports the line allows: only requests to these carry the header. */
  ports: readonly number[];
  /** As written (HTTP header names are case-insensitive; the proxy replaces any spelling). */
  header: string;
  value: string;
}

export type NetworkPolicy =
  | { mode: 'bridge' }
  | { mode: 'none' }
  /** Everything through the proxy, every host recorded: the summary proposes the list. */
  | { mode: 'audit'; credentials: Credential[]; modelLimits?: ModelLimits }
  | { mode: 'allow'; rules: HostRule[]; credentials: Credential[]; modelLimits?: ModelLimits };

/** The modes in which the command's only way out is the proxy. */
export type ProxiedPolicy = Extract<NetworkPolicy, { mode: 'audit' | 'allow' }>;

export function isProxied(policy: NetworkPolicy): policy is ProxiedPolicy {
  return policy.mode === 'audit' || policy.mode === 'allow';
}

export const DEFAULT_PORTS: readonly number[] = [443, 80];

/** Why a value was refused: what the settings layer puts in its InputError. */
export class PolicyError extends Error {
  constructor(
    readonly input: 'network' | 'credentials',
    readonly value: string,
    readonly accepted: string,
  ) {
    super(`${input}: ${JSON.stringify(value)}: ${accepted}`);
    this.name = 'PolicyError';
  }
}

// A DNS name: labels of letters, digits and hyphens (not at either end), the last one not all digits (so
// that `127.1` or `2130706433`, which resolvers read as addresses, are never taken for names).
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const NAME = new RegExp(`^(?:${LABEL}\\.)*${LABEL}$`);

export function isHostName(host: string): boolean {
  if (host.length > 253 || !NAME.test(host)) return false;
  const last = host.slice(host.lastIndexOf('.') + 1);
  return !/^\d+$/.test(last) && !/^0x[0-9a-f]*$/.test(last);
}

/** Lower case, one trailing dot dropped, IPv6 brackets removed: how the proxy compares names. */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

const PATTERN_HELP =
  'bridge, none, audit, or an allow-list: host names (api.example.com), subdomains (*.example.com), each ' +
  `with an optional :port (default 443 and 80), and presets (${PRESET_NAMES.map((p) => `@${p}`).join(' ')}), ` +
  'one per line or separated by commas';

/** `network`: bridge, none, audit, or an allow-list (without credentials: see parseCredentials). */
export function parseNetwork(raw: string): NetworkPolicy {
  const text = raw.trim();
  const lower = text.toLowerCase();
  if (lower === 'bridge' || lower === 'none') return { mode: lower };
  if (lower === 'audit') return { mode: 'audit', credentials: [] };
  const entries = text
    .split(/[\n,]/)
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new PolicyError('network', raw, PATTERN_HELP);
  const rules: HostRule[] = [];
  for (const entry of entries) rules.push(...parseEntry(entry));
  return { mode: 'allow', rules: dedupe(rules), credentials: [] };
}

function parseEntry(entry: string): HostRule[] {
  if (['bridge', 'none', 'audit'].includes(entry.toLowerCase()))
    throw new PolicyError('network', entry, `${entry} stands alone; it cannot be part of an allow-list`);
  if (entry.startsWith('@')) {
    const name = entry.slice(1).toLowerCase();
    const hosts = PRESETS[name];
    if (!hosts)
      throw new PolicyError(
        'network',
        entry,
        `an unknown preset; the presets are ${PRESET_NAMES.map((p) => `@${p}`).join(', ')}`,
      );
    return hosts.map((host) => ({ host, wildcard: false, ports: DEFAULT_PORTS }));
  }
  return [parsePattern(entry)];
}

export function parsePattern(entry: string): HostRule {
  const bad = (why: string) => new PolicyError('network', entry, why);
  if (/\s/.test(entry)) throw bad(`one host pattern per entry (no spaces); ${PATTERN_HELP}`);
  if (/[/@]/.test(entry)) throw bad(`a malformed pattern: a host name, not a URL or path; ${PATTERN_HELP}`);
  let hostPart = entry;
  let ports = DEFAULT_PORTS;
  const bracketed = /^\[([0-9a-fA-F:.]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) {
    hostPart = bracketed[1];
    if (bracketed[2] !== undefined) ports = [port(bracketed[2], entry)];
  } else if ((entry.match(/:/g) ?? []).length === 1) {
    const at = entry.lastIndexOf(':');
    hostPart = entry.slice(0, at);
    ports = [port(entry.slice(at + 1), entry)];
  } else if (entry.includes(':') && !net.isIPv6(entry)) {
    throw bad(`a malformed pattern; ${PATTERN_HELP}`);
  }
  const host = normalizeHost(hostPart);
  if (host === '*' || host === '*.')
    throw bad(
      'a bare * would allow every host: use `network: audit` to record what a run needs, or `bridge`',
    );
  if (host.startsWith('*.')) {
    const suffix = host.slice(2);
    if (!isHostName(suffix) || !suffix.includes('.'))
      throw bad(
        `a malformed pattern: * stands only for the leftmost labels of a domain such as *.example.com`,
      );
    return { host: suffix, wildcard: true, ports };
  }
  if (net.isIP(host)) return { host, wildcard: false, ports };
  // Docker's own network names: someone who writes them means the engine's network, which this is not.
  if (['host', 'default', 'private'].includes(host))
    throw bad(`${host} is one of Docker's network modes, which this action does not offer; ${PATTERN_HELP}`);
  if (!isHostName(host)) throw bad(`a malformed pattern; ${PATTERN_HELP}`);
  return { host, wildcard: false, ports };
}

function port(text: string, entry: string): number {
  const value = Number(text);
  if (!/^\d{1,5}$/.test(text) || value < 1 || value > 65535)
    throw new PolicyError('network', entry, 'a port from 1 to 65535 after the colon');
  return value;
}

function dedupe(rules: HostRule[]): HostRule[] {
  const seen = new Map<string, HostRule>();
  for (const rule of rules) {
    const key = `${rule.wildcard ? '*.' : ''}${rule.host}`;
    const had = seen.get(key);
    seen.set(key, had ? { ...had, ports: [...new Set([...had.ports, ...rule.ports])] } : rule);
  }
  return [...seen.values()];
}

/**
 * `credentials`: one `<host> <Header-Name>: <value>` a line. Only with an allow-list or audit (the proxy is
 * what sets them); each host is allowed implicitly on the default ports. The header is set over TLS only,
 * unless the line names its scheme as `http://host[:port]` (then on plain HTTP only, port 80 by default).
 */
export function parseCredentials(raw: string, policy: NetworkPolicy): NetworkPolicy {
  const lines = raw
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length === 0) return policy;
  // The value is a secret: errors show the host and header name at most, never the line.
  if (!isProxied(policy))
    throw new PolicyError(
      'credentials',
      `(${lines.length} line(s))`,
      `credentials need an allow-list or audit in network (it is ${policy.mode}): the proxy is what sets them`,
    );
  const credentials: Credential[] = [];
  const implicit: HostRule[] = [];
  for (const [i, line] of lines.entries()) {
    const m = /^(\S+)\s+([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*)$/.exec(line);
    const first = parseCredentialHost(line.split(/\s/)[0]);
    const host = first?.host ?? '';
    if (!m || !m[3].trim()) {
      throw new PolicyError(
        'credentials',
        `line ${i + 1}${host ? ` (${host})` : ''}`,
        'one `<host> <Header-Name>: <value>` a line, such as api.anthropic.com x-api-key: <the key> (from a secret); ' +
          '`http://<host>[:port] <Header-Name>: <value>` sends it in clear, to an internal service',
      );
    }
    if (!first)
      throw new PolicyError(
        'credentials',
        `line ${i + 1}`,
        'a host name, with an optional :port (no pattern, no address) and an optional http:// or https:// before it, first on each line',
      );
    credentials.push({ host, scheme: first.scheme, ports: first.ports, header: m[2], value: m[3].trim() });
    implicit.push({ host, wildcard: false, ports: first.ports });
  }
  return policy.mode === 'allow'
    ? { ...policy, rules: dedupe([...policy.rules, ...implicit]), credentials }
    : { ...policy, credentials };
}

/**
 * A credential line's host: a name, with an optional port that is allowed, and an optional scheme. Without
 * one (or with `https://`) the header goes inside TLS, on the line's ports (443 and 80 unless it names one);
 * `http://` means plain HTTP, on port 80 unless the line names another.
 */
function parseCredentialHost(text: string): (HostRule & { scheme: Credential['scheme'] }) | undefined {
  const scheme = /^(https?):\/\//i.exec(text);
  const plain = scheme?.[1].toLowerCase() === 'http';
  try {
    const rule = parsePattern(scheme ? text.slice(scheme[0].length) : text);
    if (rule.wildcard || net.isIP(rule.host)) return undefined;
    const ports = plain && rule.ports === DEFAULT_PORTS ? [80] : rule.ports;
    return { ...rule, ports, scheme: plain ? 'http' : 'https' };
  } catch {
    return undefined;
  }
}

export type Decision = { allowed: true } | { allowed: false; reason: string };

/** Whether the proxy lets a connection to `host:port` through (`host` as the client wrote it). */
export function decide(policy: ProxiedPolicy, rawHost: string, port: number): Decision {
  const host = normalizeHost(rawHost);
  const literal = net.isIP(host) !== 0;
  if (!literal && !isHostName(host)) return { allowed: false, reason: 'not a host name' };
  if (policy.mode === 'audit') return { allowed: true };
  const rule = policy.rules.find((r) =>
    r.wildcard ? !literal && host.endsWith(`.${r.host}`) : r.host === host,
  );
  if (!rule)
    return { allowed: false, reason: literal ? 'an IP address that is not listed' : 'not in the allow-list' };
  if (!rule.ports.includes(port))
    return { allowed: false, reason: `port ${port} is not allowed for this host` };
  return { allowed: true };
}

/** The `network:` value that would have let these hosts through (audit's proposal). */
export function proposeAllowList(reached: readonly { host: string; port: number }[]): string {
  const byHost = new Map<string, Set<number>>();
  for (const { host, port } of reached) {
    const h = normalizeHost(host);
    byHost.set(h, (byHost.get(h) ?? new Set()).add(port));
  }
  const presetFor = (host: string) => PRESET_NAMES.find((p) => PRESETS[p].includes(host));
  const presets = new Set<string>();
  const entries: string[] = [];
  for (const [host, ports] of [...byHost].sort(([a], [b]) => a.localeCompare(b))) {
    const preset = presetFor(host);
    const defaultOnly = [...ports].every((p) => DEFAULT_PORTS.includes(p));
    if (preset && defaultOnly) presets.add(`@${preset}`);
    else if (defaultOnly) entries.push(host.includes(':') ? `[${host}]` : host);
    else
      for (const p of [...ports].sort((a, b) => a - b))
        entries.push(host.includes(':') ? `[${host}]:${p}` : `${host}:${p}`);
  }
  return [...[...presets].sort(), ...entries].join(', ');
}
