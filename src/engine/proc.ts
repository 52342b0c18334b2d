// Where child processes start (with piped-process.ts, for a long-lived one): run to their end, with their
// output buffered or streamed. Argument arrays only: nothing here goes through a shell.
// ADR 0007 (docs/adr/0007-streamed-output-bounded-memory.md).
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ChunkTail } from './chunk-tail.js';
import { killGroup, trackGroup, untrackGroup, waitForGroupEnd } from './process-group.js';
import { formatLimit } from './time-limits.js';
import { toolPath } from './tool-path.js';

/** How long a program may run, and what it is for: the error names both when the limit runs out. */
export interface ProcLimit {
  ms: number;
  /** What the program does, as a person reads it: `asking origin for branch "x"`. */
  purpose: string;
}

export interface ProcOptions {
  cwd?: string;
  /** The complete environment of the child (nothing is inherited that is not listed). */
  env: Record<string, string>;
  input?: Buffer;
  /**
   * Every program has a time limit: when it runs out, the program's whole process group is killed (a
   * git remote helper, ssh, whatever it started) and `runProcess` throws a ProcTimeLimitError.
   */
  limit: ProcLimit;
}

export interface ProcResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** The program could not be started (not installed, its folder gone). */
export class ProcError extends Error {
  constructor(
    message: string,
    readonly result: ProcResult,
  ) {
    super(message);
    this.name = 'ProcError';
  }
}

/** A program ran out of its time limit; it was killed with every program it started. */
export class ProcTimeLimitError extends Error {
  constructor(
    /** The program and its sub-command, `git fetch`. */
    readonly program: string,
    readonly purpose: string,
    readonly limitMs: number,
  ) {
    super(
      `${program} (${purpose}) ran out of its time limit (${formatLimit(limitMs)}) and was killed, with every program it started.`,
    );
    this.name = 'ProcTimeLimitError';
  }
}

/** `git fetch` for git's `fetch …`, `ldd` for `ldd -- …`: the program as a person names it. */
export function programName(tool: string, args: readonly string[]): string {
  const sub = args[0];
  const base = path.basename(tool);
  return sub && /^[a-z][a-z0-9-]{0,30}$/.test(sub) ? `${base} ${sub}` : base;
}

/**
 * How long a program may keep its output pipes open after it exited (a program it left behind holds
 * them): then its output so far is taken as all of it.
 */
const PIPES_GRACE_MS = 10_000;

/** The error for a program that could not be started. */
export function notStarted(tool: string, error: unknown): ProcError {
  return new ProcError(`${tool} could not be started: ${(error as Error).message}`, {
    exitCode: -1,
    stdout: '',
    stderr: String(error),
  });
}

/**
 * Runs a program to its end and returns its output. It leads a process group of its own, and when
 * `limit.ms` runs out the whole group is killed (a remote helper or ssh that git started included) and a
 * ProcTimeLimitError names the program, what it was for and the limit.
 */
export async function runProcess(
  tool: string,
  args: readonly string[],
  options: ProcOptions,
): Promise<ProcResult> {
  let child: ChildProcess;
  try {
    child = spawn(await toolPath(tool), [...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: [options.input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      detached: true,
    });
  } catch (error) {
    throw notStarted(tool, error);
  }
  const pid = child.pid;
  if (pid) trackGroup(pid);
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
  if (options.input) {
    child.stdin!.on('error', () => undefined); // it exited without reading all: its exit code says why
    child.stdin!.end(options.input);
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    if (pid) killGroup(pid);
  }, options.limit.ms);
  let grace: NodeJS.Timeout | undefined;
  try {
    const exitCode = await new Promise<number>((resolve, reject) => {
      child.on('error', (error) => reject(notStarted(tool, error)));
      child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
      child.on('exit', (code, signal) => {
        grace = setTimeout(() => {
          child.stdout!.destroy();
          child.stderr!.destroy();
          resolve(code ?? (signal ? 128 : 1));
        }, PIPES_GRACE_MS);
      });
    });
    if (timedOut) {
      if (pid) await waitForGroupEnd(pid);
      throw new ProcTimeLimitError(programName(tool, args), options.limit.purpose, options.limit.ms);
    }
    return {
      exitCode,
      stdout: Buffer.concat(stdout).toString('utf8'),
      stderr: Buffer.concat(stderr).toString('utf8'),
    };
  } finally {
    clearTimeout(timer);
    clearTimeout(grace);
    if (pid) untrackGroup(pid);
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

/** How much of the end of a process's output is kept for messages and reports. */
const TAIL_BYTES = 64 * 1024;

export interface StreamOptions {
  cwd?: string;
  env: Record<string, string>;
  /** Each line of stdout and stderr, as it comes; a line longer than `maxLineBytes` is cut. */
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
  /**
   * Instead of lines: the process writes its stdout straight to this file descriptor (the step's own
   * stdout), so that nothing of it passes through this process; its stderr (where an engine says why a
   * container did not start) comes here as raw chunks for `onStderrChunk`, and its tail is kept.
   */
  outputFd?: number;
  onStderrChunk?: (chunk: Buffer) => void;
  /** Instead of lines: stdout's bytes go to this file, at most `maxBytes` of them. */
  stdoutFile?: { path: string; maxBytes: number };
  maxLineBytes?: number;
  /** How many of the last stderr lines to keep for an error message. */
  stderrTailLines?: number;
  /**
   * Asked after each chunk: a promise means the lines went to a sink that is full (a pipe to the runner);
   * reading stops until it resolves, so nothing piles up in memory however fast the process prints.
   */
  backpressure?: () => Promise<void> | undefined;
  /** Kill the process (SIGKILL) when this aborts; its whole process group with `processGroup`. */
  signal?: AbortSignal;
  /**
   * The process leads a process group of its own, and a kill (`signal`, `timeLimitMs`) reaches every
   * program it started: tar's gzip, a script's git. Killing the leader alone would leave them running,
   * holding the pipes open.
   */
  processGroup?: boolean;
  /** Kill the process group (implies `processGroup`) after this many milliseconds; `timedOut` says so. */
  timeLimitMs?: number;
}

export interface StreamResult {
  exitCode: number;
  /** The last lines of stderr (bounded), for error messages. */
  stderrTail: string[];
  /** The last lines of stdout and stderr together, as they came (bounded). */
  outputTail: string[];
  /** Set when stdout went over `stdoutFile.maxBytes`: the process was killed. */
  overLimit?: boolean;
  /** Set when `timeLimitMs` ran out: the process group was killed. */
  timedOut?: boolean;
  stdoutBytes: number;
}

/**
 * Runs a process whose output may be huge or hostile: nothing is accumulated but a bounded stderr tail;
 * lines are handed on as they come (cut at `maxLineBytes`), or stdout is written to a file up to a limit,
 * past which the process is killed. Memory stays bounded whatever the process prints.
 */
export async function runStreaming(
  tool: string,
  args: readonly string[],
  options: StreamOptions,
): Promise<StreamResult> {
  const maxLine = options.maxLineBytes ?? 64 * 1024;
  const tailLines = options.stderrTailLines ?? 40;
  let file: number | undefined;
  if (options.stdoutFile) file = fs.openSync(options.stdoutFile.path, 'wx', 0o600);
  let child: ChildProcess;
  const group = options.processGroup || options.timeLimitMs !== undefined;
  try {
    child = spawn(await toolPath(tool), [...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', options.outputFd ?? 'pipe', 'pipe'],
      detached: group,
    });
  } catch (error) {
    if (file !== undefined) fs.closeSync(file);
    throw notStarted(tool, error);
  }
  let stdoutBytes = 0;
  let overLimit = false;
  let timedOut = false;
  let groupKilled = false;
  const kill = () => {
    if (group && child.pid) {
      groupKilled = true;
      killGroup(child.pid);
    } else child.kill('SIGKILL');
  };
  const onAbort = () => kill();
  if (options.signal?.aborted) kill();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const timer =
    options.timeLimitMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          kill();
        }, options.timeLimitMs);
  // Tails are the last chunks as they came (kept by reference, never copied or decoded per chunk): lines are
  // cut out of them once, at the end.
  const stderrTailChunks = new ChunkTail(TAIL_BYTES);
  const outputTailChunks = new ChunkTail(TAIL_BYTES);
  const splitter = (stream: 'stdout' | 'stderr') => {
    let pending = '';
    return {
      push(chunk: Buffer) {
        outputTailChunks.push(chunk);
        if (stream === 'stderr') stderrTailChunks.push(chunk);
        if (stream === 'stderr' && options.onStderrChunk) return options.onStderrChunk(chunk);
        if (!options.onLine) return;
        const text = pending + chunk.toString('utf8');
        let start = 0;
        let nl: number;
        while ((nl = text.indexOf('\n', start)) >= 0) {
          const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
          options.onLine(text.slice(start, end), stream);
          start = nl + 1;
        }
        if (text.length - start > maxLine) {
          options.onLine(`${text.slice(start, start + maxLine)} [line cut at ${maxLine} characters]`, stream);
          pending = '';
        } else pending = text.slice(start);
      },
      end() {
        if (pending) options.onLine?.(pending, stream);
        pending = '';
      },
    };
  };
  const err = splitter('stderr');
  const out = splitter('stdout');
  const throttle = () => {
    const wait = options.backpressure?.();
    if (!wait) return;
    child.stdout?.pause();
    child.stderr!.pause();
    void wait.then(() => {
      child.stdout?.resume();
      child.stderr!.resume();
    });
  };
  child.stderr?.on('data', (chunk: Buffer) => {
    err.push(chunk);
    throttle();
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    if (file === undefined) {
      out.push(chunk);
      return throttle();
    }
    if (overLimit) return;
    stdoutBytes += chunk.length;
    if (stdoutBytes > options.stdoutFile!.maxBytes) {
      overLimit = true;
      kill();
      return;
    }
    fs.writeSync(file, chunk);
  });
  const exitCode = await new Promise<number>((resolve, reject) => {
    child.on('error', (error) => reject(notStarted(tool, error)));
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  }).finally(() => {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    if (file !== undefined) fs.closeSync(file);
  });
  // Its pipes close as the killed programs end, a moment before they are gone: answer once they are.
  if (groupKilled && child.pid) await waitForGroupEnd(child.pid);
  err.end();
  out.end();
  const lastLines = (tail: ChunkTail) => tail.text().split(/\r?\n/).filter(Boolean).slice(-tailLines);
  return {
    exitCode,
    stderrTail: lastLines(stderrTailChunks),
    outputTail: lastLines(outputTailChunks),
    overLimit: overLimit || undefined,
    timedOut: timedOut || undefined,
    stdoutBytes,
  };
}
