// The image of the reaper's helper containers, made on the spot from the runner's own programs: the host's
// `sh`, `git` and the few tools the helpers' scripts call, with the shared libraries `ldd` names, as one
// layer imported into the engine (`docker import`, `podman import`, rootless too). So the reaper's verdict
// on a sandbox (its activity, its work, its size) never rests on a program from the `image` input, which
// may lie; that image then only runs run mode's command.
//
// The layer is made here, byte for byte the same from the same files (sorted, times and owners zeroed),
// so its SHA-256 names it: the image is tagged with it and made once per engine and host. An image found
// under that tag is used only when its one layer is exactly that archive and its configuration sets
// nothing but PATH; anything else under the tag is replaced.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ContainerEngine } from './engine.js';
import { label } from './labels.js';
import { runProcess } from './proc.js';

/** What the reaper's helper scripts call (inspection, archives, capture for archives). */
export const HELPER_PROGRAMS = [
  'sh',
  'git',
  'cat',
  'cp',
  'cut',
  'du',
  'find',
  'gzip',
  'head',
  'mkdir',
  'mktemp',
  'mv',
  'printf',
  'rm',
  'stat',
  'tar',
  'touch',
  'tr',
  'wc',
];

export const HELPER_IMAGE_REPOSITORY = 'localhost/worktree-sandbox-helper';
export const HELPER_IMAGE_LABEL = label('helper-image');
const CONTAINER_PATH = '/usr/bin:/bin';
/** Where the programs are looked for on the host, in this order (the system's own folders first). */
const HOST_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];
const LDD_TIMEOUT_MS = 30_000;
const IMPORT_TIMEOUT_MS = 5 * 60_000;

/** One entry of the layer. */
export type LayerEntry =
  | { type: 'dir'; path: string; mode: number }
  | { type: 'file'; path: string; mode: number; source: string }
  | { type: 'symlink'; path: string; target: string };

const made = new Map<string, Promise<string>>();

/**
 * The helper image's name in this engine, made first when missing (once per process and engine; a failure
 * is not remembered). Throws when the host lacks a program or the engine refuses the import: the reaper
 * then decides nothing rather than trust another image.
 */
export function controlledHelperImage(engine: ContainerEngine): Promise<string> {
  let image = made.get(engine.name);
  if (!image) {
    image = makeHelperImage(engine);
    made.set(engine.name, image);
    image.catch(() => made.delete(engine.name));
  }
  return image;
}

async function makeHelperImage(engine: ContainerEngine): Promise<string> {
  const entries = await helperLayerEntries();
  const layer = tarLayer(entries);
  const digest = createHash('sha256').update(layer).digest('hex');
  const image = `${HELPER_IMAGE_REPOSITORY}:${digest.slice(0, 32)}`;
  if (await isOurs(engine, image, digest)) return image;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'worktree-sandbox-helper-image-'));
  try {
    const file = path.join(dir, 'layer.tar');
    fs.writeFileSync(file, layer, { mode: 0o600 });
    const imported = await withTimeout(
      engine.exec([
        'import',
        '--change',
        `ENV PATH=${CONTAINER_PATH}`,
        '--change',
        `LABEL ${HELPER_IMAGE_LABEL}=${digest}`,
        '--',
        file,
        image,
      ]),
      IMPORT_TIMEOUT_MS,
      `${engine.name} import`,
    );
    if (imported.exitCode !== 0) throw engine.failure(['import', image], imported);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (!(await isOurs(engine, image, digest)))
    throw new Error(`the helper image ${image} does not hold the layer it was made from`);
  return image;
}

/** The image under `image` is the one made from this layer, configured with nothing but PATH. */
async function isOurs(engine: ContainerEngine, image: string, digest: string): Promise<boolean> {
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
    env === JSON.stringify([`PATH=${CONTAINER_PATH}`]) &&
    entrypoint === 'null' &&
    (cmd === 'null' || cmd === '[]') &&
    (user === '""' || user === 'null')
  );
}

/** The layer's entries: each program at /usr/bin/<name>, its libraries where `ldd` found them. */
export async function helperLayerEntries(): Promise<LayerEntry[]> {
  const entries = new Map<string, LayerEntry>();
  const addDirs = (p: string) => {
    for (let dir = path.posix.dirname(p); dir !== '/'; dir = path.posix.dirname(dir))
      if (!entries.has(dir)) entries.set(dir, { type: 'dir', path: dir, mode: 0o755 });
  };
  const addFile = (p: string, source: string) => {
    addDirs(p);
    entries.set(p, { type: 'file', path: p, mode: fs.statSync(source).mode & 0o755, source });
  };
  const found = HELPER_PROGRAMS.map((program) => {
    const at = hostProgram(program);
    if (!at) throw new Error(`the helper image needs ${program}, which is not in ${HOST_DIRS.join(':')}`);
    return at;
  });
  HELPER_PROGRAMS.forEach((program, n) => addFile(`/usr/bin/${program}`, found[n]));
  const gitPath = found[HELPER_PROGRAMS.indexOf('git')];
  // One ldd for every program: the start-up of every reap pays for it.
  const libraries = new Set(await sharedLibraries([...new Set(found)]));
  for (const lib of libraries) addFile(lib, lib);
  // git runs its own sub-commands (pack-objects for a bundle) from its exec path.
  const execPath = (
    await runProcess(gitPath, ['--exec-path'], { env: { PATH: CONTAINER_PATH } })
  ).stdout.trim();
  if (path.isAbsolute(execPath) && execPath !== '/usr/bin') {
    addDirs(`${execPath}/git`);
    entries.set(`${execPath}/git`, { type: 'symlink', path: `${execPath}/git`, target: '/usr/bin/git' });
  }
  if (!entries.has('/bin')) entries.set('/bin', { type: 'symlink', path: '/bin', target: 'usr/bin' });
  entries.set('/tmp', { type: 'dir', path: '/tmp', mode: 0o1777 });
  for (const dir of ['/dev', '/proc', '/sys', '/etc'])
    entries.set(dir, { type: 'dir', path: dir, mode: 0o755 });
  return [...entries.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function hostProgram(name: string): string | undefined {
  for (const dir of HOST_DIRS) {
    const candidate = path.join(dir, name);
    try {
      const real = fs.realpathSync(candidate);
      const st = fs.statSync(real);
      if (st.isFile() && st.mode & 0o111) return real;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The shared libraries `ldd` says these programs load (none for a static program). */
async function sharedLibraries(programs: readonly string[]): Promise<string[]> {
  const result = await withTimeout(
    runProcess('ldd', ['--', ...programs], { env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' } }),
    LDD_TIMEOUT_MS,
    'ldd',
  );
  const text = result.stdout + result.stderr;
  // With several files, ldd exits 1 when any is static ("not a dynamic executable"): that one has none.
  if (result.exitCode !== 0 && !/not a dynamic executable|statically linked/.test(text))
    throw new Error(`ldd failed: ${result.stderr.trim().split('\n')[0]}`);
  const missing = /^\s+(\S+) => not found/m.exec(result.stdout);
  if (missing) throw new Error(`ldd finds no ${missing[1]} for the helper image`);
  const libraries: string[] = [];
  for (const line of result.stdout.split('\n')) {
    const match = /^\s+(?:\S+\s+=>\s*)?(\/\S+)\s+\(0x/.exec(line);
    if (match) libraries.push(match[1]);
  }
  return libraries;
}

async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
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
      throw new Error(`${name} is too long a path for the helper image`);
  }
  if (Buffer.byteLength(link) > 100) throw new Error(`${link} is too long a link for the helper image`);
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
