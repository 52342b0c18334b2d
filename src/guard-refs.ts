// The parent's refs are shared by every worktree: a container could move `main`, retag a release, or move
// `origin/<branch>` so that unpushed work looks pushed. Refs are recorded before the command and every
// change outside the sandbox's own branch is undone after it; what a moved or new ref pointed at is kept
// under refs/worktree-sandbox/displaced/, so undoing never loses a commit.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Git } from './git.js';

/** A ref and its value: an object id, or `ref: <target>` for a symbolic ref. */
export interface RefRecord {
  name: string;
  value: string;
}

export const DISPLACED_NAMESPACE = 'refs/worktree-sandbox/displaced/';

export async function readRefs(git: Git, cwd: string): Promise<RefRecord[]> {
  const out = await git.run(cwd, ['for-each-ref', '--format=%(refname)%00%(objectname)%00%(symref)']);
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [name, objectName, symref] = line.split('\0');
      return { name, value: symref ? `ref: ${symref}` : objectName };
    });
}

/** Names of loose ref files, read from disk: finds refs that for-each-ref skips (broken ones). */
export async function looseRefNames(gitDir: string): Promise<string[]> {
  const names: string[] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const name = `${prefix}/${entry.name}`;
      if (entry.isDirectory()) await walk(path.join(dir, entry.name), name);
      else names.push(name);
    }
  };
  await walk(path.join(gitDir, 'refs'), 'refs');
  return names.sort();
}

export interface RefPolicy {
  /** The sandbox's own branch (`refs/heads/<branch>`), which the command may move or create. */
  ownBranch?: string;
  /** Branches of other sandboxes in use by live runs before and after the command: theirs to move. */
  branchesInUse: string[];
}

export interface RefFix {
  name: string;
  /** Value to put back; undefined: the ref did not exist and is deleted. */
  restore?: string;
  /** Value the command left; undefined: the command deleted the ref. */
  displaced?: string;
}

/** Which ref changes to undo (pure). */
export function planRefFixes(before: RefRecord[], after: RefRecord[], policy: RefPolicy): RefFix[] {
  const was = new Map(before.map((r) => [r.name, r.value]));
  const now = new Map(after.map((r) => [r.name, r.value]));
  const own = policy.ownBranch ? `refs/heads/${policy.ownBranch}` : undefined;
  const theirs = new Set(
    policy.branchesInUse.flatMap((b) => [`refs/heads/${b}`, `refs/remotes/origin/${b}`]),
  );
  const fixes: RefFix[] = [];
  for (const name of [...new Set([...was.keys(), ...now.keys()])].sort()) {
    const restore = was.get(name);
    const displaced = now.get(name);
    if (restore === displaced || theirs.has(name)) continue;
    if (name === own && displaced !== undefined) continue;
    if (name.startsWith(DISPLACED_NAMESPACE) && restore === undefined) continue;
    fixes.push({ name, restore, displaced });
  }
  return fixes;
}

export function describeRefFix(fix: RefFix, keptAs?: string): string {
  const short = (v?: string) => (v?.startsWith('ref: ') ? v : v?.slice(0, 12));
  const kept = keptAs ? `; what it pointed at is kept as ${keptAs}` : '';
  if (fix.restore === undefined)
    return `ref ${fix.name} was created (${short(fix.displaced)}): deleted${kept}`;
  if (fix.displaced === undefined) return `ref ${fix.name} was deleted: restored at ${short(fix.restore)}`;
  return `ref ${fix.name} was moved from ${short(fix.restore)} to ${short(fix.displaced)}: restored${kept}`;
}

/** Carries the fixes out, one ref at a time (one failure does not stop the others). Returns what it did. */
export async function applyRefFixes(
  git: Git,
  cwd: string,
  gitDir: string,
  fixes: RefFix[],
  stamp: string,
): Promise<{ done: string[]; failed: string[] }> {
  const done: string[] = [];
  const failed: string[] = [];
  const msg = ['-m', 'worktree-sandbox: undo a change made by the sandboxed command'];
  for (const fix of fixes) {
    let keptAs: string | undefined;
    if (fix.displaced && !fix.displaced.startsWith('ref: ')) {
      const name = `${DISPLACED_NAMESPACE}${stamp}/${fix.name}`;
      const kept = await git.exec(cwd, ['update-ref', ...msg, '--', name, fix.displaced]);
      if (kept.exitCode === 0) keptAs = name;
    }
    // --no-deref: a ref the command turned into a symbolic ref is replaced, not written through.
    const args =
      fix.restore === undefined
        ? ['update-ref', ...msg, '--no-deref', '-d', '--', fix.name]
        : fix.restore.startsWith('ref: ')
          ? ['symbolic-ref', ...msg, '--', fix.name, fix.restore.slice(5)]
          : ['update-ref', ...msg, '--no-deref', '--', fix.name, fix.restore];
    let ok = (await git.exec(cwd, args)).exitCode === 0;
    if (!ok && fix.restore === undefined) ok = await removeLooseRef(gitDir, fix.name);
    (ok ? done : failed).push(describeRefFix(fix, keptAs));
  }
  return { done, failed };
}

/** Deletes a loose ref file git refuses to touch (an invalid name planted on disk). */
export async function removeLooseRef(gitDir: string, name: string): Promise<boolean> {
  const file = path.join(gitDir, name);
  const rel = path.relative(path.join(gitDir, 'refs'), file);
  if (!name.startsWith('refs/') || rel.startsWith('..') || path.isAbsolute(rel)) return false;
  const real = await fs.realpath(path.dirname(file)).catch(() => undefined);
  if (real !== path.dirname(file)) return false;
  await fs.rm(file, { force: true });
  return true;
}
