// The one builder of `run` arguments, for the user's command and for the action's own helper containers
// alike: every container gets the same hardening (no capabilities but those named, no new privileges, a
// pids limit, the runner's uid:gid unless said otherwise), our labels, and typed mounts.
import type { EngineName } from './engine-name.js';
import { MANAGED_LABEL } from './labels.js';

export interface HostIdentity {
  uid: number;
  gid: number;
}

/** The runner's uid:gid: containers run as it, so that what they write belongs to the runner. */
export function currentIdentity(): HostIdentity {
  return { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
}

export function userArg(id: HostIdentity = currentIdentity()): string {
  return `${id.uid}:${id.gid}`;
}

export type Mount =
  | { type: 'bind'; source: string; target: string; readonly?: boolean }
  | { type: 'volume'; source: string; target: string; readonly?: boolean }
  /** An empty folder only root may write: hides what lies below (a parent's `.git`) from the container. */
  | { type: 'tmpfs'; target: string };

export interface Limits {
  memory?: string;
  cpus?: string;
  pidsLimit: number;
  network: 'bridge' | 'none';
  readOnlyRootfs: boolean;
}

export interface ContainerSpec {
  image: string;
  /** `uid:gid`. */
  user: string;
  mounts: readonly Mount[];
  labels: Record<string, string>;
  entrypoint: string;
  args: readonly string[];
  /** Removed by the engine when it exits (helpers); a named command container is removed by us. */
  remove?: boolean;
  name?: string;
  workdir?: string;
  /** Non-secret values, on the command line. */
  env?: Record<string, string>;
  /** A file of NAME=value lines readable only by the runner (single-line values). */
  envFile?: string;
  /** Names whose values the engine CLI takes from its own environment (`-e NAME`). */
  inheritEnv?: readonly string[];
  capAdd?: readonly string[];
  limits?: Partial<Limits>;
  /** A tiny init as PID 1 (signals, zombies) where the engine always ships one. */
  init?: boolean;
  /** The user-namespace mapping a rootless engine needs (mode.ts `userNamespaceArgs`). */
  userns?: readonly string[];
  /**
   * A running container whose network namespace this one joins instead of `limits.network` (the network
   * proxy's sidecar). Podman also needs its user namespace: rootless, a container cannot mount its own
   * /sys in a network namespace that another user namespace owns.
   */
  joinNetworkOf?: string;
}

/** A bind source as the engine finds it (host-paths.ts `bindSource`): the same path on a plain host. */
export type BindSource = (file: string) => string;

/** A mount in `--mount` syntax (CSV: a field with a comma or quote is quoted). */
export function mountArg(engine: EngineName, mount: Mount, bindSource: BindSource = (f) => f): string {
  const fields: string[] = [`type=${mount.type}`];
  if (mount.type === 'bind') fields.push(`source=${bindSource(mount.source)}`);
  else if (mount.type === 'volume') fields.push(`source=${mount.source}`);
  fields.push(`target=${mount.target}`);
  // `ro`, not `readonly`: Podman (4.3) refuses `readonly` on volume mounts; both engines take `ro`.
  if (mount.type !== 'tmpfs' && mount.readonly) fields.push('ro');
  if (mount.type === 'tmpfs') {
    fields.push('tmpfs-mode=0755');
    // Podman copies what the folder holds into the tmpfs unless told not to: the very files it must hide.
    if (engine === 'podman') fields.push('notmpcopyup');
  }
  return fields.map((f) => (/[",]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(',');
}

/**
 * `bindSource` maps each bind source to the engine's side (the action may run in a container of the
 * engine): this is the one place bind sources are written, whatever builds the mounts.
 */
export function containerRunArgs(
  engine: EngineName,
  spec: ContainerSpec,
  bindSource: BindSource = (f) => f,
): string[] {
  const args = ['run'];
  if (spec.remove) args.push('--rm');
  if (spec.name) args.push('--name', spec.name);
  if (spec.init && engine === 'docker') args.push('--init');
  const joined = spec.joinNetworkOf ? `container:${spec.joinNetworkOf}` : undefined;
  const userns = joined && engine === 'podman' ? [`--userns=${joined}`] : (spec.userns ?? []);
  args.push(...userns, '--user', spec.user, '--cap-drop', 'ALL');
  for (const cap of spec.capAdd ?? []) args.push('--cap-add', cap);
  args.push('--security-opt', 'no-new-privileges');
  const limits = spec.limits ?? {};
  args.push(
    '--pids-limit',
    String(limits.pidsLimit ?? 1024),
    '--network',
    joined ?? limits.network ?? 'none',
  );
  if (limits.memory) args.push('--memory', limits.memory, '--memory-swap', limits.memory);
  if (limits.cpus) args.push('--cpus', limits.cpus);
  if (limits.readOnlyRootfs) args.push('--read-only', '--tmpfs', '/tmp:rw,exec,nosuid,size=512m');
  for (const [key, value] of Object.entries({ [MANAGED_LABEL]: 'true', ...spec.labels }))
    args.push('--label', `${key}=${value}`);
  for (const mount of spec.mounts) args.push('--mount', mountArg(engine, mount, bindSource));
  if (spec.workdir) args.push('--workdir', spec.workdir);
  for (const [key, value] of Object.entries(spec.env ?? {})) args.push('-e', `${key}=${value}`);
  if (spec.envFile) args.push('--env-file', spec.envFile);
  for (const key of spec.inheritEnv ?? []) args.push('-e', key);
  return [...args, '--entrypoint', spec.entrypoint, '--', spec.image, ...spec.args];
}
