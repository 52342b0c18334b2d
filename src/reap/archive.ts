// Saving what a removal would lose, into `archive-dir`, without running git on the host in the sandbox:
//  - work of a sandbox removed by `force: true`: run mode's capture helper makes a bundle of it in a
//    helper container (HEAD, its branch, and a snapshot commit of the uncommitted files as
//    `refs/worktree-sandbox/snapshot`), stopping at the commit the parent recorded for it; the bundle is
//    saved as it is;
//  - an orphan (git can check nothing): all its files as a .tar.gz (links stored as links).
// Files are named `<archive-dir>/<project>/<sandbox>.<isolation>.<UTC time>.<ext>`.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { containerRunArgs, userArg } from '../engine/container-args.js';
import type { ContainerEngine } from '../engine/engine.js';
import type { Git } from '../engine/git.js';
import { HELPER_LABELS } from '../engine/labels.js';
import { runProcess } from '../engine/proc.js';
import { captureSandbox } from '../run/capture.js';
import { sandboxRefs } from '../sandbox/bookkeeping.js';
import type { Identity } from '../settings.js';
import type { ArchiveKind } from './gates.js';
import type { ScannedSandbox } from './scan.js';

export interface ArchiveDeps {
  git: Git;
  engine: ContainerEngine;
  image: string;
  archiveDir: string;
  now: Date;
}

/** Who the snapshot commit of uncommitted work is by. */
const ARCHIVIST: Identity = { name: 'worktree-sandbox reaper', email: 'worktree-sandbox@localhost' };
const ARCHIVE_MAX_BYTES = 8 * 1024 ** 3;
const ARCHIVE_TIMEOUT_MS = 30 * 60_000;

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
  return kind === 'files'
    ? [await archiveFiles(sandbox, base, deps)]
    : [await archiveWork(sandbox, base, deps)];
}

async function archiveWork(sandbox: ScannedSandbox, base: string, deps: ArchiveDeps): Promise<string> {
  const location = sandbox.location;
  if (!location) throw new Error('its parent does not place it here: nothing to bundle against');
  const recorded = await deps.git.resolveCommit(location.parent.path, sandboxRefs(location).head);
  const captured = await captureSandbox(deps.engine, location, {
    image: deps.image,
    author: ARCHIVIST,
    committer: ARCHIVIST,
    exclude: recorded ? [recorded] : [],
    maxBytes: ARCHIVE_MAX_BYTES,
    timeoutMs: ARCHIVE_TIMEOUT_MS,
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
  if (sandbox.hostPath) {
    const result = await runProcess(
      'tar',
      ['-C', path.dirname(sandbox.hostPath), '-czf', file, '--', path.basename(sandbox.hostPath)],
      { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' } },
    );
    if (result.exitCode !== 0) throw new Error(`tar failed: ${result.stderr.trim().split('\n')[0]}`);
    return file;
  }
  const result = await deps.engine.exec(
    containerRunArgs(
      deps.engine.name,
      {
        remove: true,
        image: deps.image,
        user: userArg(),
        labels: HELPER_LABELS,
        mounts: [
          { type: 'volume', source: sandbox.volume!, target: '/v', readonly: true },
          { type: 'bind', source: path.dirname(file), target: '/archive' },
        ],
        entrypoint: 'tar',
        args: ['-C', '/v', '-czf', `/archive/${path.basename(file)}`, '.'],
      },
      await deps.engine.bindSource(),
    ),
  );
  if (result.exitCode !== 0)
    throw new Error(`tar failed in the helper container: ${result.stderr.trim().split('\n')[0]}`);
  return file;
}
