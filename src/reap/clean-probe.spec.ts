import { createHash } from 'node:crypto';
import { blobName, parseIndex } from './clean-probe.js';

interface Spec {
  path: string;
  mode?: number;
  size?: number;
  stage?: number;
  assumeValid?: boolean;
  extended?: number;
}

const OID = 'ab'.repeat(20);
const TREE = 'cd'.repeat(20);

/** Encodes an index the way git writes one (version 2 or 3, SHA-1), with an optional cache tree. */
function encode(specs: Spec[], options: { version?: number; tree?: string | null; ext?: Buffer[] } = {}) {
  const version = options.version ?? 2;
  const parts: Buffer[] = [];
  const header = Buffer.alloc(12);
  header.write('DIRC', 0, 'latin1');
  header.writeUInt32BE(version, 4);
  header.writeUInt32BE(specs.length, 8);
  parts.push(header);
  for (const spec of specs) {
    const name = Buffer.from(spec.path);
    const ext = spec.extended !== undefined;
    const fixed = 62 + (ext ? 2 : 0);
    const length = (fixed + name.length + 8) & ~7;
    const entry = Buffer.alloc(length);
    [1, 2, 3, 4, 0, 77, spec.mode ?? 0o100644, 1000, 1000, spec.size ?? 5].forEach((v, i) =>
      entry.writeUInt32BE(v, i * 4),
    );
    Buffer.from(OID, 'hex').copy(entry, 40);
    let flags = Math.min(name.length, 0xfff) | ((spec.stage ?? 0) << 12);
    if (spec.assumeValid) flags |= 0x8000;
    if (ext) flags |= 0x4000;
    entry.writeUInt16BE(flags, 60);
    if (ext) entry.writeUInt16BE(spec.extended!, 62);
    name.copy(entry, fixed);
    parts.push(entry);
  }
  if (options.tree !== null) {
    const tree = options.tree ?? TREE;
    const count = tree === 'invalid' ? '-1' : String(specs.length);
    const record = Buffer.concat([
      Buffer.from(`\0${count} 0\n`, 'latin1'),
      tree === 'invalid' ? Buffer.alloc(0) : Buffer.from(tree, 'hex'),
    ]);
    const head = Buffer.alloc(8);
    head.write('TREE', 0, 'latin1');
    head.writeUInt32BE(record.length, 4);
    parts.push(head, record);
  }
  for (const ext of options.ext ?? []) parts.push(ext);
  const body = Buffer.concat(parts);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

function extension(signature: string, data = Buffer.alloc(4)): Buffer {
  const head = Buffer.alloc(8);
  head.write(signature, 0, 'latin1');
  head.writeUInt32BE(data.length, 4);
  return Buffer.concat([head, data]);
}

describe('parseIndex', () => {
  it('reads entries, their stat data and the cache tree root', () => {
    const reading = parseIndex(encode([{ path: 'README.md' }, { path: 'src/a b/é.ts', mode: 0o100755 }]));
    if (!reading.ok) throw new Error(reading.unsupported);
    const { entries, rootTree, version } = reading.index;
    expect(version).toBe(2);
    expect(rootTree).toBe(TREE);
    expect(entries.map((e) => e.path)).toEqual(['README.md', 'src/a b/é.ts']);
    expect(entries[1]).toMatchObject({
      ctimeSec: 1,
      ctimeNsec: 2,
      mtimeSec: 3,
      mtimeNsec: 4,
      ino: 77,
      mode: 0o100755,
      size: 5,
      oid: OID,
      stage: 0,
      special: false,
    });
  });

  it('reads entries whose name length fills the padding exactly', () => {
    for (let n = 1; n <= 17; n++) {
      const reading = parseIndex(encode([{ path: 'x'.repeat(n) }, { path: 'y' }]));
      expect(reading.ok && reading.index.entries.map((e) => e.path)).toEqual(['x'.repeat(n), 'y']);
    }
  });

  it('reads a path longer than 4095 bytes', () => {
    const long = `${'d/'.repeat(2100)}f`;
    const reading = parseIndex(encode([{ path: long }]));
    expect(reading.ok && reading.index.entries[0].path).toBe(long);
  });

  it('has no root tree when the cache tree is invalidated or absent', () => {
    const invalid = parseIndex(encode([{ path: 'a' }], { tree: 'invalid' }));
    const absent = parseIndex(encode([{ path: 'a' }], { tree: null }));
    expect(invalid.ok && invalid.index.rootTree).toBeUndefined();
    expect(absent.ok && absent.index.rootTree).toBeUndefined();
  });

  it('reports conflicts and special flags (assume-valid, skip-worktree, intent-to-add)', () => {
    const reading = parseIndex(
      encode(
        [
          { path: 'a', stage: 2 },
          { path: 'b', assumeValid: true },
          { path: 'c', extended: 0x4000 },
          { path: 'd', extended: 0 },
        ],
        { version: 3 },
      ),
    );
    if (!reading.ok) throw new Error(reading.unsupported);
    expect(reading.index.entries.map((e) => [e.path, e.stage, e.special])).toEqual([
      ['a', 2, false],
      ['b', 0, true],
      ['c', 0, true],
      ['d', 0, false],
    ]);
  });

  it('skips optional extensions and refuses required ones (split or sparse index)', () => {
    expect(parseIndex(encode([{ path: 'a' }], { ext: [extension('REUC'), extension('UNTR')] })).ok).toBe(
      true,
    );
    expect(parseIndex(encode([{ path: 'a' }], { ext: [extension('link')] }))).toEqual({
      ok: false,
      unsupported: 'index extension "link"',
    });
    expect(parseIndex(encode([{ path: 'a' }], { ext: [extension('sdir')] })).ok).toBe(false);
  });

  it('refuses version 4, a corrupt file and a bad checksum', () => {
    expect(parseIndex(encode([{ path: 'a' }], { version: 4 }))).toEqual({
      ok: false,
      unsupported: 'index version 4',
    });
    expect(parseIndex(Buffer.from('not an index at all, no'))).toMatchObject({ ok: false });
    const corrupt = encode([{ path: 'a' }]);
    corrupt[20] ^= 0xff;
    expect(parseIndex(corrupt)).toEqual({ ok: false, unsupported: 'index checksum mismatch' });
    expect(parseIndex(encode([{ path: 'a' }]).subarray(0, 40))).toMatchObject({ ok: false });
  });

  it('accepts an index written without a checksum (index.skipHash)', () => {
    const index = encode([{ path: 'a' }]);
    index.fill(0, index.length - 20);
    expect(parseIndex(index).ok).toBe(true);
  });
});

describe('blobName', () => {
  it('names content as git hash-object does', () => {
    // `printf 'hello\n' | git hash-object --stdin`
    expect(blobName(Buffer.from('hello\n'))).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    expect(blobName(Buffer.alloc(0))).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
  });
});
