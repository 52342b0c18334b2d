// Linked worktrees (the layout of `git worktree add`, and of the seed tool's worktree cache) as the
// reaper sees them: a folder whose `.git` is a file `gitdir: <parent>/.git/worktrees/<id>`, registered
// in that parent by the folder `<parent>/.git/worktrees/<id>`, whose `gitdir` file points back at the
// worktree's `.git`. The worktree and its registration (HEAD, index, logs, refs of its own) are written by
// whoever used the worktree: everything here reads them as data (bounded, never through a link, lstat
// only for times), and git never runs with them. git runs on the host in the parent only (its branches).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { OID, type GitCommands } from '../engine/git-commands.js';
import { withRepositoryLock } from '../sandbox/lock.js';
import type { ParentRepository } from '../sandbox/repository.js';
import {
  lstat,
  readBounded,
  readHeadAndRefs,
  readRefTips,
  type SandboxGitReading,
} from '../sandbox/sandbox-files.js';
import { type RemovalProblem, removeTree } from './remove-tree.js';
import { inParallel } from './parallel.js';
import type { LinkedFacts } from './scanned-sandbox.js';

const GIT_FILE_MAX = 4096;
/** A registration's `gitdir` names one path. */
const GITDIR_MAX = 4096;

export interface GitFileTarget {
  /** The parent's work tree, as the `.git` file names it (absolute, normalized). */
  parentPath: string;
  /** `<parent>/.git/worktrees/<id>`: the worktree's own git folder (its HEAD, index, logs). */
  adminDir: string;
  id: string;
}

/** A worktree's `.git` file: one line `gitdir: <parent>/.git/worktrees/<id>`, an absolute, normal path. */
export function parseGitFile(text: string): GitFileTarget | { error: string } {
  const match = /^gitdir: ([^\n\r\0]+)\n?$/.exec(text);
  if (!match) return { error: 'its .git file is not one line `gitdir: <path>`' };
  const target = match[1];
  if (!path.isAbsolute(target)) return { error: 'its .git file names a relative path' };
  if (path.normalize(target) !== target)
    return { error: 'its .git file names a path that is not in normal form' };
  const parts = /^(\/.*)\/\.git\/worktrees\/([^/]+)$/.exec(target);
  if (!parts || parts[2] === '.' || parts[2] === '..')
    return { error: "its .git file names no registration in a parent's .git/worktrees/" };
  return { parentPath: parts[1], adminDir: target, id: parts[2] };
}

/** The worktree's `.git` file, read as data. */
export function readGitFile(worktree: string): GitFileTarget | { error: string } {
  const file = readBounded(path.join(worktree, '.git'), GIT_FILE_MAX);
  if ('error' in file) return { error: `its .git file: ${file.error}` };
  if ('absent' in file) return { error: 'its .git file is gone' };
  return parseGitFile(file.data.toString('utf8'));
}

export type Registration =
  /** The parent registers it, pointing back: `gitdirText` is the `gitdir` file as read (removal checks it again). */
  | { state: 'registered'; gitdirText: string; locked: boolean }
  /** The parent has no registration of that id (pruned): the worktree is an orphan. */
  | { state: 'missing'; why: string }
  /** A registration that is not this worktree's, or cannot be read: kept, never removed with it. */
  | { state: 'foreign'; why: string };

/**
 * What every worktree of one parent shares, read once per parent in a scan: whether
 * `<parent>/.git/worktrees` is a folder, and the real path of `<parent>/.git`. A scan reads thousands of
 * worktrees of a few parents; removal checks each registration again byte for byte (`removeRegistrations`).
 */
export class ParentFacts {
  private readonly lists = new Map<string, fs.Stats | undefined>();
  private readonly gitDirs = new Map<string, string | undefined>();

  worktreesFolder(dir: string): fs.Stats | undefined {
    if (!this.lists.has(dir)) this.lists.set(dir, lstat(dir));
    return this.lists.get(dir);
  }

  realGitDir(parentPath: string): string | undefined {
    if (!this.gitDirs.has(parentPath)) this.gitDirs.set(parentPath, realPath(path.join(parentPath, '.git')));
    return this.gitDirs.get(parentPath);
  }
}

/**
 * Whether the parent registers this worktree: `<parent>/.git/worktrees/<id>` is a real folder (the real
 * path of `<parent>/.git` joined with `worktrees/<id>`), and its `gitdir` file names this worktree's `.git`
 * (real paths compared). `worktree`: a real path whose `.git` is a file, as the scan finds it; `parents`:
 * what the scan already read of the parent.
 */
export function verifyRegistration(
  worktree: string,
  target: GitFileTarget,
  parents = new ParentFacts(),
): Registration {
  const foreign = (why: string): Registration => ({ state: 'foreign', why });
  const worktrees = path.dirname(target.adminDir);
  const list = parents.worktreesFolder(worktrees);
  if (!list) return { state: 'missing', why: `${target.parentPath} registers no worktrees any more` };
  if (!list.isDirectory()) return foreign(`${worktrees} is not a folder`);
  const admin = lstat(target.adminDir);
  if (!admin)
    return { state: 'missing', why: `its registration ${target.id} is gone from ${target.parentPath}` };
  if (!admin.isDirectory()) return foreign(`its registration ${target.id} is not a folder`);
  const realGitDir = parents.realGitDir(target.parentPath);
  // Where `<parent>/.git` is a real path, so is its registration: `worktrees` and `<id>` are folders, not
  // links (lstat above). Only otherwise is the registration's own real path asked for.
  const realAdmin =
    realGitDir === path.join(target.parentPath, '.git') ? target.adminDir : realPath(target.adminDir);
  if (!realAdmin || !realGitDir || realAdmin !== path.join(realGitDir, 'worktrees', target.id))
    return foreign(`its registration ${target.id} is not a folder of ${target.parentPath}/.git/worktrees`);
  const file = readBounded(path.join(target.adminDir, 'gitdir'), GITDIR_MAX);
  if (!('data' in file)) return foreign(`its registration ${target.id} has no readable gitdir file`);
  const gitdirText = file.data.toString('utf8');
  const named = gitdirText.replace(/\n$/, '');
  if (!path.isAbsolute(named) || /[\n\r\0]/.test(named))
    return foreign(`its registration ${target.id} names no absolute path`);
  // The worktree is a real path and its `.git` a file (the scan's lstat): naming it as it is needs no walk.
  const own = path.join(worktree, '.git');
  const pointed = named === own ? own : realPath(named);
  if (pointed !== own)
    return foreign(`its registration ${target.id} in ${target.parentPath} belongs to another worktree`);
  return {
    state: 'registered',
    gitdirText,
    locked: lstat(path.join(target.adminDir, 'locked')) !== undefined,
  };
}

/**
 * The system's realpath(3): the same answer as Node's own walk for a path that exists, in a fraction of its
 * time (the scan asks three of every linked worktree); a path it cannot resolve is no path of ours.
 */
function realPath(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}

/**
 * HEAD and the worktree's own refs (`refs/bisect`, `refs/worktree`...) from its registration, as data.
 * A HEAD that names a branch is resolved later, in the parent (`branchTips`): branches are the parent's.
 */
export function readLinkedGit(adminDir: string): SandboxGitReading {
  const read = readHeadAndRefs(adminDir);
  if ('error' in read) return { ok: false, error: read.error };
  const { head, refs } = read;
  const own = [...refs.values()];
  if ('oid' in head) return { ok: true, headOid: head.oid, named: [...new Set([head.oid, ...own])] };
  const local = refs.get(head.ref);
  if (local) return { ok: true, headRef: head.ref, headOid: local, named: [...new Set(own)] };
  return { ok: true, headRef: head.ref, named: [...new Set(own)] };
}

/**
 * The commits these refs name in the parent (the host's own repository): read as data from its refs where
 * that answer is sure (sandbox-files.ts `readRefTips`, what git reads too), the rest in one git process.
 * The names come from worktrees' HEAD files: checked to be ref names (parseHead) and matched exactly.
 */
export async function branchTips(
  git: GitCommands,
  parent: ParentRepository,
  refs: readonly string[],
): Promise<Map<string, string> | { error: string }> {
  const tips = readRefTips(parent.gitDir, refs);
  const asked = refs.filter((ref) => !tips.has(ref));
  if (asked.length === 0) return tips;
  const out = await git.exec(parent.path, [
    'for-each-ref',
    '--format=%(objectname) %(refname)',
    '--',
    ...asked,
  ]);
  if (out.exitCode !== 0)
    return { error: `git for-each-ref failed in the parent: ${out.stderr.trim().split('\n')[0]}` };
  const wanted = new Set(asked);
  for (const line of out.stdout.split('\n')) {
    const space = line.indexOf(' ');
    const oid = line.slice(0, space);
    const name = line.slice(space + 1);
    if (space > 0 && OID.test(oid) && wanted.has(name)) tips.set(name, oid);
  }
  return tips;
}

// Removing linked worktrees' registrations in their parent (`<parent>/.git/worktrees/<id>`), once their
// folders are gone: as data, with the removal's own walk (no link followed), and only those registrations.
// Not `git worktree prune`, which would judge and drop every other registration of the parent (those of
// worktrees it cannot see from here, too), and would read files that whoever used the worktree wrote.

/** Registrations walked at once. */
export const REGISTRATIONS_AT_ONCE = 4;

/**
 * The registrations of removed linked worktrees, a parent at a time, under its repository lock (taken
 * once for its batch): in order, why each was left (undefined: it is gone). A parent whose lock cannot be
 * had keeps its registrations, and the other parents' go on.
 */
export async function forgetRegistrations(
  items: ReadonlyArray<{ parent: ParentRepository; linked: LinkedFacts }>,
): Promise<Array<{ reason: string; problem?: RemovalProblem } | undefined>> {
  const left: Array<{ reason: string; problem?: RemovalProblem } | undefined> = items.map(() => undefined);
  const byParent = new Map<string, number[]>();
  items.forEach(({ parent }, n) => {
    const group = byParent.get(parent.gitDir);
    if (group) group.push(n);
    else byParent.set(parent.gitDir, [n]);
  });
  for (const [gitDir, group] of byParent) {
    try {
      const problems = await withRepositoryLock(gitDir, () =>
        removeRegistrations(
          gitDir,
          group.map((n) => items[n].linked),
        ),
      );
      group.forEach((n, i) => {
        const problem = problems[i];
        if (problem) left[n] = { reason: problem.error, problem };
      });
    } catch (error) {
      for (const n of group)
        left[n] = { reason: `the parent's lock could not be taken (${(error as Error).message})` };
    }
  }
  return left;
}

/**
 * Removes the registrations of a batch of removed linked worktrees of one parent (`parentGitDir`), the
 * caller holding the parent's repository lock (taken once for the batch). Each goes only when it is still a
 * real folder whose `gitdir` file reads as the scan read it (it named its worktree then); several are
 * walked at once (each is a handful of small files, and every unlink waits for the disk).
 * Returns, in order, what was left of each and why (undefined: it is gone); one that cannot go leaves the
 * others going.
 */
export async function removeRegistrations(
  parentGitDir: string,
  batch: readonly LinkedFacts[],
  walk: typeof removeTree = removeTree,
): Promise<Array<RemovalProblem | undefined>> {
  const worktrees = path.join(parentGitDir, 'worktrees');
  // One walk per registration: a registration named twice (the scan verifies that it points back at one
  // worktree only, so this is never expected) is walked once, and both are told what became of it.
  const walks = new Map<string, Promise<RemovalProblem | undefined>>();
  const removeOnce = (linked: LinkedFacts): Promise<RemovalProblem | undefined> => {
    const known = walks.get(linked.id);
    if (known) return known;
    const removal = removeChecked(worktrees, linked, walk);
    walks.set(linked.id, removal);
    return removal;
  };
  const problems = await inParallel(batch, REGISTRATIONS_AT_ONCE, removeOnce);
  // As git does when it prunes the last registration: the empty folder goes too, once one of ours went
  // (rmdir removes only an empty folder, never a link: others' registrations are never touched).
  if (problems.some((problem) => !problem) && lstat(worktrees)?.isDirectory())
    try {
      fs.rmdirSync(worktrees);
    } catch {
      /* other registrations are left */
    }
  return problems;
}

/** One registration, checked under the parent's lock just before its walk (see removeRegistrations). */
async function removeChecked(
  worktrees: string,
  linked: LinkedFacts,
  walk: typeof removeTree,
): Promise<RemovalProblem | undefined> {
  const admin = path.join(worktrees, linked.id);
  const left = (error: string): RemovalProblem => ({ path: admin, error });
  if (!linked.registered || linked.id.includes('/') || linked.id === '.' || linked.id === '..')
    return left('not a verified registration');
  if (!lstat(worktrees)?.isDirectory()) return left('.git/worktrees is not a folder');
  const st = lstat(admin);
  if (!st) return undefined; // gone already (a person or git pruned it)
  if (!st.isDirectory()) return left('it is not a folder (a symbolic link is never followed)');
  const gitdir = readBounded(path.join(admin, 'gitdir'), GITDIR_MAX);
  if (!('data' in gitdir) || gitdir.data.toString('utf8') !== linked.registered.gitdirText)
    return left('it changed since the scan');
  const walked = await walk(admin, st.dev);
  return walked.problems[0];
}
