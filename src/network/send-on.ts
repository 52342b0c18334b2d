// Sending one checked request on, rebuilt (Node's client: the target in origin form, the headers the
// caller built with request-rules.ts), and its answer back, as the bytes come: for requests inside a TLS
// tunnel the proxy ends (interceptor.ts) and for plain-HTTP requests to a model API (proxy.ts). A metered
// request's answer passes through the usage scanner on the way, and is asked for without compression so
// that the scanner can read it. ADR 0009.
import * as http from 'node:http';
import * as https from 'node:https';
import { RequestError } from 'proxy-chain';
import type { MeteredRequest, ModelApi } from './model-apis.js';
import type { MeteredAnswer, ModelMeter } from './model-meter.js';
import { UsageScanner } from './usage-scanner.js';

export interface SendOnOptions {
  protocol: 'http' | 'https';
  host: string;
  port: number;
  /** Origin form: `/path?query`. */
  path: string;
  /** As upstreamHeaders (request-rules.ts) built them. */
  headers: string[];
  /** PEM certificates to verify an HTTPS host by instead of Node's own store. */
  trustedCas?: string;
  /** Metered: the answer's usage is read, and `done` called once when it has ended or failed. */
  meter?: { api: ModelApi; done(answer: MeteredAnswer): void };
}

/** The answer's format, when the scanner can read it: not encoded, JSON or server-sent events. */
function readable(response: http.IncomingMessage): 'json' | 'sse' | undefined {
  const encoding = String(response.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') return undefined;
  const type = String(response.headers['content-type'] ?? '').toLowerCase();
  if (type.includes('text/event-stream')) return 'sse';
  if (type.includes('json')) return 'json';
  return undefined;
}

/** Headers without any Accept-Encoding, then `identity`: the answer comes as the scanner reads it. */
function plainEncoding(headers: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < headers.length; i += 2)
    if (headers[i].toLowerCase() !== 'accept-encoding') out.push(headers[i], headers[i + 1]);
  out.push('Accept-Encoding', 'identity');
  return out;
}

/** Sends `req` on as `options` say and pipes the answer into `res`; settles when `res` is done. */
export function sendOn(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  options: SendOnOptions,
): Promise<void> {
  const { meter } = options;
  const answer: MeteredAnswer = {};
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    meter?.done(answer);
  };
  let scanner: UsageScanner | undefined;
  const client = options.protocol === 'https' ? https : http;
  const upstream = client.request(
    {
      host: options.host,
      port: options.port,
      method: req.method,
      path: options.path,
      headers: meter ? plainEncoding(options.headers) : options.headers,
      ...(options.protocol === 'https'
        ? { servername: options.host, ...(options.trustedCas ? { ca: options.trustedCas } : {}) }
        : {}),
    },
    (response) => {
      answer.status = response.statusCode;
      const format = meter ? readable(response) : undefined;
      if (meter && format) {
        scanner = new UsageScanner(meter.api, format);
        const reading = scanner;
        response.on('data', (chunk: Buffer) => reading.write(chunk));
        response.once('end', () => {
          answer.scanned = reading.end();
          finish();
        });
      } else response.once('end', finish);
      res.writeHead(response.statusCode ?? 502, response.statusMessage, response.rawHeaders);
      response.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end();
  });
  return new Promise<void>((resolve) => {
    res.once('close', () => {
      upstream.destroy();
      // An answer cut short still counts what was read of it.
      if (scanner && !answer.scanned) answer.scanned = scanner.end();
      finish();
      resolve();
    });
    req.pipe(upstream);
  });
}

/**
 * For plain requests to a model API, which proxy-chain's `forward` would pipe past any hook: a function for
 * its `customResponseFunction` that sends the request on with `sendOn`, metered. proxy-chain hands that
 * function nothing but the request, so each request's response is kept as it arrives; proxy-chain ends the
 * response after the function settles, by which time it is done.
 */
export function plainMeteredSender(server: http.Server, meter: ModelMeter) {
  const responses = new WeakMap<http.IncomingMessage, http.ServerResponse>();
  server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) =>
    responses.set(req, res),
  );
  return async (
    request: http.IncomingMessage,
    host: string,
    port: number,
    metered: MeteredRequest,
    headers: string[],
  ): Promise<{ statusCode?: number }> => {
    const res = responses.get(request);
    if (!res) throw new RequestError('worktree-sandbox network: the request has no response', 500);
    const target = new URL(request.url ?? '/', `http://${host}`);
    await sendOn(request, res, {
      protocol: 'http',
      host,
      port,
      path: `${target.pathname}${target.search}`,
      headers,
      meter: {
        api: metered.api,
        done: (answer) => meter.record(host, port, metered.api, answer, metered.pathModel),
      },
    });
    return { statusCode: res.statusCode };
  };
}
