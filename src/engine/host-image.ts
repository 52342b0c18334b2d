// Images made on the spot from the runner's own files: the reaper's helper image (helper-image.ts: `sh`,
// `git` and a few tools) and the network sidecar's image (the libraries the runner's Node loads). Neither
// ever rests on the `image` input, which may lie.
//
// The layer is made here, byte for byte the same from the same files (sorted, times and owners zeroed),
// so its SHA-256 names it: the image is tagged with it and made once per engine and host. An image found
// under that tag is used only when its one layer is exactly that archive and its configuration sets
// nothing but PATH and its label; anything else under the tag is replaced. The programs this runs on the
// host (`ldd`, the engine's `import`) run under their time limits and are killed when they run out.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EngineCommands } from './engine-commands.js';
import { runProcess } from './proc.js';
import { timeLimitMs } from './time-limits.js';

/** One entry of the layer. */
export type LayerEntry =
  | { type: 'dir'; path: string; mode: number }
  | { type: 'file'; path: string; mode: number; source: string }
  | { type: 'symlink'; path: string; target: string };

/** What an image made from the runner's files is. */
export interface HostImageSpec {
  /** The image's repository; the tag is the layer's digest. */
  repository: string;
  /** The label (its value: the layer's digest) that says who made it. */
  label: string;
  /** For errors: `the helper image`. */
  what: string;
  /** The layer's entries, read when the image is first asked for. */
  entries: () => Promise<LayerEntry[]>;
}

/** The PATH every such image sets, and the only variable. */
export const HOST_IMAGE_PATH = '/usr/bin:/bin';

const made = new WeakMap<EngineCommands, Map<string, Promise<string>>>();

/**
 * The image's name in this engine, made first when missing (once per engine object and repository: a
 * process has one; a failure is not remembered, so the next caller tries again).
 */
export function hostImage(engine: EngineCommands, spec: HostImageSpec): Promise<string> {
  let images = made.get(engine);
  if (!images) made.set(engine, (images = new Map()));
  let image = images.get(spec.repository);
  if (!image) {
    image = makeHostImage(engine, spec);
    images.set(spec.repository, image);
    image.catch(() => images.delete(spec.repository));
  }
  return image;
}

async function makeHostImage(engine: EngineCommands, spec: HostImageSpec): Promise<string> {
  const layer = tarLayer(await spec.entries());
  const digest = createHash('sha256').update(layer).digest('hex');
  const image = `${spec.repository}:${digest.slice(0, 32)}`;
  if (await isOurs(engine, image, digest)) return image;
  const dir = fs.mkdtempSync(path.join(process.env.RUNNER_TEMP || os.tmpdir(), 'worktree-sandbox-image-'));
  try {
    const file = path.join(dir, 'layer.tar');
    fs.writeFileSync(file, layer, { mode: 0o600 });
    const imported = await engine.exec(
      [
        'import',
        '--change',
        `ENV PATH=${HOST_IMAGE_PATH}`,
        '--change',
        `LABEL ${spec.label}=${digest}`,
        '--',
        file,
        image,
      ],
      { purpose: `importing ${spec.what}` },
    );
    if (imported.exitCode !== 0) throw engine.failure(['import', image], imported);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (!(await isOurs(engine, image, digest)))
    throw new Error(`${spec.what} ${image} does not hold the layer it was made from`);
  return image;
}

/** The image under `image` is the one made from this layer, configured with nothing but PATH. */
async function isOurs(engine: EngineCommands, image: string, digest: string): Promise<boolean> {
  const inspect = await engine.exec([
    'image',
    'inspect',
    '--format',
    '{{json .RootFS.Layers}} {{json .Config.Env}} {{json .Config.Entrypoint}} {{json .Config.Cmd}} {{json .Config.User}}',
    '--',
    image,
  ]);
  if (inspect.exitCode !== 0) return false;
  const [layers, env, entrypoint, cmd, user] = inspect.stdout.trim().split(' ');
  return (
    layers === JSON.stringify([`sha256:${digest}`]) &&
    env === JSON.stringify([`PATH=${HOST_IMAGE_PATH}`]) &&
    entrypoint === 'null' &&
    (cmd === 'null' || cmd === '[]') &&
    (user === '""' || user === 'null')
  );
}

/** Builds a layer's entries: files at their paths, with the folders above them. */
export class LayerEntries {
  private readonly entries = new Map<string, LayerEntry>();

  dir(p: string, mode = 0o755): void {
    this.entries.set(p, { type: 'dir', path: p, mode });
  }

  /** The folders above `p` that are not there yet. */
  parents(p: string): void {
    for (let dir = path.posix.dirname(p); dir !== '/'; dir = path.posix.dirname(dir))
      if (!this.entries.has(dir)) this.dir(dir);
  }

  /** A copy of the host's file `source` (its content, through links) at `p`. */
  file(p: string, source: string): void {
    this.parents(p);
    this.entries.set(p, { type: 'file', path: p, mode: fs.statSync(source).mode & 0o755, source });
  }

  symlink(p: string, target: string): void {
    this.parents(p);
    this.entries.set(p, { type: 'symlink', path: p, target });
  }

  has(p: string): boolean {
    return this.entries.has(p);
  }

  /** Sorted by path, so that the same files make the same archive. */
  list(): LayerEntry[] {
    return [...this.entries.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
}

/**
 * The shared libraries `ldd` says these programs load, the loader included (none for a static program),
 * in one ldd under its time limit.
 */
export async function sharedLibraries(programs: readonly string[], what: string): Promise<string[]> {
  const result = await runProcess('ldd', ['--', ...programs], {
    env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
    limit: { ms: timeLimitMs('ldd'), purpose: `listing the libraries ${what} needs` },
  });
  const text = result.stdout + result.stderr;
  // With several files, ldd exits 1 when any is static ("not a dynamic executable"): that one has none.
  if (result.exitCode !== 0 && !/not a dynamic executable|statically linked/.test(text))
    throw new Error(`ldd failed: ${result.stderr.trim().split('\n')[0]}`);
  const missing = /^\s+(\S+) => not found/m.exec(result.stdout);
  if (missing) throw new Error(`ldd finds no ${missing[1]} for ${what}`);
  const libraries: string[] = [];
  for (const line of result.stdout.split('\n')) {
    const match = /^\s+(?:\S+\s+=>\s*)?(\/\S+)\s+\(0x/.exec(line);
    if (match) libraries.push(match[1]);
  }
  return [...new Set(libraries)];
}

// ---- the archive --------------------------------------------------------------------------------------

/** A POSIX (ustar) archive of the entries: the same bytes for the same files, whatever the clock. */
export function tarLayer(entries: readonly LayerEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const name = entry.path.replace(/^\/+/, '') + (entry.type === 'dir' ? '/' : '');
    if (entry.type === 'file') {
      const data = fs.readFileSync(entry.source);
      blocks.push(header(name, '0', entry.mode, data.length, ''), data, padding(data.length));
    } else if (entry.type === 'dir') blocks.push(header(name, '5', entry.mode, 0, ''));
    else blocks.push(header(name, '2', 0o777, 0, entry.target));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

function padding(size: number): Buffer {
  return Buffer.alloc((512 - (size % 512)) % 512);
}

function header(name: string, type: string, mode: number, size: number, link: string): Buffer {
  const block = Buffer.alloc(512);
  let prefix = '';
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', name.length - 2);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
    if (Buffer.byteLength(base) > 100 || Buffer.byteLength(prefix) > 155)
      throw new Error(`${name} is too long a path for an image layer`);
  }
  if (Buffer.byteLength(link) > 100) throw new Error(`${link} is too long a link for an image layer`);
  const octal = (value: number, width: number) => value.toString(8).padStart(width - 1, '0') + '\0';
  block.write(base, 0, 100, 'utf8');
  block.write(octal(mode, 8), 100, 8, 'ascii');
  block.write(octal(0, 8), 108, 8, 'ascii'); // uid
  block.write(octal(0, 8), 116, 8, 'ascii'); // gid
  block.write(octal(size, 12), 124, 12, 'ascii');
  block.write(octal(0, 12), 136, 12, 'ascii'); // mtime
  block.write(' '.repeat(8), 148, 8, 'ascii'); // checksum, counted as spaces
  block.write(type, 156, 1, 'ascii');
  block.write(link, 157, 100, 'utf8');
  block.write('ustar\0', 257, 6, 'ascii');
  block.write('00', 263, 2, 'ascii');
  block.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'ascii');
  return block;
}
