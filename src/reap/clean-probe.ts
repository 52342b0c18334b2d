// The filesystem fast path of the check for work: proves that a worktree is clean without starting git,
// or says why it cannot (then git decides, in a helper container). It proves "clean" only when:
//  - the index's cache tree is complete and names HEAD's tree (nothing staged);
//  - every index entry is an ordinary file or link whose stat data still matches what git cached (with
//    ctime and inode, stricter than git itself), or whose content hashes to the blob in the index;
//  - no file or folder exists that the index does not list; where some do (and everything listed is
//    clean), they are returned, for the caller to judge with the parent's ignore rules (ignored.ts).
// It never writes anything, so it cannot reset the activity clock it is part of.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readBounded } from '../sandbox/sandbox-files.js';
import { createHash } from 'node:crypto';

export type CleanProof =
  | { clean: true }
  | {
      clean: false;
      unsure: string;
      /** Set when everything the index lists is clean, and only these entries are not listed. */
      untracked?: UntrackedEntries;
    };

export interface UntrackedEntries {
  unlisted: Unlisted[];
  /** The index's `.gitignore` files: folder (`''` for the top) → blob name. */
  gitignores: Map<string, string>;
}

/** An entry of the work tree that the index does not list (relative path). */
export interface Unlisted {
  rel: string;
  isDir: boolean;
}

/** Unlisted entries collected before the fast path leaves the decision to git. */
const UNLISTED_MAX = 200;

/** An index larger than this is left to git. */
const INDEX_MAX = 512 * 1024 * 1024;
/** Files larger than this are not hashed by the fast path: git decides. */
const HASH_LIMIT = 8 * 1024 * 1024;
const NS = 1_000_000_000n;

const REGULAR = 0o100000;
const SYMLINK = 0o120000;

const NOT_HEAD = 'the index does not match HEAD as a whole';

/** A proof made against the index's own tree (`rootTree`), when the index records one. */
export interface IndexProof {
  proof: CleanProof;
  rootTree?: string;
}

/**
 * `gitDir` is the sandbox's own `.git` folder: its index is read as data (never through a link), and the
 * work tree is walked before any file in it is read, so that a folder replaced by a link is caught
 * before anything is read through it.
 */
export function proveClean(worktree: string, gitDir: string, headTree: string): CleanProof {
  return matchHeadTree(proveAgainstIndex(worktree, gitDir, headTree.length / 2), headTree);
}

/** A proof made against the index's tree (proveAgainstIndex), as it stands once HEAD's tree is known. */
export function matchHeadTree({ proof, rootTree }: IndexProof, headTree: string): CleanProof {
  if (rootTree !== undefined && rootTree !== headTree) return { clean: false, unsure: NOT_HEAD };
  return proof;
}

/**
 * The same proof before HEAD's tree is known: against the tree the index records for the whole (its
 * cache tree), returned as `rootTree` when the proof got that far. It proves anything only where the
 * caller finds `rootTree` to be HEAD's tree (proveClean). This lets a reap walk its sandboxes first, and
 * ask the parent for HEAD's tree and the `.gitignore` files that the walk found needed in one git process.
 */
export function proveAgainstIndex(worktree: string, gitDir: string, hashBytes: number): IndexProof {
  const unsure = (why: string) => ({ proof: { clean: false as const, unsure: why } });
  const indexFile = path.join(gitDir, 'index');
  const read = readBounded(indexFile, INDEX_MAX);
  if ('absent' in read) return unsure('there is no index');
  if ('error' in read) return unsure(read.error);
  const indexMtime = fs.lstatSync(indexFile, { bigint: true }).mtimeNs;
  const reading = parseIndex(read.data, hashBytes);
  if (!reading.ok) return unsure(reading.unsupported);
  const { entries, rootTree } = reading.index;
  if (rootTree === undefined) return unsure(NOT_HEAD);
  return { proof: walkAgainstIndex(worktree, entries, indexMtime, hashBytes), rootTree };
}

function walkAgainstIndex(
  worktree: string,
  entries: readonly IndexEntry[],
  indexMtime: bigint,
  hashBytes: number,
): CleanProof {
  const unsure = (why: string): CleanProof => ({ clean: false, unsure: why });
  const tracked = new Set<string>();
  const folders = new Set<string>();
  for (const entry of entries) {
    if (!safeEntryPath(entry.path))
      return unsure(`the index lists a path git would refuse: ${JSON.stringify(entry.path)}`);
    tracked.add(entry.path);
    for (let dir = path.posix.dirname(entry.path); dir !== '.'; dir = path.posix.dirname(dir)) {
      if (folders.has(dir)) break;
      folders.add(dir);
    }
  }
  for (const dir of folders)
    if (tracked.has(dir)) return unsure(`${dir} is both a file and a folder in the index`);
  const listing = unlistedEntries(worktree, tracked, folders);
  if (typeof listing === 'string') return unsure(listing);
  for (const entry of entries) {
    const problem = entryProblem(worktree, entry, indexMtime, hashBytes);
    if (problem) return unsure(`${entry.path}: ${problem}`);
  }
  if (listing.length === 0) return { clean: true };
  const gitignores = new Map<string, string>();
  for (const entry of entries)
    if (path.posix.basename(entry.path) === '.gitignore') {
      const dir = path.posix.dirname(entry.path);
      gitignores.set(dir === '.' ? '' : dir, entry.oid);
    }
  return {
    clean: false,
    unsure: `${listing[0].rel} is not in the index`,
    untracked: { unlisted: listing, gitignores },
  };
}

/** A relative path with no empty, `.`, `..` or `.git` component (git refuses such index entries). */
function safeEntryPath(p: string): boolean {
  return p
    .split('/')
    .every((part) => part !== '' && part !== '.' && part !== '..' && part.toLowerCase() !== '.git');
}

function entryProblem(worktree: string, entry: IndexEntry, indexMtime: bigint, hashBytes: number) {
  if (entry.stage !== 0) return 'a conflict';
  if (entry.special) return 'flagged assume-valid, skip-worktree or intent-to-add';
  const type = entry.mode & 0o170000;
  if (type !== REGULAR && type !== SYMLINK) return 'not a plain file or link (a submodule?)';
  const file = path.join(worktree, entry.path);
  let st: fs.BigIntStats;
  try {
    st = fs.lstatSync(file, { bigint: true });
  } catch {
    return 'missing';
  }
  if (type === SYMLINK ? !st.isSymbolicLink() : !st.isFile()) return 'changed type';
  if (type === REGULAR && (st.mode & 0o100n ? 0o100755 : 0o100644) !== entry.mode) return 'mode changed';
  if (st.size !== BigInt(entry.size)) return 'size changed';
  const racy = at(entry.mtimeSec, entry.mtimeNsec) >= indexMtime;
  if (!racy && statMatches(st, entry)) return undefined;
  // Stat data moved (a copy, a touch) or is too close to the index write to trust: compare content.
  if (st.size > BigInt(HASH_LIMIT)) return 'changed stat data on a large file';
  // Read as data, never through a link and never blocking: the file may have been swapped for a FIFO
  // since the lstat above (opening one for reading waits for a writer forever).
  let content: Buffer;
  if (type === SYMLINK) {
    try {
      content = Buffer.from(fs.readlinkSync(file, 'buffer'));
    } catch {
      return 'unreadable';
    }
  } else {
    const read = readBounded(file, HASH_LIMIT);
    if (!('data' in read)) return 'unreadable';
    content = read.data;
  }
  return blobName(content, hashBytes) === entry.oid ? undefined : 'content changed';
}

function at(sec: number, nsec: number): bigint {
  return BigInt(sec) * NS + BigInt(nsec);
}

/** git's own comparison plus ctime and inode; nanoseconds where the index has them. */
function statMatches(st: fs.BigIntStats, entry: IndexEntry): boolean {
  const same = (ns: bigint, sec: number, nsec: number) =>
    nsec === 0 ? ns / NS === BigInt(sec) : ns === at(sec, nsec);
  return (
    same(st.mtimeNs, entry.mtimeSec, entry.mtimeNsec) &&
    same(st.ctimeNs, entry.ctimeSec, entry.ctimeNsec) &&
    BigInt.asUintN(32, st.ino) === BigInt(entry.ino) &&
    Number(st.uid) === entry.uid &&
    Number(st.gid) === entry.gid
  );
}

/**
 * The files and folders (relative paths) that the index does not account for, walking only the folders
 * it lists; or why the fast path stops here (a listed folder that is no folder any more, too many).
 */
function unlistedEntries(worktree: string, tracked: Set<string>, folders: Set<string>): Unlisted[] | string {
  const found: Unlisted[] = [];
  const pending = [''];
  while (pending.length) {
    const dir = pending.pop()!;
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(dir ? path.join(worktree, dir) : worktree, { withFileTypes: true });
    } catch {
      return `${dir || '.'} cannot be listed`;
    }
    for (const dirent of names) {
      const rel = dir ? `${dir}/${dirent.name}` : dirent.name;
      if (rel === '.git' || tracked.has(rel)) continue;
      if (folders.has(rel)) {
        if (!dirent.isDirectory()) return `${rel} is not in the index`;
        pending.push(rel);
        continue;
      }
      if (/[\n\r\0]/.test(rel)) return `${JSON.stringify(rel)} is not in the index`;
      found.push({ rel, isDir: dirent.isDirectory() });
      if (found.length > UNLISTED_MAX) return `more than ${UNLISTED_MAX} entries are not in the index`;
    }
  }
  return found;
}

// A reader for git's index file (versions 2 and 3), enough to tell from the filesystem alone that a
// worktree is clean: the stat data git cached for each file, and the cache tree's root (the tree the
// index would write). Anything unusual (version 4, split or sparse index, required extensions, a bad
// checksum) is reported as unsupported, and the caller asks git instead.
export interface IndexEntry {
  path: string;
  ctimeSec: number;
  ctimeNsec: number;
  mtimeSec: number;
  mtimeNsec: number;
  ino: number;
  mode: number;
  uid: number;
  gid: number;
  size: number;
  oid: string;
  stage: number;
  /** assume-valid, skip-worktree or intent-to-add: git would not compare the file as usual. */
  special: boolean;
}

export interface GitIndex {
  version: number;
  entries: IndexEntry[];
  /** The cache tree's root (hex); undefined when absent or invalidated by a change not yet written. */
  rootTree?: string;
}

export type IndexReading = { ok: true; index: GitIndex } | { ok: false; unsupported: string };

const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const STAGE_MASK = 0x3000;
const NAME_MASK = 0x0fff;

/** Parses an index whose object names are `hashBytes` long (20 for SHA-1, 32 for SHA-256). */
export function parseIndex(buf: Buffer, hashBytes = 20): IndexReading {
  const fail = (why: string): IndexReading => ({ ok: false, unsupported: why });
  if (buf.length < 12 + hashBytes || buf.toString('latin1', 0, 4) !== 'DIRC')
    return fail('not an index file');
  const version = buf.readUInt32BE(4);
  if (version !== 2 && version !== 3) return fail(`index version ${version}`);
  const end = buf.length - hashBytes;
  if (!checksumOk(buf, end, hashBytes)) return fail('index checksum mismatch');
  const count = buf.readUInt32BE(8);
  const entries: IndexEntry[] = [];
  let off = 12;
  for (let i = 0; i < count; i++) {
    const fixed = 40 + hashBytes + 2;
    if (off + fixed > end) return fail('truncated entry');
    const flags = buf.readUInt16BE(off + 40 + hashBytes);
    let nameStart = off + fixed;
    let special = (flags & ASSUME_VALID) !== 0;
    if (flags & EXTENDED) {
      if (version < 3) return fail('extended flags in a version 2 index');
      special = special || buf.readUInt16BE(nameStart) !== 0;
      nameStart += 2;
    }
    let nameLength = flags & NAME_MASK;
    if (nameLength === NAME_MASK) nameLength = buf.indexOf(0, nameStart) - nameStart;
    if (nameLength < 0 || nameStart + nameLength > end) return fail('truncated entry name');
    entries.push({
      ctimeSec: buf.readUInt32BE(off),
      ctimeNsec: buf.readUInt32BE(off + 4),
      mtimeSec: buf.readUInt32BE(off + 8),
      mtimeNsec: buf.readUInt32BE(off + 12),
      ino: buf.readUInt32BE(off + 20),
      mode: buf.readUInt32BE(off + 24),
      uid: buf.readUInt32BE(off + 28),
      gid: buf.readUInt32BE(off + 32),
      size: buf.readUInt32BE(off + 36),
      oid: buf.toString('hex', off + 40, off + 40 + hashBytes),
      stage: (flags & STAGE_MASK) >> 12,
      special,
      path: buf.toString('utf8', nameStart, nameStart + nameLength),
    });
    // Entries are NUL-padded to a multiple of 8 bytes (at least one NUL).
    off += (nameStart - off + nameLength + 8) & ~7;
  }
  let rootTree: string | undefined;
  while (off + 8 <= end) {
    const signature = buf.toString('latin1', off, off + 4);
    const size = buf.readUInt32BE(off + 4);
    const data = off + 8;
    if (data + size > end) return fail(`truncated extension ${signature}`);
    if (signature === 'TREE') rootTree = cacheTreeRoot(buf.subarray(data, data + size), hashBytes);
    // Extensions whose signature starts with A-Z are optional; any other one changes how to read the index.
    else if (!/^[A-Z]/.test(signature)) return fail(`index extension ${JSON.stringify(signature)}`);
    off = data + size;
  }
  if (off !== end) return fail('trailing bytes');
  return { ok: true, index: { version, entries, rootTree } };
}

function checksumOk(buf: Buffer, end: number, hashBytes: number): boolean {
  const stored = buf.subarray(end);
  if (stored.every((b) => b === 0)) return true; // index.skipHash
  const algorithm = hashBytes === 32 ? 'sha256' : 'sha1';
  return createHash(algorithm).update(buf.subarray(0, end)).digest().equals(stored);
}

/** The first cache-tree record is the root: path "", entry count, subtree count, then its tree name. */
function cacheTreeRoot(data: Buffer, hashBytes: number): string | undefined {
  const nul = data.indexOf(0);
  const newline = data.indexOf(0x0a, nul + 1);
  if (nul !== 0 || newline < 0) return undefined;
  const [entryCount] = data.toString('latin1', nul + 1, newline).split(' ');
  if (Number(entryCount) < 0 || newline + 1 + hashBytes > data.length) return undefined;
  return data.toString('hex', newline + 1, newline + 1 + hashBytes);
}

/** The name git gives a blob with this content. */
export function blobName(content: Buffer, hashBytes = 20): string {
  const hash = createHash(hashBytes === 32 ? 'sha256' : 'sha1');
  hash.update(`blob ${content.length}\0`);
  hash.update(content);
  return hash.digest('hex');
}
