// What the engine holds, each list in one or two engine calls whatever its length: labelled volumes
// (the reaper's volume sandboxes) and containers (the reaper's in-use check, what killed runs left).
import type { ContainerInfo, EngineCommands } from './engine-commands.js';

export interface VolumeInfo {
  name: string;
  labels: Record<string, string>;
}

/** Every volume carrying `label` (key or key=value), with its labels: one engine call whatever the count. */
export async function listVolumes(
  engine: EngineCommands,
  label: string,
  labelKeys: readonly string[],
): Promise<VolumeInfo[]> {
  // Docker's template has .Label "key" (its .Labels is one "k=v,k=v" string, ambiguous with commas in
  // values); Podman's has .Labels as a map. Either way: one call, one JSON array per volume.
  const fields =
    engine.name === 'podman'
      ? '{{json .Labels}}'
      : labelKeys.map((key) => `{{json (.Label ${JSON.stringify(key)})}}`).join(',');
  const out = await engine.run([
    'volume',
    'ls',
    '--filter',
    `label=${label}`,
    '--format',
    `[{{json .Name}},${fields}]`,
  ]);
  return out
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const [name, ...values] = JSON.parse(line) as [string, ...Array<string | Record<string, string>>];
      const all = typeof values[0] === 'object' && values[0] !== null ? values[0] : undefined;
      const labels: Record<string, string> = {};
      labelKeys.forEach((key, i) => {
        const value = all ? all[key] : (values[i] as string);
        if (value) labels[key] = value;
      });
      return { name, labels };
    });
}

type Mount = { Type?: string; Name?: string; Source?: string };
type Row = [name: string, status: string, running: boolean, networkMode: string, mounts: Mount[] | null];

/**
 * Every container (running or not; with `label`, key or key=value, only those carrying it), as
 * EngineCommands.listContainers shows them: two engine calls whatever their number (`ps` for the ids, one
 * `container inspect` for all). A container removed between the two is not listed; any other failure,
 * or an answer that cannot be read, throws (the reaper's in-use check must not miss one).
 */
export async function listContainers(
  engine: Pick<EngineCommands, 'run' | 'exec' | 'failure'>,
  label?: string,
): Promise<ContainerInfo[]> {
  const ps = ['ps', '--all', '--quiet', '--no-trunc', ...(label ? ['--filter', `label=${label}`] : [])];
  const ids = (await engine.run(ps)).split('\n').filter(Boolean);
  if (ids.length === 0) return [];
  // One JSON array a line, whatever a name or a mount's path holds.
  const format =
    '[{{json .Name}},{{json .State.Status}},{{json .State.Running}},{{json .HostConfig.NetworkMode}},{{json .Mounts}}]';
  const args = ['container', 'inspect', '--format', format, '--', ...ids];
  const result = await engine.exec(args);
  // A failure is any line of stderr but "no such container" (one removed between the two calls).
  const failed = /^(?!.*no such (object|container)).*\S/im.test(result.stderr);
  if (result.exitCode !== 0 && failed) throw engine.failure(args, result);
  return result.stdout
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const [name, status, running, networkMode, mounts] = JSON.parse(line) as Row;
      const of = (type: string, key: 'Name' | 'Source') =>
        (mounts ?? []).filter((m) => m.Type === type && m[key]).map((m) => m[key]!);
      return {
        name: String(name).replace(/^\//, ''),
        status: String(status),
        running: running === true,
        networkMode: String(networkMode),
        volumes: of('volume', 'Name'),
        binds: of('bind', 'Source'),
      };
    });
}
