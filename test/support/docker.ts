// Container engine helpers for tests: look at and clean up what a test created (always by a unique
// prefix). `engine` is docker unless a test says podman.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

export type Engine = 'docker' | 'podman';

export function docker(...args: string[]): string {
  return engineCli('docker', ...args);
}

export function engineCli(engine: Engine, ...args: string[]): string {
  // env passed explicitly: jest gives each test file its own copy of process.env
  return execFileSync(engine, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: process.env,
  }).trim();
}

/** A volume prefix unique to one test, so tests never see each other's sandboxes. */
export function uniquePrefix(label = 't'): string {
  return `wts-${label}-${randomBytes(3).toString('hex')}`;
}

export function volumesWithPrefix(prefix: string, engine: Engine = 'docker'): string[] {
  return engineCli(engine, 'volume', 'ls', '--format', '{{.Name}}')
    .split('\n')
    .filter((v) => v.startsWith(`${prefix}-`));
}

export function volumeLabels(volume: string, engine: Engine = 'docker'): Record<string, string> {
  return JSON.parse(engineCli(engine, 'volume', 'inspect', '--format', '{{json .Labels}}', volume)) as Record<
    string,
    string
  >;
}

/** Runs `sh -c script` in a throwaway container that mounts `volume` at /sandbox; returns stdout. */
export function inVolume(image: string, volume: string, script: string, engine: Engine = 'docker'): string {
  return engineCli(
    engine,
    'run',
    '--rm',
    '--mount',
    `type=volume,source=${volume},target=/sandbox`,
    '--entrypoint',
    'sh',
    image,
    '-c',
    script,
  );
}

export function removeVolumes(prefix: string, engine: Engine = 'docker'): void {
  const volumes = volumesWithPrefix(prefix, engine);
  if (volumes.length)
    execFileSync(engine, ['volume', 'rm', '--force', ...volumes], { stdio: 'ignore', env: process.env });
}

export function containersWithLabel(label: string, engine: Engine = 'docker'): string[] {
  return engineCli(engine, 'ps', '--all', '--filter', `label=${label}`, '--format', '{{.Names}}')
    .split('\n')
    .filter(Boolean);
}

/**
 * The engine-view probe's helper that a main step saved in its state for its post step (its name): set
 * while the helper may be there, so after a main step that was killed before its end.
 */
export function probeInState(state: Record<string, string>): string | undefined {
  if (!state.run) return undefined;
  return (JSON.parse(state.run) as { probe?: { name: string } }).probe?.name;
}

/** Removes containers by name, if they are there (a test's leftovers: what a post step would remove). */
export function removeContainers(names: readonly string[], engine: Engine = 'docker'): void {
  for (const name of names) {
    try {
      engineCli(engine, 'rm', '--force', '--', name);
    } catch {
      /* not there */
    }
  }
}
