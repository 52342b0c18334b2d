// The model APIs the proxy meters, known by the request's method and path (so that gateways, which put a
// prefix before the path, and test fakes on any host work), and the answer the proxy gives itself once the
// run's budget is spent: status 429 with an error body in that API's own format, so that its official
// SDK raises its usual rate-limit error. Pure. ADR 0009, docs/network.md.

/** The families whose usage fields the scanner knows (usage-scanner.ts). */
export type ModelApi = 'anthropic' | 'openai' | 'gemini';

/** What a metered request is: its family, and the model its path names (Gemini's do). */
export interface MeteredRequest {
  api: ModelApi;
  pathModel?: string;
}

const GEMINI = /\/models\/([^/:]+):(?:stream)?generatecontent$/;

/**
 * The model API a request is for, or undefined: POST to Anthropic Messages (`/v1/messages`), OpenAI Chat
 * Completions, Responses and Embeddings (`…/chat/completions`, `…/responses`, `…/embeddings`), or Gemini
 * (`…/models/<model>:generateContent` and `:streamGenerateContent`), under any prefix. The path is read as
 * a server would route it: dot segments resolved, percent escapes decoded, repeated and trailing slashes
 * dropped, case ignored, the query left out.
 */
export function meteredRequest(method: string | undefined, target: string): MeteredRequest | undefined {
  if ((method ?? '').toUpperCase() !== 'POST') return undefined;
  let pathname: string;
  try {
    // Origin form is joined by hand: `//x/...` would otherwise be read as a host.
    pathname = new URL(target.startsWith('/') ? `http://path.invalid${target}` : target).pathname;
  } catch {
    return undefined;
  }
  try {
    pathname = decodeURIComponent(pathname);
  } catch {
    // an escape that does not decode: matched as written
  }
  const p = pathname
    .replace(/\/{2,}/g, '/')
    .replace(/\/+$/, '')
    .toLowerCase();
  if (p.endsWith('/v1/messages')) return { api: 'anthropic' };
  if (/\/(?:chat\/completions|responses|embeddings)$/.test(p)) return { api: 'openai' };
  const gemini = GEMINI.exec(p);
  if (gemini) return { api: 'gemini', pathModel: gemini[1].slice(0, 200) };
  return undefined;
}

export interface BudgetAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The proxy's own answer to a metered request past the budget. `x-should-retry: false` is the header the
 * Anthropic and OpenAI SDKs obey before their own retry rule for 429: the budget does not come back within
 * the run, so a retry would only be refused again.
 */
export function budgetAnswer(api: ModelApi, message: string): BudgetAnswer {
  const text = `worktree-sandbox: ${message}`;
  const body =
    api === 'anthropic'
      ? { type: 'error', error: { type: 'rate_limit_error', message: text } }
      : api === 'openai'
        ? { error: { message: text, type: 'insufficient_quota', param: null, code: 'insufficient_quota' } }
        : { error: { code: 429, message: text, status: 'RESOURCE_EXHAUSTED' } };
  return {
    statusCode: 429,
    headers: { 'content-type': 'application/json', 'x-should-retry': 'false', connection: 'close' },
    body: JSON.stringify(body),
  };
}
