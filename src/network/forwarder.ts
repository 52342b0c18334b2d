// The forwarder: the one program in the sidecar container, whose network namespace (loopback only) the
// command's container joins. It copies bytes between TCP connections to 127.0.0.1:PROXY_PORT and the
// proxy's Unix socket, and parses nothing. It runs on the runner's own Node, in an image made here of
// the libraries that Node needs (never the `image` input, which is hostile).
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ContainerEngine } from '../engine/engine.js';
import { runProcess } from '../engine/proc.js';
import { joinSockets, RELAY_LARGE_BYTES, RELAY_LARGE_COUNT, RELAY_SMALL_BYTES, relayReads } from './relay.js';

/** The port the command's proxy variables name, on the loopback of the namespace it shares. */
export const PROXY_PORT = 3128;

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
`;

/** The shared libraries (and loader) a dynamically linked binary needs, as ldd lists them. */
export async function sharedLibraries(binary: string): Promise<string[]> {
  const result = await runProcess('ldd', [binary], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
  if (result.exitCode !== 0) return []; // a static binary: "not a dynamic executable"
  return [...new Set(result.stdout.split('\n').flatMap((line) => /(\/\S+)/.exec(line)?.[1] ?? []))];
}

/**
 * The forwarder's image, `localhost/worktree-sandbox-forwarder:<hash of the libraries>`: made once per
 * runner (an image of a few MB, imported in well under a second), found by name afterwards.
 */
export async function ensureForwarderImage(engine: ContainerEngine, node: string): Promise<string> {
  const libraries = await sharedLibraries(node);
  const hash = createHash('sha256');
  for (const lib of libraries) {
    const st = await fs.stat(lib);
    hash.update(`${lib}\0${st.size}\0${st.mtimeMs}\n`);
  }
  const tag = `localhost/worktree-sandbox-forwarder:${hash.digest('hex').slice(0, 16)}`;
  const found = await engine.exec(['image', 'inspect', '--format', '{{.Id}}', '--', tag]);
  if (found.exitCode === 0) return tag;
  const work = await fs.mkdtemp(
    path.join(process.env.RUNNER_TEMP || os.tmpdir(), 'worktree-sandbox-forwarder-'),
  );
  try {
    const root = path.join(work, 'root');
    for (const dir of [FORWARDER_DIR, '/tmp']) await fs.mkdir(path.join(root, dir), { recursive: true });
    for (const lib of libraries) {
      await fs.mkdir(path.join(root, path.dirname(lib)), { recursive: true });
      await fs.copyFile(await fs.realpath(lib), path.join(root, lib));
    }
    const tar = path.join(work, 'root.tar');
    const packed = await runProcess('tar', ['-C', root, '-cf', tar, '.'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    if (packed.exitCode !== 0)
      throw new Error(`tar could not pack the forwarder's image: ${packed.stderr.trim()}`);
    await engine.run(['import', '--', tar, tag]);
    return tag;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}
