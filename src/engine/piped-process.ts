// A long-lived program that answers one question at a time (git's `cat-file --batch`), read back in exact
// amounts. Argument arrays only, as in proc.ts.
import { spawn } from 'node:child_process';
import { notStarted } from './proc.js';
import { toolPath } from './tool-path.js';

/**
 * A long-lived process asked one question at a time on its stdin (git's `cat-file --batch`), whose answers
 * are read back in exact amounts: a header line, then a body of the size it states. Only what was asked for
 * is held, and a body can be skipped without keeping it; `timeoutMs` kills the process, and every pending
 * or later read then fails.
 */
export interface PipedProcess {
  send(text: string): void;
  /** The next line of stdout, without its newline; at most `maxBytes` long (a longer one fails). */
  readLine(maxBytes?: number): Promise<string>;
  /** The next `bytes` bytes of stdout. */
  read(bytes: number): Promise<Buffer>;
  /** Ends stdin and waits for the process to exit; kills it after `graceMs`. */
  close(graceMs?: number): Promise<number>;
  kill(): void;
}

export async function startPiped(
  tool: string,
  args: readonly string[],
  options: { cwd?: string; env: Record<string, string>; timeoutMs: number },
): Promise<PipedProcess> {
  const child = spawn(await toolPath(tool), [...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const chunks: Buffer[] = [];
  let buffered = 0;
  let ended: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  child.stdout!.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    buffered += chunk.length;
    // Nobody is reading: stop the process until someone does (memory stays at one chunk or so).
    if (buffered > 1024 * 1024) child.stdout!.pause();
    notify();
  });
  child.on('close', (code, signal) => {
    ended ??= new Error(`${tool} ended (exit ${code ?? signal})`);
    notify();
  });
  // Its own exit (not its pipes' closing, which a grandchild could hold up) ends a wait for it.
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 128)));
  child.on('error', (error) => {
    ended = notStarted(tool, error);
    notify();
  });
  child.stdin!.on('error', () => undefined); // a killed process: the read says so
  const timer = setTimeout(() => {
    ended = new Error(`${tool} took longer than ${options.timeoutMs / 1000} s: stopped`);
    child.kill('SIGKILL');
    // A grandchild may hold stdout open after the kill: reads fail now, not when it lets go.
    notify();
  }, options.timeoutMs);
  void exited.then(() => clearTimeout(timer));

  const waitFor = async (ready: () => boolean) => {
    while (!ready()) {
      if (ended && !ready()) throw ended;
      child.stdout!.resume();
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  const take = (bytes: number): Buffer => {
    const out = Buffer.allocUnsafe(bytes);
    let filled = 0;
    while (filled < bytes) {
      const head = chunks[0];
      const n = Math.min(head.length, bytes - filled);
      head.copy(out, filled, 0, n);
      filled += n;
      if (n === head.length) chunks.shift();
      else chunks[0] = head.subarray(n);
    }
    buffered -= bytes;
    return out;
  };
  const newlineAt = (max: number): number => {
    let seen = 0;
    for (const chunk of chunks) {
      const i = chunk.indexOf(10);
      if (i >= 0 && seen + i <= max) return seen + i;
      seen += chunk.length;
      if (seen > max) break;
    }
    return -1;
  };
  return {
    send: (text) => {
      if (!ended) child.stdin!.write(text);
    },
    async readLine(maxBytes = 4096) {
      let at = -1;
      await waitFor(() => {
        at = newlineAt(maxBytes);
        if (at < 0 && buffered > maxBytes) throw new Error(`${tool} printed a line over ${maxBytes} bytes`);
        return at >= 0;
      });
      const line = take(at + 1);
      return line.subarray(0, at).toString('utf8');
    },
    async read(bytes) {
      await waitFor(() => buffered >= bytes);
      return take(bytes);
    },
    async close(graceMs = 5_000) {
      child.stdin!.end();
      const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(kill);
      return code;
    },
    kill: () => child.kill('SIGKILL'),
  };
}
