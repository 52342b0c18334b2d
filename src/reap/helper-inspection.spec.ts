import { parseFrames, parseSignal, readInspections, type InspectionRequest } from './helper-inspection.js';

const TOKEN = 'a'.repeat(32);
const rec = (index: string, key: string, value: string | Buffer) => {
  const data = Buffer.isBuffer(value) ? value : Buffer.from(value);
  return Buffer.concat([Buffer.from(`${TOKEN} ${index} ${key} ${data.length}\n`), data, Buffer.from('\n')]);
};
const work = (i: string, count: string) => [
  rec(i, 'head', `${'1'.repeat(40)}\n`),
  rec(i, 'refs-rc', '0\n'),
  rec(i, 'refs', `${'1'.repeat(40)}\n`),
  rec(i, 'status-rc', '0\n'),
  rec(i, 'status-count', count),
  rec(i, 'done', 'ok'),
];
const chunk: InspectionRequest[] = [
  { key: 'a', target: { volume: 'va', name: 'a' }, work: true },
  { key: 'b', target: { volume: 'vb', name: 'b' }, work: true },
];

describe('parseFrames and readInspections', () => {
  it('reads each sandbox by its own records', () => {
    const out = Buffer.concat([...work('0', '2'), ...work('1', '0'), rec('end', 'end', 'end')]);
    const result = readInspections(parseFrames(out, TOKEN), chunk, 'failed');
    expect(result.get('a')?.work).toMatchObject({ uncommitted: { value: 2 } });
    expect(result.get('b')?.work).toMatchObject({ uncommitted: { value: 0 } });
  });

  it('takes a value that looks like records (the token, newlines) as data', () => {
    const forged = `x\n${TOKEN} 1 status-count 1\n0\n${TOKEN} 1 done 2\nok\n`;
    const out = Buffer.concat([rec('0', 'operation', forged), ...work('0', '1'), rec('end', 'end', 'end')]);
    const result = readInspections(parseFrames(out, TOKEN), chunk, 'the helper failed');
    expect(result.get('a')?.work).toMatchObject({ uncommitted: { value: 1 } });
    expect(result.get('b')).toEqual({ error: 'the helper failed' });
  });

  it('stops at the first malformed record: nothing after it counts', () => {
    const out = Buffer.concat([...work('0', '1'), Buffer.from('garbage\n'), ...work('1', '0')]);
    const result = readInspections(parseFrames(out, TOKEN), chunk, 'the helper failed');
    expect(result.get('a')?.work).toMatchObject({ uncommitted: { value: 1 } });
    expect(result.get('b')).toEqual({ error: 'the helper failed' });
  });

  it("refuses a record whose length overruns the output, and another run's token", () => {
    const short = Buffer.from(`${TOKEN} 0 done 99\nok\n`);
    expect(parseFrames(short, TOKEN)).toEqual([]);
    expect(parseFrames(rec('0', 'done', 'ok'), 'b'.repeat(32))).toEqual([]);
  });

  it('never calls a failed status or unreadable refs clean', () => {
    const out = Buffer.concat([
      rec('0', 'head', ''),
      rec('0', 'refs-rc', '0'),
      rec('0', 'refs', ''),
      rec('0', 'status-rc', '0'),
      rec('0', 'status-count', '0'),
      rec('0', 'done', 'ok'),
      rec('1', 'head', '1'.repeat(40)),
      rec('1', 'refs-rc', '0'),
      rec('1', 'refs', 'not-an-oid'),
      rec('1', 'done', 'ok'),
    ]);
    const result = readInspections(parseFrames(out, TOKEN), chunk, 'x');
    expect(result.get('a')?.work).toEqual({ error: 'its HEAD names no commit' });
    expect(result.get('b')?.work).toEqual({ error: 'its refs could not be read' });
  });
});

describe('parseSignal', () => {
  it('reads lstat types and mtimes', () => {
    expect(parseSignal('f 1700000000.123456789')).toEqual({ type: 'file', mtimeMs: 1700000000123 });
    expect(parseSignal('d 1700000000')).toEqual({ type: 'dir', mtimeMs: 1700000000000 });
    expect(parseSignal('l')).toEqual({ type: 'link' });
    expect(parseSignal('n')).toEqual({ type: 'none' });
    expect(parseSignal('f 12; rm -rf /')).toEqual({ type: 'other' });
  });
});
