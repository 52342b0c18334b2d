// A step's stdout read the way the Actions runner reads it: lines broken at `\r\n`, `\n` and a lone `\r`,
// commands stopped between `::stop-commands::<token>` and `::<token>::`, and a command recognised after
// leading blanks (`::name props::data`, or the older `##[name props]data`).

export interface RunnerCommand {
  line: string;
  name: string;
  props: string;
  data: string;
}

/** The workflow commands the runner would obey in this output. */
export function runnerCommands(stdout: string): RunnerCommand[] {
  const found: RunnerCommand[] = [];
  let token: string | undefined;
  for (const raw of stdout.split(/\r\n|\n|\r/)) {
    const line = raw.trim();
    if (token) {
      if (line === `::${token}::`) token = undefined;
      continue;
    }
    const modern = /^::([A-Za-z-]+)(?:\s+([^:]*))?::(.*)$/.exec(line);
    const legacy = /^##\[([A-Za-z-]+)(?:\s+([^\]]*))?\](.*)$/.exec(line);
    const m = modern ?? legacy;
    if (!m) continue;
    const [, name, props = '', data] = m;
    if (name === 'stop-commands') token = data;
    found.push({ line, name, props, data });
  }
  return found;
}

/**
 * Commands that text from a sandbox issued: any that sets something (outputs, variables, paths, masks,
 * state), and any whose properties or message start with the attacker's marker. The action's own
 * commands (groups, its warnings and errors, debug lines, fences) carry the marker only inside their
 * message, after the action's own words.
 */
export function injectedCommands(stdout: string, marker = 'pwned'): RunnerCommand[] {
  const setting = new Set(['set-output', 'set-env', 'add-path', 'save-state', 'add-matcher', 'echo']);
  return runnerCommands(stdout).filter(
    (c) =>
      setting.has(c.name.toLowerCase()) ||
      c.props.includes(marker) ||
      c.data.trimStart().startsWith(marker) ||
      c.line.startsWith('##['),
  );
}
