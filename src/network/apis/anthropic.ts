// Anthropic's Messages API (`/v1/messages`, under any gateway prefix): usage at `message_start` and in each
// `message_delta` of a stream, cache reads and writes counted apart from `input_tokens`. Its batches and
// the legacy Text Completions API report no usage the proxy can read.
import { unreadableBy, type ModelApiRecord } from './api.js';

const UNREADABLE = [
  [/\/v1\/messages\/batches$/, 'a message batch'],
  [/\/v1\/complete$/, 'the legacy Text Completions API'],
] as const;

export const anthropic: ModelApiRecord<'anthropic'> = {
  name: 'anthropic',
  presetHosts: ['api.anthropic.com'],
  free: [/\/v1\/messages\/count_tokens$/],
  readable: (path, origin) => (path.endsWith('/v1/messages') ? { path: origin } : undefined),
  unreadable: (path) => unreadableBy(UNREADABLE, path),
  namedBy: (header) => header === 'anthropic-version' || header === 'x-api-key',
  fields: ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'],
  usage(f) {
    if (!f.has('input_tokens', 'output_tokens')) return undefined;
    const cacheRead = f.get('cache_read_input_tokens');
    const cacheWrite = f.get('cache_creation_input_tokens');
    // Anthropic counts cached input apart from input_tokens; the others count it within.
    return {
      input: f.get('input_tokens') + cacheRead + cacheWrite,
      output: f.get('output_tokens'),
      cacheRead,
      cacheWrite,
    };
  },
  budgetError: (message) => ({ type: 'error', error: { type: 'rate_limit_error', message } }),
};
