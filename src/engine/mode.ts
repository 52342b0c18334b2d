// Whether the container engine runs rootless, and what a command container then needs so that its user is
// the invoking host user on bind mounts (issue 11). One `info` call; everything else here is pure.
//
// Rootless Podman maps container uid 0 to the invoking user and container uids 1..n to subordinate ids
// (/etc/subuid). `--user 1001:1001` then writes as a subordinate id on the host, and a disk sandbox owned by
// the runner is not writable. `--userns=keep-id` maps the invoking user to itself instead. Rootful engines
// use the host's ids as they are: nothing to add (and rootful Podman refuses keep-id).
import type { EngineName } from './engine-name.js';

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

export type StartFailureKind =
  | 'runtime-dir'
  | 'no-tun'
  | 'network-helper-missing'
  | 'no-subids'
  | 'newuidmap-missing'
  | 'keep-id-rootful'
  | 'command-not-found'
  | 'command-not-executable'
  | 'network-setup'
  | 'no-shell';

export interface StartFailure {
  kind: StartFailureKind;
  /** What went wrong, one sentence. */
  message: string;
  /** What to do about it, one sentence. */
  hint: string;
}

const NETWORK_NONE = 'Set `network: none` (CLI: `--network none`) if the command needs no network.';

/**
 * A message with a hint for the usual reasons a (rootless) container does not start, from the engine's
 * stderr; undefined when the text is none of them. Pure.
 */
export function explainStartFailure(stderr: string): StartFailure | undefined {
  // Podman's log lines escape the quotes inside msg="..." with a backslash: the patterns take both forms.
  // Before the OCI patterns: runc reports an unusable runtime folder as "OCI permission denied" (exit 126).
  let m = /XDG_RUNTIME_DIR directory \\?"([^"\\]*)\\?" is not owned by the current user/.exec(stderr);
  if (m || /path in \$XDG_RUNTIME_DIR must be writable/.test(stderr)) {
    return {
      kind: 'runtime-dir',
      message: m
        ? `Rootless Podman's runtime folder ${m[1]} (XDG_RUNTIME_DIR) is not owned by the user.`
        : `Rootless Podman's runtime folder (XDG_RUNTIME_DIR) is missing or not writable by the user.`,
      hint: 'Point XDG_RUNTIME_DIR at a folder the user owns with mode 700 (normally /run/user/<uid>, made at login by systemd-logind).',
    };
  }
  m = /\/dev\/net\/tun\\?"?\): ([A-Za-z ]+)/.exec(stderr);
  if (m) {
    return {
      kind: 'no-tun',
      message: `Rootless networking failed: slirp4netns cannot open /dev/net/tun (${m[1].trim()}).`,
      hint: `${NETWORK_NONE} Otherwise the host must give the user a readable and writable /dev/net/tun.`,
    };
  }
  m =
    /could not find (slirp4netns|pasta)/.exec(stderr) ??
    /unable to find network with name or ID (slirp4netns|pasta)/.exec(stderr);
  if (m) {
    return {
      kind: 'network-helper-missing',
      message: `Rootless networking needs ${m[1]}, which ${m[0].startsWith('could') ? 'is not installed' : 'this Podman does not know'}.`,
      hint: `${NETWORK_NONE} Otherwise install slirp4netns (or passt, for Podman 4.4 and later).`,
    };
  }
  m = /no sub([ug]id) ranges found for user \\?"([^"\\]*)\\?"/.exec(stderr);
  if (m) {
    return {
      kind: 'no-subids',
      message: `The user ${m[2]} has no subordinate ${m[1]}s: rootless Podman maps only that one id, and images with other owners fail.`,
      hint: `Add ranges to /etc/subuid and /etc/subgid (usermod --add-subuids 100000-165535 --add-subgids 100000-165535 ${m[2]}), then run \`podman system migrate\`.`,
    };
  }
  m = /(newuidmap|newgidmap)\\?": executable file not found/.exec(stderr);
  if (m) {
    return {
      kind: 'newuidmap-missing',
      message: `Rootless Podman needs ${m[1]}, which is not installed.`,
      hint: 'Install newuidmap and newgidmap (Debian and Ubuntu: the uidmap package), then run `podman system migrate`.',
    };
  }
  if (/keep-id is only supported in rootless mode/.test(stderr)) {
    return {
      kind: 'keep-id-rootful',
      message: 'Podman runs rootful here, and rootful Podman refuses --userns=keep-id.',
      hint: 'Derive the user namespace arguments from the detected engine mode (rootful: none).',
    };
  }
  // Docker's `--init` (tini) starts, then cannot exec the command: `[FATAL tini (7)] exec sh failed: No
  // such file or directory` (exit 127): the same failure, one step later.
  m =
    /exec: \\?"([^"\\]*)\\?": executable file not found in \$PATH/.exec(stderr) ??
    /\[FATAL tini \(\d+\)\] exec (\S+) failed: No such file or directory/.exec(stderr);
  if (m || /OCI runtime attempted to invoke a command that was not found/.test(stderr)) {
    const command = m?.[1];
    return {
      kind: 'command-not-found',
      message:
        command === 'sh'
          ? 'The image has no `sh`: the container could not start (exit 127).'
          : `The container could not start: ${command ? `\`${command}\`` : 'its command'} is not in the image (exit 127).`,
      hint: 'Use an image with `sh` and `git` (input `image`).',
    };
  }
  m = /exec: \\?"([^"\\]*)\\?": permission denied/.exec(stderr);
  if (m || /OCI permission denied/.test(stderr)) {
    return {
      kind: 'command-not-executable',
      message: `The container could not start: ${m ? `\`${m[1]}\`` : 'its command'} is not executable (exit 126).`,
      hint: 'Check the image (input `image`): the command and `sh` must be executable files in it.',
    };
  }
  // Less precise words for the same two failures, from engines and versions that say less.
  if (/\/dev\/net\/tun|slirp4netns|pasta|setting up network|netns/i.test(stderr)) {
    return {
      kind: 'network-setup',
      message: 'The engine could not set up the network.',
      hint: `With rootless Podman and no /dev/net/tun: ${NETWORK_NONE}`,
    };
  }
  if (/executable file not found|no such file or directory.*sh|"sh": /i.test(stderr)) {
    return {
      kind: 'no-shell',
      message: 'The image has no `sh`.',
      hint: 'The command runs with `sh -c`: use an image with `sh` and `git` (input `image`).',
    };
  }
  return undefined;
}

/** ` (what went wrong. What to do.)` for a known start failure, to follow the engine's words; else ''. */
export function startFailureHint(stderr: string): string {
  const explained = explainStartFailure(stderr);
  return explained ? ` (${explained.message} ${explained.hint})` : '';
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
