// The image of the reaper's helper containers, made on the spot from the runner's own programs: the host's
// `sh`, `git` and the few tools the helpers' scripts call, with the shared libraries `ldd` names, as one
// layer imported into the engine (`docker import`, `podman import`, rootless too). So the reaper's verdict
// on a sandbox (its activity, its work, its size) never rests on a program from the `image` input, which
// may lie; that image then only runs run mode's command. host-image.ts makes, checks and caches it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EngineCommands } from './engine-commands.js';
import { hostImage, HOST_IMAGE_PATH, LayerEntries, sharedLibraries, type LayerEntry } from './host-image.js';
import { label } from './labels.js';
import { runProcess } from './proc.js';
import { timeLimitMs } from './time-limits.js';

export { tarLayer, type LayerEntry } from './host-image.js';

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
/** Where the programs are looked for on the host, in this order (the system's own folders first). */
const HOST_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];

/**
 * The helper image's name in this engine, made first when missing (once per process and engine; a failure
 * is not remembered). Throws when the host lacks a program or the engine refuses the import: the reaper
 * then decides nothing rather than trust another image.
 */
export function controlledHelperImage(engine: EngineCommands): Promise<string> {
  return hostImage(engine, {
    repository: HELPER_IMAGE_REPOSITORY,
    label: HELPER_IMAGE_LABEL,
    what: 'the helper image',
    entries: helperLayerEntries,
  });
}

/**
 * The helper image, asked for only when a helper container is about to start: a reap whose sandboxes the
 * filesystem and the parent can judge alone never pays for making it. Asked once per reaper command: the
 * first answer, a failure too, is every later one's, so a host that cannot make it fails each helper at
 * once, with the same reason, instead of retrying the build for every batch.
 */
export type HelperImage = () => Promise<string>;

export function helperImageOnDemand(engine: EngineCommands): HelperImage {
  let image: Promise<string> | undefined;
  return () => (image ??= controlledHelperImage(engine));
}

/** The layer's entries: each program at /usr/bin/<name>, its libraries where `ldd` found them. */
export async function helperLayerEntries(): Promise<LayerEntry[]> {
  const entries = new LayerEntries();
  const found = HELPER_PROGRAMS.map((program) => {
    const at = hostProgram(program);
    if (!at) throw new Error(`the helper image needs ${program}, which is not in ${HOST_DIRS.join(':')}`);
    return at;
  });
  HELPER_PROGRAMS.forEach((program, n) => entries.file(`/usr/bin/${program}`, found[n]));
  const gitPath = found[HELPER_PROGRAMS.indexOf('git')];
  // One ldd for every program: the start-up of every reap pays for it.
  for (const lib of await sharedLibraries([...new Set(found)], 'the helper image')) entries.file(lib, lib);
  // git runs its own sub-commands (pack-objects for a bundle) from its exec path.
  const execPath = (
    await runProcess(gitPath, ['--exec-path'], {
      env: { PATH: HOST_IMAGE_PATH },
      limit: { ms: timeLimitMs('ldd'), purpose: "asking where git's sub-commands are, for the helper image" },
    })
  ).stdout.trim();
  if (path.isAbsolute(execPath) && execPath !== '/usr/bin')
    entries.symlink(`${execPath}/git`, '/usr/bin/git');
  if (!entries.has('/bin')) entries.symlink('/bin', 'usr/bin');
  entries.dir('/tmp', 0o1777);
  for (const dir of ['/dev', '/proc', '/sys', '/etc']) entries.dir(dir);
  return entries.list();
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
