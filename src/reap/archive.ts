// Saving what a removal would lose, into `archive-dir`:
//  - work of a sandbox removed by `force: true`: its uncommitted changes as a patch (untracked files
//    included) and its commits that no remote has as a bundle;
//  - an orphan (git can check nothing): all its files as a .tar.gz (links stored as links).
// Files are named `<archive-dir>/<project>/<sandbox>.<isolation>.<UTC time>.<ext>`.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { ContainerEngine } from '../engine/engine.js';
import type { Git } from '../engine/git.js';
import { PATCH_SCRIPT } from '../run/cleanup.js';
import { runProcess } from '../engine/proc.js';
import { helperContainerArgs, mountArg, runInWorktree, type SandboxLocation } from '../sandbox/layout.js';
import type { ArchiveKind } from './gates.js';
import type { ScannedSandbox } from './scan.js';

export interface ArchiveDeps {
  git: Git;
  engine: ContainerEngine;
  image: string;
  archiveDir: string;
  now: Date;
}

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
  return kind === 'files' ? [await archiveFiles(sandbox, base, deps)] : archiveWork(sandbox, base, deps);
}

async function archiveWork(sandbox: ScannedSandbox, base: string, deps: ArchiveDeps): Promise<string[]> {
  const { git } = deps;
  if (!sandbox.parent || !sandbox.entry)
    throw new Error('its registration in the parent is gone: nothing to diff against');
  const location: SandboxLocation = {
    name: sandbox.sandbox,
    kind: 'persistent',
    project: sandbox.project,
    isolation: sandbox.isolation,
    branch: '',
    parent: { path: sandbox.parent.path, gitDir: sandbox.parent.gitDir },
    worktreePath: sandbox.hostPath ?? `/sandbox/${sandbox.sandbox}`,
    hostPath: sandbox.hostPath,
    volume: sandbox.volume,
  };
  const written: string[] = [];
  const patch = await runInWorktree(git, deps.engine, location, deps.image, PATCH_SCRIPT, ['HEAD']);
  if (patch.exitCode !== 0)
    throw new Error(`the patch could not be made: ${patch.stderr.trim().split('\n')[0]}`);
  if (patch.stdout) {
    await fs.writeFile(`${base}.patch`, patch.stdout, { mode: 0o600 });
    written.push(`${base}.patch`);
  }
  const bundle = `${base}.bundle`;
  const made = await git.exec(sandbox.parent.path, [
    `--git-dir=${sandbox.entry.adminDir}`,
    'bundle',
    'create',
    '--quiet',
    bundle,
    'HEAD',
    '--not',
    '--remotes',
  ]);
  if (made.exitCode === 0) written.push(bundle);
  else if (!/empty bundle/i.test(made.stderr))
    throw new Error(`the bundle could not be made: ${made.stderr.trim().split('\n')[0]}`);
  return written;
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
    helperContainerArgs({
      mounts: [
        mountArg({ type: 'volume', source: sandbox.volume!, target: '/v', readonly: true }),
        mountArg({ type: 'bind', source: path.dirname(file), target: '/archive' }),
      ],
      image: deps.image,
      entrypoint: 'tar',
      args: ['-C', '/v', '-czf', `/archive/${path.basename(file)}`, '.'],
    }),
  );
  if (result.exitCode !== 0)
    throw new Error(`tar failed in the helper container: ${result.stderr.trim().split('\n')[0]}`);
  return file;
}
