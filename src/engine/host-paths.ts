// The engine's view of the paths the action mounts. On a plain host the engine and the action see one
// filesystem. When the action itself runs in a container of the same engine (a job container), the
// engine knows nothing of the paths inside it: every bind source must be the path on the engine's side,
// found through the container's own mounts, as the runner's container support does. A path under none of
// them exists only in the container's own layer, and no bind can reach it.
// Which view applies is read from this process's own mount table (no engine call on a plain host); a
// container of the engine is then looked up by id with `inspect`. What is read here is not trusted to be
// complete: the probe (engine-probe.ts) proves that the engine sees a folder where the action sees it.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** One mount of the action's own container: `target` as the action sees it, `source` as the engine does. */
export interface EngineMount {
  source: string;
  target: string;
}

export type HostView =
  /** The engine sees the action's paths as they are (plain host, or a folder shared at the same path). */
  | { kind: 'same'; containerized: boolean }
  /** The action runs in container `id` of this engine: only what is under its mounts can be bound. */
  | { kind: 'container'; id: string; mounts: EngineMount[] };

export class HostPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostPathError';
  }
}

/** How long the engine may take to say what it knows of the action's own container. */
export const INSPECT_TIMEOUT_MS = 15_000;
/** The most of `inspect`'s answer read (one line of JSON: a few hundred bytes a mount). */
const INSPECT_MAX_BYTES = 1024 * 1024;

const CONTAINER_ID = /^[0-9a-f]{64}$/;
/** File systems a container's own root is made of: nothing outside the container sees into them. */
const LAYER_FILESYSTEMS = new Set(['overlay', 'fuse.fuse-overlayfs', 'aufs']);

/**
 * The ids this process's container may have, best first, from its mount table and cgroup. The engine
 * mounts `/etc/hostname` (and hosts, resolv.conf) from a file in a folder named for the container
 * (Docker: `.../containers/<id>/hostname`; Podman: `.../overlay-containers/<id>/userdata/hostname`);
 * a cgroup path may name it too (cgroup v1, or v2 without a cgroup namespace). Pure.
 */
export function containerIdCandidates(mountinfo: string, cgroup: string): string[] {
  const ids: string[] = [];
  const add = (id: string | undefined) => {
    if (id && CONTAINER_ID.test(id) && !ids.includes(id)) ids.push(id);
  };
  for (const line of mountinfo.split('\n')) {
    const fields = line.split(' ');
    const [root, mountPoint] = [fields[3] ?? '', fields[4] ?? ''];
    if (!/^\/etc\/(hostname|hosts|resolv\.conf)$/.test(mountPoint)) continue;
    add(/[/-]containers\/([0-9a-f]{64})\/(?:userdata\/)?[^/]+$/.exec(root)?.[1]);
  }
  for (const line of cgroup.split('\n'))
    add(/(?:docker[-/]|libpod-|crio-|containerd-)?([0-9a-f]{64})(?:\.scope)?$/.exec(line.trim())?.[1]);
  return ids;
}

/** Whether this process's root file system is a container's own layer (overlay...). Pure. */
export function rootIsContainerLayer(mountinfo: string): boolean {
  for (const line of mountinfo.split('\n')) {
    const fields = line.split(' ');
    if (fields[4] !== '/') continue;
    const dash = fields.indexOf('-');
    const fsType = dash >= 0 ? fields[dash + 1] : '';
    if (LAYER_FILESYSTEMS.has(fsType)) return true;
  }
  return false;
}

export interface OwnFacts {
  mountinfo: string;
  cgroup: string;
}

let ownFacts: OwnFacts | undefined;

/** This process's mount table and cgroup (read once: two small files, well under a millisecond). */
function readOwnFacts(): OwnFacts {
  const read = (file: string) => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  };
  ownFacts ??= { mountinfo: read('/proc/self/mountinfo'), cgroup: read('/proc/self/cgroup') };
  return ownFacts;
}

/**
 * Whether the action runs in a container of any engine (a job container, a runner pod, a runner in a
 * container): then its home is the container's own, and no other container sees it. A plain host (even
 * one whose image left `/.dockerenv` behind) has its own root file system.
 */
export function runsInContainer(facts: OwnFacts = readOwnFacts()): boolean {
  return (
    rootIsContainerLayer(facts.mountinfo) || containerIdCandidates(facts.mountinfo, facts.cgroup).length > 0
  );
}

/** The mounts `inspect` printed (`{{json .Mounts}}`): bind and volume mounts, each with its engine path. Pure. */
export function parseInspectMounts(json: string): EngineMount[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new HostPathError(
      `The engine's description of the action's container is not JSON: ${json.slice(0, 200)}`,
    );
  }
  if (!Array.isArray(parsed)) return [];
  const mounts: EngineMount[] = [];
  for (const entry of parsed as Record<string, unknown>[]) {
    const { Type: type, Source: source, Destination: target } = entry ?? {};
    if (typeof source !== 'string' || typeof target !== 'string') continue;
    if (type !== 'bind' && type !== 'volume') continue;
    if (!path.isAbsolute(source) || !path.isAbsolute(target)) continue;
    mounts.push({ source: path.normalize(source), target: path.normalize(target) });
  }
  // The deepest mount wins: a mount inside another hides what lies below it.
  return mounts.sort((a, b) => b.target.length - a.target.length);
}

/**
 * Where the engine finds `file`: the same path, or the source of the mount it lies under (the deepest),
 * with the rest of the path appended; undefined when it lies under none. Pure.
 */
export function enginePath(view: HostView, file: string): string | undefined {
  if (view.kind === 'same') return file;
  const normal = path.resolve(file);
  for (const mount of view.mounts) {
    if (normal === mount.target) return mount.source;
    const prefix = mount.target === '/' ? '/' : `${mount.target}/`;
    if (normal.startsWith(prefix)) return path.join(mount.source, normal.slice(prefix.length));
  }
  return undefined;
}

/** A path the action mounts into containers, what it is, and what to change when the engine cannot see it. */
export interface MountedPath {
  path: string;
  what: string;
  fix?: string;
}

export const SHARED_ROOT_FIX =
  "Use isolation: container, or a worktree-root inside a folder the engine shares with the action at the same path (with Actions Runner Controller in Docker-in-Docker mode: under the runner's work folder, e.g. /home/runner/_work)";

/** Why a path cannot be mounted, and what to change. Pure. */
export function unseenMessage(view: Extract<HostView, { kind: 'container' }>, unseen: MountedPath): string {
  const shared = view.mounts.map((m) => m.target).join(', ') || 'none';
  const fix =
    unseen.fix ??
    'Use isolation: container, or a worktree-root inside a folder the engine shares with this container';
  return (
    `The ${unseen.what} ${unseen.path} is inside the action's own container (${view.id.slice(0, 12)}), under none of its mounts, so the container engine cannot see it and no container can mount it. ` +
    `Nothing was created. ${fix} (this container's mounts: ${shared}).`
  );
}

/** Throws (naming the first path and the fix) unless the engine sees every path. Pure. */
export function requireVisible(view: HostView, paths: readonly MountedPath[]): void {
  if (view.kind === 'same') return;
  const unseen = paths.find((p) => enginePath(view, p.path) === undefined);
  if (unseen) throw new HostPathError(unseenMessage(view, unseen));
}

/** The translation the one builder of `run` arguments applies to every bind source. */
export function bindSource(view: HostView): (file: string) => string {
  if (view.kind === 'same') return (file) => file;
  return (file) => {
    const found = enginePath(view, file);
    if (found === undefined) throw new HostPathError(unseenMessage(view, { path: file, what: 'folder' }));
    return found;
  };
}

/**
 * The engine CLI run with `args` (engine.ts `stream`): each line handed on as it comes, and the process
 * killed once `timeLimitMs` has passed (then `timedOut`), so that an engine that does not answer leaves
 * no CLI behind.
 */
export type InspectExec = (
  args: readonly string[],
  options: {
    timeLimitMs: number;
    maxLineBytes: number;
    onLine: (line: string, stream: 'stdout' | 'stderr') => void;
  },
) => Promise<{ exitCode: number; timedOut?: boolean }>;

/** What the engine says of container `id`: its full id and its mounts as JSON, or undefined when it does not know it. */
async function inspectOwn(exec: InspectExec, id: string, timeLimitMs: number): Promise<string | undefined> {
  let out = '';
  const result = await exec(['container', 'inspect', '--format', '{{.Id}} {{json .Mounts}}', '--', id], {
    timeLimitMs,
    maxLineBytes: INSPECT_MAX_BYTES,
    onLine: (line, stream) => {
      if (stream === 'stdout' && out.length < INSPECT_MAX_BYTES) out += `${line}\n`;
    },
  });
  if (result.timedOut)
    throw new HostPathError(
      `The container engine did not say within ${timeLimitMs / 1000} s what it knows of the action's own container (${id.slice(0, 12)}); its CLI was stopped, and nothing was created.`,
    );
  return result.exitCode === 0 ? out.trim() : undefined;
}

/**
 * The engine's view of this process's paths. A plain host: no engine call. In a container: each candidate
 * id is asked of the engine; one it knows is the action's own container, and its mounts say where each
 * path is on the engine's side. A container the engine does not know (a runner pod beside a
 * Docker-in-Docker engine, a container of another engine) shares folders at the same path, if at all:
 * the probe tells.
 */
export async function discoverHostView(
  exec: InspectExec,
  facts: OwnFacts = readOwnFacts(),
  timeLimitMs = INSPECT_TIMEOUT_MS,
): Promise<HostView> {
  const containerized = runsInContainer(facts);
  if (!containerized) return { kind: 'same', containerized };
  for (const id of containerIdCandidates(facts.mountinfo, facts.cgroup)) {
    const out = await inspectOwn(exec, id, timeLimitMs);
    if (out === undefined) continue;
    const space = out.indexOf(' ');
    if (space < 0 || out.slice(0, space) !== id) continue;
    return { kind: 'container', id, mounts: parseInspectMounts(out.slice(space + 1)) };
  }
  return { kind: 'same', containerized };
}
