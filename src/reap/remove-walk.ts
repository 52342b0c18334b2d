// The removal walk itself: empties a folder and removes it. It runs in a removal worker (remove-workers.ts)
// or in the calling thread, in one of two ways: with synchronous calls (`concurrent: false`: exactly one
// call in the kernel at a time, per thread), or with a folder's files deleted together through libuv's
// thread pool (`concurrent: true`: up to that pool's size in the kernel at once, at most 64 queued per
// folder; folders one after the other, and several walks at once in one thread).
// The function is self-contained on purpose: it uses nothing but its parameters, because the workers run
// its source text (they load no module of ours). The rules (remove.ts says why):
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

export interface WalkOptions {
  /** Whose folders may be made writable. */
  uid: number | undefined;
  /** Delete a folder's entries together through the thread pool (else one synchronous call at a time). */
  concurrent: boolean;
}

/**
 * Empties and removes `top` (a real folder on `device`). Self-contained: see the head of this file.
 */
export async function removeTree(
  fs: typeof import('node:fs'),
  path: typeof import('node:path'),
  top: string,
  device: number,
  { uid, concurrent }: WalkOptions,
): Promise<WalkResult> {
  const result: WalkResult = { freedBytes: 0, problems: [] };
  const code = (error: unknown): string => (error as NodeJS.ErrnoException)?.code ?? String(error);
  const lstat = (entry: string) => fs.lstatSync(entry, { throwIfNoEntry: false });

  const pooled = (call: (done: (error: Error | null) => void) => void) =>
    new Promise<void>((resolve, reject) => call((error) => (error ? reject(error) : resolve())));
  const unlink = concurrent
    ? (entry: string) => pooled((done) => fs.unlink(entry, done))
    : async (entry: string) => fs.unlinkSync(entry);
  const rmdir = concurrent
    ? (dir: string) => pooled((done) => fs.rmdir(dir, done))
    : async (dir: string) => fs.rmdirSync(dir);

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
    const others: Array<{ entry: string; st: import('node:fs').Stats }> = [];
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
    // Concurrent: a window of a folder's files at a time, so that a huge folder queues a bounded number.
    const window = concurrent ? 64 : 1;
    for (let i = 0; i < others.length; i += window)
      await Promise.all(others.slice(i, i + window).map(unlinkEntry));
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
