// Where a run's containers and volumes live, as the tests look into it: Docker's daemon, rootful Podman's
// storage (as root), or the runner user's own rootless Podman storage (under its HOME: only Podman run as
// the runner sees it). Every helper is asynchronous and never throws for a non-zero exit unless it says so.
import { execFile } from 'node:child_process';
import { uniquePrefix, type Engine } from './docker.js';
import { TEST_IMAGE } from './env.js';
import { rootlessPodman } from './rootless.js';

export interface Storage {
  /** What test names show. */
  label: string;
  engine: Engine;
  /** The runner user's rootless Podman: run the bundle or the CLI as the runner, with its environment. */
  rootless: boolean;
}

export const DOCKER: Storage = { label: 'docker', engine: 'docker', rootless: false };
export const PODMAN_ROOTFUL: Storage = { label: 'rootful podman', engine: 'podman', rootless: false };
export const PODMAN_ROOTLESS: Storage = {
  label: 'rootless podman as uid 1001',
  engine: 'podman',
  rootless: true,
};

/**
 * Volume prefixes for steps run as the runner without their post step (which would remove the sandbox),
 * in Docker or the runner's rootless Podman; `removeAll` removes what they left.
 */
export function leftVolumes(label: string): {
  prefix: (engine: string) => string;
  removeAll: () => Promise<void>;
} {
  const left: Array<{ storage: Storage; prefix: string }> = [];
  return {
    prefix(engine) {
      const prefix = uniquePrefix(label);
      left.push({ storage: engine === 'podman' ? PODMAN_ROOTLESS : DOCKER, prefix });
      return prefix;
    },
    async removeAll() {
      for (const { storage, prefix } of left) await removeStorageVolumes(storage, prefix);
    },
  };
}

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** The engine CLI on that storage (as root, or as the runner for rootless Podman). */
export function storageCli(storage: Storage, args: readonly string[]): Promise<CliResult> {
  if (storage.rootless) return rootlessPodman(args);
  return new Promise((resolve) =>
    execFile(storage.engine, args, { env: process.env, maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      resolve({ exitCode: error ? Number(error.code ?? 1) || 1 : 0, stdout, stderr }),
    ),
  );
}

/** Like storageCli, but throws on a non-zero exit; returns stdout trimmed. */
export async function storageRun(storage: Storage, args: readonly string[]): Promise<string> {
  const result = await storageCli(storage, args);
  if (result.exitCode !== 0)
    throw new Error(`${storage.label}: ${args.slice(0, 2).join(' ')} failed: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

export async function storageVolumes(storage: Storage, prefix: string): Promise<string[]> {
  return (await storageRun(storage, ['volume', 'ls', '--format', '{{.Name}}']))
    .split('\n')
    .filter((v) => v.startsWith(`${prefix}-`))
    .sort();
}

export async function removeStorageVolumes(storage: Storage, prefix: string): Promise<void> {
  const volumes = await storageVolumes(storage, prefix).catch(() => []);
  if (volumes.length) await storageCli(storage, ['volume', 'rm', '--force', ...volumes]);
}

export async function createStorageVolume(
  storage: Storage,
  name: string,
  labels: Record<string, string>,
): Promise<void> {
  const args = ['volume', 'create'];
  for (const [key, value] of Object.entries(labels)) args.push('--label', `${key}=${value}`);
  await storageRun(storage, [...args, name]);
}

/**
 * `sh -c script` in a throwaway container with the volume at /sandbox (no network), `$1`..: `args`. As the
 * container's root: on rootless Podman that is the runner itself, who owns what run mode wrote there.
 */
export function inStorageVolume(
  storage: Storage,
  volume: string,
  script: string,
  args: readonly string[] = [],
): Promise<string> {
  return storageRun(storage, [
    'run',
    '--rm',
    '--network',
    'none',
    '--mount',
    `type=volume,source=${volume},target=/sandbox`,
    '--entrypoint',
    'sh',
    TEST_IMAGE,
    '-c',
    script,
    'sh',
    ...args,
  ]);
}

/** Imports a tar of a root file system as an image into that storage (the file must be readable by the runner). */
export function importImage(storage: Storage, tarFile: string, image: string): Promise<string> {
  return storageRun(storage, ['import', ...(storage.engine === 'podman' ? ['--quiet'] : []), tarFile, image]);
}
