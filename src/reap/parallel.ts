// Bounded concurrency for the reaper's batches (checks, removals): enough calls in flight to keep a busy
// disk or the container engine working, few enough not to swamp a shared machine.

/** Maps with at most `limit` calls in flight, started in input order; results in input order. */
export function inParallel<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const limited = limiter(Math.max(1, limit));
  return Promise.all(items.map((item) => limited(() => fn(item))));
}

/**
 * For calls that come one at a time (not as a list): each call to the returned function waits while
 * `limit` others are running; a call that ends hands its place to the longest waiting one.
 */
export function limiter(limit: number): <R>(fn: () => Promise<R>) => Promise<R> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (fn) => {
    if (running < limit) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
