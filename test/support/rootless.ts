// Commands run as the unprivileged runner user (uid 1001, in the docker group), as GitHub-hosted runners run
// steps, optionally with the environment rootless Podman reads (its runtime folder; its storage lives under
// HOME). scripts/setup.sh, as root, sets that user's rootless Podman up; requireRootlessPodman() fails, with
// what is missing, where it is not.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RUNNER_USER, TEST_IMAGE, isRoot, runnerIds } from './env.js';

/** The runner user cannot read root's own tool folders: the standard system PATH, and this node. */
export const RUNNER_PATH = `${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin`;

export function runnerHome(): string {
  const entry = execFileSync('getent', ['passwd', RUNNER_USER], { encoding: 'utf8' }).trim();
  return entry.split(':')[5];
}

/** Where systemd-logind would put the runner's runtime folder (the set-up makes it: no logind here). */
export function runnerRuntimeDir(): string {
  return `/run/user/${runnerIds().uid}`;
}

/**
 * The environment of a process run as the runner: PATH and HOME; with `rootlessPodman`, XDG_RUNTIME_DIR as
 * well (Podman run by a non-root user is rootless: storage under HOME, runtime files in XDG_RUNTIME_DIR).
 * CONTAINERS_CONF is not needed rootless; pass it in `extra` to test it.
 */
export function runnerEnv(
  options: { rootlessPodman?: boolean; extra?: Record<string, string> } = {},
): Record<string, string> {
  return {
    PATH: RUNNER_PATH,
    HOME: runnerHome(),
    ...(options.rootlessPodman ? { XDG_RUNTIME_DIR: runnerRuntimeDir() } : {}),
    ...options.extra,
  };
}

/** The command line that runs `command args` as the runner: its uid, gid and groups (docker among them). */
export function asRunner(command: string, args: readonly string[]): [string, string[]] {
  return [
    '/usr/bin/setpriv',
    ['--reuid', RUNNER_USER, '--regid', RUNNER_USER, '--init-groups', '--', command, ...args],
  ];
}

export interface RunnerResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunnerOptions {
  rootlessPodman?: boolean;
  /** Added to runnerEnv(); nothing else of this process's environment is passed on. */
  env?: Record<string, string>;
  /** Default /: a folder every user can enter. */
  cwd?: string;
  timeoutMs?: number;
}

/** Runs `command args` as the runner and collects its output. */
export function runAsRunner(
  command: string,
  args: readonly string[],
  options: RunnerOptions = {},
): Promise<RunnerResult> {
  const [cmd, cmdArgs] = asRunner(command, args);
  const child = spawn(cmd, cmdArgs, {
    cwd: options.cwd ?? '/',
    env: runnerEnv({ rootlessPodman: options.rootlessPodman, extra: options.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.on('error', (error) => (stderr += `spawn failed: ${error.message}`));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    }),
  );
}

/** Rootless Podman as the runner, shaped like ContainerEngine.exec (never throws for a non-zero exit). */
export async function rootlessPodman(
  args: readonly string[],
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const result = await runAsRunner('podman', args, { rootlessPodman: true });
  return { exitCode: result.code ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Throws, naming every missing piece, unless the runner can run rootless Podman with the test image. For
 * beforeAll of suites that need it: they fail (they do not skip) on a machine without the set-up.
 */
export function requireRootlessPodman(): void {
  const missing: string[] = [];
  if (!isRoot) {
    throw new Error('rootless Podman tests switch to the runner user: run them as root');
  }
  let ids: { uid: number; gid: number };
  try {
    ids = runnerIds();
  } catch {
    throw new Error(
      `rootless Podman tests need the user ${RUNNER_USER}: run \`bash scripts/setup.sh\` as root`,
    );
  }
  for (const file of ['/etc/subuid', '/etc/subgid']) {
    const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n') : [];
    if (!lines.some((l) => l.startsWith(`${RUNNER_USER}:`) || l.startsWith(`${ids.uid}:`)))
      missing.push(`no range for ${RUNNER_USER} in ${file}`);
  }
  for (const tool of ['/usr/bin/newuidmap', '/usr/bin/newgidmap']) {
    if (!fs.existsSync(tool)) missing.push(`${tool} is missing (package uidmap)`);
  }
  const dir = runnerRuntimeDir();
  const st = fs.statSync(dir, { throwIfNoEntry: false });
  if (!st?.isDirectory()) missing.push(`no runtime folder ${dir}`);
  else if (st.uid !== ids.uid || (st.mode & 0o777) !== 0o700)
    missing.push(`${dir} must belong to ${RUNNER_USER} with mode 700`);
  if (missing.length === 0) {
    const [cmd, args] = asRunner('podman', ['info', '--format', '{{.Host.Security.Rootless}}']);
    const info = spawnSync(cmd, args, {
      cwd: '/',
      env: runnerEnv({ rootlessPodman: true }),
      encoding: 'utf8',
    });
    if (info.status !== 0 || info.stdout.trim() !== 'true') {
      missing.push(
        `podman info as ${RUNNER_USER} does not say rootless: ${(info.stderr || info.stdout).trim()}`,
      );
    } else {
      const [icmd, iargs] = asRunner('podman', ['image', 'exists', TEST_IMAGE]);
      const image = spawnSync(icmd, iargs, { cwd: '/', env: runnerEnv({ rootlessPodman: true }) });
      if (image.status !== 0)
        missing.push(`${TEST_IMAGE} is not in ${RUNNER_USER}'s rootless Podman storage`);
    }
  }
  if (missing.length > 0) {
    throw new Error(
      `rootless Podman is not set up for ${RUNNER_USER}: ${missing.join('; ')}. Run \`bash scripts/setup.sh\` as root.`,
    );
  }
}
