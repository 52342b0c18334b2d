// A stand-in for "the Docker engine went away": a unix socket that forwards to the real engine until it is
// stopped, then drops every connection and refuses new ones. Pointing the action's DOCKER_HOST at it lets a
// test take the engine away in the middle of a run without touching the engine every engineer shares.
import * as fs from 'node:fs';
import * as net from 'node:net';

export const REAL_ENGINE_SOCKET = '/var/run/docker.sock';

export interface EngineProxy {
  host: string;
  stop(): Promise<void>;
}

export async function startEngineProxy(socket: string): Promise<EngineProxy> {
  fs.rmSync(socket, { force: true });
  const open = new Set<net.Socket>();
  // Half-open allowed: the docker CLI closes its writing side of an attach stream and keeps reading.
  const server = net.createServer({ allowHalfOpen: true }, (client) => {
    const engine = net.connect({ path: REAL_ENGINE_SOCKET, allowHalfOpen: true });
    for (const s of [client, engine]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(engine);
    engine.pipe(client);
    client.on('close', () => engine.destroy());
    engine.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  fs.chmodSync(socket, 0o666);
  return {
    host: `unix://${socket}`,
    stop: async () => {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(socket, { force: true });
    },
  };
}
