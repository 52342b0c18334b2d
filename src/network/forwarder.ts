// The forwarder: the one program in the sidecar container, whose network namespace (loopback only) the
// command's container joins. It copies bytes between TCP connections to 127.0.0.1:PROXY_PORT and the
// proxy's Unix socket, and parses nothing. It runs on the runner's own Node, in an image made here of
// the libraries that Node needs (never the `image` input, which is hostile).
import type { EngineCommands } from '../engine/engine-commands.js';
import { hostImage, LayerEntries, sharedLibraries } from '../engine/host-image.js';
import { label } from '../engine/labels.js';
import { joinSockets, RELAY_LARGE_BYTES, RELAY_LARGE_COUNT, RELAY_SMALL_BYTES, relayReads } from './relay.js';

/** The port the command's proxy variables name, on the loopback of the namespace it shares. */
export const PROXY_PORT = 3128;

/**
 * How often the forwarder asks whether the proxy still listens. The proxy lives in the action's process,
 * so a refused connection to its socket (or the socket gone) proves the action gone, whatever ended it,
 * including a SIGKILL that no handler sees. This needs nothing but the socket the sidecar already mounts:
 * no engine access, no process ids (which another PID namespace, a job container or rootless Podman's
 * user namespace would make meaningless), nothing read from the command. A refusal is final; any other
 * failure (a full backlog under load) is asked again.
 */
export const PROXY_PROBE_MS = 2_000;

export const FORWARDER_DIR = '/forwarder';
export const FORWARDER_NODE = `${FORWARDER_DIR}/node`;
export const FORWARDER_RUN = `${FORWARDER_DIR}/run`;

// The relay's source text goes into the script: the sidecar runs it on the runner's Node, with no module
// of the action's bundle to import.
export const FORWARDER_SCRIPT = `// worktree-sandbox network forwarder: 127.0.0.1:PORT <-> the proxy's Unix socket, bytes only.
import * as net from 'node:net';
const relayReads = ${relayReads.toString()};
const joinSockets = ${joinSockets.toString()};
const [port, socketPath] = process.argv.slice(2);
const sizes = { small: ${RELAY_SMALL_BYTES}, large: ${RELAY_LARGE_BYTES} };
const budget = { large: ${RELAY_LARGE_COUNT} };
const server = net.createServer((client) => {
  // Towards the command (downloads, the bulk): read into a buffer of the relay's own, written on as is.
  const upstream = net.connect({
    path: socketPath,
    onread: relayReads(() => client, () => upstream, sizes, budget),
  });
  joinSockets(client, upstream);
});
server.maxConnections = 2048;
server.on('error', (error) => { process.stderr.write(String(error) + '\\n'); process.exit(1); });
server.listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\\n'));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
// Once nothing listens on the proxy's socket, the action's process is gone (killed, or its runner died):
// this sidecar can serve no one again, so it ends (and the engine removes it: --rm).
const probe = () => {
  const socket = net.connect(socketPath);
  socket.once('connect', () => { socket.destroy(); setTimeout(probe, ${PROXY_PROBE_MS}); });
  socket.once('error', (error) => {
    if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') process.exit(0);
    setTimeout(probe, ${PROXY_PROBE_MS});
  });
};
setTimeout(probe, ${PROXY_PROBE_MS});
`;

/**
 * The forwarder's image, `localhost/worktree-sandbox-forwarder:<digest of its layer>`: the libraries
 * (and loader) the runner's Node loads, made once per runner by the one builder of images from the
 * runner's own files (engine/host-image.ts), found by its digest afterwards. Node itself is mounted.
 */
export function ensureForwarderImage(engine: EngineCommands, node: string): Promise<string> {
  return hostImage(engine, {
    repository: 'localhost/worktree-sandbox-forwarder',
    label: label('forwarder-image'),
    what: "the network forwarder's image",
    entries: async () => {
      const entries = new LayerEntries();
      for (const lib of await sharedLibraries([node], "the network forwarder's image"))
        entries.file(lib, lib);
      entries.dir(FORWARDER_DIR);
      entries.dir('/tmp', 0o1777);
      return entries.list();
    },
  });
}
