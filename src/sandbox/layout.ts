// Where a sandbox lives and what a container sees of it. A sandbox is a repository of its own (its own
// `.git` folder) that borrows the parent's objects read-only through `objects/info/alternates`, plus a home
// for the command. Disk and volume sandboxes are one discriminated union.
//
//   disk:    <root>/<project>/<name>/        the work tree and its .git
//            <root>/<project>/.home/<name>/  the command's HOME
//   volume:  <prefix>-<project>-<name>, mounted at /sandbox: /sandbox/<name>/ and /sandbox/.home/
// ADR 0001, ADR 0005 (docs/adr/).
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { userArg, type ContainerSpec, type Mount } from '../engine/container-args.js';
import { helperGitEnv } from '../engine/git-hardening.js';
import { sandboxHelperLabels } from '../engine/labels.js';
import type { BranchPlan } from './branch.js';
import { diskWorktreePath, projectName, volumeName, VOLUME_MOUNT, type SandboxKind } from './naming.js';
import type { ParentRepository } from './repository.js';

export type Isolation = 'container' | 'disk';

interface SandboxCommon {
  name: string;
  kind: SandboxKind;
  project: string;
  /** Empty for a transient sandbox (detached HEAD). */
  branch: string;
  parent: ParentRepository;
  /** The work tree, as every container sees it (for disk sandboxes also the host path). */
  worktreePath: string;
  /** The command's HOME, as the container sees it. */
  homePath: string;
}

export interface DiskSandbox extends SandboxCommon {
  isolation: 'disk';
  /** The host folder `<root>/<project>/<name>`. */
  hostPath: string;
}

export interface VolumeSandbox extends SandboxCommon {
  isolation: 'container';
  volume: string;
}

export type Sandbox = DiskSandbox | VolumeSandbox;

/** A sandbox ready for a run: created now, or reused as it was. */
export type PreparedSandbox = Sandbox & {
  reused: boolean;
  /** The commit the run starts from, as the parent's bookkeeping knows it. */
  startSha: string;
  /**
   * Reuse only: what origin has of the sandbox's branch (the parent's `origin/<branch>`) that was not
   * offered inside yet, read under the repository lock with the records.
   */
  upstreamNew?: string;
};

export const HOME_FOLDER = '.home';

export function locateSandbox(
  plan: Pick<BranchPlan, 'sandbox' | 'kind' | 'branch'>,
  parent: ParentRepository,
  isolation: Isolation,
  worktreeRoot: string,
  volumePrefix: string,
): Sandbox {
  const project = projectName(parent.path);
  const common = { name: plan.sandbox, kind: plan.kind, project, branch: plan.branch, parent };
  if (isolation === 'disk') {
    const hostPath = diskWorktreePath(worktreeRoot, project, plan.sandbox);
    const homePath = path.join(path.dirname(hostPath), HOME_FOLDER, plan.sandbox);
    return { ...common, isolation, hostPath, worktreePath: hostPath, homePath };
  }
  return {
    ...common,
    isolation,
    volume: volumeName(volumePrefix, project, plan.sandbox),
    worktreePath: `${VOLUME_MOUNT}/${plan.sandbox}`,
    homePath: `${VOLUME_MOUNT}/${HOME_FOLDER}`,
  };
}

/** What the sandbox is, for a person: the volume or the folder. */
export function whereIs(sandbox: Sandbox): string {
  return sandbox.isolation === 'disk' ? sandbox.hostPath : `volume ${sandbox.volume}`;
}

/**
 * The parent's object store, read-only at its host path, with every store it borrows from in turn: what
 * a sandbox's `objects/info/alternates` names.
 */
export function objectStoreMounts(parent: ParentRepository): Mount[] {
  return parent.objectStores.map((dir) => ({ type: 'bind', source: dir, target: dir, readonly: true }));
}

/** The sandbox itself, read-write: its work tree and its home (one volume, or two host folders). */
export function sandboxMounts(sandbox: Sandbox): Mount[] {
  if (sandbox.isolation === 'container')
    return [{ type: 'volume', source: sandbox.volume, target: VOLUME_MOUNT }];
  return [
    { type: 'bind', source: sandbox.hostPath, target: sandbox.hostPath },
    { type: 'bind', source: sandbox.homePath, target: sandbox.homePath },
  ];
}

/**
 * What the user's command sees: its sandbox read-write; the parent's work tree read-only with the
 * parent's `.git` hidden, except its object store, read-only; nothing else of the host. A disk root
 * inside the parent's work tree is hidden too, so that no other sandbox shows through.
 */
export function commandMounts(sandbox: Sandbox, worktreeRoot?: string): Mount[] {
  const { parent } = sandbox;
  const mounts: Mount[] = [
    { type: 'bind', source: parent.path, target: parent.path, readonly: true },
    { type: 'tmpfs', target: parent.gitDir },
    ...objectStoreMounts(parent),
  ];
  if (sandbox.isolation === 'disk') {
    const inside = (dir: string) => dir.startsWith(parent.path + path.sep);
    const root = worktreeRoot ?? path.dirname(path.dirname(sandbox.hostPath));
    if (inside(root)) mounts.push({ type: 'tmpfs', target: root });
    else if (inside(sandbox.hostPath)) mounts.push({ type: 'tmpfs', target: path.dirname(sandbox.hostPath) });
  }
  return [...mounts, ...sandboxMounts(sandbox)];
}

/** What the action's helper containers see: the sandbox read-write and the objects it borrows. */
export function helperMounts(sandbox: Sandbox): Mount[] {
  return [...objectStoreMounts(sandbox.parent), ...sandboxMounts(sandbox)];
}

/**
 * A helper container on one sandbox: one of the action's scripts run by `sh -c` with positional
 * arguments only, as the runner's user unless `extra` says otherwise, seeing the sandbox and the objects
 * it borrows, git hardened (`extra.env` adds to it), labelled as a helper of this sandbox, removed when
 * it exits.
 */
export function sandboxHelper(
  sandbox: Sandbox,
  image: string,
  script: { name: string; text: string; args: readonly string[] },
  extra: Partial<ContainerSpec> = {},
): ContainerSpec {
  return {
    remove: true,
    image,
    user: userArg(),
    mounts: helperMounts(sandbox),
    labels: sandboxHelperLabels(sandbox),
    entrypoint: 'sh',
    args: ['-c', script.text, script.name, ...script.args],
    ...extra,
    env: { ...helperGitEnv(), ...extra.env },
  };
}

/** The real path of a folder that may not exist yet (its nearest existing ancestor resolved), creating nothing. */
export async function realRoot(root: string): Promise<string> {
  const rest: string[] = [];
  let current = path.resolve(root);
  for (;;) {
    try {
      return path.join(await fs.realpath(current), ...rest.reverse());
    } catch {
      const up = path.dirname(current);
      if (up === current) return path.resolve(root);
      rest.push(path.basename(current));
      current = up;
    }
  }
}
