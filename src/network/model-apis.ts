// What a request to a model API is, for the budget: free (it spends no tokens), metered with a usage the
// meter can read (and, where the proxy must change the request to make it readable, how), or metered with
// a usage it cannot read. Known by the request's method and path, so that gateways (a prefix before the
// path) and test fakes on any host work; on a host the proxy meters (one with a credential), every other
// POST counts too, whatever its path, and its usage is unreadable. Each API is one record (apis/); this
// module lists them and asks them in turn. Pure. ADR 0009, docs/network.md.
import { anthropic } from './apis/anthropic.js';
import type { ModelApiRecord, ReadableCall } from './apis/api.js';
import { gemini } from './apis/gemini.js';
import { openai } from './apis/openai.js';

/** The model APIs the proxy knows, in the order they are asked. */
export const MODEL_APIS = [anthropic, openai, gemini] as const;

/** The families whose usage fields the scanner knows (usage-scanner.ts). */
export type ModelApi = (typeof MODEL_APIS)[number]['name'];

/** Each API's record by its name. */
export const modelApi = (name: ModelApi): ModelApiRecord =>
  MODEL_APIS.find((api) => api.name === name) ?? openai;

export type ModelRequest =
  | { kind: 'free' }
  | ({ kind: 'metered'; api: ModelApi } & ReadableCall)
  | { kind: 'unreadable'; api: ModelApi; path: string; why: string };

/** A request target's path as a server routes it: dot segments resolved, escapes decoded, `//` and case folded. */
export function routedPath(target: string): { path: string; search: string } | undefined {
  let url: URL;
  try {
    // Origin form is joined by hand: `//x/...` would otherwise be read as a host.
    url = new URL(target.startsWith('/') ? `http://path.invalid${target}` : target);
  } catch {
    return undefined;
  }
  let pathname = url.pathname;
  try {
    pathname = decodeURIComponent(pathname);
  } catch {
    // an escape that does not decode: matched as written
  }
  const path = pathname
    .replace(/\/{2,}/g, '/')
    .replace(/\/+$/, '')
    .toLowerCase();
  return { path, search: url.search };
}

/** The family a request of an unknown path is for, by its headers (else OpenAI's), for the refusal's format. */
function apiByHeaders(headers: readonly string[]): ModelApi {
  for (let i = 0; i < headers.length; i += 2) {
    const name = headers[i].toLowerCase();
    const api = MODEL_APIS.find((a) => a.namedBy(name));
    if (api) return api.name;
  }
  return openai.name;
}

/**
 * What a request is for the budget, or undefined when it is not a model API's: every method but POST, and
 * the records' free paths, are free; a POST a record reads is metered and read; one a record names
 * unreadable, and with `everyPost` (a host the proxy meters) every other POST, is metered but unreadable.
 * `target` is the request target as sent (origin form or absolute); `headers` raw, for the family.
 */
export function classifyRequest(
  method: string | undefined,
  target: string,
  headers: readonly string[] = [],
  everyPost = false,
): ModelRequest | undefined {
  const routed = routedPath(target);
  const post = (method ?? '').toUpperCase() === 'POST';
  if (!post) return everyPost ? { kind: 'free' } : undefined;
  const origin = target.startsWith('/') ? target : routed ? new URL(target).pathname + routed.search : target;
  const unreadable = (api: ModelApi, why: string) => ({
    kind: 'unreadable' as const,
    api,
    path: origin,
    why,
  });
  if (!routed)
    return everyPost
      ? unreadable(apiByHeaders(headers), 'a request target the proxy cannot read')
      : undefined;
  const p = routed.path;
  if (MODEL_APIS.some((api) => api.free.some((re) => re.test(p)))) return { kind: 'free' };
  for (const api of MODEL_APIS) {
    const call = api.readable(p, origin);
    if (call) return { kind: 'metered', api: api.name, ...call };
  }
  for (const api of MODEL_APIS) {
    const why = api.unreadable(p);
    if (why) return unreadable(api.name, why);
  }
  return everyPost
    ? unreadable(apiByHeaders(headers), 'a POST to a path whose usage the proxy cannot read')
    : undefined;
}

export interface BudgetAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The proxy's own answer to a metered request it refuses: status 429 with an error body in that API's own
 * format, so that its official SDK raises its usual rate-limit error. `x-should-retry: false` is the header
 * the Anthropic and OpenAI SDKs obey before their own retry rule for 429; Gemini CLI ignores it and obeys
 * Google's RetryInfo instead. The budget does not come back within the run: a retry would be refused again.
 */
export function budgetAnswer(api: ModelApi, message: string): BudgetAnswer {
  return {
    statusCode: 429,
    headers: { 'content-type': 'application/json', 'x-should-retry': 'false', connection: 'close' },
    body: JSON.stringify(modelApi(api).budgetError(`worktree-sandbox: ${message}`)),
  };
}
