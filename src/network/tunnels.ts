// A CONNECT to a host without a credential: its far end opened before proxy-chain answers 200 (a host that
// cannot be reached gets a 502), then joined to the client's socket by the relay (relay.ts) once it has:
// proxy-chain parses and answers the CONNECT, the relay moves the tunnel's bytes (its own `direct` pipes
// them with a new buffer per read). A tunnel's first bytes decide what it is: a TLS handshake (its first
// byte, 0x16) is relayed as it is; anything else is read as HTTP by an interceptor with no credential, so
// that a request the proxy could read in clear (a plain-HTTP model API behind a CONNECT) is checked and
// metered, never tunneled raw.
import type * as http from 'node:http';
import * as net from 'node:net';
import { RequestError } from 'proxy-chain';
import type { Interceptors } from './interceptor.js';
import { joinSockets, RELAY_LARGE_BYTES, RELAY_LARGE_COUNT, RELAY_SMALL_BYTES, relayReads } from './relay.js';

export interface Tunnels {
  /** Opens `client`'s far end; then proxy-chain hands `client` to `server`. */
  open(client: net.Socket, host: string, port: number): Promise<void>;
  server: http.Server;
  /** Ends every far end still open. */
  close(): void;
}

export function makeTunnels(interceptors: Interceptors): Tunnels {
  const sizes = { small: RELAY_SMALL_BYTES, large: RELAY_LARGE_BYTES };
  const budget = { large: RELAY_LARGE_COUNT };
  const ends = new WeakMap<net.Socket, { far: net.Socket; gone: () => void; host: string; port: number }>();
  const open = new Set<net.Socket>();

  const server = net.createServer((client) => {
    const end = ends.get(client);
    ends.delete(client);
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
      interceptors.get(end.host, end.port, 'clear').then(
        (interceptor) => {
          // Its parser reads the socket's data events (proxy-chain's own took the socket's handle).
          interceptor.emit('connection', client);
          client.resume();
        },
        () => client.destroy(),
      );
    });
  });

  return {
    server: server as unknown as http.Server,
    close: () => open.forEach((far) => far.destroy()),
    open: (client, host, port) =>
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
        open.add(far);
        const gone = () => far.destroy();
        client.once('close', gone);
        far.once('close', () => {
          open.delete(far);
          client.off('close', gone);
        });
        // Until joined: an error before the connection ends it with a 502, one after it closes the tunnel.
        far.on('error', (error: NodeJS.ErrnoException) => {
          far.destroy();
          reject(
            new RequestError(
              `worktree-sandbox network: ${host}:${port} could not be reached (${error.code ?? 'error'})`,
              502,
            ),
          );
        });
        far.once('connect', () => {
          ends.set(client, { far, gone, host, port });
          resolve();
        });
      }),
  };
}
