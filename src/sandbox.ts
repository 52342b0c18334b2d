// The sandbox lifecycle: find, create (or reuse as it is), inspect and remove one sandbox, on disk or in
// a container volume. Every change to the parent's metadata happens under the repository lock.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { worktreeAddArgs, type BranchPlan } from './branch.js';
import { gitConfigEnv, type Git } from './git.js';
import type { ContainerEngine } from './docker.js';
import { MANAGED_LABEL, LABEL_PREFIX } from './docker.js';
import { verifyParent } from './guard.js';
import { withRepositoryLock } from './lock.js';
import { announceEntries, announceRefs, guardsOpen, setParentConfig } from './metadata-changes.js';
import {
  diskWorktreePath,
  projectName,
  volumeName,
  volumeWorktreePath,
  VOLUME_MOUNT,
  type SandboxKind,
} from './naming.js';
import { runProcess, type ProcResult } from './proc.js';
import type { ParentRepository } from './repository.js';
import type { Isolation } from './settings.js';
import type { Ui } from './ui.js';
import { dropEntry, findWorktreeEntry, INITIALIZING, lockEntry, markUsed } from './worktree-metadata.js';

export interface SandboxLocation {
  name: string;
  kind: SandboxKind;
  project: string;
  isolation: Isolation;
  branch: string;
  parent: ParentRepository;
  /** The worktree as the container sees it (for disk sandboxes, also the host path). */
  worktreePath: string;
  /** Disk sandboxes: the host path. */
  hostPath?: string;
  /** Volume sandboxes: the volume's name. */
  volume?: string;
}

export interface Sandbox extends SandboxLocation {
  reused: boolean;
  /** HEAD when the run started. */
  startSha: string;
}

export interface HostIdentity {
  uid: number;
  gid: number;
}

export function currentIdentity(): HostIdentity {
  return { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
}

export function locateSandbox(
  plan: Pick<BranchPlan, 'sandbox' | 'kind' | 'branch'>,
  parent: ParentRepository,
  isolation: Isolation,
  worktreeRoot: string,
  volumePrefix: string,
): SandboxLocation {
  const project = projectName(parent.path);
  const base = { name: plan.sandbox, kind: plan.kind, project, isolation, branch: plan.branch, parent };
  if (isolation === 'disk') {
    const hostPath = diskWorktreePath(worktreeRoot, project, plan.sandbox);
    return { ...base, worktreePath: hostPath, hostPath };
  }
  return {
    ...base,
    worktreePath: volumeWorktreePath(plan.sandbox),
    volume: volumeName(volumePrefix, project, plan.sandbox),
  };
}

export function volumeLabels(location: SandboxLocation, now: Date = new Date()): Record<string, string> {
  return {
    [MANAGED_LABEL]: 'true',
    [`${LABEL_PREFIX}.project`]: location.project,
    [`${LABEL_PREFIX}.sandbox`]: location.name,
    [`${LABEL_PREFIX}.kind`]: location.kind,
    [`${LABEL_PREFIX}.branch`]: location.branch,
    [`${LABEL_PREFIX}.parent`]: location.parent.path,
    [`${LABEL_PREFIX}.created`]: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
}

/** A bind or volume mount in `--mount` syntax (CSV: a field with a comma or quote is quoted). */
export function mountArg(fields: Record<string, string | true>): string {
  return (
    Object.entries(fields)
      // `ro`, not `readonly`: Podman (4.3) refuses `readonly` on volume mounts; both engines take `ro`.
      .map(([k, v]) => (k === 'readonly' ? 'ro' : k) + (v === true ? '' : `=${v}`))
      .map((f) => (/[",]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f))
      .join(',')
  );
}

/** The surgical mount (ADR 0035): parent read-only, its .git read-write, the worktree read-write. */
export function sandboxMounts(location: SandboxLocation): string[] {
  return sandboxMountList(location).flatMap((m) => ['--mount', m]);
}

function sandboxMountList(location: SandboxLocation): string[] {
  const { parent } = location;
  const mounts = [
    mountArg({ type: 'bind', source: parent.path, target: parent.path, readonly: true }),
    mountArg({ type: 'bind', source: parent.gitDir, target: parent.gitDir }),
  ];
  if (location.volume)
    mounts.push(mountArg({ type: 'volume', source: location.volume, target: VOLUME_MOUNT }));
  else mounts.push(mountArg({ type: 'bind', source: location.hostPath!, target: location.hostPath! }));
  return mounts;
}

/**
 * The arguments of every helper container (the action's own scripts, never the user's command): removed
 * when done, no network, the runner's uid:gid unless said otherwise, no capabilities but those named,
 * labelled as ours; `entrypoint` runs `image` with `args`.
 */
export function helperContainerArgs(options: {
  mounts: readonly string[];
  image: string;
  entrypoint: string;
  args: readonly string[];
  user?: string;
  capAdd?: readonly string[];
  workdir?: string;
  envNames?: readonly string[];
}): string[] {
  const id = currentIdentity();
  const run = [
    'run',
    '--rm',
    '--network',
    'none',
    '--user',
    options.user ?? `${id.uid}:${id.gid}`,
    '--cap-drop',
    'ALL',
  ];
  for (const cap of options.capAdd ?? []) run.push('--cap-add', cap);
  run.push('--security-opt', 'no-new-privileges');
  run.push('--label', `${MANAGED_LABEL}=true`, '--label', `${LABEL_PREFIX}.role=helper`);
  for (const mount of options.mounts) run.push('--mount', mount);
  if (options.workdir) run.push('--workdir', options.workdir);
  for (const name of options.envNames ?? []) run.push('-e', name);
  return [...run, '--entrypoint', options.entrypoint, '--', options.image, ...options.args];
}

export class SandboxConflictError extends Error {}

/**
 * Creates the sandbox, or reuses it exactly as it is (uncommitted files and all). Recovers what a killed
 * run half-created; refuses, with the reason, anything it cannot recognise as its own.
 */
export async function prepareSandbox(
  git: Git,
  engine: ContainerEngine,
  location: SandboxLocation,
  plan: BranchPlan,
  image: string,
  ui: Pick<Ui, 'info' | 'warning'>,
): Promise<Sandbox> {
  const { parent } = location;
  const log = (msg: string) => ui.info(msg);
  const reused = await withRepositoryLock(parent.gitDir, async () => {
    // What a command running in another sandbox changed is undone before anything is read from the parent.
    await verifyParent(git, engine, parent, location.name, ui);
    const pinned = await pinStartPoint(git, location, plan);
    if (location.volume) return prepareVolume(git, engine, location, pinned, image, log);
    return prepareDisk(git, location, pinned, log);
  });
  const startSha = await readHead(git, location);
  const entry = await findWorktreeEntry(parent.gitDir, location.worktreePath);
  if (entry) await markUsed(entry);
  return { ...location, reused, startSha };
}

/** A branch only on origin starts at the commit origin/<branch> names now (read under the lock). */
async function pinStartPoint(git: Git, location: SandboxLocation, plan: BranchPlan): Promise<BranchPlan> {
  if (plan.source !== 'remote') return plan;
  const sha = await git.resolveCommit(location.parent.path, `refs/remotes/origin/${plan.branch}`);
  if (!sha) throw new Error(`origin/${plan.branch} disappeared while sandbox ${location.name} was prepared.`);
  return { ...plan, startPoint: sha };
}

async function checkoutForce(git: Git, parent: ParentRepository, plan: BranchPlan): Promise<boolean> {
  if (plan.source !== 'local') return false;
  // The branch may be checked out in the parent's own work tree (a workflow that checked it out):
  // git refuses a second checkout unless forced. Other sandboxes holding it are refused, not forced.
  const head = await git.exec(parent.path, ['symbolic-ref', '-q', 'HEAD']);
  return head.stdout.trim() === `refs/heads/${plan.branch}`;
}

async function prepareDisk(
  git: Git,
  location: SandboxLocation,
  plan: BranchPlan,
  log: (msg: string) => void,
): Promise<boolean> {
  const hostPath = location.hostPath!;
  const { parent } = location;
  const entry = await findWorktreeEntry(parent.gitDir, hostPath);
  const dirExists = await exists(hostPath);
  if (entry && entry.locked !== INITIALIZING && dirExists && (await exists(path.join(hostPath, '.git')))) {
    return true;
  }
  if (entry && !dirExists) {
    log(`The worktree folder ${hostPath} is gone; dropping its stale registration.`);
    await dropEntry(parent.gitDir, entry);
  } else if (entry) {
    log(`Recovering ${hostPath}: a run was killed while creating it.`);
    await fs.rm(hostPath, { recursive: true, force: true });
    await dropEntry(parent.gitDir, entry);
  } else if (dirExists) {
    const names = await fs.readdir(hostPath);
    if (names.some((n) => n !== '.git')) {
      throw new SandboxConflictError(
        `${hostPath} exists and holds files, but ${parent.path} has no worktree registered there: it is not touched. Move it away or remove it, then run again.`,
      );
    }
    log(`Removing the empty leftover folder ${hostPath}.`);
    await fs.rm(hostPath, { recursive: true, force: true });
  }
  await fs.mkdir(path.dirname(hostPath), { recursive: true });
  const args = worktreeAddArgs(plan, hostPath, false);
  if (await checkoutForce(git, parent, plan)) args.splice(2, 0, '--force');
  const result = await git.exec(parent.path, args);
  await announceCreation(git, location, plan, result.exitCode === 0);
  if (result.exitCode !== 0) {
    // The folder did not exist before this call (checked above): whatever git left of it is ours to remove.
    const leftover = await findWorktreeEntry(parent.gitDir, hostPath);
    if (leftover) await dropEntry(parent.gitDir, leftover);
    await fs.rm(hostPath, { recursive: true, force: true });
    const detail = result.stderr || result.stdout;
    throw new Error(
      `${await writeFailureHint(path.dirname(hostPath), detail)}${explainAddFailure(plan, detail)}`,
    );
  }
  return false;
}

/**
 * What `git worktree add` changed in the parent's shared metadata (the registration, a new branch, a
 * branch's upstream), announced to the git guards of commands running meanwhile. Called whether it
 * succeeded or not: git may have created the branch before failing.
 */
async function announceCreation(
  git: Git,
  location: SandboxLocation,
  plan: BranchPlan,
  succeeded: boolean,
): Promise<void> {
  const { parent } = location;
  if (succeeded && plan.source === 'remote') {
    // What `--track` would have written, as an edit the guards know of.
    await setParentConfig(git, parent, [
      [`branch.${plan.branch}.remote`, 'origin'],
      [`branch.${plan.branch}.merge`, `refs/heads/${plan.branch}`],
    ]);
  }
  if (!(await guardsOpen(parent))) return;
  if (plan.source === 'new' || plan.source === 'remote') {
    // The branch is ours only if it is where we created it: a branch of that name a command made meanwhile
    // (git then refuses) is never recorded as trusted.
    const name = `refs/heads/${plan.branch}`;
    if ((await git.resolveCommit(parent.path, name)) === plan.startPoint)
      await announceRefs(git, parent, [{ name, value: plan.startPoint }]);
  }
  const entry = await findWorktreeEntry(parent.gitDir, location.worktreePath);
  if (entry) await announceEntries(parent.gitDir, [entry.adminDir]);
}

/** git's refusal to check a branch out twice, said in the sandbox's terms. */
function explainAddFailure(plan: BranchPlan, detail: string): string {
  const elsewhere = /already (?:checked out|used by worktree) at '([^']+)'/.exec(detail);
  if (elsewhere) {
    return `Branch ${plan.branch} is already checked out in another worktree (${elsewhere[1]}): a branch lives in one sandbox at a time. Use that sandbox (same isolation), or remove it first.`;
  }
  return `Could not create the worktree: ${detail.trim()}`;
}

/** git only says it could not write a file: say where, and how much room is left once it cleaned up. */
async function writeFailureHint(dir: string, message: string): Promise<string> {
  if (!/unable to write|no space left|write error|short write|could not write/i.test(message)) return '';
  const stats = await fs.statfs(dir).catch(() => undefined);
  const free = stats
    ? `, ${Math.floor((stats.bavail * stats.bsize) / 1024)} KiB free now that git removed what it wrote`
    : '';
  return `Writing the worktree under ${dir} failed (No space left on device?${free}): the sandbox was not created. `;
}

/**
 * Creates the worktree inside the volume from a short-lived helper container: as root only to hand the
 * volume to the runner's user, then git runs as that user (setpriv, or chroot --userspec).
 */
const VOLUME_CREATE_SCRIPT = `set -eu
uid="$1"; gid="$2"; wt="$3"; recover="$4"; shift 4
as_user() {
  if [ "$uid" = 0 ]; then "$@"
  elif command -v setpriv >/dev/null 2>&1; then setpriv --reuid="$uid" --regid="$gid" --clear-groups "$@"
  else chroot --userspec="$uid:$gid" / "$@"; fi
}
chown "$uid:$gid" /sandbox
if [ -e "$wt" ] || [ -L "$wt" ]; then
  if [ "$recover" = 1 ] || [ -z "$(ls -A "$wt" | grep -vx '.git' || true)" ]; then
    as_user rm -rf -- "$wt"
  else
    echo "worktree-sandbox: $wt holds files but the parent repository has no record of it; refusing to overwrite them" >&2
    exit 3
  fi
fi
as_user "$@"
`;

async function prepareVolume(
  git: Git,
  engine: ContainerEngine,
  location: SandboxLocation,
  plan: BranchPlan,
  image: string,
  log: (msg: string) => void,
): Promise<boolean> {
  const volume = location.volume!;
  const { parent } = location;
  const [entry, volumeExists] = await Promise.all([
    findWorktreeEntry(parent.gitDir, location.worktreePath),
    engine.volumeExists(volume),
  ]);
  if (entry && entry.locked !== INITIALIZING && volumeExists) return true;
  let recover = false;
  if (entry && !volumeExists) {
    log(`Volume ${volume} is gone; dropping its stale registration.`);
    await dropEntry(parent.gitDir, entry);
  } else if (entry) {
    log(`Recovering volume ${volume}: a run was killed while creating it.`);
    await dropEntry(parent.gitDir, entry);
    recover = true;
  }
  if (!volumeExists) await engine.createVolume(volume, volumeLabels(location));
  const id = currentIdentity();
  const add = worktreeAddArgs(plan, location.worktreePath, true);
  if (await checkoutForce(git, parent, plan)) add.splice(2, 0, '--force');
  const configEnv = { ...gitConfigEnv(), HOME: '/tmp' };
  const result = await engine.exec(
    helperContainerArgs({
      // root only to hand the fresh volume to the runner's user; the script then drops to that user
      user: '0:0',
      capAdd: ['CHOWN', 'SETUID', 'SETGID', 'SYS_CHROOT', 'DAC_OVERRIDE', 'FOWNER'],
      mounts: sandboxMountList(location),
      workdir: parent.path,
      envNames: Object.keys(configEnv),
      image,
      entrypoint: 'sh',
      args: [
        '-c',
        VOLUME_CREATE_SCRIPT,
        'create-sandbox',
        String(id.uid),
        String(id.gid),
        location.worktreePath,
        recover ? '1' : '0',
        'git',
        '-C',
        parent.path,
        ...add,
      ],
    }),
    { env: configEnv },
  );
  await announceCreation(git, location, plan, result.exitCode === 0);
  const created = await findWorktreeEntry(parent.gitDir, location.worktreePath);
  if (result.exitCode !== 0 || !created) {
    if (created) await dropEntry(parent.gitDir, created);
    if (!volumeExists) await engine.removeVolume(volume).catch(() => undefined);
    throw new Error(
      `${explainAddFailure(plan, result.stderr || result.stdout || `exit ${result.exitCode}`)} (volume ${volume})`,
    );
  }
  // Locked while the volume exists: the host cannot resolve /sandbox/..., so it sees it as prunable.
  await lockEntry(created, `worktree-sandbox volume ${volume}`);
  return false;
}

async function readHead(git: Git, location: SandboxLocation): Promise<string> {
  const entry = await findWorktreeEntry(location.parent.gitDir, location.worktreePath);
  if (!entry)
    throw new Error(`Sandbox ${location.name} has no worktree registration in ${location.parent.path}.`);
  // The worktree's HEAD lives in its admin folder on the host, whatever the isolation.
  return (
    await git.run(location.parent.path, ['--git-dir', entry.adminDir, 'rev-parse', '--verify', 'HEAD'])
  ).trim();
}

/** Runs one of our scripts in the worktree: on the host for disk sandboxes, in a helper container for volumes. */
export async function runInWorktree(
  git: Git,
  engine: ContainerEngine,
  location: SandboxLocation,
  image: string,
  script: string,
  args: readonly string[],
  extraEnv: Record<string, string> = {},
): Promise<ProcResult> {
  // The worktree's `.git` file is the command's to rewrite (it could point at a repository it made, with
  // its own config): our scripts name the worktree's git directory explicitly instead of reading it.
  const entry = await findWorktreeEntry(location.parent.gitDir, location.worktreePath);
  if (!entry)
    throw new Error(`Sandbox ${location.name} has no worktree registration in ${location.parent.path}.`);
  extraEnv = { ...extraEnv, GIT_DIR: entry.adminDir, GIT_WORK_TREE: location.worktreePath };
  if (location.hostPath) {
    return runProcess('sh', ['-c', script, 'worktree-sandbox', ...args], {
      cwd: location.hostPath,
      env: git.scriptEnv(extraEnv),
    });
  }
  const env = {
    ...gitConfigEnv(),
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    HOME: '/tmp',
    LC_ALL: 'C',
    ...extraEnv,
  };
  return engine.exec(
    helperContainerArgs({
      mounts: sandboxMountList(location),
      workdir: location.worktreePath,
      envNames: Object.keys(env),
      image,
      entrypoint: 'sh',
      args: ['-c', script, 'worktree-sandbox', ...args],
    }),
    { env },
  );
}

/**
 * git's lock files in the sandbox's own admin folder (`index.lock`, `HEAD.lock`) left by a command that was
 * killed: this run holds the sandbox's lock and any earlier container is gone, so no git process can own
 * them. Without this the next command's `git commit` fails. Locks of the shared parent are never touched.
 */
export async function clearStaleWorktreeLocks(
  location: SandboxLocation,
  log: (msg: string) => void,
): Promise<void> {
  const entry = await findWorktreeEntry(location.parent.gitDir, location.worktreePath);
  if (!entry) return;
  for (const name of ['index.lock', 'HEAD.lock']) {
    const file = path.join(entry.adminDir, name);
    if (!(await exists(file))) continue;
    await fs.rm(file, { force: true });
    log(`Removed ${name} left in sandbox ${location.name} by an interrupted git command.`);
  }
}

/** Removes the sandbox (volume or folder) and exactly its metadata entry in the parent; nothing else. */
export async function removeSandbox(engine: ContainerEngine, location: SandboxLocation): Promise<void> {
  const { parent } = location;
  await withRepositoryLock(parent.gitDir, async () => {
    if (location.volume) {
      await engine.removeVolume(location.volume);
    } else {
      await fs.rm(location.hostPath!, { recursive: true, force: true });
      await fs.rmdir(path.dirname(location.hostPath!)).catch(() => undefined);
    }
    const entry = await findWorktreeEntry(parent.gitDir, location.worktreePath);
    if (entry) await dropEntry(parent.gitDir, entry);
  });
}

async function exists(p: string): Promise<boolean> {
  return fs.lstat(p).then(
    () => true,
    () => false,
  );
}
