// Removing a disk sandbox safely:
//  - only a folder exactly at `<root>/<project>/<sandbox>`, itself no symbolic link, under the real root;
//  - symbolic links are removed as links, never followed (a link to `/` or to another sandbox removes the
//    link only); other filesystems mounted inside are not crossed;
//  - its `.git` folder is renamed first, in one step: from then on it is no longer a sandbox, and if that
//    fails nothing else is touched; after that, entries that cannot be deleted are reported and the rest
//    still goes (a folder of ours without write permission, as Go's module cache makes, is made writable
//    first). What is left of a partly removed sandbox is reported as not a sandbox from then on;
//  - its home `<root>/<project>/.home/<sandbox>` goes the same way.
// The walk that empties a folder (removeTree) judges every entry by its own lstat, never by the listing's
// file type: a link (or a folder swapped for a link after the listing) is unlinked as a link and never
// followed; the top folder's parent is never changed (no permission of it is touched).
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { HOME_FOLDER } from '../sandbox/layout.js';
import { lstat } from '../sandbox/sandbox-files.js';

export interface TreeRemoval {
  /** The folder is gone entirely. */
  gone: boolean;
  /** The `.git` folder is gone: the folder is no longer a sandbox (its records may be dropped). */
  unlinked: boolean;
  freedBytes: number;
  problems: RemovalProblem[];
}

export class UnsafeRemovalError extends Error {}

/**
 * The name a removal gives a sandbox's `.git` before the walk: unguessable by the sandbox (a random part
 * drawn once per process), unique per removal (a count).
 */
const renamed = { prefix: '', count: 0 };
function removedGitName(): string {
  renamed.prefix ||= randomBytes(6).toString('hex');
  return `.git-removed-${renamed.prefix}-${++renamed.count}`;
}

/**
 * Refuses anything that is not a real folder exactly two levels under the real root. Real paths are the
 * system's realpath(3), the answer of Node's own walk in one call.
 */
export function assertSandboxPath(root: string, target: string): void {
  const realRoot = fs.realpathSync.native(root);
  const relative = path.relative(realRoot, target);
  const parts = relative.split(path.sep);
  if (path.isAbsolute(relative) || parts.length !== 2 || parts.some((p) => !p || p === '.' || p === '..'))
    throw new UnsafeRemovalError(`${target} is not a folder <root>/<project>/<sandbox> under ${realRoot}`);
  for (const dir of [path.join(realRoot, parts[0]), target]) {
    const st = fs.lstatSync(dir);
    if (!st.isDirectory())
      throw new UnsafeRemovalError(`${dir} is not a folder (a symbolic link is never followed)`);
  }
  if (fs.realpathSync.native(target) !== target) throw new UnsafeRemovalError(`${target} is not a real path`);
}

export async function removeSandboxTree(root: string, target: string): Promise<TreeRemoval> {
  assertSandboxPath(root, target);
  const result: TreeRemoval = { gone: false, unlinked: false, freedBytes: 0, problems: [] };
  const gitDir = path.join(target, '.git');
  if (lstat(gitDir)) {
    try {
      await fsp.rename(gitDir, path.join(target, removedGitName()));
    } catch (error) {
      result.problems.push({ path: gitDir, error: code(error) });
      return result;
    }
  }
  result.unlinked = true;
  add(result, await removeTree(target, fs.lstatSync(target).dev));
  result.gone = !lstat(target);
  return result;
}

/** Removes `<root>/<project>/.home/<sandbox>` (real folders only, links never followed); problems are added. */
export async function removeHomeFolder(root: string, home: string, result: TreeRemoval): Promise<void> {
  const realRoot = fs.realpathSync.native(root);
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
  add(result, await removeTree(home, st!.dev));
}

/** Adds what a walk found to the removal's account. */
function add(result: TreeRemoval, walked: WalkResult): void {
  result.freedBytes += walked.freedBytes;
  result.problems.push(...walked.problems);
}

function code(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}

/**
 * Bytes a folder takes on disk (allocated blocks), walked like removal: no links followed, one filesystem.
 * Undefined when any of it could not be read (a folder without search permission, a chain of folders
 * deeper than PATH_MAX): a size is for the report only, so a sandbox that cannot be measured is reported
 * unmeasured, never an error that stops the reap.
 */
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
  try {
    while (pending.length) {
      const dir = pending.pop()!;
      for (const name of fs.readdirSync(dir)) {
        const entry = path.join(dir, name);
        const st = fs.lstatSync(entry, { throwIfNoEntry: false });
        if (!st) continue;
        total += st.blocks * 512;
        if (st.isDirectory() && st.dev === device) pending.push(entry);
      }
    }
  } catch {
    return undefined;
  }
  return total;
}

/** Files of one folder deleted at once. */
const UNLINK_WINDOW = 64;

/** An entry that could not be deleted, and why (an errno code). */
export interface RemovalProblem {
  path: string;
  error: string;
}

export interface WalkResult {
  /** Allocated bytes of what was deleted (a file with other hard links frees nothing). */
  freedBytes: number;
  problems: RemovalProblem[];
}

/**
 * Empties and removes `top` (a real folder on `device`, checked by the caller): a folder's files are
 * deleted together through libuv's thread pool (a window at a time), folders one after the other.
 */
export async function removeTree(top: string, device: number): Promise<WalkResult> {
  const uid = process.getuid?.();
  const result: WalkResult = { freedBytes: 0, problems: [] };
  const code = (error: unknown): string => (error as NodeJS.ErrnoException)?.code ?? String(error);

  const unlink = (entry: string) => fsp.unlink(entry);
  const rmdir = (dir: string) => fsp.rmdir(dir);

  /** A folder we own but may not write or search: made ours to empty; true: try again. */
  function makeWritable(dir: string, error: unknown): boolean {
    const c = code(error);
    if (c !== 'EACCES' && c !== 'EPERM') return false;
    try {
      const st = fs.lstatSync(dir);
      if (!st.isDirectory() || st.uid !== uid) return false;
      if ((st.mode & 0o700) !== 0o700) fs.chmodSync(dir, (st.mode & 0o7777) | 0o700);
      return true;
    } catch {
      return false;
    }
  }

  /** Calls `attempt`, once more after making `dir` writable when that is why it failed; the error code. */
  async function withRetry(
    dir: string,
    attempt: () => Promise<void>,
    mayFix = true,
  ): Promise<string | undefined> {
    try {
      await attempt();
      return undefined;
    } catch (error) {
      if (code(error) === 'ENOENT') return undefined;
      if (!mayFix || !makeWritable(dir, error)) return code(error);
    }
    try {
      await attempt();
      return undefined;
    } catch (again) {
      return code(again) === 'ENOENT' ? undefined : code(again);
    }
  }

  /** Empties and removes `dir`; true when anything below it could not be deleted. */
  async function removeFolder(dir: string, isTop: boolean): Promise<boolean> {
    let failedBelow = false;
    const fail = (entry: string, error: string) => {
      result.problems.push({ path: entry, error });
      failedBelow = true;
    };
    let names: string[] = [];
    const listed = await withRetry(dir, async () => {
      names = fs.readdirSync(dir);
    });
    if (listed) fail(dir, listed);
    const folders: string[] = [];
    const others: Array<{ entry: string; st: fs.Stats }> = [];
    for (const name of names) {
      const entry = path.join(dir, name);
      const st = lstat(entry);
      if (!st) continue;
      if (!st.isDirectory()) others.push({ entry, st });
      else if (st.dev !== device) fail(entry, 'another filesystem is mounted here: not crossed');
      else folders.push(entry);
    }
    const unlinkEntry = async ({ entry, st }: (typeof others)[number]) => {
      const problem = await withRetry(dir, () => unlink(entry));
      if (problem) fail(entry, problem);
      else if (st.nlink <= 1) result.freedBytes += st.blocks * 512;
    };
    // A window of a folder's files at a time, so that a huge folder queues a bounded number.
    for (let i = 0; i < others.length; i += UNLINK_WINDOW)
      await Promise.all(others.slice(i, i + UNLINK_WINDOW).map(unlinkEntry));
    for (const folder of folders) if (await removeFolder(folder, false)) failedBelow = true;
    const st = lstat(dir);
    // The top folder's parent is not ours to make writable.
    const problem = await withRetry(path.dirname(dir), () => rmdir(dir), !isTop);
    if (!problem) result.freedBytes += st ? st.blocks * 512 : 0;
    // A folder that still holds what could not be deleted is already explained by that entry.
    else if (!(failedBelow && problem === 'ENOTEMPTY')) fail(dir, problem);
    return failedBelow;
  }

  await removeFolder(top, true);
  return result;
}
