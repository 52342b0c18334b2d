// What a killed run with an allow-list may leave in the engine when neither its post step nor its
// watchdog (watchdog.ts) ran: its command's container, stopped, and its sidecar, ended but kept (Podman
// keeps a container that another one joined). Any later run or reap on the same engine removes them.
// Another job may be running on the same engine: only containers that have ended are touched, and a
// command's container only when the sidecar it joined is no longer running. A live run removes its
// command's container before it stops its sidecar (run/command.ts, session.ts), so an ended command's
// container beside a running sidecar is a live run's, about to be read and removed by it.
import type { EngineCommands } from '../engine/engine-commands.js';
import { label } from '../engine/labels.js';
import type { Ui } from '../ui/ui.js';

const SIDECAR_SUFFIX = '-net';

/** The sidecar of the command's container `command` (a command's name ends in hex, never in this). */
export function sidecarName(command: string): string {
  return `${command}${SIDECAR_SUFFIX}`;
}

/** A container with the command's labels (commands and sidecars carry the same), as the engine shows it. */
export interface LabelledContainer {
  name: string;
  /** The engine's `.State.Status`: `running`, `exited`, `created`, ... */
  status: string;
  /** `.HostConfig.NetworkMode`: `container:<id>` for a command that joined a sidecar. */
  networkMode: string;
}

/** States in which no process of the container runs, nor is about to. */
const ENDED = new Set(['exited', 'dead', 'stopped']);
/**
 * A command's container in these states with no running sidecar can never run: it joins the sidecar's
 * network, which the engine needs running to start it (a run killed between `create` and `start`).
 */
const NOT_RUNNING = new Set([...ENDED, 'created', 'configured']);

/**
 * The names to remove, in the order they go: the commands' containers first (Podman keeps a sidecar that
 * one still joins), then the sidecars. A sidecar that ended is one whose forwarder ended: its proxy was
 * gone, or it is being removed by its own run already.
 */
export function leftByKilledRuns(containers: readonly LabelledContainer[]): string[] {
  const running = new Set(containers.filter((c) => !NOT_RUNNING.has(c.status)).map((c) => c.name));
  const isSidecar = (c: LabelledContainer) => c.name.endsWith(SIDECAR_SUFFIX);
  const commands = containers.filter(
    (c) =>
      !isSidecar(c) &&
      NOT_RUNNING.has(c.status) &&
      c.networkMode.startsWith('container:') &&
      !running.has(sidecarName(c.name)),
  );
  const sidecars = containers.filter((c) => isSidecar(c) && ENDED.has(c.status));
  return [...commands, ...sidecars].map((c) => c.name);
}

/** Every container with the command's role label, as the engine shows it: two engine calls, or one. */
async function labelledContainers(engine: EngineCommands): Promise<LabelledContainer[]> {
  const ids = (
    await engine.run(['ps', '--all', '--quiet', '--no-trunc', '--filter', `label=${label('role')}=command`])
  )
    .split('\n')
    .filter(Boolean);
  if (ids.length === 0) return [];
  const args = [
    'container',
    'inspect',
    '--format',
    '{{json .Name}} {{json .State.Status}} {{json .HostConfig.NetworkMode}}',
    '--',
    ...ids,
  ];
  // A container removed between the two calls is simply not listed.
  const result = await engine.exec(args);
  return result.stdout
    .split('\n')
    .filter((line) => line.trim())
    .flatMap((line) => {
      try {
        const [name, status, networkMode] = JSON.parse(`[${line.trim().split(' ').join(',')}]`) as string[];
        return [
          { name: String(name).replace(/^\//, ''), status: String(status), networkMode: String(networkMode) },
        ];
      } catch {
        return [];
      }
    });
}

/**
 * Removes what killed runs with an allow-list left (leftByKilledRuns); returns the names removed. Never
 * throws: a run or a reap goes on whatever the engine says here.
 */
export async function removeLeftNetworkContainers(engine: EngineCommands): Promise<string[]> {
  try {
    const removed: string[] = [];
    for (const name of leftByKilledRuns(await labelledContainers(engine)))
      if (await engine.removeContainer(name)) removed.push(name);
    return removed;
  } catch {
    return [];
  }
}

/** removeLeftNetworkContainers, said in one line when it removed anything. */
export async function reportLeftNetworkContainers(engine: EngineCommands, ui: Ui): Promise<void> {
  const removed = await removeLeftNetworkContainers(engine);
  if (removed.length)
    ui.info(
      `Removed ${removed.length} container(s) that killed runs with a network allow-list left: ${removed.join(', ')}.`,
    );
}
