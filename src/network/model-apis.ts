// What a request to a model API is, for the budget: free (it spends no tokens), metered with a usage the
// meter can read (and, where the proxy must change the request to make it readable, how), or metered with
// a usage it cannot read. Known by the request's method and path, so that gateways (a prefix before the
// path) and test fakes on any host work; on a host the proxy meters (one with a credential), every other
// POST counts too, whatever its path, and its usage is unreadable. Pure. ADR 0009, docs/network.md.

/** The families whose usage fields the scanner knows (usage-scanner.ts). */
export type ModelApi = 'anthropic' | 'openai' | 'gemini';

/** How the proxy changes a request so that its answer carries a usage the meter reads. */
export type UsageRewrite = 'include-usage';

export type ModelRequest =
  | { kind: 'free' }
  | {
      kind: 'metered';
      api: ModelApi;
      /** The model its path names (Gemini's do). */
      pathModel?: string;
      /** The path to send: the request's own, or with Gemini's `alt` set to a format the meter reads. */
      path: string;
      rewrite?: UsageRewrite;
    }
  | { kind: 'unreadable'; api: ModelApi; path: string; why: string };

const GEMINI = /\/(?:tuned)?models\/([^/:]+):(stream)?generatecontent$/;
const GEMINI_ACTION = /\/(?:tuned)?models\/[^/:]+:([a-z]+)$/;
/** POSTs that spend no tokens: counting tokens. */
const FREE = [/\/v1\/messages\/count_tokens$/, /:counttokens$/, /\/responses\/input_tokens$/];
/** Paths of model APIs whose usage the meter cannot read: batches, legacy and image endpoints, runs. */
const UNREADABLE: readonly [RegExp, ModelApi, string][] = [
  [/\/v1\/messages\/batches$/, 'anthropic', 'a message batch'],
  [/\/v1\/complete$/, 'anthropic', 'the legacy Text Completions API'],
  [/\/(?:threads\/runs|threads\/[^/]+\/runs)$/, 'openai', 'an Assistants run'],
  [/\/images\/(?:generations|edits|variations)$/, 'openai', 'the Images API'],
  [/\/batches$/, 'openai', 'a batch'],
  [/\/audio\/(?:speech|transcriptions|translations)$/, 'openai', 'the Audio API'],
];

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

/** The family a request of an unknown path is for, by its headers, for the refusal's format. */
function apiByHeaders(headers: readonly string[]): ModelApi {
  for (let i = 0; i < headers.length; i += 2) {
    const name = headers[i].toLowerCase();
    if (name === 'anthropic-version' || name === 'x-api-key') return 'anthropic';
    if (name === 'x-goog-api-key') return 'gemini';
  }
  return 'openai';
}

/**
 * Gemini answers in protobuf with `alt=proto` (or `$alt`): the meter reads JSON and server-sent events,
 * so the target is sent with `alt=sse` for a stream and `alt=json` otherwise.
 */
function geminiTarget(target: string, stream: boolean): string {
  const q = target.indexOf('?');
  if (q === -1) return target;
  const params = new URLSearchParams(target.slice(q + 1));
  const alts = [...params.getAll('alt'), ...params.getAll('$alt')].map((a) => a.toLowerCase());
  if (alts.every((a) => a === 'json' || a === 'sse')) return target;
  params.delete('alt');
  params.delete('$alt');
  params.set('alt', stream ? 'sse' : 'json');
  return `${target.slice(0, q)}?${params.toString()}`;
}

/**
 * What a request is for the budget, or undefined when it is not a model API's: every method but POST, and
 * counting tokens, are free; POST to Anthropic Messages (`/v1/messages`), OpenAI Chat Completions,
 * Completions, Responses and Embeddings, and Gemini's `generateContent` and `streamGenerateContent`
 * (`models/…` or `tunedModels/…`), under any prefix, are metered and read; the batch, legacy, image and run
 * endpoints, and with `everyPost` (a host the proxy meters) every other POST, are metered but unreadable.
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
  if (!routed)
    return everyPost
      ? {
          kind: 'unreadable',
          api: apiByHeaders(headers),
          path: origin,
          why: 'a request target the proxy cannot read',
        }
      : undefined;
  const p = routed.path;
  if (FREE.some((re) => re.test(p))) return { kind: 'free' };
  if (p.endsWith('/v1/messages')) return { kind: 'metered', api: 'anthropic', path: origin };
  if (/\/(?:chat\/completions|completions)$/.test(p))
    return { kind: 'metered', api: 'openai', path: origin, rewrite: 'include-usage' };
  if (/\/(?:responses|embeddings)$/.test(p)) return { kind: 'metered', api: 'openai', path: origin };
  const gemini = GEMINI.exec(p);
  if (gemini)
    return {
      kind: 'metered',
      api: 'gemini',
      pathModel: gemini[1].slice(0, 200),
      path: geminiTarget(origin, gemini[2] !== undefined),
    };
  for (const [re, api, what] of UNREADABLE)
    if (re.test(p))
      return { kind: 'unreadable', api, path: origin, why: `${what} reports no usage the proxy can read` };
  const action = GEMINI_ACTION.exec(p);
  if (action)
    return {
      kind: 'unreadable',
      api: 'gemini',
      path: origin,
      why: `Gemini's :${action[1]} reports no usage the proxy can read`,
    };
  if (everyPost)
    return {
      kind: 'unreadable',
      api: apiByHeaders(headers),
      path: origin,
      why: 'a POST to a path whose usage the proxy cannot read',
    };
  return undefined;
}

export interface BudgetAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** Google's RetryInfo: a delay of a day, past any client's wait, so that Gemini CLI gives up at once. */
const GEMINI_RETRY_INFO = { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '86400s' };

/**
 * The proxy's own answer to a metered request it refuses: status 429 with an error body in that API's own
 * format, so that its official SDK raises its usual rate-limit error. `x-should-retry: false` is the header
 * the Anthropic and OpenAI SDKs obey before their own retry rule for 429; Gemini CLI ignores it and obeys
 * Google's RetryInfo instead. The budget does not come back within the run: a retry would be refused again.
 */
export function budgetAnswer(api: ModelApi, message: string): BudgetAnswer {
  const text = `worktree-sandbox: ${message}`;
  const body =
    api === 'anthropic'
      ? { type: 'error', error: { type: 'rate_limit_error', message: text } }
      : api === 'openai'
        ? { error: { message: text, type: 'insufficient_quota', param: null, code: 'insufficient_quota' } }
        : { error: { code: 429, message: text, status: 'RESOURCE_EXHAUSTED', details: [GEMINI_RETRY_INFO] } };
  return {
    statusCode: 429,
    headers: { 'content-type': 'application/json', 'x-should-retry': 'false', connection: 'close' },
    body: JSON.stringify(body),
  };
}
