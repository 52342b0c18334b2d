// The command's reply: a file it may write (SANDBOX_REPLY_FILE), outside its sandbox so that it is never
// committed, and read back by the host as data once the container is gone. The folder is the run's own,
// under RUNNER_TEMP, bind-mounted read-write at a fixed path; the container can plant anything there (a
// link to the runner's files, a FIFO, a folder, a sparse file of terabytes), so the host opens the file
// without following links and without blocking, reads on only when the open descriptor is a regular file,
// and reads at most REPLY_MAX_BYTES of it. Anything else is no reply and a warning, never a hang.
import { randomBytes } from 'node:crypto';
import { constants as fsc } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Mount } from '../engine/container-args.js';
import { thousands } from '../ui/markdown.js';
import { logLines, sandboxText } from '../ui/sandbox-text.js';
import type { Ui } from '../ui/ui.js';

/** The most bytes of a reply that the host reads; a longer reply is cut, and the cut is said. */
export const REPLY_MAX_BYTES = 64 * 1024;

/** Where the command finds its reply folder, whatever the isolation. */
export const REPLY_CONTAINER_DIR = '/run/worktree-sandbox/reply';
export const REPLY_FILE_NAME = 'reply.md';

/** What the command wrote back: at most REPLY_MAX_BYTES of it, decoded as UTF-8 (invalid bytes replaced). */
export interface Reply {
  text: string;
  /** The file's size in bytes, as the host found it. */
  bytes: number;
  /** Only the first REPLY_MAX_BYTES were read. */
  cut: boolean;
}

/** The reply, or why there is none to show (a warning: the file was not a plain file, or unreadable). */
export interface ReplyRead {
  reply?: Reply;
  warning?: string;
}

/** The run's reply folder on the host: what the command's container mounts and sees. */
export interface ReplyFolder {
  hostDir: string;
  mount: Mount;
  env: Record<string, string>;
}

/**
 * A fresh folder for the reply, private to the runner's user (the command runs as that user, or is mapped
 * to it: engine/mode.ts), under `tempRoot/worktree-sandbox`.
 */
export async function makeReplyFolder(tempRoot: string): Promise<ReplyFolder> {
  const base = path.join(tempRoot, 'worktree-sandbox');
  await fs.mkdir(base, { recursive: true, mode: 0o755 });
  const hostDir = path.join(base, `reply-${randomBytes(6).toString('hex')}`);
  await fs.mkdir(hostDir, { mode: 0o700 });
  return {
    hostDir,
    mount: { type: 'bind', source: hostDir, target: REPLY_CONTAINER_DIR },
    env: { SANDBOX_REPLY_FILE: `${REPLY_CONTAINER_DIR}/${REPLY_FILE_NAME}` },
  };
}

/**
 * The reply folder for a command container, or why there is none: the engine must see the folder where
 * the action made it (in a job container, RUNNER_TEMP is under the job's shared work folder).
 */
export async function offerReplyFolder(
  bindSource: () => Promise<(file: string) => string>,
  tempRoot: string,
): Promise<ReplyFolder | { warning: string }> {
  let folder: ReplyFolder | undefined;
  try {
    folder = await makeReplyFolder(tempRoot);
    (await bindSource())(folder.hostDir);
    return folder;
  } catch (error) {
    if (folder) await removeReplyFolder(folder.hostDir);
    return { warning: `SANDBOX_REPLY_FILE was not offered: ${(error as Error).message}` };
  }
}

/** What a non-regular file is, for the warning. */
function kindOf(stat: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean }): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  return 'a device or other special file';
}

/** Reads the reply the command left in `hostDir` (call once its container is gone). Never throws. */
export async function readReply(hostDir: string, maxBytes = REPLY_MAX_BYTES): Promise<ReplyRead> {
  const file = path.join(hostDir, REPLY_FILE_NAME);
  let handle: fs.FileHandle;
  try {
    // O_NOFOLLOW: a link there is refused (ELOOP), not followed to the runner's files; O_NONBLOCK: a
    // FIFO with no writer opens at once instead of waiting for one.
    handle = await fs.open(file, fsc.O_RDONLY | fsc.O_NOFOLLOW | fsc.O_NONBLOCK | fsc.O_NOCTTY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return {};
    if (code === 'ELOOP') return { warning: 'The reply file is a symbolic link: not followed, no reply.' };
    return {
      warning: `The reply file could not be opened (${sandboxText(String(code ?? error))}): no reply.`,
    };
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile())
      return { warning: `The reply file is ${kindOf(stat)}, not a plain file: not read, no reply.` };
    const buffer = Buffer.alloc(maxBytes + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const cut = filled > maxBytes;
    return {
      reply: { text: decode(buffer.subarray(0, Math.min(filled, maxBytes)), cut), bytes: stat.size, cut },
    };
  } catch (error) {
    return {
      warning: `The reply file could not be read (${sandboxText((error as Error).message)}): no reply.`,
    };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** UTF-8, invalid bytes replaced; a character split by the cut dropped; NUL (refused by the API) replaced. */
function decode(bytes: Buffer, cut: boolean): string {
  // Streaming: a sequence the cut left incomplete is held back, not replaced.
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes, { stream: cut });
  return text.replace(/\0/g, '\uFFFD');
}

/**
 * Removes the reply folder, whatever the command left in it: the container may have taken the runner's
 * permissions away from the folder or from folders it made there. Returns an error message, or undefined.
 */
export async function removeReplyFolder(hostDir: string): Promise<string | undefined> {
  try {
    await fs.rm(hostDir, { recursive: true, force: true });
    return undefined;
  } catch {
    // Folders made unreadable: made readable again (chmod never follows a link), then removed.
    try {
      await makeWritable(hostDir, 0);
      await fs.rm(hostDir, { recursive: true, force: true });
      return undefined;
    } catch (error) {
      return `The reply folder ${hostDir} could not be removed: ${sandboxText((error as Error).message)}`;
    }
  }
}

/** Bounds of the walk that gives folders back to the runner: deeper or further, RUNNER_TEMP's own clean-up. */
const MAX_DEPTH = 64;
const MAX_FOLDERS = 10_000;

async function makeWritable(dir: string, depth: number, budget = { folders: MAX_FOLDERS }): Promise<void> {
  if (depth > MAX_DEPTH || budget.folders-- <= 0) return;
  await fs.chmod(dir, 0o700);
  for (const entry of await fs.readdir(dir, { withFileTypes: true }))
    if (entry.isDirectory()) await makeWritable(path.join(dir, entry.name), depth + 1, budget);
}

/** The log's part: the reply through the escaping of sandbox text and fenced, the cut or the warning. */
export function reportReply(ui: Ui, read: ReplyRead | undefined): void {
  if (read?.warning) ui.warning(read.warning);
  const reply = read?.reply;
  if (!reply || !reply.text.trim()) return;
  ui.info(`The command's reply ($SANDBOX_REPLY_FILE, ${thousands(reply.bytes)} bytes):`);
  ui.fenced(logLines(reply.text));
  if (reply.cut) ui.warning(cutSentence(reply));
}

/** What the log and the Markdown say of a reply read only in part. */
export function cutSentence(reply: Reply): string {
  return `The reply was cut: its file had ${thousands(reply.bytes)} bytes, and only the first ${thousands(REPLY_MAX_BYTES)} were read.`;
}
