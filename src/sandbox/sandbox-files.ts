// A sandbox's git folder read as data by the host: HEAD, every ref (loose and packed), the activity
// signals and the marks of an operation left half-done. A container wrote all of it, so nothing here
// runs git, follows a symbolic link or reads more than a bound: a file is opened with O_NOFOLLOW, checked
// to be a regular file, and read up to its limit. Anything unexpected is an error, which the checks
// turn into "keep".
import { REF_ROOT, SNAPSHOT_REF } from './bookkeeping.js';
import { LOOSE_REF_MAX, parseHead, parseLooseRef, parsePackedRefs, readBounded } from './ref-files.js';
import * as fs from 'node:fs';
import * as path from 'node:path';

// The readers of ref files are the sandbox layer's (run mode reads a parent's records with them too).
export {
  type FileReading,
  type HeadReading,
  parseHead,
  parseLooseRef,
  parsePackedRefs,
  readBounded,
  readRefTips,
} from './ref-files.js';

const HEAD_MAX = 1024;
export const PACKED_REFS_MAX = 32 * 1024 * 1024;
/** More refs than this (a ref bomb) and the sandbox is kept without a closer look. */
export const MAX_REFS = 20_000;

export interface SandboxGitData {
  /** HEAD as written: a branch (`refs/heads/...`) or undefined when detached. */
  headRef?: string;
  /** The commit HEAD names (resolved through the refs read here). */
  headOid?: string;
  /** Every object HEAD and the refs name (loose, packed, peeled). */
  named: string[];
}

export type SandboxGitReading = ({ ok: true } & SandboxGitData) | { ok: false; error: string };

/** HEAD and every ref of a sandbox's git folder (`<work tree>/.git`), as data. */
export function readSandboxGit(gitDir: string): SandboxGitReading {
  const read = readHeadAndRefs(gitDir);
  if ('error' in read) return { ok: false, error: read.error };
  const { head, refs, peeled } = read;
  let headOid: string | undefined;
  if ('oid' in head) headOid = head.oid;
  else {
    headOid = refs.get(head.ref);
    if (!headOid) return { ok: false, error: `HEAD names ${head.ref}, which does not exist` };
  }
  const named = new Set([headOid, ...refs.values(), ...peeled]);
  return { ok: true, headRef: 'ref' in head ? head.ref : undefined, headOid, named: [...named] };
}

export interface HeadAndRefs {
  head: { ref: string } | { oid: string };
  /** Every ref (loose over packed) and the object it names; symbolic refs name none. */
  refs: Map<string, string>;
  /** Objects peeled tags in packed-refs name. */
  peeled: string[];
}

/** HEAD, the loose refs under `refs/` and `packed-refs` of a git folder, as data (bounded, no links). */
export function readHeadAndRefs(gitDir: string): HeadAndRefs | { error: string } {
  const top = lstat(gitDir);
  if (!top?.isDirectory()) return { error: 'its git folder is not a folder' };
  const headFile = readBounded(path.join(gitDir, 'HEAD'), HEAD_MAX);
  if ('error' in headFile) return { error: headFile.error };
  if ('absent' in headFile) return { error: 'it has no HEAD' };
  const head = parseHead(headFile.data.toString('utf8'));
  if ('error' in head) return { error: head.error };

  const loose = new Map<string, string>();
  const walked = walkRefs(gitDir, loose);
  if (walked) return { error: walked };
  const packedFile = readBounded(path.join(gitDir, 'packed-refs'), PACKED_REFS_MAX);
  if ('error' in packedFile) return { error: packedFile.error };
  let packed = new Map<string, string>();
  const peeled: string[] = [];
  if ('data' in packedFile) {
    const parsed = parsePackedRefs(packedFile.data.toString('utf8'));
    if ('error' in parsed) return { error: parsed.error };
    packed = parsed.refs;
    peeled.push(...parsed.peeled);
  }
  if (loose.size + packed.size > MAX_REFS) return { error: `it has more than ${MAX_REFS} refs` };
  // The capture helper's own ref, left by a capture that was killed: the work it names is still in the
  // work tree (checked there), and counting it would keep the sandbox forever.
  loose.delete(SNAPSHOT_REF);
  packed.delete(SNAPSHOT_REF);
  return { head, refs: new Map([...packed, ...loose]), peeled };
}

/** Where a parent's refs always save what they reach (saved.ts ALWAYS_SAVING: `--remotes`, `--tags`). */
const SAVING_PREFIXES = ['refs/remotes/', 'refs/tags/'];

/**
 * The commits a parent's remote-tracking refs and tags name, read as data (readRefsUnder; a packed tag's
 * peeled commit too; a symbolic ref is left out, as it names another ref). Each is saved whatever the
 * parent's configuration says, so a sandbox that names nothing else needs no walk (parent-check.ts).
 * Undefined where the answer would not be sure.
 */
export function readSavingTips(gitDir: string): Set<string> | undefined {
  const read = readRefsUnder(gitDir, SAVING_PREFIXES, 'skip');
  return read && new Set([...read.refs.values(), ...read.peeled]);
}

/**
 * The names of a parent's records of its sandboxes (every ref under `refs/worktree-sandbox/`), read as
 * data as `git for-each-ref` lists them; undefined where the answer would not be sure (git lists them).
 */
export function readRecordNames(gitDir: string): string[] | undefined {
  const read = readRefsUnder(gitDir, [`${REF_ROOT}/`], 'unsure');
  return read && [...read.refs.keys()].sort();
}

/**
 * The refs of a repository under `prefixes` (each ending in `/`), read as data the way git's files backend
 * keeps them: a loose ref file over its line in `packed-refs`, and a packed ref's peeled line (`^<oid>`)
 * for the ref just above it. The repository is the host's own (a parent), but the answer is taken only
 * when it is sure: undefined for another ref storage (reftable), a git folder that shares another's refs
 * (`commondir`), a ref that is no plain file, more than MAX_REFS refs, a `packed-refs` that is malformed or
 * past PACKED_REFS_MAX, and a symbolic ref unless `symbolic` says to skip it.
 */
function readRefsUnder(
  gitDir: string,
  prefixes: readonly string[],
  symbolic: 'skip' | 'unsure',
): { refs: Map<string, string>; peeled: string[] } | undefined {
  try {
    return refsUnder(gitDir, prefixes, symbolic);
  } catch {
    return undefined; // a read that failed midway (EIO...): git answers
  }
}

function refsUnder(
  gitDir: string,
  prefixes: readonly string[],
  symbolic: 'skip' | 'unsure',
): { refs: Map<string, string>; peeled: string[] } | undefined {
  if (lstat(path.join(gitDir, 'reftable')) || lstat(path.join(gitDir, 'commondir'))) return undefined;
  const refs = new Map<string, string>();
  const looseNames = new Set<string>();
  for (const prefix of prefixes)
    if (walkRefs(gitDir, refs, prefix.slice(0, -1), looseNames)) return undefined;
  if (symbolic === 'unsure' && looseNames.size !== refs.size) return undefined;
  const peeled: string[] = [];
  const packedFile = readBounded(path.join(gitDir, 'packed-refs'), PACKED_REFS_MAX);
  if ('error' in packedFile) return undefined;
  if ('absent' in packedFile) return { refs, peeled };
  const packed = parsePackedRefs(packedFile.data.toString('utf8'));
  if ('error' in packed || looseNames.size + packed.refs.size > MAX_REFS) return undefined;
  // A packed line counts only where no loose file of that name says otherwise.
  for (const [name, oid] of packed.refs) {
    if (looseNames.has(name) || !prefixes.some((prefix) => name.startsWith(prefix))) continue;
    refs.set(name, oid);
    const commit = packed.peeledOf.get(name);
    if (commit) peeled.push(commit);
  }
  return { refs, peeled };
}

/**
 * Loose refs under `top` (`refs/` unless said) into `found`, and the name of every loose ref file, symbolic
 * ones too, into `fileNames`; returns why they could not be read.
 */
function walkRefs(
  gitDir: string,
  found: Map<string, string>,
  top = 'refs',
  fileNames?: Set<string>,
): string | undefined {
  const pending = [top];
  let seen = 0;
  while (pending.length) {
    const rel = pending.pop()!;
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(path.join(gitDir, rel), { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (rel === top && code === 'ENOENT') return undefined;
      return `cannot list ${rel} (${code})`;
    }
    for (const dirent of names) {
      if (++seen > MAX_REFS) return `it has more than ${MAX_REFS} refs`;
      const name = `${rel}/${dirent.name}`;
      if (dirent.isDirectory()) {
        pending.push(name);
        continue;
      }
      if (!dirent.isFile()) return `${name} is not a regular file (a symbolic link?)`;
      // git's own lock and temporary files are not refs.
      if (dirent.name.endsWith('.lock')) continue;
      const file = readBounded(path.join(gitDir, name), LOOSE_REF_MAX);
      if ('error' in file) return file.error;
      if ('absent' in file) continue;
      const ref = parseLooseRef(file.data.toString('utf8'));
      if ('error' in ref) return `${name}: ${ref.error}`;
      fileNames?.add(name);
      if ('oid' in ref) found.set(name, ref.oid);
    }
  }
  return undefined;
}

/** Where activity shows in a sandbox's git folder (besides the work tree folder itself). */
export const ACTIVITY_FILES = ['index', 'HEAD', 'logs/HEAD'] as const;

export interface ActivityReading {
  times: Array<number | undefined>;
  /** A signal that is a symbolic link (or no regular file): suspicious, the sandbox is kept. */
  suspicious?: string;
}

/**
 * The mtimes of the work tree folder and of its git folder's index, HEAD and HEAD's reflog (lstat only).
 * The git folder is `<work tree>/.git`, or a linked worktree's registration in its parent.
 */
export function diskActivity(worktree: string, gitDir = path.join(worktree, '.git')): ActivityReading {
  const times: Array<number | undefined> = [lstat(worktree)?.mtimeMs];
  let suspicious: string | undefined;
  const shown = gitDir === path.join(worktree, '.git') ? '.git' : 'its registration';
  for (const file of ACTIVITY_FILES) {
    const st = lstat(path.join(gitDir, file));
    if (!st) continue;
    if (!st.isFile()) suspicious ??= `${shown}/${file} is not a regular file (a symbolic link?)`;
    else times.push(st.mtimeMs);
  }
  return { times, suspicious };
}

/** Operations that leave work half-done in a git folder. */
const IN_PROGRESS: ReadonlyArray<[string, string]> = [
  ['MERGE_HEAD', 'a merge'],
  ['CHERRY_PICK_HEAD', 'a cherry-pick'],
  ['REVERT_HEAD', 'a revert'],
  ['rebase-merge', 'a rebase'],
  ['rebase-apply', 'a rebase or am'],
  ['sequencer', 'a sequence of picks'],
  ['BISECT_LOG', 'a bisect'],
];
export const OPERATION_MARKS = IN_PROGRESS.map(([name]) => name);

export function describeOperation(mark: string): string | undefined {
  const what = IN_PROGRESS.find(([name]) => name === mark)?.[1];
  return what && `${what} is in progress`;
}

/** The operation in progress (merge, rebase...), from the marks it leaves in the git folder (lstat). */
export function operationInProgress(gitDir: string): string | undefined {
  for (const [name] of IN_PROGRESS) if (lstat(path.join(gitDir, name))) return describeOperation(name);
  return undefined;
}

/** What lstat says of `p`; undefined where it is missing or cannot be read. */
export function lstat(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
