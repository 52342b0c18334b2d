// Removing a disk sandbox safely:
//  - only a folder exactly at `<root>/<project>/<sandbox>`, itself no symbolic link, under the real root;
//  - symbolic links are removed as links, never followed (a link to `/` or to another sandbox removes the
//    link only); other filesystems mounted inside are not crossed;
//  - its `.git` folder is renamed first, in one step: from then on it is no longer a sandbox, and if that
//    fails nothing else is touched; after that, entries that cannot be deleted are reported and the rest
//    still goes (a folder of ours without write permission, as Go's module cache makes, is made writable
//    first). What is left of a partly removed sandbox is reported as not a sandbox from then on;
//  - its home `<root>/<project>/.home/<sandbox>` goes the same way.
// How: a folder is listed, each entry looked at with lstat (synchronous: a stat of an entry the listing
// has just read costs a few microseconds, a round trip through libuv's thread pool several times that),
// then its files and links are unlinked together, asynchronously, a bounded number in flight, while other
// sandboxes are removed at the same time (execute.ts): unlinking is the kernel's work, and several in
// flight keep more than one core (or a busy device) at it. Every entry is judged by its own lstat, never
// by the listing's file type, so a folder swapped for a link after the listing is still unlinked as a link.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { HOME_FOLDER } from '../sandbox/layout.js';
import { inParallel } from './parallel.js';
import { lstat } from './sandbox-files.js';

export interface RemovalProblem {
  path: string;
  error: string;
}

export interface TreeRemoval {
  /** The folder is gone entirely. */
  gone: boolean;
  /** The `.git` folder is gone: the folder is no longer a sandbox (its records may be dropped). */
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
  const gitDir = path.join(target, '.git');
  if (lstat(gitDir)) {
    try {
      await fsp.rename(gitDir, path.join(target, `.git-removed-${randomBytes(6).toString('hex')}`));
    } catch (error) {
      result.problems.push({ path: gitDir, error: code(error) });
      return result;
    }
  }
  result.unlinked = true;
  await removeFolder(target, fs.lstatSync(target).dev, result);
  result.gone = !lstat(target);
  return result;
}

/** Removes `<root>/<project>/.home/<sandbox>` (real folders only, links never followed); problems are added. */
export async function removeHomeFolder(root: string, home: string, result: TreeRemoval): Promise<void> {
  const realRoot = fs.realpathSync(root);
  const parts = path.relative(realRoot, home).split(path.sep);
  if (parts.length !== 3 || parts[1] !== HOME_FOLDER || parts.some((p) => !p || p === '.' || p === '..'))
    throw new UnsafeRemovalError(
      `${home} is not a folder <root>/<project>/${HOME_FOLDER}/<sandbox> under ${realRoot}`,
    );
  let st: fs.Stats | undefined;
  for (const dir of [path.join(realRoot, parts[0]), path.join(realRoot, parts[0], parts[1]), home]) {
    st = lstat(dir);
    if (!st) return;
    if (!st.isDirectory())
      throw new UnsafeRemovalError(`${dir} is not a folder (a symbolic link is never followed)`);
  }
  await removeFolder(home, st!.dev, result);
}

/** Unlinks of one folder's files and links in flight at once (several sandboxes are removed at once too). */
const UNLINKS_IN_FLIGHT = 8;

/**
 * Empties and removes a folder (`top`: the sandbox or home itself, whose parent is never changed); true when
 * anything below it could not be deleted.
 */
async function removeFolder(dir: string, device: number, result: TreeRemoval, top = true): Promise<boolean> {
  let failedBelow = false;
  const fail = (p: string, error: string) => {
    result.problems.push({ path: p, error });
    failedBelow = true;
  };
  const folders: string[] = [];
  const others: Array<{ entry: string; st: fs.Stats }> = [];
  for (const name of await listForRemoval(dir, fail)) {
    const entry = path.join(dir, name);
    const st = lstat(entry);
    if (!st) continue;
    if (!st.isDirectory()) others.push({ entry, st });
    else if (st.dev !== device) fail(entry, 'another filesystem is mounted here: not crossed');
    else folders.push(entry);
  }
  await inParallel(others, UNLINKS_IN_FLIGHT, async ({ entry, st }) => {
    const problem = await unlinkEntry(entry, st, result);
    if (problem) fail(entry, problem);
  });
  for (const folder of folders) if (await removeFolder(folder, device, result, false)) failedBelow = true;
  const st = lstat(dir);
  const problem = await removeEmptyFolder(dir, top);
  if (!problem) result.freedBytes += st ? st.blocks * 512 : 0;
  // A folder that still holds what could not be deleted is already explained by that entry.
  else if (!(failedBelow && problem === 'ENOTEMPTY')) fail(dir, problem);
  return failedBelow;
}

/** rmdir; inside the tree, a parent of ours without write permission is made writable first (once). */
async function removeEmptyFolder(dir: string, top: boolean): Promise<string | undefined> {
  for (let attempt = 0; ; attempt++) {
    try {
      await fsp.rmdir(dir);
      return undefined;
    } catch (error) {
      if (top || attempt > 0 || !(await makeWritable(path.dirname(dir), error))) return code(error);
    }
  }
}

async function listForRemoval(dir: string, fail: (p: string, error: string) => void): Promise<string[]> {
  try {
    return await fsp.readdir(dir);
  } catch (error) {
    if (await makeWritable(dir, error)) {
      try {
        return await fsp.readdir(dir);
      } catch (again) {
        fail(dir, code(again));
        return [];
      }
    }
    fail(dir, code(error));
    return [];
  }
}

/** Unlinks a file or link; returns the error code when it cannot. */
async function unlinkEntry(entry: string, st: fs.Stats, result: TreeRemoval): Promise<string | undefined> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await fsp.unlink(entry);
      if (st.nlink <= 1) result.freedBytes += st.blocks * 512;
      return undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      if (attempt > 0 || !(await makeWritable(path.dirname(entry), error))) return code(error);
    }
  }
  return 'EACCES';
}

/** A folder we own but may not write or search (e.g. mode 0555): make it ours to empty; true: try again. */
async function makeWritable(dir: string, error: unknown): Promise<boolean> {
  const c = (error as NodeJS.ErrnoException).code;
  if (c !== 'EACCES' && c !== 'EPERM') return false;
  try {
    const st = await fsp.lstat(dir);
    if (!st.isDirectory() || st.uid !== process.getuid?.()) return false;
    // Already ours to write: another unlink in the same folder made it so meanwhile (one more try, then
    // the error is reported).
    if ((st.mode & 0o700) === 0o700) return true;
    await fsp.chmod(dir, (st.mode & 0o7777) | 0o700);
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
