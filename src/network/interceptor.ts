// The TLS end the proxy makes for a host with a credential: a certificate of the run's CA (ca.ts), each
// request inside checked again (request-rules.ts), then rebuilt, not passed on: origin form, one Host that
// is the tunnel's, only headers Node parsed, the credential set. The server upstream therefore parses the
// one request the proxy checked, for the one host the tunnel is for, over TLS. A request to a model API is
// metered, and answered here (429) once the run's budget is spent. A host whose credential line named
// `http://` gets the same end without TLS: Node's fetch tunnels (CONNECT) even plain-HTTP requests. ADR 0009.
import * as http from 'node:http';
import * as https from 'node:https';
import type { RunCa } from './ca.js';
import { MAX_HOST_CHARS } from './chain.js';
import { classifyRequest } from './model-apis.js';
import { serveModelRequest } from './metered-request.js';
import type { ModelMeter } from './model-meter.js';
import type { Credential } from './policy.js';
import { tunnelTarget, upstreamHeaders, type Refusal } from './request-rules.js';
import { sendOn } from './send-on.js';

/** What every interceptor of a run shares; each is made the first time its host, port and scheme are asked. */
export interface InterceptorsOptions {
  /** Needed when the policy has credentials on HTTPS hosts; may still be in the making. */
  ca?: RunCa | Promise<RunCa>;
  trustedCas?: string;
  meter: ModelMeter;
  credentialsFor(host: string, port: number, scheme: Credential['scheme']): Credential[];
  /** Each request inside sent on, and each refused (its host cut to `MAX_HOST_CHARS`). */
  allowed(host: string, port: number): void;
  refused(host: string, port: number, reason: string): void;
}

/**
 * The TLS ends of a run, one server per host, port and scheme: for a host with a credential, and (`clear`)
 * for a tunnel whose bytes are plain HTTP, read as HTTP with no credential.
 */
export class Interceptors {
  private readonly made = new Map<string, Promise<http.Server | https.Server>>();

  constructor(private readonly options: InterceptorsOptions) {}

  get(
    host: string,
    port: number,
    scheme: Credential['scheme'] | 'clear',
  ): Promise<http.Server | https.Server> {
    const key = `${scheme}://${host}:${port}`;
    let made = this.made.get(key);
    if (!made) {
      made = makeInterceptor(this.options, host, port, scheme);
      this.made.set(key, made);
    }
    return made;
  }

  async close(): Promise<void> {
    for (const made of this.made.values()) (await made.catch(() => undefined))?.close();
  }
}

function answer(res: http.ServerResponse, refusal: Refusal): void {
  res.writeHead(refusal.status, { 'content-type': 'text/plain', connection: 'close' });
  res.end(`worktree-sandbox network: ${refusal.reason}\n`);
}

async function makeInterceptor(
  options: InterceptorsOptions,
  host: string,
  port: number,
  asked: Credential['scheme'] | 'clear',
): Promise<http.Server | https.Server> {
  const scheme = asked === 'clear' ? 'http' : asked;
  const credentials = asked === 'clear' ? [] : options.credentialsFor(host, port, asked);
  let server: http.Server | https.Server;
  if (scheme === 'https') {
    const ca = await options.ca;
    if (!ca) throw new Error('credentials over HTTPS need the run CA');
    const { key, cert } = await ca.leaf(host);
    server = https.createServer({ key, cert, minVersion: 'TLSv1.2' });
    server.on('tlsClientError', (_error, socket) => socket.destroy());
  } else server = http.createServer();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const target = tunnelTarget(req, host, port);
    if ('refusal' in target) {
      options.refused(host.slice(0, MAX_HOST_CHARS), port, target.refusal.reason);
      req.resume();
      answer(res, target.refusal);
      return;
    }
    const send = {
      protocol: scheme,
      host,
      port,
      headers: upstreamHeaders(req.rawHeaders, host, port, credentials),
      trustedCas: options.trustedCas,
    };
    // On a host with a credential every POST is a model request: counted, and refused if unreadable.
    const call = classifyRequest(req.method, target.path, req.rawHeaders, credentials.length > 0);
    options.allowed(host, port);
    if (call)
      void serveModelRequest(req, res, call, { meter: options.meter, host, port, path: target.path, send });
    else void sendOn(req, res, { ...send, path: target.path });
  });
  return server;
}
