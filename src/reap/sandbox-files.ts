// A sandbox's git folder read as data by the host: HEAD, every ref (loose and packed), the activity
// signals and the marks of an operation left half-done. A container wrote all of it, so nothing here
// runs git, follows a symbolic link or reads more than a bound: a file is opened with O_NOFOLLOW, checked
// to be a regular file, and read up to its limit. Anything unexpected is an error, which the checks
// turn into "keep".
import { OID } from '../engine/git.js';
import { SNAPSHOT_REF } from '../run/capture.js';
import { REF_ROOT } from '../sandbox/bookkeeping.js';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A ref name as git writes them (no spaces, no control characters, no `..` component). */
const REF_NAME = /^refs\/(?:[^\s\0\\/:?*[~^]+\/)*[^\s\0\\/:?*[~^]+$/;

const HEAD_MAX = 1024;
const LOOSE_REF_MAX = 1024;
export const PACKED_REFS_MAX = 32 * 1024 * 1024;
/** More refs than this (a ref bomb) and the sandbox is kept without a closer look. */
export const MAX_REFS = 20_000;

export type HeadReading = { ref: string } | { oid: string } | { error: string };

/** HEAD's content: `ref: refs/...` or a commit name. */
export function parseHead(text: string): HeadReading {
  const line = text.replace(/\n$/, '');
  if (OID.test(line)) return { oid: line };
  const ref = /^ref: (.+)$/.exec(line)?.[1];
  if (ref && REF_NAME.test(ref) && !ref.split('/').includes('..')) return { ref };
  return { error: `HEAD is neither a commit nor a ref: ${JSON.stringify(line.slice(0, 80))}` };
}

/** A loose ref file: an object name, or a symbolic ref (`ref: ...`), which names no object itself. */
export function parseLooseRef(text: string): { oid: string } | { symbolic: string } | { error: string } {
  const head = parseHead(text);
  if ('oid' in head) return head;
  if ('ref' in head) return { symbolic: head.ref };
  return { error: 'a ref file holds neither an object name nor a ref' };
}

/**
 * `packed-refs`: `<oid> <name>` lines, `^<oid>` for a peeled tag (the ref just above it: `peeledOf`),
 * `#` comments.
 */
export function parsePackedRefs(
  text: string,
): { refs: Map<string, string>; peeled: string[]; peeledOf: Map<string, string> } | { error: string } {
  const refs = new Map<string, string>();
  const peeled: string[] = [];
  const peeledOf = new Map<string, string>();
  let last: string | undefined;
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    if (line.startsWith('^')) {
      if (!OID.test(line.slice(1))) return { error: 'packed-refs has a malformed line' };
      peeled.push(line.slice(1));
      if (last !== undefined) peeledOf.set(last, line.slice(1));
      continue;
    }
    const space = line.indexOf(' ');
    const oid = line.slice(0, space);
    const name = line.slice(space + 1);
    if (space < 0 || !OID.test(oid) || !REF_NAME.test(name))
      return { error: 'packed-refs has a malformed line' };
    refs.set(name, oid);
    last = name;
  }
  return { refs, peeled, peeledOf };
}

export type FileReading = { data: Buffer } | { absent: true } | { error: string };

/** A regular file, never through a symbolic link, at most `max` bytes (more: an error). */
export function readBounded(file: string, max: number): FileReading {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { absent: true };
    if (code === 'ELOOP') return { error: `${path.basename(file)} is a symbolic link` };
    return { error: `cannot read ${path.basename(file)} (${code})` };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { error: `${path.basename(file)} is not a regular file` };
    if (st.size > max) return { error: `${path.basename(file)} is larger than ${max} bytes` };
    const data = Buffer.alloc(st.size);
    let read = 0;
    while (read < st.size) {
      const n = fs.readSync(fd, data, read, st.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return { data: data.subarray(0, read) };
  } finally {
    fs.closeSync(fd);
  }
}

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

/** `packed-refs` larger than this is not read for a few branches: git answers (linked-worktree.ts). */
const PACKED_LOOKUP_MAX = 1024 * 1024;

/**
 * The commits some of a repository's refs name, read as data the way git's files backend keeps them: a
 * loose ref file over its line in `packed-refs` (parsePackedRefs). Only the answers that are sure: a ref
 * found neither way, or found as anything but an object name (a symbolic ref, a folder, a link, a
 * `packed-refs` with a malformed line or past PACKED_LOOKUP_MAX, another ref storage) is left out, for git
 * to answer.
 */
export function readRefTips(gitDir: string, refs: readonly string[]): Map<string, string> {
  const tips = new Map<string, string>();
  const unpacked = new Set<string>();
  for (const ref of refs) {
    if (!REF_NAME.test(ref) || ref.split('/').includes('..')) continue;
    const file = readBounded(path.join(gitDir, ref), LOOSE_REF_MAX);
    if ('absent' in file) unpacked.add(ref);
    else if ('data' in file) {
      const loose = parseLooseRef(file.data.toString('utf8'));
      if ('oid' in loose) tips.set(ref, loose.oid);
    }
  }
  if (!unpacked.size) return tips;
  const packedFile = readBounded(path.join(gitDir, 'packed-refs'), PACKED_LOOKUP_MAX);
  const packed = 'data' in packedFile ? parsePackedRefs(packedFile.data.toString('utf8')) : undefined;
  if (!packed || 'error' in packed) return tips;
  for (const ref of unpacked) {
    const oid = packed.refs.get(ref);
    if (oid) tips.set(ref, oid);
  }
  return tips;
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

export function lstat(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
