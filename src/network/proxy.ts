// The proxy in the action's own process, behind a Unix socket that only the forwarder (sidecar.ts) can
// reach: proxy-chain (a maintained forward proxy on Node's own HTTP parser) tunnels CONNECTs and forwards
// plain requests; each request it parses first passes the chain (chain.ts) of small handlers: policy →
// credentials → meter → tally. A request none of them takes is forwarded as it is, or, a CONNECT, tunneled
// (tunnels.ts). Names resolve as the runner resolves them (getaddrinfo: its /etc/hosts, its resolver).
import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import { Server } from 'proxy-chain';
import type { RunCa } from './ca.js';
import { runChain, type Flow, type Handler } from './chain.js';
import { credentialsFor, credentialsHandler, setCredentials } from './handlers/credentials.js';
import { meterHandler } from './handlers/meter.js';
import { policyHandler } from './handlers/policy.js';
import { tallyHandler } from './handlers/tally.js';
import { Interceptors } from './interceptor.js';
import { ModelMeter, type ModelUsageReport } from './model-meter.js';
import { normalizeHost, type ProxiedPolicy } from './policy.js';
import { plainResponses } from './send-on.js';
import { Tally, type TallyReport } from './tally.js';
import { makeTunnels } from './tunnels.js';

export interface NetworkReport extends TallyReport {
  /** What the command spent on model APIs the proxy saw in clear, and the budget's verdict. */
  models?: ModelUsageReport;
}

/** Bound: connections open at once. */
const MAX_CONNECTIONS = 2048;

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

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const { policy } = options;
  const tally = new Tally();
  const meter = new ModelMeter(policy.modelLimits);
  const tallied = tallyHandler(tally);
  const interceptors = new Interceptors({
    ca: options.ca,
    trustedCas: options.trustedCas,
    meter,
    credentialsFor: (host, port, scheme) => credentialsFor(policy.credentials, host, port, scheme),
    allowed: (host, port) => tally.allow(host, port),
    refused: (host, port, reason) => tallied.refused?.(host, port, reason),
  });
  const tunnels = makeTunnels(interceptors);
  let chain: Handler[] = [];

  const server = new Server({
    port: 0,
    prepareRequestFunction: async ({ connectionId, request, hostname, port, isHttp }) => {
      const flow: Flow = {
        connectionId: connectionId as unknown as number,
        request,
        host: normalizeHost(hostname),
        port,
        isHttp,
        credentials: [],
      };
      const route = await runChain(chain, flow);
      if (route) return route;
      if (isHttp) {
        setCredentials(flow);
        return {};
      }
      await tunnels.open(request.socket, flow.host, port);
      return { customConnectServer: tunnels.server };
    },
  });
  chain = [
    policyHandler(policy),
    credentialsHandler(policy.credentials, interceptors),
    meterHandler(meter, plainResponses(server.server)),
    tallied,
  ];
  server.on(
    'connectionClosed',
    ({ connectionId, stats }: { connectionId: number; stats?: Record<string, number> }) =>
      tallied.closed?.(connectionId, stats),
  );
  server.on('requestFailed', () => undefined);
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
        tunnels.close();
      });
      await interceptors.close();
      await fs.rm(options.socketPath, { force: true });
    },
  };
}
