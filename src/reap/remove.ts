// Removing a disk sandbox safely:
//  - only a folder exactly at `<root>/<project>/<sandbox>`, itself no symbolic link, under the real root;
//  - symbolic links are removed as links, never followed (a link to `/` or to another sandbox removes the
//    link only); other filesystems mounted inside are not crossed;
//  - its `.git` file goes first: from then on it is no longer a worktree, and if that fails nothing else
//    is touched; after that, entries that cannot be deleted are reported and the rest still goes
//    (a folder of ours without write permission, as Go's module cache makes, is made writable first).
// Synchronous calls for speed, with a pause every few milliseconds so that lock refresh timers still run.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface RemovalProblem {
  path: string;
  error: string;
}

export interface TreeRemoval {
  /** The folder is gone entirely. */
  gone: boolean;
  /** The `.git` file is gone: the folder is no longer a worktree (its registration may be dropped). */
  unlinked: boolean;
  freedBytes: number;
  problems: RemovalProblem[];
}

export class UnsafeRemovalError extends Error {}

/** Refuses anything that is not a real folder exactly two levels under the real root. */
export function assertSandboxPath(root: string, target: string): void {
  const realRoot = fs.realpathSync(root);
  const relative = path.relative(realRoot, target);
  const parts = relative.split(path.sep);
  if (path.isAbsolute(relative) || parts.length !== 2 || parts.some((p) => !p || p === '.' || p === '..'))
    throw new UnsafeRemovalError(`${target} is not a folder <root>/<project>/<sandbox> under ${realRoot}`);
  for (const dir of [path.join(realRoot, parts[0]), target]) {
    const st = fs.lstatSync(dir);
    if (!st.isDirectory())
      throw new UnsafeRemovalError(`${dir} is not a folder (a symbolic link is never followed)`);
  }
  if (fs.realpathSync(target) !== target) throw new UnsafeRemovalError(`${target} is not a real path`);
}

export async function removeSandboxTree(root: string, target: string): Promise<TreeRemoval> {
  assertSandboxPath(root, target);
  const result: TreeRemoval = { gone: false, unlinked: false, freedBytes: 0, problems: [] };
  const gitFile = path.join(target, '.git');
  const gitStat = fs.lstatSync(gitFile, { throwIfNoEntry: false });
  if (gitStat) {
    const problem = unlinkEntry(gitFile, gitStat, result);
    if (problem) {
      result.problems.push({ path: gitFile, error: problem });
      return result;
    }
  }
  result.unlinked = true;
  await removeTree(target, result);
  result.gone = !fs.existsSync(target);
  return result;
}

interface Frame {
  dir: string;
  names?: string[];
  failedBelow: boolean;
}

async function removeTree(top: string, result: TreeRemoval): Promise<void> {
  const device = fs.lstatSync(top).dev;
  const stack: Frame[] = [{ dir: top, failedBelow: false }];
  let pauseAt = Date.now() + 20;
  const fail = (p: string, error: string) => {
    result.problems.push({ path: p, error });
    for (const frame of stack) frame.failedBelow = true;
  };
  while (stack.length) {
    if (Date.now() >= pauseAt) {
      await new Promise((resolve) => setImmediate(resolve));
      pauseAt = Date.now() + 20;
    }
    const frame = stack[stack.length - 1];
    if (!frame.names) {
      frame.names = listForRemoval(frame.dir, fail);
      continue;
    }
    const name = frame.names.pop();
    if (name === undefined) {
      stack.pop();
      removeFolder(frame, result, fail);
      continue;
    }
    const entry = path.join(frame.dir, name);
    const st = fs.lstatSync(entry, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory()) {
      if (st.dev !== device) fail(entry, 'another filesystem is mounted here: not crossed');
      else stack.push({ dir: entry, failedBelow: false });
      continue;
    }
    const problem = unlinkEntry(entry, st, result);
    if (problem) fail(entry, problem);
  }
}

function listForRemoval(dir: string, fail: (p: string, error: string) => void): string[] {
  try {
    return fs.readdirSync(dir);
  } catch (error) {
    if (makeWritable(dir, error)) {
      try {
        return fs.readdirSync(dir);
      } catch (again) {
        fail(dir, code(again));
        return [];
      }
    }
    fail(dir, code(error));
    return [];
  }
}

function removeFolder(frame: Frame, result: TreeRemoval, fail: (p: string, error: string) => void): void {
  let st: fs.Stats | undefined;
  try {
    st = fs.lstatSync(frame.dir);
    fs.rmdirSync(frame.dir);
    result.freedBytes += st.blocks * 512;
  } catch (error) {
    // A folder that still holds what could not be deleted is already explained by that entry.
    if (!(frame.failedBelow && code(error) === 'ENOTEMPTY')) fail(frame.dir, code(error));
  }
}

/** Unlinks a file or link; returns the error code when it cannot. */
function unlinkEntry(entry: string, st: fs.Stats, result: TreeRemoval): string | undefined {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.unlinkSync(entry);
      if (st.nlink <= 1) result.freedBytes += st.blocks * 512;
      return undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      if (attempt > 0 || !makeWritable(path.dirname(entry), error)) return code(error);
    }
  }
  return 'EACCES';
}

/** A folder we own but may not write or search (e.g. mode 0555): make it ours to empty. */
function makeWritable(dir: string, error: unknown): boolean {
  const c = (error as NodeJS.ErrnoException).code;
  if (c !== 'EACCES' && c !== 'EPERM') return false;
  try {
    const st = fs.lstatSync(dir);
    if (!st.isDirectory() || st.uid !== process.getuid?.()) return false;
    if ((st.mode & 0o700) === 0o700) return false;
    fs.chmodSync(dir, (st.mode & 0o7777) | 0o700);
    return true;
  } catch {
    return false;
  }
}

function code(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}

/** Bytes a folder takes on disk (allocated blocks), walked like removal: no links followed, one filesystem. */
export function measureTree(top: string): number | undefined {
  let total = 0;
  let device: number;
  try {
    const st = fs.lstatSync(top);
    if (!st.isDirectory()) return undefined;
    device = st.dev;
    total += st.blocks * 512;
  } catch {
    return undefined;
  }
  const pending = [top];
  while (pending.length) {
    const dir = pending.pop()!;
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const entry = path.join(dir, name);
      const st = fs.lstatSync(entry, { throwIfNoEntry: false });
      if (!st) continue;
      total += st.blocks * 512;
      if (st.isDirectory() && st.dev === device) pending.push(entry);
    }
  }
  return total;
}
