// What the proxy accepts of one HTTP request from the command, and how a request it ends TLS for is sent
// on. The command writes the bytes, so each rule closes a way to make the server upstream parse something
// other than what the proxy checked (a second request, another host) or hand a credential back. Node's
// own parser, in its default strict mode, already refuses Content-Length beside Transfer-Encoding, a
// Transfer-Encoding that does not end in chunked, repeated Content-Length and obsolete line folds; these
// rules are for what it lets through. Pure: no sockets. ADR 0009.
import { normalizeHost } from './policy.js';

/** A refusal: the status the command gets, and the reason for its body and the report. */
export interface Refusal {
  status: number;
  reason: string;
}

/** The request as Node parsed it: only what the rules read. */
export interface ParsedRequest {
  method?: string;
  url?: string;
  httpVersion: string;
  rawHeaders: readonly string[];
}

/** Methods that echo the request back (the credential with it), refused on every path. */
const ECHO_METHODS = new Set(['TRACE', 'TRACK']);

/**
 * Methods whose body Node's client sends as is, without chunked framing, when no Content-Length is given:
 * a Transfer-Encoding the proxy strips (it is hop-by-hop) would leave the chunks to be read upstream as a
 * second request.
 */
const UNFRAMED_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'CONNECT', 'TRACE']);

/** Hop-by-hop headers (RFC 9110 7.6.1) and the proxy's own: never sent upstream. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The values of header `name` (lower case) in raw headers (name, value, name, value...). */
export function valuesOf(raw: readonly string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i].toLowerCase() === name) out.push(raw[i + 1]);
  return out;
}

/** Raw headers less every one whose name (lower case) is in `dropped`, then `added` (name, value pairs). */
export function headersWithout(
  raw: readonly string[],
  dropped: ReadonlySet<string>,
  added: readonly string[] = [],
): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2)
    if (!dropped.has(raw[i].toLowerCase())) out.push(raw[i], raw[i + 1]);
  return [...out, ...added];
}

/** Host and port of a Host header (`name`, `name:port`, `[v6]:port`); the host normalized. */
export function splitHostHeader(value: string): { host: string; port?: number } {
  const v6 = /^\[([^\]]*)\](?::(\d+))?$/.exec(value);
  if (v6) return { host: normalizeHost(v6[1]), port: v6[2] ? Number(v6[2]) : undefined };
  const m = /^(.*?)(?::(\d*))?$/.exec(value.trim())!;
  return { host: normalizeHost(m[1]), port: m[2] ? Number(m[2]) : undefined };
}

/**
 * Rules for every request the proxy parses, plain or inside a tunnel it ends: the echo methods, a
 * Transfer-Encoding on a method that would lose it, and more than one Host.
 */
export function framingRefusal(req: ParsedRequest): Refusal | undefined {
  const method = (req.method ?? '').toUpperCase();
  if (ECHO_METHODS.has(method))
    return { status: 405, reason: `${method} is refused: it would echo the request, headers included` };
  const encodings = valuesOf(req.rawHeaders, 'transfer-encoding');
  if (encodings.length > 0 && UNFRAMED_METHODS.has(method))
    return { status: 400, reason: `Transfer-Encoding on ${method} is ambiguous framing` };
  if (encodings.length > 0 && valuesOf(req.rawHeaders, 'content-length').length > 0)
    return { status: 400, reason: 'Content-Length with Transfer-Encoding is ambiguous framing' };
  if (valuesOf(req.rawHeaders, 'host').length > 1)
    return { status: 400, reason: 'more than one Host header' };
  return undefined;
}

/**
 * Inside a tunnel the proxy ends (a host with a credential): the request must name exactly that host and
 * port, once, over HTTP/1.1. Returns the origin-form path to send upstream, or the refusal.
 */
export function tunnelTarget(
  req: ParsedRequest,
  host: string,
  port: number,
): { path: string } | { refusal: Refusal } {
  const framing = framingRefusal(req);
  if (framing) return { refusal: framing };
  if (req.httpVersion !== '1.1')
    return { refusal: { status: 400, reason: `HTTP/${req.httpVersion} is refused here: HTTP/1.1 only` } };
  const hosts = valuesOf(req.rawHeaders, 'host');
  if (hosts.length !== 1) return { refusal: { status: 400, reason: 'a request without a Host header' } };
  const named = splitHostHeader(hosts[0]);
  const elsewhere = { status: 421, reason: `a request for another host inside a tunnel to ${host}` };
  if (named.host !== host || (named.port !== undefined && named.port !== port)) return { refusal: elsewhere };
  const url = req.url ?? '';
  if (url.startsWith('/') || (url === '*' && req.method === 'OPTIONS')) return { path: url };
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { refusal: { status: 400, reason: 'a request target that is not a path or a URL' } };
  }
  const targetPort = target.port ? Number(target.port) : target.protocol === 'http:' ? 80 : 443;
  if (normalizeHost(target.hostname) !== host || targetPort !== port) return { refusal: elsewhere };
  return { path: `${target.pathname}${target.search}` };
}

/**
 * The headers sent upstream from inside a tunnel: those Node parsed, less the hop-by-hop ones (and any the
 * Connection header names), the Host and every spelling of the credentials' names; then one Host for the
 * tunnel's host and the credentials.
 */
export function upstreamHeaders(
  raw: readonly string[],
  host: string,
  port: number,
  credentials: readonly { header: string; value: string }[],
): string[] {
  const dropped = new Set([...HOP_BY_HOP, 'host', ...credentials.map((c) => c.header.toLowerCase())]);
  for (const value of valuesOf(raw, 'connection'))
    for (const name of value.split(',')) dropped.add(name.trim().toLowerCase());
  const added = credentials.flatMap((c) => [c.header, c.value]);
  return ['Host', port === 443 ? host : `${host}:${port}`, ...headersWithout(raw, dropped, added)];
}
