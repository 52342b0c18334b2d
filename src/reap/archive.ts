// Saving what a removal would lose, into `archive-dir`, without running git on the host in the sandbox:
//  - work of a sandbox removed by `force: true`: run mode's capture helper makes a bundle of it in a
//    helper container (HEAD, its branch, and a snapshot commit of the uncommitted files as
//    `refs/worktree-sandbox/snapshot`), stopping at the commit the parent recorded for it; the bundle is
//    saved as it is. What the parent recorded and has not saved (src/sandbox/saved.ts: on no remote or
//    tag) goes with the records: a second bundle of it is made from the parent (host git, the parent only);
//  - an orphan (git can check nothing): all its files as a .tar.gz (links stored as links).
// Files are named `<archive-dir>/<project>/<sandbox>.<isolation>.<UTC time>.<ext>`.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { EngineCommands } from '../engine/engine-commands.js';
import type { GitCommands } from '../engine/git-commands.js';
import { userArg } from '../engine/container-args.js';
import type { HelperImage } from '../engine/helper-image.js';
import { HELPER_LABELS } from '../engine/labels.js';
import { runStreaming } from '../engine/proc.js';
import { TimeLimitError, timeLimitMs } from '../engine/time-limits.js';
import { captureSandbox } from '../run/capture.js';
import { sandboxRefs } from '../sandbox/bookkeeping.js';
import { countUnsaved, savedRefs } from '../sandbox/saved.js';
import type { Identity } from '../settings/settings.js';
import { sandboxText } from '../ui/sandbox-text.js';
import type { ArchiveKind } from './decide.js';
import type { ScannedSandbox } from './scan.js';

export interface ArchiveDeps {
  git: GitCommands;
  engine: EngineCommands;
  image: HelperImage;
  archiveDir: string;
  now: Date;
  /** The cap on one archive (default ARCHIVE_MAX_BYTES). */
  maxBytes?: number;
}

/** Who the snapshot commit of uncommitted work is by. */
const ARCHIVIST: Identity = { name: 'worktree-sandbox reaper', email: 'worktree-sandbox@localhost' };
/** The cap on one archive, bundle or .tar.gz: what the reaper saves must not fill the runner's disk. */
export const ARCHIVE_MAX_BYTES = 8 * 1024 ** 3;

/** Archives and returns the files written; throws when the work could not be saved (then nothing is removed). */
export async function archiveSandbox(
  sandbox: ScannedSandbox,
  kind: ArchiveKind,
  deps: ArchiveDeps,
): Promise<string[]> {
  const dir = path.join(deps.archiveDir, sandbox.project);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const stamp = deps.now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const base = path.join(dir, `${sandbox.sandbox}.${sandbox.isolation}.${stamp}`);
  if (kind === 'files') return [await archiveFiles(sandbox, base, deps)];
  const recorded = await archiveRecorded(sandbox, base, deps);
  return [await archiveWork(sandbox, base, deps), ...(recorded ? [recorded] : [])];
}

/**
 * The commits the parent recorded for the sandbox that it has not saved, as `<base>.recorded.bundle`
 * (undefined when there are none): removing the sandbox drops the record, the only ref some of them have.
 */
async function archiveRecorded(
  sandbox: ScannedSandbox,
  base: string,
  deps: ArchiveDeps,
): Promise<string | undefined> {
  const location = sandbox.location;
  if (!location) return undefined;
  const { parent } = location;
  const head = sandboxRefs(location).head;
  if (!(await deps.git.refExists(parent.path, head))) return undefined;
  const saved = await savedRefs(deps.git, parent.path);
  const count = await countUnsaved(deps.git, parent.path, [head], saved);
  if (count?.count === 0) return undefined;
  const file = `${base}.recorded.bundle`;
  await deps.git.run(parent.path, ['bundle', 'create', '--quiet', file, head, '--not', ...saved.revs]);
  await fs.chmod(file, 0o600);
  return file;
}

async function archiveWork(sandbox: ScannedSandbox, base: string, deps: ArchiveDeps): Promise<string> {
  const location = sandbox.location;
  if (!location) throw new Error('its parent does not place it here: nothing to bundle against');
  const recorded = await deps.git.resolveCommit(location.parent.path, sandboxRefs(location).head);
  const captured = await captureSandbox(deps.engine, location, {
    image: await deps.image(),
    author: ARCHIVIST,
    committer: ARCHIVIST,
    exclude: recorded ? [recorded] : [],
    maxBytes: deps.maxBytes ?? ARCHIVE_MAX_BYTES,
    work: 'archive-capture',
  });
  try {
    const file = `${base}.bundle`;
    await fs.copyFile(captured.bundle, file);
    await fs.chmod(file, 0o600);
    return file;
  } finally {
    await fs.rm(captured.dir, { recursive: true, force: true });
  }
}

async function archiveFiles(sandbox: ScannedSandbox, base: string, deps: ArchiveDeps): Promise<string> {
  const file = `${base}.tar.gz`;
  const maxBytes = deps.maxBytes ?? ARCHIVE_MAX_BYTES;
  try {
    if (sandbox.hostPath) await tarOnHost(sandbox.hostPath, file, maxBytes);
    else await tarInHelper(sandbox, file, maxBytes, deps);
    await fs.chmod(file, 0o600);
    return file;
  } catch (error) {
    // Never a partial archive beside the real ones: the orphan is kept, and archived whole next time. A
    // file that was there already (the archive is created exclusively) is not ours to remove.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await fs.rm(file, { force: true });
    throw error;
  }
}

/** More entries than this in an orphan's folder and it is not archived (kept, with that reason). */
export const ARCHIVE_MAX_ENTRIES = 2_000_000;

/**
 * Why an orphan's folder cannot be archived within `maxBytes`, read with lstat alone (no link followed,
 * no file opened: a FIFO or a device cannot block the walk): a file whose apparent size is over the cap
 * (a sparse file of terabytes costs no room on disk but tar would read every zero), files that add up to
 * more, or more than `maxEntries` entries. Undefined when it fits. Names come from the sandbox: quoted.
 */
export async function whyNotArchivable(
  top: string,
  maxBytes: number,
  maxEntries = ARCHIVE_MAX_ENTRIES,
): Promise<string | undefined> {
  const name = (p: string) => `"${sandboxText(path.relative(top, p), 200)}"`;
  const pending = [top];
  let entries = 0;
  let total = 0;
  while (pending.length) {
    const dir = pending.pop()!;
    let current = dir;
    try {
      // opendir reads the listing a few entries at a time: a folder of millions costs no memory.
      for await (const entry of await fs.opendir(dir)) {
        if (++entries > maxEntries) return `it holds more than ${maxEntries} entries`;
        current = path.join(dir, entry.name);
        const st = await fs.lstat(current);
        if (st.isDirectory()) pending.push(current);
        else if (st.isFile()) {
          if (st.size > maxBytes)
            return `${name(current)} is ${st.size} bytes long (apparent size), more than the archive's cap of ${maxBytes} bytes`;
          total += st.size;
          if (total > maxBytes) return `its files add up to more than the archive's cap of ${maxBytes} bytes`;
        }
      }
    } catch (error) {
      return `${name(current)} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
    }
  }
  return undefined;
}

/**
 * A disk orphan's folder as a .tar.gz, by GNU tar on the host: after whyNotArchivable, under a time limit
 * (its process group killed: tar's gzip too) and a byte cap on what it writes (it writes to a pipe; the
 * file stops at the cap). `--sparse` stores a sparse file's holes as holes. tar stores links as links and
 * FIFOs, sockets and devices as entries, never opening them. Its environment is ours (no TAR_OPTIONS).
 */
async function tarOnHost(folder: string, file: string, maxBytes: number): Promise<void> {
  const refused = await whyNotArchivable(folder, maxBytes);
  if (refused) throw new Error(refused);
  const limitMs = timeLimitMs('archive-files');
  const result = await runStreaming(
    'tar',
    ['-C', path.dirname(folder), '--sparse', '-czf', '-', '--', path.basename(folder)],
    {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
      stdoutFile: { path: file, maxBytes },
      timeLimitMs: limitMs,
    },
  );
  if (result.timedOut)
    throw new TimeLimitError(
      'archive-files',
      folder,
      limitMs,
      'nothing was archived; the orphan is kept',
      true,
    );
  if (result.overLimit) throw new Error(`its archive grew over the cap of ${maxBytes} bytes`);
  if (result.exitCode !== 0)
    throw new Error(`tar failed (exit ${result.exitCode}): ${tarSaid(result.stderrTail.slice(-1)[0] ?? '')}`);
}

/**
 * A volume orphan's files: the same check in the helper (`find`: a file larger than the cap refuses the
 * volume), then tar writes the archive to its standard output, which the host writes to the file up to
 * the cap; under the helper's time limit. $1: the cap in bytes.
 */
const TAR_VOLUME_SCRIPT = `set -eu
big=$(find /v -type f -size +"$1"c | head -n 1)
if [ -n "$big" ]; then echo "a file is larger than the archive's cap of $1 bytes (apparent size)" >&2; exit 3; fi
exec tar -C /v -czf - .
`;

async function tarInHelper(
  sandbox: ScannedSandbox,
  file: string,
  maxBytes: number,
  deps: ArchiveDeps,
): Promise<void> {
  const result = await deps.engine.runHelper(
    {
      remove: true,
      image: await deps.image(),
      user: userArg(),
      labels: HELPER_LABELS,
      mounts: [{ type: 'volume', source: sandbox.volume!, target: '/v', readonly: true }],
      entrypoint: 'sh',
      args: ['-c', TAR_VOLUME_SCRIPT, 'archive-volume', String(maxBytes)],
    },
    {
      work: 'archive-volume',
      where: `volume ${sandbox.volume!}`,
      consequence: 'nothing was archived; the orphan is kept',
      unmapped: true,
    },
    { stdoutFile: { path: file, maxBytes } },
  );
  if (result.overLimit) throw new Error(`its archive grew over the cap of ${maxBytes} bytes`);
  if (result.exitCode !== 0)
    throw new Error(
      `tar failed in the helper container (exit ${result.exitCode}): ${tarSaid(result.stderrTail.slice(-1)[0] ?? '')}`,
    );
}

/** tar's first line of complaint: it names the sandbox's files, so it is escaped (lone `\r` included). */
function tarSaid(stderr: string): string {
  return sandboxText(stderr.trim().split('\n')[0], 1_000);
}
