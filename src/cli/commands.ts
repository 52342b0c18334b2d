// The CLI's subcommands on the core. Options arrive under the action's input names.
import * as fs from 'node:fs';
import * as os from 'node:os';
import { cleanupRun, removeLeftProbe } from '../run/cleanup.js';
import { runSandbox } from '../run/run.js';
import {
  InputError,
  parseSettings,
  type Isolation,
  type ReapSettings,
  type RunSettings,
  type Settings,
} from '../settings/settings.js';
import type { RunState } from '../run/run-state.js';
import { outcomeText } from '../present/run-summary.js';
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

/** The most a `--credentials` file may hold: a few header lines, not a file given by mistake. */
export const MAX_CREDENTIALS_FILE_BYTES = 64 * 1024;

/**
 * `--credentials`: the lines themselves (a credential line always holds a space, between the host and the
 * header), or else the file that holds them, read here; `network-input.ts` checks them as the action's.
 * Errors say what went wrong with the file, never what it holds.
 */
export function credentialsText(value: string): string {
  if (!value.trim() || /\s/.test(value.trim())) return value;
  const usage = (why: string) =>
    new CliExit(`Invalid option '--credentials': ${JSON.stringify(value)}: ${why}`, EXIT.usage);
  let fd: number;
  try {
    fd = fs.openSync(value, fs.constants.O_RDONLY);
  } catch (error) {
    throw usage(
      `not a credential line (\`<host> <Header-Name>: <value>\`) and no file to read (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`,
    );
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw usage('not a file');
    if (st.size > MAX_CREDENTIALS_FILE_BYTES)
      throw usage(`a file of more than ${MAX_CREDENTIALS_FILE_BYTES} bytes`);
    const buffer = Buffer.alloc(MAX_CREDENTIALS_FILE_BYTES + 1);
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    if (read > MAX_CREDENTIALS_FILE_BYTES)
      throw usage(`a file of more than ${MAX_CREDENTIALS_FILE_BYTES} bytes`);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

export function settingsFrom(mode: 'run' | 'reap', opts: Record<string, unknown>): Settings {
  const options =
    typeof opts.credentials === 'string' ? { ...opts, credentials: credentialsText(opts.credentials) } : opts;
  const read = optionReader(options);
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
    void removeLeftProbe(state, ui)
      .then(() => (state?.location ? cleanupRun(state, ui, os.tmpdir(), { lockHeld }) : undefined))
      .catch(() => undefined)
      .then(() => process.exit(130));
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
