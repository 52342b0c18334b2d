import { parseFrames } from '../engine/helper-frames.js';
import { inspectIsolating, type ChunkAnswer } from './helper-inspection.js';
import {
  OUTPUT_PER_SANDBOX,
  parseSignal,
  readInspections,
  type Inspection,
  type InspectionRequest,
} from './inspection-script.js';

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

describe('inspectIsolating: one sandbox never takes the others with it', () => {
  const requests = (n: number): InspectionRequest[] =>
    Array.from({ length: n }, (_, i) => ({ key: `s${i}`, target: { volume: `v${i}`, name: `s${i}` } }));

  /** A helper that works through its part in order and dies at `bad` (after beginning it, or before). */
  function helper(bad: Set<string>, beginsBad: boolean) {
    const calls: string[][] = [];
    const run = async (part: readonly InspectionRequest[]): Promise<ChunkAnswer> => {
      calls.push(part.map((r) => r.key));
      const found = new Map<string, Inspection>();
      const began = new Set<string>();
      let dead = false;
      for (const r of part) {
        if (!dead && bad.has(r.key)) {
          dead = true;
          if (beginsBad) began.add(r.key);
        }
        if (dead) found.set(r.key, { error: 'the helper died' });
        else {
          began.add(r.key);
          found.set(r.key, { sizeBytes: 1 });
        }
      }
      return { found, began };
    };
    return { run, calls };
  }

  it('keeps the error of the sandbox the helper died at, and gives the rest a new helper', async () => {
    const { run, calls } = helper(new Set(['s2']), true);
    const result = await inspectIsolating(requests(6), run);
    expect(result.get('s2')).toEqual({ error: 'the helper died' });
    for (const key of ['s0', 's1', 's3', 's4', 's5']) expect(result.get(key)).toEqual({ sizeBytes: 1 });
    expect(calls).toEqual([
      ['s0', 's1', 's2', 's3', 's4', 's5'],
      ['s3', 's4', 's5'],
    ]);
  });

  it('halves a batch whose helper died before it began any sandbox, down to the one to blame', async () => {
    const { run, calls } = helper(new Set(['s5']), false);
    const result = await inspectIsolating(requests(8), run);
    expect(result.get('s5')).toEqual({ error: 'the helper died' });
    for (const key of ['s0', 's1', 's2', 's3', 's4', 's6', 's7'])
      expect(result.get(key)).toEqual({ sizeBytes: 1 });
    expect(calls.length).toBeLessThanOrEqual(8);
  });

  it('does not run again the sandboxes a helper finished after one that wrote too much', async () => {
    const calls: number[] = [];
    const run = async (part: readonly InspectionRequest[]): Promise<ChunkAnswer> => {
      calls.push(part.length);
      const found = new Map<string, Inspection>(
        part.map((r) => [r.key, r.key === 's1' ? { error: 'more than its share' } : { sizeBytes: 1 }]),
      );
      return { found, began: new Set(part.map((r) => r.key)) };
    };
    const result = await inspectIsolating(requests(4), run);
    expect(result.get('s1')).toEqual({ error: 'more than its share' });
    for (const key of ['s0', 's2', 's3']) expect(result.get(key)).toEqual({ sizeBytes: 1 });
    expect(calls).toEqual([4]);
  });

  it('refuses a verdict to a sandbox that wrote more than its own share', () => {
    const big = Buffer.alloc(OUTPUT_PER_SANDBOX + 1, 0x31);
    const out = Buffer.concat([rec('0', 'operation', big), ...work('0', '0'), ...work('1', '0')]);
    const result = readInspections(parseFrames(out, TOKEN), chunk, 'x');
    expect(result.get('a')?.error).toMatch(/more than/);
    expect(result.get('b')?.work).toMatchObject({ uncommitted: { value: 0 } });
  });
});
