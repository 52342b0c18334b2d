// Sandboxes for the reaper's tests, made the way run mode makes them (real `git worktree add`, real
// volumes through prepareSandbox), then aged by moving their activity signals back in time.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { planBranch, resolveBranch } from '../../src/sandbox/branch.js';
import { ContainerEngine, type EngineName } from '../../src/engine/engine.js';
import { Git } from '../../src/engine/git.js';
import { projectName, volumeName } from '../../src/sandbox/naming.js';
import { findParentRepository } from '../../src/sandbox/repository.js';
import {
  locateSandbox,
  prepareSandbox,
  volumeLabels,
  type SandboxLocation,
} from '../../src/sandbox/layout.js';
import { silentUi } from '../../src/run/ui.js';
import { findWorktreeEntry } from '../../src/worktree-metadata.js';
import { TEST_IMAGE } from './env.js';
import { git, type TestRepo } from './repo.js';

export const DAY = 86_400_000;

/** `<root>/<project>` for a parent, as run mode computes it (real paths). */
export function projectDir(root: string, parent: string): string {
  return path.join(fs.realpathSync(root), projectName(fs.realpathSync(parent)));
}

export interface DiskSandboxOptions {
  /** A branch to create from origin/main (no upstream); none: a detached transient sandbox. */
  branch?: string;
  ageDays?: number;
}

/** A disk sandbox `<root>/<project>/<name>` made with `git worktree add`, aged `ageDays`. */
export function makeDiskSandbox(
  repo: TestRepo,
  root: string,
  name: string,
  options: DiskSandboxOptions = {},
): string {
  const dir = path.join(projectDir(root, repo.parent), name);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  if (options.branch)
    git(repo.parent, 'worktree', 'add', '--quiet', '--no-track', '-b', options.branch, dir, 'origin/main');
  else git(repo.parent, 'worktree', 'add', '--quiet', '--detach', dir, 'HEAD');
  if (options.ageDays) age(dir, options.ageDays);
  return dir;
}

/** The admin folder (`<parent>/.git/worktrees/<id>`) of a disk worktree. */
export function adminDirOf(worktree: string): string {
  const text = fs.readFileSync(path.join(worktree, '.git'), 'utf8');
  return path.resolve(worktree, /^gitdir: (.+)$/m.exec(text)![1].trim());
}

/** Moves every activity signal of a sandbox `days` back: its folder (disk) and its admin folder files. */
export function age(
  worktree: string | undefined,
  days: number,
  adminDir = worktree && adminDirOf(worktree),
): void {
  const when = new Date(Date.now() - days * DAY);
  const paths = [worktree, adminDir];
  if (adminDir)
    for (const f of ['index', 'HEAD', 'ORIG_HEAD', 'logs/HEAD']) paths.push(path.join(adminDir, f));
  for (const p of paths) if (p && fs.existsSync(p)) fs.utimesSync(p, when, when);
}

/** The signals as mtimes (ms), to show that a check did not move them. */
export function signalTimes(adminDir: string): number[] {
  return ['', 'index', 'HEAD', 'logs/HEAD'].map((f) => fs.statSync(path.join(adminDir, f)).mtimeMs);
}

export interface VolumeSandbox {
  location: SandboxLocation;
  volume: string;
  adminDir: string;
}

/**
 * A volume sandbox made by run mode's own code (prepareSandbox), in a volume created beforehand with a
 * `created` label `createdDaysAgo` back, then aged like a disk sandbox.
 */
export async function makeVolumeSandbox(
  repo: TestRepo,
  prefix: string,
  options: { branch?: string; transientName?: string; ageDays: number; engine?: EngineName },
): Promise<VolumeSandbox> {
  const gitCli = await Git.create();
  const engine = new ContainerEngine(options.engine ?? 'docker');
  const parent = await findParentRepository(gitCli, repo.parent);
  const plan = options.branch
    ? await resolveBranch(gitCli, parent, options.branch, '')
    : planBranch(
        {
          branch: '',
          localExists: false,
          remoteExists: false,
          baseCommit: git(parent.path, 'rev-parse', 'HEAD'),
        },
        () => options.transientName ?? 'exploration-0000000a',
      );
  const location = locateSandbox(plan, parent, 'container', '/nonexistent', prefix);
  const volume = volumeName(prefix, location.project, location.name);
  await engine.createVolume(volume, volumeLabels(location, new Date(Date.now() - options.ageDays * DAY)));
  await prepareSandbox(gitCli, engine, location, plan, TEST_IMAGE, silentUi);
  const entry = await findWorktreeEntry(parent.gitDir, location.worktreePath);
  age(undefined, options.ageDays, entry!.adminDir);
  return { location, volume, adminDir: entry!.adminDir };
}
