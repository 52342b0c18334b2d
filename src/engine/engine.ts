// The container engine CLI (Docker, or Podman which speaks the same CLI) behind one interface
// (EngineCommands, engine-commands.ts). Argument arrays only; values that could be secrets travel in the
// child's environment (`-e NAME`), never on its command line.
// ADR 0006 (docs/adr/0006-env-never-touches-the-engine-cli.md).
import { containerRunArgs, currentIdentity, type BindSource, type ContainerSpec } from './container-args.js';
import type { ContainerInfo, ContainerState, EngineCommands, HelperRun } from './engine-commands.js';
import { EngineError, engineFailure, firstLine } from './engine-error.js';
import { runHelperContainer } from './helper-run.js';
import { listContainers } from './inventory.js';
import { bindSource, discoverHostView, type HostView } from './host-paths.js';
import { detectEngineMode, userNamespaceArgs, type EngineMode } from './mode.js';
import {
  ProcError,
  pickEnv,
  runProcess,
  runStreaming,
  type ProcResult,
  type StreamOptions,
  type StreamResult,
} from './proc.js';
import { engineWork, timeLimitMs } from './time-limits.js';

export type { EngineName } from './engine-name.js';
import type { EngineName } from './engine-name.js';

/** The engine CLI's own variables: taken from the runner, never overridden for a container's sake. */
export const ENGINE_ENV = [
  'PATH',
  'HOME',
  'DOCKER_HOST',
  'DOCKER_CONFIG',
  'DOCKER_CONTEXT',
  'DOCKER_CERT_PATH',
  'DOCKER_TLS_VERIFY',
  'CONTAINERS_CONF',
  'CONTAINER_HOST',
  'XDG_RUNTIME_DIR',
  'TMPDIR',
];

export class ContainerEngine implements EngineCommands {
  private detected?: Promise<EngineMode>;
  private view?: Promise<HostView>;

  constructor(readonly name: EngineName = 'docker') {}

  /**
   * Rootless or not, from the engine itself (`podman info`), asked once. Docker is not asked: it has no
   * user-namespace option a container needs here, and start-up latency counts.
   */
  mode(): Promise<EngineMode> | undefined {
    if (this.name !== 'podman') return undefined;
    this.detected ??= detectEngineMode(this.name, (args) => this.exec(args));
    return this.detected;
  }

  /**
   * Where the engine finds the action's paths (host-paths.ts), found once: no engine call on a plain host;
   * in a container of this engine, its mounts.
   */
  hostView(): Promise<HostView> {
    this.view ??= discoverHostView((args, options) => this.stream(args, options));
    return this.view;
  }

  /** The engine's path for each bind source, for a caller of `containerRunArgs` itself. */
  async bindSource(): Promise<BindSource> {
    return bindSource(await this.hostView());
  }

  /** The `run` arguments of a container: the one builder's, with this engine's user-namespace mapping. */
  async runArgs(spec: ContainerSpec): Promise<string[]> {
    const [mode, view] = await Promise.all([this.mode(), this.hostView()]);
    const id = currentIdentity();
    return containerRunArgs(
      this.name,
      { ...spec, userns: mode ? userNamespaceArgs(mode, id.uid, id.gid) : [] },
      bindSource(view),
    );
  }

  /**
   * The CLI's environment: the runner's engine variables (HOME, DOCKER_CONFIG, XDG_RUNTIME_DIR...), plus
   * values the CLI passes on to a container by name (`-e NAME`), which may never replace one of its own.
   */
  private env(inherit: Record<string, string> = {}): Record<string, string> {
    for (const name of Object.keys(inherit))
      if (ENGINE_ENV.includes(name)) throw new Error(`${name} is the ${this.name} CLI's own variable.`);
    return { ...inherit, ...pickEnv(ENGINE_ENV) };
  }

  /**
   * Runs the engine CLI under the time limit of its kind of call (`engineWork`), or a shorter one; never
   * throws for a non-zero exit, but throws a ProcTimeLimitError when the limit runs out (the CLI killed).
   */
  async exec(
    args: readonly string[],
    options: { inherit?: Record<string, string>; limitMs?: number; purpose?: string } = {},
  ): Promise<ProcResult> {
    const work = engineWork(args);
    const limit = {
      ms: Math.min(options.limitMs ?? Infinity, timeLimitMs(work)),
      purpose: options.purpose ?? `the container engine's ${work.slice('engine-'.length)}`,
    };
    try {
      return await runProcess(this.name, args, { env: this.env(options.inherit), limit });
    } catch (error) {
      throw this.notInstalled(error);
    }
  }

  /** Runs the engine CLI with its output streamed (bounded memory: see runStreaming). */
  async stream(
    args: readonly string[],
    options: Omit<StreamOptions, 'env' | 'cwd'> & { inherit?: Record<string, string> } = {},
  ): Promise<StreamResult> {
    try {
      return await runStreaming(this.name, args, { ...options, env: this.env(options.inherit) });
    } catch (error) {
      throw this.notInstalled(error);
    }
  }

  /** Runs a helper container under its time limit (helper-run.ts). */
  runHelper(
    spec: ContainerSpec,
    run: HelperRun,
    options: Omit<StreamOptions, 'env' | 'cwd' | 'signal'> = {},
  ): Promise<StreamResult> {
    return runHelperContainer(this, spec, run, options);
  }

  /** Kills a container (SIGKILL, not the engine's polite stop) and removes it. */
  async stopContainer(name: string): Promise<void> {
    await this.exec(['kill', '--', name]).catch(() => undefined);
    await this.exec(['rm', '--force', '--volumes', '--', name]).catch(() => undefined);
  }

  private notInstalled(error: unknown): unknown {
    if (!(error instanceof ProcError)) return error;
    return new EngineError(
      `${this.name} is not installed or not on PATH: isolation needs a container engine.`,
    );
  }

  async run(args: readonly string[]): Promise<string> {
    const result = await this.exec(args);
    if (result.exitCode !== 0) throw this.failure(args, result);
    return result.stdout;
  }

  failure(args: readonly string[], result: ProcResult): EngineError {
    return engineFailure(this.name, args, result);
  }

  /** The engine's answer on `image` (ensureImage's first half). */
  inspectImage(image: string): Promise<ProcResult> {
    return this.exec(['image', 'inspect', '--format', '{{.Id}}', '--', image]);
  }

  /**
   * Makes sure `image` is present, pulling it when missing. Also the engine reachability check: one call on
   * the fast path, so that start-up stays quick.
   */
  async ensureImage(image: string): Promise<void> {
    const inspect = await this.inspectImage(image);
    if (inspect.exitCode === 0) return;
    const failure = this.failure(['image', 'inspect'], inspect);
    if (failure.message.includes('unreachable')) throw failure;
    const pull = await this.exec(['pull', '--quiet', '--', image]);
    if (pull.exitCode !== 0) {
      throw new EngineError(
        `Image "${image}" is not present and could not be pulled: ${firstLine((pull.stderr || pull.stdout).trim())}`,
      );
    }
  }

  async volumeExists(name: string): Promise<boolean> {
    const result = await this.exec(['volume', 'inspect', '--format', '{{.Name}}', '--', name]);
    if (result.exitCode === 0) return true;
    const failure = this.failure(['volume', 'inspect'], result);
    if (failure.message.includes('unreachable')) throw failure;
    return false;
  }

  async createVolume(name: string, labels: Record<string, string>): Promise<void> {
    const args = ['volume', 'create'];
    for (const [key, value] of Object.entries(labels)) args.push('--label', `${key}=${value}`);
    args.push('--', name);
    await this.run(args);
  }

  /** Removes a volume; false when it is absent. Throws when it is in use or the engine fails. */
  async removeVolume(name: string): Promise<boolean> {
    if (!(await this.volumeExists(name))) return false;
    await this.run(['volume', 'rm', '--', name]);
    return true;
  }

  /** `--init` (a tiny init as PID 1: signals, zombies) where the engine always ships one. */
  get initArgs(): string[] {
    return this.name === 'docker' ? ['--init'] : [];
  }

  async containerState(name: string): Promise<ContainerState | undefined> {
    const result = await this.exec([
      'container',
      'inspect',
      '--format',
      '{{json .State.ExitCode}} {{json .State.OOMKilled}} {{json .State.Running}} {{json .State.Status}} {{json .State.StartedAt}} {{json .State.Error}}',
      '--',
      name,
    ]);
    if (result.exitCode !== 0) return undefined;
    const [code, oom, running, status, startedAt, error] = JSON.parse(
      `[${result.stdout.trim().split(' ').join(',')}]`,
    ) as [number, boolean, boolean, string, string, string];
    // A container that never started has StartedAt at the zero time (Docker) or empty (Podman).
    const started = !!startedAt && !startedAt.startsWith('0001-01-01') && status !== 'created';
    return { exitCode: code, oomKilled: oom, running, status, started, error: error ?? '' };
  }

  /** Whether a container exists: undefined when the engine cannot tell (unreachable). */
  async containerExists(name: string): Promise<boolean | undefined> {
    const result = await this.exec(['container', 'inspect', '--format', '{{.Id}}', '--', name]);
    if (result.exitCode === 0) return true;
    return /no such (container|object)/i.test(result.stderr) ? false : undefined;
  }

  listContainers(label?: string): Promise<ContainerInfo[]> {
    return listContainers(this, label);
  }

  /** The last lines of a container's output as the engine logged it (empty when its log driver keeps none). */
  async logTail(name: string, lines: number): Promise<string[]> {
    const result = await runStreaming(this.name, ['logs', '--tail', String(lines), '--', name], {
      env: this.env(),
      onLine: () => undefined,
      timeLimitMs: timeLimitMs('engine-query'),
    });
    return result.exitCode === 0 ? result.outputTail : [];
  }

  /** Removes a container if it exists (running or not). */
  async removeContainer(name: string): Promise<boolean> {
    const result = await this.exec(['rm', '--force', '--volumes', '--', name]);
    return result.exitCode === 0;
  }

  async killContainer(name: string): Promise<void> {
    await this.exec(['kill', '--', name]);
  }

  /** Removes every container (running or not) carrying all the given labels; returns their names. */
  async removeContainersLabelled(labels: Record<string, string>): Promise<string[]> {
    const filters = Object.entries(labels).flatMap(([k, v]) => ['--filter', `label=${k}=${v}`]);
    const names = (await this.run(['ps', '--all', ...filters, '--format', '{{.Names}}']))
      .split('\n')
      .filter(Boolean);
    for (const name of names) await this.removeContainer(name);
    return names;
  }
}

/** The engine as the layers above engine/ hold it, the interface; a spec holds a fake. */
export const createEngine = (name: EngineName): EngineCommands => new ContainerEngine(name);
