// Sandboxes for the reaper's tests, made the way run mode makes them (prepareSandbox: a repository of
// its own borrowing the parent's objects, and the parent's records of it), then aged by moving their
// activity signals back in time: `utimes` on disk, `touch -d` in a helper container for volumes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ContainerEngine, type EngineName } from '../../src/engine/engine.js';
import { Git } from '../../src/engine/git.js';
import { volumeLabels } from '../../src/engine/labels.js';
import { planBranch, resolveBranch, type BranchPlan } from '../../src/sandbox/branch.js';
import { prepareSandbox } from '../../src/sandbox/create.js';
import { locateSandbox, type DiskSandbox, type VolumeSandbox } from '../../src/sandbox/layout.js';
import { projectName } from '../../src/sandbox/naming.js';
import { findParentRepository } from '../../src/sandbox/repository.js';
import { engineCli, type Engine } from './docker.js';
import { TEST_IMAGE } from './env.js';
import { git, type TestRepo } from './repo.js';

export const DAY = 86_400_000;
/** The files of a sandbox's .git whose mtimes are activity signals (besides the work tree folder). */
export const SIGNAL_FILES = ['index', 'HEAD', 'logs/HEAD'];

/** `<root>/<project>` for a parent, as run mode computes it (real paths). */
export function projectDir(root: string, parent: string): string {
  return path.join(fs.realpathSync(root), projectName(fs.realpathSync(parent)));
}

interface PlanOptions {
  /** A branch (made from the parent's HEAD when it exists nowhere); none: a detached transient sandbox. */
  branch?: string;
  /** The sandbox's name (default: run mode's name for the branch, or `exploration-0000000a`). */
  name?: string;
}

async function plan(gitCli: Git, repo: TestRepo, options: PlanOptions) {
  const parent = await findParentRepository(gitCli, repo.parent);
  let planned: BranchPlan;
  if (options.branch) planned = await resolveBranch(gitCli, parent, options.branch, '');
  else
    planned = planBranch(
      {
        branch: '',
        localExists: false,
        remoteExists: false,
        baseCommit: git(parent.path, 'rev-parse', 'HEAD'),
      },
      () => options.name ?? 'exploration-0000000a',
    );
  return { parent, plan: { ...planned, sandbox: options.name ?? planned.sandbox } };
}

export interface DiskSandboxOptions {
  branch?: string;
  ageDays?: number;
}

/** A disk sandbox `<root>/<project>/<name>` made by prepareSandbox, aged `ageDays`; returns its folder. */
export async function makeDiskSandbox(
  repo: TestRepo,
  root: string,
  name: string,
  options: DiskSandboxOptions = {},
): Promise<string> {
  const gitCli = await Git.create();
  const { parent, plan: planned } = await plan(gitCli, repo, { branch: options.branch, name });
  const location = locateSandbox(planned, parent, 'disk', fs.realpathSync(root), 'unused') as DiskSandbox;
  await prepareSandbox(gitCli, new ContainerEngine('docker'), location, planned, TEST_IMAGE, {
    info: () => undefined,
  });
  if (options.ageDays) age(location.hostPath, options.ageDays);
  return location.hostPath;
}

/** Moves every activity signal of a disk sandbox `days` back: its folder and its .git files. */
export function age(worktree: string, days: number): void {
  const when = new Date(Date.now() - days * DAY);
  for (const p of [worktree, ...SIGNAL_FILES.map((f) => path.join(worktree, '.git', f))])
    if (fs.existsSync(p)) fs.utimesSync(p, when, when);
}

/** The signals as mtimes (ms), to show that a check did not move them. */
export function signalTimes(worktree: string): number[] {
  return [worktree, ...SIGNAL_FILES.map((f) => path.join(worktree, '.git', f))].map(
    (p) => fs.statSync(p).mtimeMs,
  );
}

export interface MadeVolumeSandbox {
  location: VolumeSandbox;
  volume: string;
  engine: Engine;
}

/**
 * A volume sandbox made by run mode's own code (prepareSandbox), in a volume created beforehand with a
 * `created` label `ageDays` back, then aged like a disk sandbox (inside the volume).
 */
export async function makeVolumeSandbox(
  repo: TestRepo,
  prefix: string,
  options: { branch?: string; transientName?: string; ageDays: number; engine?: EngineName },
): Promise<MadeVolumeSandbox> {
  const gitCli = await Git.create();
  const engineName = options.engine ?? 'docker';
  const engine = new ContainerEngine(engineName);
  const { parent, plan: planned } = await plan(gitCli, repo, {
    branch: options.branch,
    name: options.branch ? undefined : (options.transientName ?? 'exploration-0000000a'),
  });
  const location = locateSandbox(planned, parent, 'container', '/nonexistent', prefix) as VolumeSandbox;
  await engine.createVolume(
    location.volume,
    volumeLabels({ ...location, parentPath: parent.path }, new Date(Date.now() - options.ageDays * DAY)),
  );
  await prepareSandbox(gitCli, engine, location, planned, TEST_IMAGE, { info: () => undefined });
  const made = { location, volume: location.volume, engine: engineName };
  ageVolume(made, options.ageDays);
  return made;
}

/** Runs `sh -c script` with the volume at /sandbox and `$1` the sandbox's work tree; returns stdout. */
export function inVolumeSandbox(made: MadeVolumeSandbox, script: string): string {
  const stores = made.location.parent.objectStores.flatMap((dir) => [
    '--mount',
    `type=bind,source=${dir},target=${dir},ro`,
  ]);
  return engineCli(
    made.engine,
    'run',
    '--rm',
    '--mount',
    `type=volume,source=${made.volume},target=/sandbox`,
    ...stores,
    '--entrypoint',
    'sh',
    TEST_IMAGE,
    '-c',
    script,
    'test',
    made.location.worktreePath,
  );
}

/** Git in a volume sandbox, as its command would run it. */
export function gitInVolume(made: MadeVolumeSandbox, args: string): string {
  return inVolumeSandbox(
    made,
    `cd "$1" && git -c safe.directory='*' -c user.name=bot -c user.email=bot@example.com ${args}`,
  );
}

export function ageVolume(made: MadeVolumeSandbox, days: number): void {
  const when = Math.floor((Date.now() - days * DAY) / 1000);
  inVolumeSandbox(
    made,
    `for p in "$1" ${SIGNAL_FILES.map((f) => `"$1/.git/${f}"`).join(' ')}; do touch -c -h -d @${when} "$p"; done`,
  );
}

export function volumeSignalTimes(made: MadeVolumeSandbox): string {
  return inVolumeSandbox(made, `stat -c %.9Y "$1" ${SIGNAL_FILES.map((f) => `"$1/.git/${f}"`).join(' ')}`);
}
