// The container engine CLI as the rest of the action sees it: intention-revealing methods that
// ContainerEngine carries out (engine.ts). A caller that needs only a few of them can take
// `Pick<EngineCommands, ...>`, and its spec a fake.
import type { BindSource, ContainerSpec } from './container-args.js';
import type { EngineError } from './engine-error.js';
import type { EngineName } from './engine-name.js';
import type { HostView } from './host-paths.js';
import type { EngineMode } from './mode.js';
import type { ProcResult, StreamOptions, StreamResult } from './proc.js';
import type { HelperWork } from './time-limits.js';

export interface ContainerState {
  exitCode: number;
  oomKilled: boolean;
  running: boolean;
  /** `created`, `running`, `exited`, ... */
  status: string;
  /** False for a container that was created but never started (its ExitCode then reads 0). */
  started: boolean;
  /** The engine's own message when starting it failed. */
  error: string;
}

/** One container as `listContainers` shows it. */
export interface ContainerInfo {
  name: string;
  /** `.State.Status`: `running`, `exited`, `created`, ... */
  status: string;
  running: boolean;
  /** `.HostConfig.NetworkMode`: `container:<id>` for one that joined another's network. */
  networkMode: string;
  /** What it mounts: volumes by name, bind mounts by host path. */
  volumes: string[];
  binds: string[];
}

/** One run of a helper container: what it does (its time limit), where, and what a timeout means. */
export interface HelperRun {
  work: HelperWork;
  /** The sandbox (or sandboxes) it works on, for the error. */
  where: string;
  /** What running out means for the sandbox, for the error (what is kept, what was not done). */
  consequence: string;
  /**
   * The `run` arguments as the one builder makes them, without this engine's user-namespace mapping
   * (the reaper's read-only helpers run so); default: with it, as `runArgs`.
   */
  unmapped?: boolean;
}

export interface EngineCommands {
  readonly name: EngineName;
  /** Rootless or not (Podman only; undefined for Docker). */
  mode(): Promise<EngineMode> | undefined;
  /** Where the engine finds the action's paths. */
  hostView(): Promise<HostView>;
  bindSource(): Promise<BindSource>;
  /** The `run` arguments of a container, with this engine's user-namespace mapping. */
  runArgs(spec: ContainerSpec): Promise<string[]>;
  /** The CLI under its time limit: the result whatever the exit code. */
  exec(
    args: readonly string[],
    options?: { inherit?: Record<string, string>; limitMs?: number; purpose?: string },
  ): Promise<ProcResult>;
  /** The CLI with its output streamed (bounded memory). */
  stream(
    args: readonly string[],
    options?: Omit<StreamOptions, 'env' | 'cwd'> & { inherit?: Record<string, string> },
  ): Promise<StreamResult>;
  /** A helper container under its time limit; a TimeLimitError when it runs out. */
  runHelper(
    spec: ContainerSpec,
    run: HelperRun,
    options?: Omit<StreamOptions, 'env' | 'cwd' | 'signal'>,
  ): Promise<StreamResult>;
  stopContainer(name: string): Promise<void>;
  /** The CLI's stdout; an EngineError for a non-zero exit. */
  run(args: readonly string[]): Promise<string>;
  failure(args: readonly string[], result: ProcResult): EngineError;
  inspectImage(image: string): Promise<ProcResult>;
  ensureImage(image: string): Promise<void>;
  volumeExists(name: string): Promise<boolean>;
  createVolume(name: string, labels: Record<string, string>): Promise<void>;
  removeVolume(name: string): Promise<boolean>;
  /** `--init` where the engine always ships one. */
  readonly initArgs: string[];
  containerState(name: string): Promise<ContainerState | undefined>;
  containerExists(name: string): Promise<boolean | undefined>;
  /** Every container, running or not (with `label`, key or key=value: those carrying it); inventory.ts. */
  listContainers(label?: string): Promise<ContainerInfo[]>;
  logTail(name: string, lines: number): Promise<string[]>;
  removeContainer(name: string): Promise<boolean>;
  killContainer(name: string): Promise<void>;
  removeContainersLabelled(labels: Record<string, string>): Promise<string[]>;
}
