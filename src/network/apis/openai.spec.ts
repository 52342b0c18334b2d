// OpenAI's record: (chat) completions read once asked for their usage, Responses and Embeddings read, runs,
// images, batches and audio unread; both families of usage names; the quota error its SDK reads.
import { describe, expect, it } from '@jest/globals';
import { openai } from './openai.js';

const fields = (values: Record<string, number>) => ({
  get: (name: string) => values[name] ?? 0,
  has: (...names: string[]) => names.some((n) => n in values),
});

describe('openai', () => {
  it('recognises its paths, and asks a completions stream for its usage', () => {
    expect(openai.readable('/v1/chat/completions', '/v1/chat/completions')).toEqual({
      path: '/v1/chat/completions',
      rewrite: 'include-usage',
    });
    expect(openai.readable('/openai/v1/responses', '/openai/v1/responses')).toEqual({
      path: '/openai/v1/responses',
    });
    expect(openai.readable('/v1/embeddings', '/v1/embeddings')).toEqual({ path: '/v1/embeddings' });
    expect(openai.free.some((re) => re.test('/v1/responses/input_tokens'))).toBe(true);
    for (const path of [
      '/v1/threads/runs',
      '/v1/threads/t/runs',
      '/v1/images/edits',
      '/v1/batches',
      '/v1/audio/speech',
    ])
      expect(openai.unreadable(path)).toMatch(/reports no usage the proxy can read$/);
    expect(openai.unreadable('/v1/files')).toBeUndefined();
  });

  it('reads Chat Completions usage first, then Responses usage', () => {
    expect(
      openai.usage(
        fields({ prompt_tokens: 5, completion_tokens: 6, 'prompt_tokens_details.cached_tokens': 2 }),
      ),
    ).toEqual({ input: 5, output: 6, cacheRead: 2, cacheWrite: 0 });
    expect(
      openai.usage(fields({ input_tokens: 7, output_tokens: 8, 'input_tokens_details.cached_tokens': 1 })),
    ).toEqual({ input: 7, output: 8, cacheRead: 1, cacheWrite: 0 });
    expect(openai.usage(fields({ promptTokenCount: 1 }))).toBeUndefined();
  });

  it('refuses with the quota error its SDK reads', () => {
    expect(openai.budgetError('spent')).toEqual({
      error: { message: 'spent', type: 'insufficient_quota', param: null, code: 'insufficient_quota' },
    });
  });
});
