// Google's Gemini API: `generateContent` and `streamGenerateContent` on `models/…` or `tunedModels/…`, the
// model named in the path, usage in `usageMetadata`. It answers protobuf with `alt=proto`, which the meter
// cannot read, so the proxy asks for JSON (or server-sent events) instead. Its other actions (batches,
// embeddings) report no usage the proxy can read. Gemini CLI ignores `x-should-retry` and stops only on
// Google's RetryInfo past its limit: the budget answer carries a delay of a day.
import type { ModelApiRecord } from './api.js';

const GENERATE = /\/(?:tuned)?models\/([^/:]+):(stream)?generatecontent$/;
const ACTION = /\/(?:tuned)?models\/[^/:]+:([a-z]+)$/;
const RETRY_INFO = { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '86400s' };

/** The target with `alt` (or `$alt`) set to `sse` for a stream and `json` otherwise, unless it is one. */
function readableTarget(target: string, stream: boolean): string {
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

export const gemini: ModelApiRecord<'gemini'> = {
  name: 'gemini',
  presetHosts: ['generativelanguage.googleapis.com'],
  free: [/:counttokens$/],
  readable(path, origin) {
    const generate = GENERATE.exec(path);
    if (!generate) return undefined;
    return { pathModel: generate[1].slice(0, 200), path: readableTarget(origin, generate[2] !== undefined) };
  },
  unreadable(path) {
    const action = ACTION.exec(path);
    return action ? `Gemini's :${action[1]} reports no usage the proxy can read` : undefined;
  },
  namedBy: (header) => header === 'x-goog-api-key',
  fields: [
    'promptTokenCount',
    'candidatesTokenCount',
    'cachedContentTokenCount',
    'thoughtsTokenCount',
    'toolUsePromptTokenCount',
  ],
  usage(f) {
    if (!f.has('promptTokenCount', 'candidatesTokenCount')) return undefined;
    return {
      input: f.get('promptTokenCount') + f.get('toolUsePromptTokenCount'),
      output: f.get('candidatesTokenCount') + f.get('thoughtsTokenCount'),
      cacheRead: f.get('cachedContentTokenCount'),
      cacheWrite: 0,
    };
  },
  budgetError: (message) => ({
    error: { code: 429, message, status: 'RESOURCE_EXHAUSTED', details: [RETRY_INFO] },
  }),
};
