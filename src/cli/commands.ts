// The CLI's subcommands on the core. Options arrive under the action's input names.
import * as os from 'node:os';
import { cleanupRun } from '../run/cleanup.js';
import { runSandbox } from '../run/run.js';
import {
  InputError,
  parseSettings,
  type Isolation,
  type ReapSettings,
  type RunSettings,
  type Settings,
} from '../settings.js';
import type { RunState } from '../run/state.js';
import { outcomeText } from '../run/summary.js';
import { CliExit, EXIT } from './exit-codes.js';
import { listCommand } from './list-command.js';
import { reapCommand } from './reap-command.js';
import { rmCommand } from './rm-command.js';
import { terminalUi } from './terminal-ui.js';

export { CliExit } from './exit-codes.js';

const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** Reads commander's options as the action's inputs (so validation and defaults are the action's own). */
export function optionReader(opts: Record<string, unknown>) {
  return (name: string): string => {
    const value = opts[camel(name)];
    if (value === undefined || value === false) return '';
    if (value === true) return 'true';
    if (Array.isArray(value)) return value.join('\n');
    return String(value);
  };
}

export function settingsFrom(mode: 'run' | 'reap', opts: Record<string, unknown>): Settings {
  const read = optionReader(opts);
  try {
    return parseSettings((name) => (name === 'mode' ? mode : read(name)));
  } catch (error) {
    if (error instanceof InputError)
      throw new CliExit(
        error.message.replace(/^Invalid input '([^']+)'/, "Invalid option '--$1'"),
        EXIT.usage,
      );
    throw error;
  }
}

export type CliCommand = 'run' | 'reap' | 'list' | 'rm';

export async function runCli(
  command: CliCommand,
  opts: Record<string, unknown>,
  args: string[] = [],
): Promise<void> {
  const json = Boolean(opts.json);
  switch (command) {
    case 'run':
      return runCommand(settingsFrom('run', opts) as RunSettings, json);
    case 'reap':
      return reapCommand(settingsFrom('reap', opts) as ReapSettings, json);
    case 'list':
      return listCommand(settingsFrom('reap', opts) as ReapSettings, json);
    case 'rm':
      return rmCommand(settingsFrom('reap', opts) as ReapSettings, {
        name: args[0],
        project: opts.project as string | undefined,
        isolation: opts.isolation as Isolation | undefined,
        json,
      });
  }
}

async function runCommand(settings: RunSettings, json: boolean): Promise<void> {
  const ui = terminalUi();
  let state: RunState | undefined;
  const save = (update: Partial<RunState>) => {
    state = { ...(state ?? {}), ...update } as RunState;
  };
  // Whether the run holds the sandbox's lock right now (in this process).
  let lockHeld = false;
  // Ctrl-C: stop the container and apply the cleanup policy, as the action's post step would; under the
  // run's own lock while it holds it.
  const onSignal = () => {
    ui.warning('interrupted: cleaning up');
    void (
      state ? cleanupRun(state, ui, os.tmpdir(), { lockHeld }).catch(() => undefined) : Promise.resolve()
    ).then(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const outcome = await runSandbox(settings, {
      ui,
      save,
      onSandboxLock: (held) => (lockHeld = held),
    });
    const cleanup = await cleanupRun(state!, ui, os.tmpdir());
    if (json) process.stdout.write(`${JSON.stringify({ ...outcome, cleanup }, null, 2)}\n`);
    else process.stderr.write(`\n${outcomeText(outcome)}\n`);
    const code = outcome.command.exitCode;
    if (code !== 0 && !settings.allowFailure)
      throw new CliExit(`the command exited with code ${code}`, EXIT.commandFailed);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
