import { inParallel, limiter } from './parallel.js';

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

describe('limiter', () => {
  it('runs at most `limit` calls at once, in the order they came, whether they succeed or fail', async () => {
    const limited = limiter(3);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const calls = [4, 1, 3, 2, 5, 0, 2, 1].map((n, i) =>
      limited(async () => {
        started.push(i);
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, n * 3));
        running--;
        if (i === 2) throw new Error('third fails');
        return i;
      }),
    );
    // A call made while others wait queues behind them, even when a place is just being handed on.
    const results = await Promise.allSettled(calls);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'failed'))).toEqual([
      0,
      1,
      'failed',
      3,
      4,
      5,
      6,
      7,
    ]);
    expect(most).toBe(3);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(running).toBe(0);
    // All places are free again.
    let after = 0;
    await Promise.all([1, 2, 3].map(() => limited(async () => void after++)));
    expect(after).toBe(3);
  });
});
