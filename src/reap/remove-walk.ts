// The removal walk itself: empties a folder and removes it, with synchronous calls only, so that a removal
// worker thread (remove-workers.ts) keeps exactly one call in the kernel at a time and several workers
// keep several. The function is self-contained on purpose: it uses nothing but its parameters, because
// the workers run its source text (they load no module of ours). The rules (remove.ts says why):
//  - every entry is judged by its own lstat, never by the listing's file type: a link (or a folder swapped
//    for a link after the listing) is unlinked as a link and never followed;
//  - a folder on another filesystem (a different device) is not entered, and is reported;
//  - an entry that cannot be deleted is reported and the rest still goes; a folder of ours without write
//    or search permission (mode 0555, as Go's module cache makes) is made writable first, once;
//  - the top folder's parent is never changed (no permission of it is touched).

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
 * Empties and removes `top` (a real folder on `device`); `uid`: whose folders may be made writable.
 * Self-contained: see the head of this file.
 */
export function removeTreeSync(
  fs: typeof import('node:fs'),
  path: typeof import('node:path'),
  uid: number | undefined,
  top: string,
  device: number,
): WalkResult {
  const result: WalkResult = { freedBytes: 0, problems: [] };
  const code = (error: unknown): string => (error as NodeJS.ErrnoException)?.code ?? String(error);
  const lstat = (entry: string) => fs.lstatSync(entry, { throwIfNoEntry: false });

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
  function withRetry(dir: string, attempt: () => void, mayFix = true): string | undefined {
    try {
      attempt();
      return undefined;
    } catch (error) {
      if (code(error) === 'ENOENT') return undefined;
      if (!mayFix || !makeWritable(dir, error)) return code(error);
    }
    try {
      attempt();
      return undefined;
    } catch (again) {
      return code(again) === 'ENOENT' ? undefined : code(again);
    }
  }

  /** Empties and removes `dir`; true when anything below it could not be deleted. */
  function removeFolder(dir: string, isTop: boolean): boolean {
    let failedBelow = false;
    const fail = (entry: string, error: string) => {
      result.problems.push({ path: entry, error });
      failedBelow = true;
    };
    let names: string[] = [];
    const listed = withRetry(dir, () => {
      names = fs.readdirSync(dir);
    });
    if (listed) fail(dir, listed);
    for (const name of names) {
      const entry = path.join(dir, name);
      const st = lstat(entry);
      if (!st) continue;
      if (st.isDirectory()) {
        if (st.dev !== device) fail(entry, 'another filesystem is mounted here: not crossed');
        else if (removeFolder(entry, false)) failedBelow = true;
        continue;
      }
      const problem = withRetry(dir, () => fs.unlinkSync(entry));
      if (problem) fail(entry, problem);
      else if (st.nlink <= 1) result.freedBytes += st.blocks * 512;
    }
    const st = lstat(dir);
    // The top folder's parent is not ours to make writable.
    const problem = withRetry(path.dirname(dir), () => fs.rmdirSync(dir), !isTop);
    if (!problem) result.freedBytes += st ? st.blocks * 512 : 0;
    // A folder that still holds what could not be deleted is already explained by that entry.
    else if (!(failedBelow && problem === 'ENOTEMPTY')) fail(dir, problem);
    return failedBelow;
  }

  removeFolder(top, true);
  return result;
}
