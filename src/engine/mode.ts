// Whether the container engine runs rootless, and what a command container then needs so that its user is
// the invoking host user on bind mounts (docs/podman.md). One `info` call; everything else here is pure.
//
// Rootless Podman maps container uid 0 to the invoking user and container uids 1..n to subordinate ids
// (/etc/subuid). `--user 1001:1001` then writes as a subordinate id on the host, and a disk sandbox owned by
// the runner is not writable. `--userns=keep-id` maps the invoking user to itself instead. Rootful engines
// use the host's ids as they are: nothing to add (and rootful Podman refuses keep-id).
import type { EngineName } from './engine-name.js';
import { explainStartFailure } from './start-failure.js';

export interface EngineExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs the engine CLI with these arguments (ContainerEngine.exec fits); must not throw for a non-zero exit. */
export type EngineExec = (args: readonly string[]) => Promise<EngineExecResult>;

/** `keep-id`: the invoking user keeps its uid/gid inside (rootless Podman); `none`: ids pass through as they are. */
export type UidMapping = 'keep-id' | 'none';

export interface IdMapping {
  containerId: number;
  hostId: number;
  size: number;
}

export interface EngineMode {
  engine: EngineName;
  rootless: boolean;
  uidMapping: UidMapping;
  /** The engine's version as `info` reports it ('' when it does not). */
  version: string;
  /** Podman 4.3+: `--userns=keep-id:uid=…,gid=…` (the ids the invoking user gets inside). */
  keepIdOptions: boolean;
  /** Rootless Podman: the user namespace's maps (container 0 = the invoking user, then subordinate ranges). */
  uidMap: IdMapping[];
  gidMap: IdMapping[];
  /** overlay, vfs, overlay2, ... ('' when unknown). vfs copies the whole image per container: slow. */
  storageDriver: string;
}

export class EngineModeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineModeError';
  }
}

/** The arguments that make the engine describe itself as one JSON document. */
export function infoArgs(engine: EngineName): string[] {
  // Docker 20.10 has no `--format json`; `{{json .}}` works in every version.
  return engine === 'podman' ? ['info', '--format', 'json'] : ['info', '--format', '{{json .}}'];
}

/** Asks the engine once (`info`) and returns its mode. Throws EngineModeError when the engine does not answer. */
export async function detectEngineMode(engine: EngineName, execFn: EngineExec): Promise<EngineMode> {
  const result = await execFn(infoArgs(engine));
  if (result.exitCode !== 0) {
    const detail = (result.stderr || result.stdout).trim();
    const explained = explainStartFailure(detail);
    throw new EngineModeError(
      `${engine} info failed (exit ${result.exitCode}): ` +
        (explained ? `${explained.message} ${explained.hint}` : lastLine(detail)),
    );
  }
  return parseEngineInfo(engine, result.stdout);
}

/** The mode, from the output of `info` (infoArgs). Pure. */
export function parseEngineInfo(engine: EngineName, stdout: string): EngineMode {
  let info: unknown;
  try {
    info = JSON.parse(stdout);
  } catch {
    throw new EngineModeError(`${engine} info did not print JSON: ${lastLine(stdout.trim())}`);
  }
  if (!isObject(info)) throw new EngineModeError(`${engine} info printed no JSON object`);
  return engine === 'podman' ? podmanMode(info) : dockerMode(info);
}

function podmanMode(info: Record<string, unknown>): EngineMode {
  const host = objectAt(info, 'host');
  const rootless = objectAt(host, 'security').rootless === true;
  const version = stringAt(objectAt(info, 'version'), 'Version');
  const idMappings = objectAt(host, 'idMappings');
  return {
    engine: 'podman',
    rootless,
    uidMapping: rootless ? 'keep-id' : 'none',
    version,
    keepIdOptions: versionAtLeast(version, 4, 3),
    uidMap: rootless ? idMaps(idMappings.uidmap) : [],
    gidMap: rootless ? idMaps(idMappings.gidmap) : [],
    storageDriver: stringAt(objectAt(info, 'store'), 'graphDriverName'),
  };
}

function dockerMode(info: Record<string, unknown>): EngineMode {
  const options = Array.isArray(info.SecurityOptions) ? info.SecurityOptions : [];
  // Rootless Docker maps container root to the invoking user and has no keep-id: a container that must
  // write as that user runs as root there. Reported, not handled here.
  const rootless = options.some((o) => typeof o === 'string' && o.split(',').includes('name=rootless'));
  return {
    engine: 'docker',
    rootless,
    uidMapping: 'none',
    version: stringAt(info, 'ServerVersion'),
    keepIdOptions: false,
    uidMap: [],
    gidMap: [],
    storageDriver: stringAt(info, 'Driver'),
  };
}

/**
 * The extra `run` arguments of a container whose user must be uid:gid inside and own its files on a bind
 * mount on the host (uid:gid being the invoking user's: process.getuid()/getgid()). Keep `--user uid:gid`
 * as well. Empty for rootful engines. Pure.
 */
export function userNamespaceArgs(mode: EngineMode, uid: number, gid: number): string[] {
  for (const [name, id] of [
    ['uid', uid],
    ['gid', gid],
  ] as const) {
    if (!Number.isSafeInteger(id) || id < 0) throw new EngineModeError(`invalid ${name}: ${id}`);
  }
  if (mode.uidMapping !== 'keep-id') return [];
  // Root, with a rootless engine: the action runs in one of its containers (a job container on rootless
  // Podman), where root is the user that runs the engine, and so is root inside a container under the
  // engine's default mapping. keep-id to uid 0 is no mapping at all (Podman 4.3 with runc cannot start it).
  if (uid === 0 && gid === 0) return [];
  if (mode.keepIdOptions) return [`--userns=keep-id:uid=${uid},gid=${gid}`];
  // Before Podman 4.3 keep-id takes no options: the invoking user keeps its own ids, which must be these.
  const user = mode.uidMap.find((m) => m.containerId === 0)?.hostId;
  const group = mode.gidMap.find((m) => m.containerId === 0)?.hostId;
  if ((user !== undefined && user !== uid) || (group !== undefined && group !== gid)) {
    throw new EngineModeError(
      `podman ${mode.version} maps only the invoking user (${user}:${group}) with keep-id, not ${uid}:${gid}`,
    );
  }
  return ['--userns=keep-id'];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectAt(value: Record<string, unknown>, key: string): Record<string, unknown> {
  const found = value[key];
  return isObject(found) ? found : {};
}

function stringAt(value: Record<string, unknown>, key: string): string {
  const found = value[key];
  return typeof found === 'string' ? found : '';
}

function idMaps(value: unknown): IdMapping[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((m) => ({
    containerId: Number(m.container_id),
    hostId: Number(m.host_id),
    size: Number(m.size),
  }));
}

function versionAtLeast(version: string, major: number, minor: number): boolean {
  const m = /^(\d+)\.(\d+)/.exec(version);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return a > major || (a === major && b >= minor);
}

function lastLine(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  return lines[lines.length - 1] ?? '(no output)';
}
