// What the engine holds, each list in one or two engine calls whatever its length: labelled volumes
// (the reaper's volume sandboxes) and every container's mounts (the reaper's in-use check).
import type { EngineCommands } from './engine-commands.js';

export interface VolumeInfo {
  name: string;
  labels: Record<string, string>;
}

/** What one container mounts: volumes by name, bind mounts by host path. */
export interface ContainerMounts {
  name: string;
  running: boolean;
  volumes: string[];
  binds: string[];
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

/**
 * Every container (running or not) with what it mounts: two engine calls whatever the number of
 * containers and volumes (`ps` for the ids, one `container inspect` for all of them).
 */
export async function containerMounts(engine: EngineCommands): Promise<ContainerMounts[]> {
  const ids = (await engine.run(['ps', '--all', '--quiet', '--no-trunc'])).split('\n').filter(Boolean);
  if (ids.length === 0) return [];
  const args = [
    'container',
    'inspect',
    '--format',
    '{{json .Name}} {{json .State.Running}} {{json .Mounts}}',
    '--',
    ...ids,
  ];
  const result = await engine.exec(args);
  // A container removed between the two calls is simply gone; any other failure is a failure.
  const problems = result.stderr
    .split('\n')
    .filter((line) => line.trim() && !/no such (object|container)/i.test(line));
  if (result.exitCode !== 0 && problems.length) throw engine.failure(args, result);
  return result.stdout
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => parseMounts(line));
}

interface MountJson {
  Type?: string;
  Name?: string;
  Source?: string;
}

function parseMounts(line: string): ContainerMounts {
  // `"<name>" <true|false> [<mounts>]`: the name is a JSON string, so the first `" ` after it ends it.
  const nameEnd = line.indexOf('" ', 1) + 1;
  const name = (JSON.parse(line.slice(0, nameEnd)) as string).replace(/^\//, '');
  const rest = line.slice(nameEnd + 1);
  const space = rest.indexOf(' ');
  const running = rest.slice(0, space) === 'true';
  const mounts = (JSON.parse(rest.slice(space + 1)) as MountJson[] | null) ?? [];
  return {
    name,
    running,
    volumes: mounts.filter((m) => m.Type === 'volume' && m.Name).map((m) => m.Name!),
    binds: mounts.filter((m) => m.Type === 'bind' && m.Source).map((m) => m.Source!),
  };
}
