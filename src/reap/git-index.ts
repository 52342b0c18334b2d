// A reader for git's index file (versions 2 and 3), enough to tell from the filesystem alone that a
// worktree is clean: the stat data git cached for each file, and the cache tree's root (the tree the
// index would write). Anything unusual (version 4, split or sparse index, required extensions, a bad
// checksum) is reported as unsupported, and the caller asks git instead.
import { createHash } from 'node:crypto';

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
