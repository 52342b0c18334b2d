// Runs the user's command in a container mounted on the sandbox: output streamed, the runner's
// environment kept out, stopped when the timeout passes.
import { randomBytes } from 'node:crypto';
import type { ContainerEngine } from './docker.js';
import { EngineError, LABEL_PREFIX, MANAGED_LABEL } from './docker.js';
import { BOT_IDENTITY } from './report.js';
import { currentIdentity, mountArg, sandboxMounts, type Sandbox } from './sandbox.js';
import type { ContainerLimits, EnvEntry } from './settings.js';

export interface CommandSpec {
  command: string;
  image: string;
  env: EnvEntry[];
  limits: ContainerLimits;
  timeoutMinutes: number;
  /** Extra files or folders to mount read-only (host path = container path). */
  readOnlyFiles?: string[];
  extraEnv?: Record<string, string>;
}

export interface CommandResult {
  exitCode: number;
  timedOut: boolean;
  oomKilled: boolean;
  durationMs: number;
  /** The last lines of output, for reports. */
  tail: string[];
}

export const TIMEOUT_EXIT_CODE = 124;
const TAIL_LINES = 40;

export function containerName(sandbox: string): string {
  return `worktree-sandbox-${sandbox.slice(0, 60).replace(/[^A-Za-z0-9_.-]/g, '-')}-${randomBytes(3).toString('hex')}`;
}

/** The container's environment: the action's SANDBOX_* variables, a bot identity for commits, the `env` input. */
export function containerEnv(sandbox: Sandbox, spec: CommandSpec): Record<string, string> {
  const env: Record<string, string> = {
    GIT_AUTHOR_NAME: BOT_IDENTITY.name,
    GIT_AUTHOR_EMAIL: BOT_IDENTITY.email,
    GIT_COMMITTER_NAME: BOT_IDENTITY.name,
    GIT_COMMITTER_EMAIL: BOT_IDENTITY.email,
  };
  for (const { name, value } of spec.env) env[name] = value;
  Object.assign(env, {
    SANDBOX_NAME: sandbox.name,
    SANDBOX_KIND: sandbox.kind,
    SANDBOX_BRANCH: sandbox.branch,
    SANDBOX_WORKTREE: sandbox.worktreePath,
    SANDBOX_PARENT: sandbox.parent.path,
    ...spec.extraEnv,
  });
  return env;
}

/** Labels of the command container: how a later run finds the container of a run that was killed. */
export function commandLabels(sandbox: Pick<Sandbox, 'project' | 'name'>): Record<string, string> {
  return {
    [`${LABEL_PREFIX}.role`]: 'command',
    [`${LABEL_PREFIX}.project`]: sandbox.project,
    [`${LABEL_PREFIX}.sandbox`]: sandbox.name,
  };
}

export function commandRunArgs(
  engine: ContainerEngine,
  sandbox: Sandbox,
  spec: CommandSpec,
  name: string,
  env: Record<string, string>,
): string[] {
  const id = currentIdentity();
  const { limits } = spec;
  const labels = { [MANAGED_LABEL]: 'true', ...commandLabels(sandbox) };
  const args = ['run', '--name', name, ...engine.initArgs, '--user', `${id.uid}:${id.gid}`];
  for (const [key, value] of Object.entries(labels)) args.push('--label', `${key}=${value}`);
  args.push('--cap-drop', 'ALL', '--security-opt', 'no-new-privileges');
  args.push('--pids-limit', String(limits.pidsLimit), '--network', limits.network);
  if (limits.memory) args.push('--memory', limits.memory, '--memory-swap', limits.memory);
  if (limits.cpus) args.push('--cpus', limits.cpus);
  if (limits.readOnlyRootfs) args.push('--read-only', '--tmpfs', '/tmp:rw,exec,nosuid,size=512m');
  args.push(...sandboxMounts(sandbox));
  for (const file of spec.readOnlyFiles ?? [])
    args.push('--mount', mountArg({ type: 'bind', source: file, target: file, readonly: true }));
  args.push('--workdir', sandbox.worktreePath);
  // `-e NAME` without a value: docker takes the value from its own environment, so no value (a secret,
  // perhaps) ever appears on a command line.
  for (const key of Object.keys(env)) args.push('-e', key);
  args.push('--entrypoint', 'sh', '--', spec.image, '-c', spec.command);
  return args;
}

export interface CommandHooks {
  /** Called with the container name before it starts (saved for the post step). */
  onStart?: (container: string) => void;
  onLine?: (line: string) => void;
}

export async function runCommand(
  engine: ContainerEngine,
  sandbox: Sandbox,
  spec: CommandSpec,
  hooks: CommandHooks = {},
): Promise<CommandResult> {
  const name = containerName(sandbox.name);
  const env = containerEnv(sandbox, spec);
  hooks.onStart?.(name);
  const tail: string[] = [];
  let timedOut = false;
  const timer =
    spec.timeoutMinutes > 0
      ? setTimeout(() => {
          timedOut = true;
          void engine.killContainer(name);
        }, spec.timeoutMinutes * 60_000)
      : undefined;
  const started = Date.now();
  try {
    const result = await engine.exec(commandRunArgs(engine, sandbox, spec, name, env), {
      env,
      onLine: (line) => {
        tail.push(line);
        if (tail.length > TAIL_LINES) tail.shift();
        hooks.onLine?.(line);
      },
    });
    const durationMs = Date.now() - started;
    const state = await engine.containerState(name);
    if (!state) {
      if ((await engine.containerExists(name)) === undefined)
        throw new EngineError(
          `The ${engine.name} engine became unreachable while the command ran (exit ${result.exitCode}): the sandbox is kept as it is; run again once the engine is back.`,
        );
      // The container never started: the engine refused it (bad image, mount, option).
      throw new Error(
        `The container did not start: ${(result.stderr || result.stdout).trim().split('\n').slice(-3).join(' ')}`,
      );
    }
    const exitCode = timedOut ? TIMEOUT_EXIT_CODE : state.exitCode;
    return { exitCode, timedOut, oomKilled: state.oomKilled, durationMs, tail };
  } finally {
    if (timer) clearTimeout(timer);
    await engine.removeContainer(name);
  }
}
