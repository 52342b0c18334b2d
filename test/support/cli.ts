// The real `worktree-sandbox` binary, run by a given Node.js. Asynchronous on purpose: a test that holds a
// sandbox lock keeps it fresh from its own event loop (proper-lockfile refreshes the lock's mtime every
// 2 s; 10 s without makes it stale), which a synchronous spawn would block for the whole command.
import { execFile, type ExecFileException } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const BIN = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../bin/worktree-sandbox.js',
);

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const execFileAsync = promisify(execFile);

/** Runs `node bin/worktree-sandbox.js ARGS` (in the temp dir by default, CI unset: no spinner). */
export async function runCli(
  node: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<CliResult> {
  try {
    const { stdout, stderr } = await execFileAsync(node, [BIN, ...args], {
      cwd: options.cwd ?? os.tmpdir(),
      encoding: 'utf8',
      env: { ...process.env, CI: '', ...options.env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as ExecFileException & { stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}
