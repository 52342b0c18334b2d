// Removing a disk sandbox safely:
//  - only a folder exactly at `<root>/<project>/<sandbox>`, itself no symbolic link, under the real root;
//  - symbolic links are removed as links, never followed (a link to `/` or to another sandbox removes the
//    link only); other filesystems mounted inside are not crossed;
//  - its `.git` folder is renamed first, in one step: from then on it is no longer a sandbox, and if that
//    fails nothing else is touched; after that, entries that cannot be deleted are reported and the rest
//    still goes (a folder of ours without write permission, as Go's module cache makes, is made writable
//    first). What is left of a partly removed sandbox is reported as not a sandbox from then on;
//  - its home `<root>/<project>/.home/<sandbox>` goes the same way.
// How: the paths are checked and `.git` moved away here; the walk that empties a folder is remove-walk.ts,
// run by a Remover (remove-workers.ts): in the calling thread, or in one of several worker threads while
// other sandboxes are removed at the same time (execute.ts).
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { HOME_FOLDER } from '../sandbox/layout.js';
import type { RemovalProblem, WalkResult } from './remove-walk.js';
import { inlineRemover, type Remover } from './remove-workers.js';
import { lstat } from './sandbox-files.js';

export type { RemovalProblem } from './remove-walk.js';

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

export async function removeSandboxTree(
  root: string,
  target: string,
  remover: Remover = inlineRemover,
): Promise<TreeRemoval> {
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
  add(result, await remover.remove(target, fs.lstatSync(target).dev));
  result.gone = !lstat(target);
  return result;
}

/** Removes `<root>/<project>/.home/<sandbox>` (real folders only, links never followed); problems are added. */
export async function removeHomeFolder(
  root: string,
  home: string,
  result: TreeRemoval,
  remover: Remover = inlineRemover,
): Promise<void> {
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
  add(result, await remover.remove(home, st!.dev));
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
