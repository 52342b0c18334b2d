// The TLS end the proxy makes for a host with a credential: a certificate of the run's CA (ca.ts), each
// request inside checked again (request-rules.ts), then rebuilt, not passed on: origin form, one Host that
// is the tunnel's, only headers Node parsed, the credential set. The server upstream therefore parses the
// one request the proxy checked, for the one host the tunnel is for, over TLS. A request to a model API is
// metered, and answered here (429) once the run's budget is spent. A host whose credential line named
// `http://` gets the same end without TLS: Node's fetch tunnels (CONNECT) even plain-HTTP requests. ADR 0009.
import * as http from 'node:http';
import * as https from 'node:https';
import type { RunCa } from './ca.js';
import { classifyRequest } from './model-apis.js';
import { serveModelRequest } from './metered-request.js';
import type { ModelMeter } from './model-meter.js';
import type { Credential } from './policy.js';
import { tunnelTarget, upstreamHeaders, type Refusal } from './request-rules.js';
import { sendOn } from './send-on.js';

export interface InterceptorOptions {
  host: string;
  port: number;
  credentials: readonly Credential[];
  /** `https`: TLS ended with a certificate of `ca`; `http`: plain HTTP inside the tunnel. */
  scheme: Credential['scheme'];
  ca?: RunCa;
  /** PEM certificates to verify the host by instead of Node's own store. */
  trustedCas?: string;
  /** The run's model usage and budget. */
  meter: ModelMeter;
  /** Each request sent on, and each refused. */
  onAllowed(): void;
  onRefused(host: string, refusal: Refusal): void;
}

function answer(res: http.ServerResponse, refusal: Refusal): void {
  res.writeHead(refusal.status, { 'content-type': 'text/plain', connection: 'close' });
  res.end(`worktree-sandbox network: ${refusal.reason}\n`);
}

export async function makeInterceptor(options: InterceptorOptions): Promise<http.Server | https.Server> {
  const { host, port, scheme } = options;
  let server: http.Server | https.Server;
  if (scheme === 'https') {
    if (!options.ca) throw new Error('credentials over HTTPS need the run CA');
    const { key, cert } = await options.ca.leaf(host);
    server = https.createServer({ key, cert, minVersion: 'TLSv1.2' });
    server.on('tlsClientError', (_error, socket) => socket.destroy());
  } else server = http.createServer();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const target = tunnelTarget(req, host, port);
    if ('refusal' in target) {
      options.onRefused(host, target.refusal);
      req.resume();
      answer(res, target.refusal);
      return;
    }
    const send = {
      protocol: scheme,
      host,
      port,
      headers: upstreamHeaders(req.rawHeaders, host, port, options.credentials),
      trustedCas: options.trustedCas,
    };
    // On a host with a credential every POST is a model request: counted, and refused if unreadable.
    const call = classifyRequest(req.method, target.path, req.rawHeaders, options.credentials.length > 0);
    options.onAllowed();
    if (call)
      void serveModelRequest(req, res, call, { meter: options.meter, host, port, path: target.path, send });
    else void sendOn(req, res, { ...send, path: target.path });
  });
  return server;
}
