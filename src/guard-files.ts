// Files the container can write and the host trusts afterwards (the parent's .git/config, hooks, info/,
// a worktree's admin files...): recorded before the command, compared and put back after it. Nothing here
// follows a symbolic link the container may have planted: paths are read with lstat, replaced by rename.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

export type FileKind = 'file' | 'dir' | 'symlink' | 'absent' | 'other';

export interface FileRecord {
  path: string;
  kind: FileKind;
  mode?: number;
  /** sha256 of a file's content (its copy is `<blobs>/<sha256>`). */
  sha256?: string;
  /** A symbolic link's target. */
  target?: string;
}

export interface FileChange {
  path: string;
  change: 'added' | 'removed' | 'changed';
  before: FileRecord;
  after: FileRecord;
}

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

const MAX_READ = 64 * 1024 * 1024;

async function lstat(p: string) {
  return fs.lstat(p).catch(() => undefined);
}

/** The state of `p` (and, with `recursive`, of everything under it), file contents copied into `blobs`. */
export async function readState(p: string, recursive: boolean, blobs?: string): Promise<FileRecord[]> {
  const st = await lstat(p);
  if (!st) return [{ path: p, kind: 'absent' }];
  const mode = st.mode & 0o7777;
  if (st.isSymbolicLink()) return [{ path: p, kind: 'symlink', target: await fs.readlink(p) }];
  if (st.isFile()) {
    // A huge file planted to exhaust memory is not read: it differs from any recorded file anyway.
    if (!blobs && st.size > MAX_READ) return [{ path: p, kind: 'file', mode, sha256: `size:${st.size}` }];
    const data = await fs.readFile(p);
    const hash = sha256(data);
    if (blobs) await fs.writeFile(path.join(blobs, hash), data, { mode: 0o600 });
    return [{ path: p, kind: 'file', mode, sha256: hash }];
  }
  if (!st.isDirectory()) return [{ path: p, kind: 'other' }];
  const records: FileRecord[] = [{ path: p, kind: 'dir', mode }];
  if (!recursive) return records;
  for (const name of (await fs.readdir(p)).sort())
    records.push(...(await readState(path.join(p, name), true, blobs)));
  return records;
}

function same(a: FileRecord, b: FileRecord): boolean {
  return a.kind === b.kind && a.sha256 === b.sha256 && a.target === b.target && a.mode === b.mode;
}

/** What differs between two states of the same paths (pure). */
export function diffStates(before: FileRecord[], after: FileRecord[]): FileChange[] {
  const was = new Map(before.map((r) => [r.path, r]));
  const now = new Map(after.map((r) => [r.path, r]));
  const changes: FileChange[] = [];
  for (const p of new Set([...was.keys(), ...now.keys()])) {
    const b = was.get(p) ?? { path: p, kind: 'absent' as const };
    const a = now.get(p) ?? { path: p, kind: 'absent' as const };
    if (same(a, b)) continue;
    const change = b.kind === 'absent' ? 'added' : a.kind === 'absent' ? 'removed' : 'changed';
    changes.push({ path: p, change, before: b, after: a });
  }
  return changes.sort((x, y) => x.path.localeCompare(y.path));
}

const depth = (p: string) => p.split(path.sep).length;

/** Refuses to write below a symbolic link between its root and `p` (it could lead anywhere on the host). */
async function assertRealDirectories(roots: string[], p: string): Promise<void> {
  const root = roots.filter((r) => p.startsWith(r + path.sep)).sort((a, b) => b.length - a.length)[0];
  if (!root) throw new Error(`${p} is outside the guarded folders`);
  const rel = path.relative(root, path.dirname(p));
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw new Error(`${p} is outside ${root}`);
  let current = root;
  for (const part of rel ? rel.split(path.sep) : []) {
    current = path.join(current, part);
    const st = await lstat(current);
    if (!st?.isDirectory()) throw new Error(`cannot restore ${p}: ${current} is no longer a folder`);
  }
}

/**
 * Puts every changed path back as recorded: extra paths removed (deepest first, links never followed),
 * folders, files (from their copies, by rename) and links recreated (shallowest first). Returns the paths
 * it could not put back (below a folder the command replaced by a link, for instance).
 */
export async function restoreChanges(
  changes: FileChange[],
  blobs: string,
  roots: string[],
): Promise<string[]> {
  const failed: string[] = [];
  const attempt = async (p: string, fn: () => Promise<void>) => {
    try {
      await assertRealDirectories(roots, p);
      await fn();
    } catch (error) {
      failed.push(`${p}: ${(error as Error).message}`);
    }
  };
  const removals = changes
    .filter((c) => c.after.kind !== 'absent' && c.before.kind !== c.after.kind)
    .sort((a, b) => depth(b.path) - depth(a.path));
  for (const c of removals) await attempt(c.path, () => fs.rm(c.path, { recursive: true, force: true }));
  const writes = changes
    .filter((c) => c.before.kind !== 'absent')
    .sort((a, b) => depth(a.path) - depth(b.path));
  for (const { before } of writes) {
    await attempt(before.path, async () => {
      if (before.kind === 'dir') {
        await fs.mkdir(before.path, { recursive: true });
        await fs.chmod(before.path, before.mode ?? 0o755);
      } else if (before.kind === 'file') {
        const tmp = `${before.path}.worktree-sandbox-restore`;
        await fs.rm(tmp, { recursive: true, force: true });
        await fs.copyFile(path.join(blobs, before.sha256!), tmp);
        await fs.chmod(tmp, before.mode ?? 0o644);
        await fs.rename(tmp, before.path);
      } else if (before.kind === 'symlink') {
        await fs.rm(before.path, { recursive: true, force: true });
        await fs.symlink(before.target!, before.path);
      }
    });
  }
  return failed;
}
