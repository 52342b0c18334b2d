// Runs the bundled action (dist/index.js) the way the Actions runner does:
// `node dist/index.js` with INPUT_<NAME> variables (hyphens kept), per-step GITHUB_OUTPUT / GITHUB_STATE /
// GITHUB_STEP_SUMMARY files read back afterwards, state handed to the post step as STATE_<name>.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './repo.js';
import { asRunner, runnerEnv } from './rootless.js';

export const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/index.js');

export interface StepResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  state: Record<string, string>;
  /** The size of the GITHUB_STATE file the step wrote (the post step gets it in its environment). */
  stateBytes: number;
  summary: string;
  /** Every byte the step wrote to stdout, counted (also when discarded). */
  stdoutBytes: number;
  /** The action process's own peak resident memory in KiB (VmHWM, polled), not its children's. */
  peakRssKb: number;
  /**
   * The peak resident memory in KiB (VmHWM, polled every 50 ms) of every process the step started on this
   * host, by command name (`git`, `docker`, `node` …), the step's own process included: a process that
   * lived less than a poll may be missed, one that held memory for longer is not.
   */
  peakRssByCommand: Record<string, number>;
}

export interface StepOptions {
  inputs: Record<string, string>;
  /** The Node.js binary that runs the bundle (test/support/runtimes.ts); default: Jest's own. */
  node?: string;
  env?: Record<string, string>;
  /** State saved by the main step (for the post step). */
  state?: Record<string, string>;
  /** Run as the unprivileged runner user (uid 1001, in the docker group), as GitHub-hosted runners do. */
  asRunner?: boolean;
  /** With asRunner: the environment rootless Podman needs too (XDG_RUNTIME_DIR; see support/rootless.ts). */
  rootlessPodman?: boolean;
  cwd?: string;
  /** Kill the process (SIGKILL) as soon as a line of stdout matches. */
  killWhen?: RegExp;
  timeoutMs?: number;
  /** Variables whose value is a printf format (for bytes a JS string cannot carry, such as non-UTF-8). */
  printfEnv?: Record<string, string>;
  /** Called with the whole stdout so far, each time more arrives. */
  onStdout?: (stdout: string) => void;
  /** Kill the process (SIGKILL) this many milliseconds after it started. */
  killAfterMs?: number;
  /** Keep only the last 64 KiB of stdout (for a command that prints gigabytes); the byte count is kept. */
  discardStdout?: boolean;
  /** Prefix for the command line, e.g. ['/usr/bin/time', '-f', 'MAXRSS %M']. */
  wrapWith?: string[];
}

/** The peak resident memory (VmHWM, KiB) of one process, read from /proc while it runs. */
function peakRss(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The process and its descendants (through every thread's children list), with their names. */
function processTree(pid: number): Array<{ pid: number; name: string }> {
  const found: Array<{ pid: number; name: string }> = [];
  const queue = [pid];
  while (queue.length && found.length < 10_000) {
    const p = queue.shift()!;
    try {
      const name = fs.readFileSync(`/proc/${p}/comm`, 'utf8').trim();
      found.push({ pid: p, name });
      for (const task of fs.readdirSync(`/proc/${p}/task`))
        for (const child of fs.readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').split(' '))
          if (child.trim()) queue.push(Number(child));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Parses a runner file-command file (NAME=value lines, or NAME<<DELIM heredocs). */
export function parseFileCommands(text: string): Record<string, string> {
  const result: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name, delim] = heredoc;
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== delim; i++) value.push(lines[i]);
      result[name] = value.join('\n');
    } else if (line.includes('=')) {
      result[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return result;
}

export async function runStep(options: StepOptions): Promise<StepResult> {
  const files = tempDir('wts-step-');
  const out = path.join(files, 'output');
  const stateFile = path.join(files, 'state');
  const summary = path.join(files, 'summary');
  const runnerTemp = path.join(files, 'runner-temp');
  fs.mkdirSync(runnerTemp);
  for (const f of [out, stateFile, summary]) fs.writeFileSync(f, '');
  const node = options.node ?? process.execPath;
  if (options.asRunner) {
    fs.chmodSync(files, 0o777);
    for (const f of [out, stateFile, summary]) fs.chmodSync(f, 0o666);
    fs.chmodSync(runnerTemp, 0o777);
  }
  const env: Record<string, string> = {
    ...(options.asRunner
      ? {
          ...runnerEnv({ rootlessPodman: options.rootlessPodman }),
          // the runner user cannot read root's own tool folders: the standard system PATH, this Node first
          PATH: `${path.dirname(node)}:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin`,
        }
      : { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', HOME: process.env.HOME ?? '/root' }),
    GITHUB_OUTPUT: out,
    GITHUB_STATE: stateFile,
    GITHUB_STEP_SUMMARY: summary,
    RUNNER_TEMP: runnerTemp,
    RUNNER_OS: 'Linux',
    GITHUB_ACTIONS: 'true',
    ...options.env,
  };
  for (const [name, value] of Object.entries(options.inputs))
    env[`INPUT_${name.toUpperCase().replace(/ /g, '_')}`] = value;
  for (const [name, value] of Object.entries(options.state ?? {})) env[`STATE_${name}`] = value;
  let [cmd, args] = options.asRunner ? asRunner(node, [DIST]) : [node, [DIST]];
  if (options.wrapWith) [cmd, args] = [options.wrapWith[0], [...options.wrapWith.slice(1), cmd, ...args]];
  if (options.printfEnv) {
    const exports = Object.keys(options.printfEnv)
      .map((name, i) => `export "${name}=$(printf "$${i + 1}")"`)
      .join('; ');
    const count = Object.keys(options.printfEnv).length;
    args = [
      '-c',
      `${exports}; shift ${count}; exec "$@"`,
      'wrap',
      ...Object.values(options.printfEnv),
      cmd,
      ...args,
    ];
    cmd = 'sh';
  }
  const child = spawn(cmd, args, { cwd: options.cwd ?? files, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let killed = false;
  const kill = () => {
    killed = true;
    child.kill('SIGKILL');
  };
  // setpriv execs node in the same process: the pid is the action's.
  let peakRssKb = 0;
  const peakRssByCommand: Record<string, number> = {};
  const poller = setInterval(() => {
    peakRssKb = Math.max(peakRssKb, peakRss(child.pid!));
    for (const p of processTree(child.pid!))
      peakRssByCommand[p.name] = Math.max(peakRssByCommand[p.name] ?? 0, peakRss(p.pid));
  }, 50);
  let stdout = '';
  let stdoutBytes = 0;
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdoutBytes += d.length;
    stdout += d.toString();
    if (options.discardStdout && stdout.length > 65536) stdout = stdout.slice(-65536);
    if (options.killWhen?.test(stdout)) kill();
    options.onStdout?.(stdout);
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(kill, options.timeoutMs ?? 240_000);
  child.on('error', (error) => (stderr += `spawn failed: ${error.message}`));
  const killer = options.killAfterMs ? setTimeout(kill, options.killAfterMs) : undefined;
  // A killed step's children (the engine's CLI attached to a running container) keep its output open:
  // as the runner does, stop reading once the step's own process is gone, instead of waiting for them.
  child.on('exit', () => {
    if (killed) setTimeout(() => [child.stdout, child.stderr].forEach((s) => s.destroy()), 500);
  });
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('close', (c, s) => resolve([c, s])),
  );
  clearTimeout(timer);
  clearInterval(poller);
  if (killer) clearTimeout(killer);
  const result: StepResult = {
    code,
    signal,
    stdout,
    stdoutBytes,
    peakRssKb,
    peakRssByCommand,
    stderr,
    outputs: parseFileCommands(fs.readFileSync(out, 'utf8')),
    state: parseFileCommands(fs.readFileSync(stateFile, 'utf8')),
    stateBytes: fs.statSync(stateFile).size,
    summary: fs.readFileSync(summary, 'utf8'),
  };
  fs.rmSync(files, { recursive: true, force: true });
  return result;
}

/** main then post, as the runner runs a job with this one step. */
export async function runMainAndPost(options: StepOptions): Promise<{ main: StepResult; post: StepResult }> {
  const main = await runStep(options);
  const post = await runStep({
    ...options,
    state: main.state,
    killWhen: undefined,
    killAfterMs: undefined,
    onStdout: undefined,
  });
  return { main, post };
}
