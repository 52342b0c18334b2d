// The proxy in the action's own process, behind a Unix socket that only the forwarder (sidecar.ts) can
// reach: proxy-chain (a maintained forward proxy on Node's own HTTP parser) tunnels CONNECTs and forwards
// plain requests; this module decides each one (policy.ts), counts what went where, and, for hosts with a
// credential, ends TLS (interceptor.ts) to set the header on each request. Every request it parses passes
// the rules of request-rules.ts first. A credential goes over TLS only, unless its line named `http://`.
// Requests to model APIs that it sees in clear (in those tunnels, and plain HTTP) are metered against the
// run's budget (model-meter.ts); plain ones are then sent on by send-on.ts instead of proxy-chain's
// `forward`, so that their answers pass the usage scanner.
// Names resolve as the runner resolves them (getaddrinfo: its /etc/hosts, its resolver).
import * as fs from 'node:fs/promises';
import type * as http from 'node:http';
import type * as https from 'node:https';
import * as net from 'node:net';
import { RequestError, Server } from 'proxy-chain';
import type { RunCa } from './ca.js';
import { makeInterceptor } from './interceptor.js';
import { classifyRequest } from './model-apis.js';
import { serveModelRequest } from './metered-request.js';
import { ModelMeter, type ModelUsageReport } from './model-meter.js';
import { decide, normalizeHost, type Credential, type ProxiedPolicy } from './policy.js';
import { framingRefusal, splitHostHeader, upstreamHeaders } from './request-rules.js';
import { joinSockets, RELAY_LARGE_BYTES, RELAY_LARGE_COUNT, RELAY_SMALL_BYTES, relayReads } from './relay.js';
import { plainResponses } from './send-on.js';
import { Tally, type HostCount, type RefusedCount } from './tally.js';

export type { HostCount, RefusedCount };

export interface NetworkReport {
  allowed: HostCount[];
  denied: RefusedCount[];
  /** Distinct hosts past the bound that were counted in no row (the command named too many). */
  uncounted: number;
  /** What the command spent on model APIs the proxy saw in clear, and the budget's verdict. */
  models?: ModelUsageReport;
}

/** Bounds: connections open at once, one host name's length in a row. */
const MAX_CONNECTIONS = 2048;
const MAX_HOST_CHARS = 253;

export interface RunningProxy {
  report(): NetworkReport;
  close(): Promise<void>;
}

export interface ProxyOptions {
  policy: ProxiedPolicy;
  socketPath: string;
  /** Needed when the policy has credentials on HTTPS hosts; may still be in the making. */
  ca?: RunCa | Promise<RunCa>;
  /** PEM certificates to verify credential hosts by, instead of Node's own store (for tests). */
  trustedCas?: string;
}

/** Headers as [name, value, name, value...] without any spelling of `names`, then `credentials` added. */
function withCredentials(raw: readonly string[], credentials: readonly Credential[]): string[] {
  const replaced = new Set(credentials.map((c) => c.header.toLowerCase()));
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2)
    if (!replaced.has(raw[i].toLowerCase())) out.push(raw[i], raw[i + 1]);
  for (const c of credentials) out.push(c.header, c.value);
  return out;
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const { policy } = options;
  const tally = new Tally();
  const rowOf = new Map<number, HostCount>();
  /** The credentials for a host and port: each on the ports its line allows, by its scheme. */
  const credentialsFor = (host: string, port: number, scheme: Credential['scheme']) =>
    policy.credentials.filter((c) => c.host === host && c.ports.includes(port) && c.scheme === scheme);
  const interceptors = new Map<string, Promise<http.Server | https.Server>>();
  const meter = new ModelMeter(policy.modelLimits);

  const refuse = (host: string, port: number, reason: string, status = 403): never => {
    tally.deny(host.slice(0, MAX_HOST_CHARS), port, reason);
    throw new RequestError(
      `worktree-sandbox network: ${host.slice(0, MAX_HOST_CHARS)}:${port} refused (${reason})`,
      status,
    );
  };

  /**
   * A tunnel ended here, one server per host, port and scheme (interceptor.ts): for a host with a
   * credential, and (`clear`) for a tunnel whose bytes are plain HTTP, read as HTTP with no credential.
   */
  const interceptor = (
    host: string,
    port: number,
    scheme: Credential['scheme'] | 'clear',
  ): Promise<http.Server | https.Server> => {
    const key = `${scheme}://${host}:${port}`;
    let made = interceptors.get(key);
    if (!made) {
      made = (async () => {
        return makeInterceptor({
          host,
          port,
          scheme: scheme === 'clear' ? 'http' : scheme,
          ca: scheme === 'https' ? await options.ca : undefined,
          credentials: scheme === 'clear' ? [] : credentialsFor(host, port, scheme),
          trustedCas: options.trustedCas,
          meter,
          onAllowed: () => tally.allow(host, port),
          onRefused: (asked, refusal) => tally.deny(asked.slice(0, MAX_HOST_CHARS), port, refusal.reason),
        });
      })();
      interceptors.set(key, made);
    }
    return made;
  };

  /**
   * A CONNECT's far end, opened before proxy-chain answers 200 (a host that cannot be reached gets a 502)
   * and joined to the client's socket with the relay once it has: proxy-chain parses and answers the
   * CONNECT, the relay moves the tunnel's bytes (its own `direct` pipes them with a new buffer per read).
   */
  const sizes = { small: RELAY_SMALL_BYTES, large: RELAY_LARGE_BYTES };
  const budget = { large: RELAY_LARGE_COUNT };
  const tunnelEnds = new WeakMap<
    net.Socket,
    { far: net.Socket; gone: () => void; host: string; port: number }
  >();
  const openEnds = new Set<net.Socket>();
  const openTunnelEnd = (client: net.Socket, host: string, port: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const far: net.Socket = net.connect({
        host,
        port,
        onread: relayReads(
          () => client,
          () => far,
          sizes,
          budget,
        ),
      });
      far.pause(); // nothing reaches the client before proxy-chain's 200
      openEnds.add(far);
      const gone = () => far.destroy();
      client.once('close', gone);
      far.once('close', () => {
        openEnds.delete(far);
        client.off('close', gone);
      });
      // Until joined: an error before the connection ends it with a 502, one after it closes the tunnel.
      const early = (error: NodeJS.ErrnoException) => {
        far.destroy();
        reject(
          new RequestError(
            `worktree-sandbox network: ${host}:${port} could not be reached (${error.code ?? 'error'})`,
            502,
          ),
        );
      };
      far.on('error', early);
      far.once('connect', () => {
        tunnelEnds.set(client, { far, gone, host, port });
        resolve();
      });
    });
  /**
   * A tunnel's first bytes decide what it is: a TLS handshake (its first byte, 0x16) is relayed as it is;
   * anything else is read as HTTP by an interceptor with no credential, so that a request the proxy could
   * read in clear (a plain-HTTP model API behind a CONNECT) is checked and metered, never tunneled raw.
   */
  const tunnels = net.createServer((client) => {
    const end = tunnelEnds.get(client);
    tunnelEnds.delete(client);
    if (!end || end.far.destroyed) {
      client.destroy();
      return;
    }
    client.off('close', end.gone);
    end.far.removeAllListeners('error');
    const fail = () => {
      client.destroy();
      end.far.destroy();
    };
    client.on('error', fail);
    client.once('close', fail);
    client.once('data', (first: Buffer) => {
      client.pause();
      client.unshift(first);
      client.off('error', fail);
      client.off('close', fail);
      if (first[0] === 0x16) {
        joinSockets(client, end.far);
        return;
      }
      end.far.destroy();
      interceptor(end.host, end.port, 'clear').then(
        (server) => {
          // Its parser reads the socket's data events (proxy-chain's own took the socket's handle).
          server.emit('connection', client);
          client.resume();
        },
        () => client.destroy(),
      );
    });
  });

  const server = new Server({
    port: 0,
    prepareRequestFunction: async ({ connectionId, request, hostname, port, isHttp }) => {
      const host = normalizeHost(hostname);
      if (isHttp) {
        // One request, one host, framed one way: what the server upstream parses is what is checked here.
        const framing = framingRefusal(request);
        if (framing) refuse(host, port, framing.reason, framing.status);
        const asked = request.headers.host === undefined ? '' : splitHostHeader(request.headers.host).host;
        if (asked && asked !== host)
          refuse(asked, port, `the Host header differs from the request's host ${host}`);
      }
      const decision = decide(policy, host, port);
      if (!decision.allowed) refuse(host, port, decision.reason);
      const overTls = credentialsFor(host, port, 'https');
      // A key goes over TLS only: in clear, anyone on the way could read it.
      if (isHttp && overTls.length > 0)
        refuse(host, port, `${host} has a credential, which is sent over TLS only: use https://`, 403);
      const row = tally.allow(host, port);
      if (row) rowOf.set(connectionId as unknown as number, row);
      if (!isHttp && overTls.length > 0)
        return { customConnectServer: (await interceptor(host, port, 'https')) as http.Server };
      // A tunnel to a host whose line named http:// carries plain HTTP: ended here too, for the header.
      if (!isHttp && credentialsFor(host, port, 'http').length > 0)
        return { customConnectServer: (await interceptor(host, port, 'http')) as http.Server };
      if (!isHttp) {
        await openTunnelEnd(request.socket, host, port);
        return { customConnectServer: tunnels as unknown as http.Server };
      }
      // A credential whose line named http:// (an internal service): on plain HTTP, on its ports only.
      const inClear = credentialsFor(host, port, 'http');
      // A model API in clear: decided against the budget before anything is sent, or answered here.
      const call = classifyRequest(request.method, request.url ?? '', request.rawHeaders, inClear.length > 0);
      if (call) {
        const target = new URL(request.url ?? '/', `http://${host}`);
        const send = {
          protocol: 'http' as const,
          host,
          port,
          headers: upstreamHeaders(request.rawHeaders, host, port, inClear),
        };
        const path = `${target.pathname}${target.search}`;
        return {
          customResponseFunction: () =>
            servePlain(request, (res) =>
              serveModelRequest(request, res, call, { meter, host, port, path, send }),
            ),
        };
      }
      if (inClear.length > 0)
        request.rawHeaders.splice(
          0,
          request.rawHeaders.length,
          ...withCredentials(request.rawHeaders, inClear),
        );
      return {};
    },
  });
  server.on(
    'connectionClosed',
    ({ connectionId, stats }: { connectionId: number; stats?: Record<string, number> }) => {
      const row = rowOf.get(connectionId);
      rowOf.delete(connectionId);
      if (!row || !stats) return;
      row.bytesSent += stats.srcRxBytes ?? 0;
      row.bytesReceived += stats.srcTxBytes ?? 0;
    },
  );
  server.on('requestFailed', () => undefined);
  const servePlain = plainResponses(server.server);

  // proxy-chain serves TCP; its HTTP server is handed the Unix socket's connections instead. It drops a
  // socket without a peer address, which a Unix socket never has: it is given one that says what it is.
  const front = net.createServer((socket) => {
    Object.defineProperty(socket, 'remoteAddress', { value: 'sandbox', configurable: true });
    socket.on('error', () => undefined);
    server.server.emit('connection', socket);
  });
  front.maxConnections = MAX_CONNECTIONS;
  await fs.rm(options.socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(options.socketPath, () => {
      front.off('error', reject);
      resolve();
    });
  });
  await fs.chmod(options.socketPath, 0o600);

  return {
    report: () => ({ ...tally.report(), models: meter.report() }),
    async close() {
      await new Promise<void>((resolve) => {
        front.close(() => resolve());
        server.closeConnections();
        for (const far of openEnds) far.destroy();
      });
      for (const made of interceptors.values()) (await made.catch(() => undefined))?.close();
      await fs.rm(options.socketPath, { force: true });
    },
  };
}
