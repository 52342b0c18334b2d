// Which container engines the core suites run against: Docker always, Podman where it is installed
// (scripts/setup.sh installs it on Debian). Each suite says which ran.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import type { EngineName } from '../../src/engine/engine.js';

export const PODMAN_CONF = path.resolve('scripts/podman-containers.conf');

export function availableEngines(): EngineName[] {
  const engines: EngineName[] = ['docker'];
  if (process.env.WORKTREE_SANDBOX_PODMAN === '0') return engines;
  try {
    execFileSync('podman', ['info', '--format', '{{.Host.Arch}}'], {
      stdio: 'ignore',
      env: { ...process.env, CONTAINERS_CONF: PODMAN_CONF },
    });
    process.env.CONTAINERS_CONF ??= PODMAN_CONF;
    engines.push('podman');
  } catch {
    // not installed, or not usable as this user
  }
  process.stdout.write(`container engines under test: ${engines.join(', ')}\n`);
  return engines;
}
