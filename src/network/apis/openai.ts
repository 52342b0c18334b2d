// OpenAI's Chat Completions, Completions, Responses and Embeddings (and Azure's and gateways' paths to
// them): usage as `prompt_tokens`/`completion_tokens` or `input_tokens`/`output_tokens`. A (chat)
// completions stream reports it only when asked (`stream_options.include_usage`), which the proxy adds.
// Assistants runs, images, batches and audio report no usage the proxy can read. Its error format is the
// one gateways speak, so a request no record recognises is refused in it.
import { unreadableBy, type ModelApiRecord } from './api.js';

const UNREADABLE = [
  [/\/(?:threads\/runs|threads\/[^/]+\/runs)$/, 'an Assistants run'],
  [/\/images\/(?:generations|edits|variations)$/, 'the Images API'],
  [/\/batches$/, 'a batch'],
  [/\/audio\/(?:speech|transcriptions|translations)$/, 'the Audio API'],
] as const;

export const openai: ModelApiRecord<'openai'> = {
  name: 'openai',
  presetHosts: ['api.openai.com'],
  free: [/\/responses\/input_tokens$/],
  readable(path, origin) {
    if (/\/(?:chat\/completions|completions)$/.test(path)) return { path: origin, rewrite: 'include-usage' };
    return /\/(?:responses|embeddings)$/.test(path) ? { path: origin } : undefined;
  },
  unreadable: (path) => unreadableBy(UNREADABLE, path),
  namedBy: () => false,
  fields: [
    'prompt_tokens',
    'completion_tokens',
    'prompt_tokens_details.cached_tokens',
    'input_tokens',
    'output_tokens',
    'input_tokens_details.cached_tokens',
  ],
  usage(f) {
    if (f.has('prompt_tokens'))
      return {
        input: f.get('prompt_tokens'),
        output: f.get('completion_tokens'),
        cacheRead: f.get('prompt_tokens_details.cached_tokens'),
        cacheWrite: 0,
      };
    if (f.has('input_tokens', 'output_tokens'))
      return {
        input: f.get('input_tokens'),
        output: f.get('output_tokens'),
        cacheRead: f.get('input_tokens_details.cached_tokens'),
        cacheWrite: 0,
      };
    return undefined;
  },
  budgetError: (message) => ({
    error: { message, type: 'insufficient_quota', param: null, code: 'insufficient_quota' },
  }),
};
