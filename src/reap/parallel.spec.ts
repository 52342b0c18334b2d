import { inParallel } from './parallel.js';

describe('inParallel', () => {
  it('keeps the input order and never exceeds the limit', async () => {
    let running = 0;
    let most = 0;
    const results = await inParallel([5, 1, 4, 2, 3, 0], 2, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, n * 3));
      running--;
      return n * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30, 0]);
    expect(most).toBe(2);
  });

  it('handles no items', async () => {
    expect(await inParallel([], 4, async (n: number) => n)).toEqual([]);
  });
});
