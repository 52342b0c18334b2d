// Runs the user's command in a container that sees its sandbox read-write and nothing else writable of
// the host (layout.ts `commandMounts`). Output is streamed line by line and never accumulated (a bounded
// tail is kept for reports); the runner's environment stays out but for the variables named in `env`;
// the command is stopped when the timeout passes; a container that never started is an error, not exit 0.
// ADR 0005, ADR 0006, ADR 0007 (docs/adr/).
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EngineCommands } from '../engine/engine-commands.js';
import { userArg, type ContainerSpec, type Limits, type Mount } from '../engine/container-args.js';
import type { PlantedProbe } from '../engine/engine-probe.js';
import { EngineError } from '../engine/engine-error.js';
import { commandLabels } from '../engine/labels.js';
import { startFailureHint } from '../engine/start-failure.js';
import type { ProxiedPolicy } from '../network/policy.js';
import type { NetworkReport } from '../network/proxy.js';
import type { NetworkSession } from '../network/session.js';
import { pathExists } from '../sandbox/bookkeeping.js';
import { commandMounts, type Sandbox } from '../sandbox/layout.js';
import { containerNotePath } from '../sandbox/lock.js';
import { offerReplyFolder, readReply, removeReplyFolder, type ReplyFolder, type ReplyRead } from './reply.js';
import type { EnvEntry, Identity } from '../settings/settings.js';

export interface CommandSpec {
  command: string;
  image: string;
  env: EnvEntry[];
  limits: Limits;
  timeoutMinutes: number;
  author: Identity;
  committer: Identity;
  /** Where disk sandboxes live (hidden from the container when it lies inside the parent's work tree). */
  worktreeRoot?: string;
  /** Extra files or folders to mount read-only (host path = container path). */
  readOnlyFiles?: string[];
  extraEnv?: Record<string, string>;
  /** The folder of SANDBOX_REPLY_FILE (reply.ts), mounted read-write: made by `runCommand`. */
  reply?: ReplyFolder;
  /**
   * With an allow-list or audit, the proxy and its sidecar the caller started (startCommandNetwork): the
   * command's only way out. Stopped here, after the container. No credential's value passes here.
   */
  network?: NetworkSession;
  /** The command container's name (the network's, when there is one); without it, one is made here. */
  containerName?: string;
  /**
   * The probe's files (engine-probe.ts), bound first: the engine then creates the container only when it
   * sees the sandbox's folders where the action sees them, and its refusal is told as such.
   */
  viewProof?: PlantedProbe;
}

export interface CommandResult {
  exitCode: number;
  timedOut: boolean;
  oomKilled: boolean;
  durationMs: number;
  /** The last lines of output (bounded in count and length), for reports. */
  tail: string[];
  /** With an allow-list or audit: the hosts the command reached and was refused. */
  network?: NetworkReport;
  /** What the command wrote to SANDBOX_REPLY_FILE (untrusted, bounded), or why nothing is shown. */
  reply?: ReplyRead;
}

export const TIMEOUT_EXIT_CODE = 124;
const TAIL_LINES = 40;
const TAIL_LINE_CHARS = 1000;

export function containerName(sandbox: string): string {
  return `worktree-sandbox-${sandbox.slice(0, 60).replace(/[^A-Za-z0-9_.-]/g, '-')}-${randomBytes(3).toString('hex')}`;
}

/** The action's own variables (nothing secret): who commits, where the sandbox and its home are. */
export function actionEnv(sandbox: Sandbox, spec: CommandSpec): Record<string, string> {
  return {
    HOME: sandbox.homePath,
    GIT_AUTHOR_NAME: spec.author.name,
    GIT_AUTHOR_EMAIL: spec.author.email,
    GIT_COMMITTER_NAME: spec.committer.name,
    GIT_COMMITTER_EMAIL: spec.committer.email,
    SANDBOX_NAME: sandbox.name,
    SANDBOX_KIND: sandbox.kind,
    SANDBOX_BRANCH: sandbox.branch,
    SANDBOX_WORKTREE: sandbox.worktreePath,
    SANDBOX_PARENT: sandbox.parent.path,
    ...spec.reply?.env,
    ...spec.extraEnv,
  };
}

/**
 * The `env` input's values never appear on a command line and never change the engine CLI's own
 * environment: one-line values go through a file only the runner can read (removed afterwards); values
 * of several lines, which that file cannot hold, are handed to the CLI by name (`-e NAME`).
 */
async function userEnv(
  entries: EnvEntry[],
): Promise<{ file?: string; dir?: string; inherit: Record<string, string> }> {
  const inherit: Record<string, string> = {};
  const lines: string[] = [];
  for (const { name, value } of entries) {
    if (/[\r\n]/.test(value)) inherit[name] = value;
    else lines.push(`${name}=${value}`);
  }
  if (lines.length === 0) return { inherit };
  const dir = await fs.mkdtemp(path.join(process.env.RUNNER_TEMP || os.tmpdir(), 'worktree-sandbox-env-'));
  const file = path.join(dir, 'env');
  await fs.writeFile(file, `${lines.join('\n')}\n`, { mode: 0o600, flag: 'wx' });
  return { file, dir, inherit };
}

export function commandContainer(
  sandbox: Sandbox,
  spec: CommandSpec,
  name: string,
  env: { file?: string; inherit: Record<string, string> },
): ContainerSpec {
  const extra: Mount[] = (spec.readOnlyFiles ?? []).map((file) => ({
    type: 'bind',
    source: file,
    target: file,
    readonly: true,
  }));
  return {
    name,
    init: true,
    image: spec.image,
    user: userArg(),
    mounts: [
      ...(spec.viewProof?.mounts ?? []),
      ...commandMounts(sandbox, spec.worktreeRoot),
      ...extra,
      ...(spec.reply ? [spec.reply.mount] : []),
    ],
    labels: commandLabels(sandbox),
    limits: spec.limits,
    workdir: sandbox.worktreePath,
    env: actionEnv(sandbox, spec),
    envFile: env.file,
    inheritEnv: Object.keys(env.inherit),
    entrypoint: 'sh',
    args: ['-c', spec.command],
  };
}

/**
 * The network of the command container `name`: the proxy and its sidecar (src/network/session.ts). Its
 * code is loaded on demand, a chunk of its own: the proxy library is no part of a run without one.
 */
export async function startCommandNetwork(
  engine: EngineCommands,
  policy: ProxiedPolicy,
  sandbox: Sandbox,
  name: string,
): Promise<NetworkSession> {
  const { startNetwork } = await import('../network/session.js');
  return startNetwork(engine, policy, { name, labels: commandLabels(sandbox) });
}

export interface CommandHooks {
  /** Called with the container name before it starts (saved for the post step). */
  onStart?: (container: string) => void;
  /** Called once the container is known to have been created (with `viewProof`: the view is proven). */
  onCreated?: () => void;
  onLine?: (line: string) => void;
  /** Whether the line sink is full: reading the command's output waits until it drains. */
  drained?: () => Promise<void> | undefined;
  /**
   * A descriptor the engine CLI writes the output to directly (the step's stdout, fenced): then `onLine`
   * is not called, `ready` is awaited first, and the tail (`tail`) comes from the engine's log of the
   * container.
   */
  outputFd?: number;
  ready?: () => Promise<void>;
  /** With `outputFd`: the engine CLI's stderr, as it came. */
  onStderrChunk?: (chunk: Buffer) => void;
  /** With `outputFd`: the output's last lines are wanted (CommandResult.tail; else empty but on failure). */
  tail?: boolean;
}

export async function runCommand(
  engine: EngineCommands,
  sandbox: Sandbox,
  given: CommandSpec,
  hooks: CommandHooks = {},
): Promise<CommandResult> {
  const name = given.containerName ?? containerName(sandbox.name);
  const env = await userEnv(given.env);
  const offered = await offerReplyFolder(() => engine.bindSource(), process.env.RUNNER_TEMP || os.tmpdir());
  const reply = 'hostDir' in offered ? offered : undefined;
  const spec: CommandSpec = { ...given, reply };
  hooks.onStart?.(name);
  let timedOut = false;
  const timer =
    spec.timeoutMinutes > 0
      ? setTimeout(() => {
          timedOut = true;
          void engine.killContainer(name);
        }, spec.timeoutMinutes * 60_000)
      : undefined;
  const started = Date.now();
  const note = containerNotePath(sandbox.parent.gitDir, sandbox.name);
  const network = spec.network;
  let outcome: CommandResult | undefined;
  try {
    await fs.mkdir(path.dirname(note), { recursive: true });
    await fs.writeFile(note, `${name}\n`);
    let container = commandContainer(sandbox, spec, name, env);
    if (network) {
      const joined = {
        ...spec,
        extraEnv: { ...spec.extraEnv, ...network.env },
        readOnlyFiles: [...(spec.readOnlyFiles ?? []), ...network.readOnlyFiles],
      };
      container = { ...commandContainer(sandbox, joined, name, env), joinNetworkOf: network.joinNetworkOf };
    }
    await hooks.ready?.();
    const result = await engine.stream(await engine.runArgs(container), {
      inherit: env.inherit,
      backpressure: hooks.drained,
      outputFd: hooks.outputFd,
      onStderrChunk: hooks.onStderrChunk,
      onLine: hooks.onLine,
      stderrTailLines: TAIL_LINES,
    });
    const durationMs = Date.now() - started;
    // With the output written straight to the step's log, its last lines are the engine's log of the
    // container: asked beside its state when the tail is wanted (one wait), else only when the command did
    // not run, for what the engine said (each question is an engine CLI start; docs/benchmarks.md).
    const logged = hooks.outputFd !== undefined;
    const [asked, state] = await Promise.all([
      logged && hooks.tail ? engine.logTail(name, TAIL_LINES) : undefined,
      engine.containerState(name),
    ]);
    const ranBadly = !state || !state.started || !!state.error || state.exitCode === 127;
    const lines = !logged
      ? result.outputTail
      : (asked ?? (ranBadly ? await engine.logTail(name, TAIL_LINES) : []));
    const tail = lines.map((l) => (l.length > TAIL_LINE_CHARS ? `${l.slice(0, TAIL_LINE_CHARS)}…` : l));
    // What the engine said last: its stderr, or (output written straight to the step's log) its log of
    // the container; an engine error from before the container existed is in the step's log above.
    const engineSaid = [...result.stderrTail, ...(hooks.outputFd === undefined ? [] : lines)];
    const said = engineSaid.slice(-3).join(' ').trim();
    if (state) hooks.onCreated?.();
    if (!state) {
      // The engine refused a probe file: it does not see the sandbox's folders where the action does.
      const unseen = await spec.viewProof?.unseen(engineSaid.join('\n'));
      if (unseen) throw unseen;
      if ((await engine.containerExists(name)) === undefined)
        throw new EngineError(
          `The ${engine.name} engine became unreachable while the command ran (exit ${result.exitCode}): the sandbox is kept as it is; run again once the engine is back.`,
        );
      throw new EngineError(`The container did not start (${engine.name} exit ${result.exitCode}): ${said}`);
    }
    if (!state.started || state.error)
      throw new EngineError(
        `The container was created but did not start (${engine.name} exit ${result.exitCode}): ${state.error || said}${startFailureHint(state.error || said)}`,
      );
    // Docker's init (tini) started, but the command itself could not: it never ran.
    const initFailed = engineSaid.find((line) => /^\[FATAL tini \(\d+\)\] exec /.test(line));
    if (!timedOut && state.exitCode === 127 && engine.name === 'docker' && initFailed)
      throw new EngineError(
        `The container started but its command did not (${engine.name} exit 127): ${initFailed}${startFailureHint(initFailed)}`,
      );
    const exitCode = timedOut ? TIMEOUT_EXIT_CODE : state.exitCode;
    outcome = { exitCode, timedOut, oomKilled: state.oomKilled, durationMs, tail };
    return outcome;
  } finally {
    if (timer) clearTimeout(timer);
    if (await engine.removeContainer(name)) await fs.rm(note, { force: true });
    // The proxy and its sidecar stop with the command, after its container is gone (Podman keeps a
    // container that another one still joins); what the proxy counted is complete only then.
    if (network) {
      const report = await network.stop();
      if (outcome) outcome.network = report;
    }
    if (env.dir) await fs.rm(env.dir, { recursive: true, force: true });
    // Read once the container is gone (nothing writes the folder any more), then the folder goes.
    if (reply) {
      const read = outcome ? await readReply(reply.hostDir) : {};
      const left = await removeReplyFolder(reply.hostDir);
      if (outcome)
        outcome.reply = left ? { ...read, warning: [read.warning, left].filter(Boolean).join(' ') } : read;
    } else if (outcome && 'warning' in offered) outcome.reply = offered;
  }
}

/** Containers of the sandbox that a killed run left (its note says there may be some): removed. */
export async function removeLeftContainers(engine: EngineCommands, sandbox: Sandbox): Promise<string[]> {
  const note = containerNotePath(sandbox.parent.gitDir, sandbox.name);
  if (!(await pathExists(note))) return [];
  const removed = await engine.removeContainersLabelled(commandLabels(sandbox));
  await fs.rm(note, { force: true });
  return removed;
}
