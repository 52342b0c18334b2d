// The one place where child processes start. Argument arrays only: nothing here goes through a shell.
import * as exec from '@actions/exec';
import * as io from '@actions/io';

export interface ProcOptions {
  cwd?: string;
  /** The complete environment of the child (nothing is inherited that is not listed). */
  env: Record<string, string>;
  /** Called for each line of stdout and stderr while the process runs. */
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
  input?: Buffer;
}

export interface ProcResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export class ProcError extends Error {
  constructor(
    message: string,
    readonly result: ProcResult,
  ) {
    super(message);
    this.name = 'ProcError';
  }
}

const toolPaths = new Map<string, Promise<string>>();

/**
 * The tool's absolute path, looked up once per PATH value. Given a bare name, @actions/exec searches every
 * PATH folder (one stat after another) on every call: a few milliseconds each time, and the action makes a
 * dozen calls before the user's command starts. A failed lookup is not remembered.
 */
function toolPath(tool: string): Promise<string> {
  const key = `${process.env.PATH ?? ''}\0${tool}`;
  let found = toolPaths.get(key);
  if (!found) {
    found = io.which(tool, true);
    toolPaths.set(key, found);
    found.catch(() => toolPaths.delete(key));
  }
  return found;
}

export async function runProcess(
  tool: string,
  args: readonly string[],
  options: ProcOptions,
): Promise<ProcResult> {
  const listeners: exec.ExecListeners = {};
  if (options.onLine) {
    const onLine = options.onLine;
    listeners.stdline = (line) => onLine(line, 'stdout');
    listeners.errline = (line) => onLine(line, 'stderr');
  }
  try {
    const out = await exec.getExecOutput(await toolPath(tool), [...args], {
      cwd: options.cwd,
      env: options.env,
      silent: true,
      ignoreReturnCode: true,
      input: options.input,
      listeners,
    });
    return { exitCode: out.exitCode, stdout: out.stdout, stderr: out.stderr };
  } catch (error) {
    // @actions/exec throws when the executable cannot be found or started.
    throw new ProcError(`${tool} could not be started: ${(error as Error).message}`, {
      exitCode: -1,
      stdout: '',
      stderr: String(error),
    });
  }
}

/** Environment variables a CLI tool legitimately needs from the parent process; everything else is dropped. */
export function pickEnv(
  names: readonly string[],
  source: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of names) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}
