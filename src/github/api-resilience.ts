// How the API client rides out GitHub's transient faults, as Octokit's own plugins do it: a 5xx or a
// dropped connection (ECONNRESET reaches the client as status 500) is retried with a growing pause; a
// rate limit is waited out, a secondary one as long as GitHub's retry-after says. Answers that cannot get
// better by asking again (400, 401, 403 without a limit, 404, 410, 422, 451) fail at once. Writes are
// spaced as GitHub asks of integrations (one at a time, a second apart). Lists are read a bounded number of
// pages, so that a pull request with thousands of comments costs a known number of calls.
import Bottleneck from 'bottleneck/light.js';

export interface ApiOptions {
  /**
   * Multiplies every pause: the retry backoff, rate-limit waits and the spacing of writes. 1 (the default)
   * in real runs; tests pass a small value (0.001 turns a minute into 60 ms) instead of sleeping.
   */
  delayScale?: number;
  /** Retries after a server error or a dropped connection (default 3). */
  retries?: number;
  /** Retries after a rate limit (default 2). */
  rateLimitRetries?: number;
  /** Longest rate-limit wait, in seconds of GitHub's clock, worth waiting out (default 600). */
  maxRateLimitWaitSeconds?: number;
  /** Where retries and waits are told (a warning in the log). */
  warn?: (message: string) => void;
}

const DO_NOT_RETRY = [400, 401, 403, 404, 410, 422, 429, 451];

interface RequestInfo {
  method: string;
  url: string;
}

/** The `retry` and `throttle` options of an Octokit that has both plugins. */
export function resilienceOptions(options: ApiOptions) {
  const scale = options.delayScale ?? 1;
  const rateLimitRetries = options.rateLimitRetries ?? 2;
  const maxWait = options.maxRateLimitWaitSeconds ?? 600;
  const warn = options.warn ?? (() => undefined);
  const onLimit =
    (kind: string) =>
    (retryAfter: number, request: RequestInfo, _octokit: unknown, retryCount: number): boolean => {
      const what = `${request.method} ${request.url}`;
      if (retryCount >= rateLimitRetries || retryAfter > maxWait) {
        warn(`GitHub's ${kind} rate limit stopped ${what}; retry-after ${retryAfter} s: not retried.`);
        return false;
      }
      warn(`GitHub's ${kind} rate limit hit ${what}: waiting ${retryAfter} s, then retrying.`);
      return true;
    };
  const spaced = (minTime: number) =>
    new Bottleneck.Group({ maxConcurrent: 1, minTime: Math.round(minTime * scale) });
  return {
    retry: {
      retries: options.retries ?? 3,
      retryAfterBaseValue: 1000 * scale,
      doNotRetry: DO_NOT_RETRY,
    },
    throttle: {
      retryAfterBaseValue: 1000 * scale,
      write: spaced(1000),
      notifications: spaced(3000),
      onRateLimit: onLimit('primary'),
      onSecondaryRateLimit: onLimit('secondary'),
    },
  };
}

/** Reads pages of 100 until one is short or `maxPages` are read: a bound in count and time. */
export async function readPages<T>(
  maxPages: number,
  list: (page: { per_page: number; page: number }) => Promise<{ data: T[] }>,
): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const { data } = await list({ per_page: 100, page });
    all.push(...data);
    if (data.length < 100) break;
  }
  return all;
}
