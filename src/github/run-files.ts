// The files that carry a request's text to the command as data: the prompt (the text after the trigger,
// $SANDBOX_PROMPT_FILE) and the context (JSON about where the request was made, $SANDBOX_CONTEXT_FILE).
// Both sit in a private folder of the runner's temp and are mounted read-only at the same path: no part
// of them is ever put on a command line or in a shell.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { RunDeps } from '../run/run.js';

export interface RequestFiles {
  dir: string;
  prompt: string;
  context?: string;
}

export async function writeRequestFiles(
  runnerTemp: string,
  commentId: number,
  args: string,
  context: unknown,
): Promise<RequestFiles> {
  const dir = path.join(
    runnerTemp,
    'worktree-sandbox',
    `prompt-${commentId}-${randomBytes(4).toString('hex')}`,
  );
  await fs.mkdir(dir, { recursive: true, mode: 0o755 });
  const prompt = path.join(dir, 'prompt.txt');
  await fs.writeFile(prompt, args, { mode: 0o644 });
  if (context === undefined) return { dir, prompt };
  const file = path.join(dir, 'context.json');
  await fs.writeFile(file, `${JSON.stringify(context, null, 2)}\n`, { mode: 0o644 });
  return { dir, prompt, context: file };
}

/** What the command gets of them: read-only mounts and the variables that name them. */
export function requestFilesForCommand(files: RequestFiles): RunDeps['command'] {
  const readOnlyFiles = [files.prompt];
  const extraEnv: Record<string, string> = { SANDBOX_PROMPT_FILE: files.prompt };
  if (files.context) {
    readOnlyFiles.push(files.context);
    extraEnv.SANDBOX_CONTEXT_FILE = files.context;
  }
  return { readOnlyFiles, extraEnv };
}

export async function removeRequestFiles(files: RequestFiles | undefined): Promise<void> {
  if (files) await fs.rm(files.dir, { recursive: true, force: true });
}
