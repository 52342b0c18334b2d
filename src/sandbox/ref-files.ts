// A repository's refs read from its files as data, the way git's files backend keeps them: a loose ref
// file (`<git folder>/refs/...`) over its line in `packed-refs`. Bounded, and never through a symbolic
// link: the reaper reads sandboxes' git folders with these (a container wrote them), and the host reads
// a parent's own refs with them where the answer is sure, instead of starting git. Anything unexpected
// (another ref storage, a symbolic ref, a malformed `packed-refs`) leaves the answer to git.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { OID } from '../engine/git.js';

/** A ref name as git writes them (no spaces, no control characters, no `..` component). */
const REF_NAME = /^refs\/(?:[^\s\0\\/:?*[~^]+\/)*[^\s\0\\/:?*[~^]+$/;

export const LOOSE_REF_MAX = 1024;
/** `packed-refs` larger than this is not read to look up a few refs: git answers. */
const PACKED_LOOKUP_MAX = 1024 * 1024;

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

/** One ref looked up in the files: its object name, surely none, or why the files cannot say. */
type RefLookup = { oid: string } | { absent: true } | { unsure: string };

/**
 * Each of `refs` looked up: a loose ref file over its line in `packed-refs` (read only when some ref has
 * no loose file, and only within PACKED_LOOKUP_MAX). A ref is surely absent only where the repository
 * keeps its refs in these files (no reftable, no `commondir` naming another folder's refs).
 */
function lookUpRefs(gitDir: string, refs: readonly string[]): Map<string, RefLookup> {
  const found = new Map<string, RefLookup>();
  const other = ['reftable', 'commondir'].find((name) => fs.existsSync(path.join(gitDir, name)));
  const unpacked: string[] = [];
  for (const ref of refs) {
    if (!REF_NAME.test(ref) || ref.split('/').includes('..')) {
      found.set(ref, { unsure: 'not a ref name' });
      continue;
    }
    const file = readBounded(path.join(gitDir, ref), LOOSE_REF_MAX);
    if ('absent' in file) unpacked.push(ref);
    else if ('error' in file) found.set(ref, { unsure: file.error });
    else {
      const loose = parseLooseRef(file.data.toString('utf8'));
      found.set(ref, 'oid' in loose ? { oid: loose.oid } : { unsure: 'not an object name' });
    }
  }
  if (!unpacked.length) return found;
  const packedFile = readBounded(path.join(gitDir, 'packed-refs'), PACKED_LOOKUP_MAX);
  const packed = 'data' in packedFile ? parsePackedRefs(packedFile.data.toString('utf8')) : undefined;
  for (const ref of unpacked) {
    const oid = packed && !('error' in packed) ? packed.refs.get(ref) : undefined;
    if (oid) found.set(ref, { oid });
    else if (other) found.set(ref, { unsure: `the repository has a ${other}` });
    else if ('absent' in packedFile || (packed && !('error' in packed))) found.set(ref, { absent: true });
    else found.set(ref, { unsure: 'packed-refs cannot be read' });
  }
  return found;
}

/**
 * The objects some of a repository's refs name, read as data: only the answers that are sure. A ref found
 * neither way, or found as anything but an object name (a symbolic ref, a folder, a link, a `packed-refs`
 * with a malformed line or past PACKED_LOOKUP_MAX, another ref storage) is left out, for git to answer.
 */
export function readRefTips(gitDir: string, refs: readonly string[]): Map<string, string> {
  const tips = new Map<string, string>();
  for (const [ref, found] of lookUpRefs(gitDir, refs)) if ('oid' in found) tips.set(ref, found.oid);
  return tips;
}

/**
 * The objects `refs` name, each ref that exists in the map; undefined unless every answer is sure (the
 * absence of a ref included): then git answers. The object's type is not known here.
 */
export function readRefsAsData(gitDir: string, refs: readonly string[]): Map<string, string> | undefined {
  const tips = new Map<string, string>();
  try {
    for (const [ref, found] of lookUpRefs(gitDir, refs)) {
      if ('unsure' in found) return undefined;
      if ('oid' in found) tips.set(ref, found.oid);
    }
  } catch {
    return undefined; // a read that failed midway (EIO...): git answers
  }
  return tips;
}
