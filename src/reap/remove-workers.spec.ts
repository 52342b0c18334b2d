// The pool of removal workers (remove-workers.ts): many folders sent at once all go, each answered with its
// own result; a pool that is closed, or of one, behaves as documented. What each walk does is
// remove.spec.ts's subject (run there both inline and in workers).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { measureTree } from './remove-tree.js';
import {
  FULL_POOL_UP_TO,
  inlineRemover,
  REMOVAL_WORKERS,
  removerFor,
  startRemovers,
} from './remove-workers.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** `count` folders of different sizes (folder n holds n files of n kB, in n sub-folders). */
function folders(count: number): string[] {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wts-remove-workers-')));
  made.push(base);
  return Array.from({ length: count }, (_, n) => {
    const top = path.join(base, `f${n}`);
    for (let d = 0; d <= n; d++) {
      const dir = path.join(top, `d${d}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'data'), Buffer.alloc(1024 * n, 1));
    }
    return top;
  });
}

describe('startRemovers', () => {
  it('removes many folders sent at once, each answered with its own bytes', async () => {
    const tops = folders(24);
    const expected = tops.map((top) => measureTree(top));
    const device = fs.lstatSync(tops[0]).dev;
    const remover = startRemovers(4);
    try {
      const results = await Promise.all(tops.map((top) => remover.remove(top, device)));
      expect(results.map((r) => r.problems)).toEqual(tops.map(() => []));
      expect(results.map((r) => r.freedBytes)).toEqual(expected);
      for (const top of tops) expect(fs.existsSync(top)).toBe(false);
    } finally {
      await remover.close();
    }
  });

  it('once closed, reports every folder as not removed and leaves it', async () => {
    const [top] = folders(3).slice(2);
    const remover = startRemovers(2);
    await remover.close();
    const result = await remover.remove(top, fs.lstatSync(top).dev);
    expect(result).toEqual({ freedBytes: 0, problems: [{ path: top, error: 'no removal worker left' }] });
    expect(fs.existsSync(top)).toBe(true);
  });

  it('a single removal walks in the calling thread; a pool is smaller when the scan found more', async () => {
    expect(removerFor(1, 10)).toBe(inlineRemover);
    const full = removerFor(2, FULL_POOL_UP_TO);
    const small = removerFor(2, FULL_POOL_UP_TO + 1);
    try {
      // One concurrent worker walks six folders at once, each synchronous one a folder.
      expect([full.walks, small.walks]).toEqual([6 + REMOVAL_WORKERS - 1, 6]);
    } finally {
      await Promise.all([full.close(), small.close()]);
    }
  });
});
