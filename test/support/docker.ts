// Docker helpers for tests: look at and clean up what a test created (always by a unique prefix).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

export function docker(...args: string[]): string {
  return execFileSync('docker', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** A volume prefix unique to one test, so tests never see each other's sandboxes. */
export function uniquePrefix(label = 't'): string {
  return `wts-${label}-${randomBytes(3).toString('hex')}`;
}

export function volumesWithPrefix(prefix: string): string[] {
  return docker('volume', 'ls', '--format', '{{.Name}}')
    .split('\n')
    .filter((v) => v.startsWith(`${prefix}-`));
}

export function volumeLabels(volume: string): Record<string, string> {
  return JSON.parse(docker('volume', 'inspect', '--format', '{{json .Labels}}', volume)) as Record<
    string,
    string
  >;
}

/** Runs `sh -c script` in a throwaway container that mounts `volume` at /sandbox; returns stdout. */
export function inVolume(image: string, volume: string, script: string): string {
  return docker(
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

export function removeVolumes(prefix: string): void {
  const volumes = volumesWithPrefix(prefix);
  if (volumes.length) execFileSync('docker', ['volume', 'rm', '--force', ...volumes], { stdio: 'ignore' });
}

export function containersWithLabel(label: string): string[] {
  return docker('ps', '--all', '--filter', `label=${label}`, '--format', '{{.Names}}')
    .split('\n')
    .filter(Boolean);
}
