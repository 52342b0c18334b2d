// Sending one checked request on, rebuilt (Node's client: the target in origin form, the headers the
// caller built with request-rules.ts), and its answer back, as the bytes come: for requests inside a
// tunnel the proxy ends (interceptor.ts) and for plain-HTTP requests to a model API (proxy.ts). A metered
// request's answer passes through the usage scanner on the way, which reports its usage as it comes, and
// is asked for without compression so that the scanner can read it. ADR 0009.
import * as http from 'node:http';
import * as https from 'node:https';
import { RequestError } from 'proxy-chain';
import type { ModelApi } from './model-apis.js';
import type { MeteredAnswer } from './model-meter.js';
import { headersWithout } from './request-rules.js';
import { UsageScanner, type Usage } from './usage-scanner.js';

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
  /** The body to send instead of the request's own (which has been read), with its length. */
  body?: Buffer;
  /** The body's first bytes, already read from the request; the rest is still to come from it. */
  head?: Buffer[];
  /**
   * Metered: the answer's usage is read, `update` called each time a streamed answer reports its usage so
   * far, and `done` once when it has ended or failed.
   */
  meter?: { api: ModelApi; update(usage: Usage): void; done(answer: MeteredAnswer): void };
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
  let headers = options.headers;
  // Without Accept-Encoding but `identity`: the answer comes as the scanner reads it.
  if (meter) headers = headersWithout(headers, new Set(['accept-encoding']), ['Accept-Encoding', 'identity']);
  if (options.body)
    headers = headersWithout(headers, new Set(['content-length']), [
      'Content-Length',
      String(options.body.length),
    ]);
  const client = options.protocol === 'https' ? https : http;
  const upstream = client.request(
    {
      host: options.host,
      port: options.port,
      method: req.method,
      path: options.path,
      headers,
      ...(options.protocol === 'https'
        ? { servername: options.host, ...(options.trustedCas ? { ca: options.trustedCas } : {}) }
        : {}),
    },
    (response) => {
      answer.status = response.statusCode;
      const format = meter ? readable(response) : undefined;
      if (meter && format) {
        scanner = new UsageScanner(meter.api, format, meter.update);
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
    if (options.body) upstream.end(options.body);
    else {
      for (const part of options.head ?? []) upstream.write(part);
      req.pipe(upstream);
    }
  });
}

/**
 * For plain requests to a model API, which proxy-chain's `forward` would pipe past any hook: a function for
 * its `customResponseFunction` that hands the request and its response to `serve`. proxy-chain hands that
 * function nothing but the request, so each request's response is kept as it arrives; proxy-chain ends the
 * response after the function settles, by which time it is done.
 */
export function plainResponses(server: http.Server) {
  const responses = new WeakMap<http.IncomingMessage, http.ServerResponse>();
  server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) =>
    responses.set(req, res),
  );
  return async (
    request: http.IncomingMessage,
    serve: (res: http.ServerResponse) => Promise<void>,
  ): Promise<{ statusCode?: number }> => {
    const res = responses.get(request);
    if (!res) throw new RequestError('worktree-sandbox network: the request has no response', 500);
    await serve(res);
    return { statusCode: res.statusCode };
  };
}
