// Anthropic's record: Messages read, counting tokens free, batches and the legacy API unread; cached input
// added to input (Anthropic counts it apart); the rate-limit error its SDK reads.
import { describe, expect, it } from '@jest/globals';
import { anthropic } from './anthropic.js';

const fields = (values: Record<string, number>) => ({
  get: (name: string) => values[name] ?? 0,
  has: (...names: string[]) => names.some((n) => n in values),
});

describe('anthropic', () => {
  it('recognises its paths under any prefix', () => {
    expect(anthropic.readable('/gw/v1/messages', '/gw/v1/messages?beta=true')).toEqual({
      path: '/gw/v1/messages?beta=true',
    });
    expect(anthropic.free.some((re) => re.test('/v1/messages/count_tokens'))).toBe(true);
    expect(anthropic.unreadable('/v1/messages/batches')).toBe(
      'a message batch reports no usage the proxy can read',
    );
    expect(anthropic.unreadable('/v1/complete')).toMatch(/^the legacy Text Completions API/);
    expect(anthropic.readable('/v1/models', '/v1/models')).toBeUndefined();
    expect(anthropic.namedBy('anthropic-version') && anthropic.namedBy('x-api-key')).toBe(true);
  });

  it('counts cache reads and writes into input', () => {
    expect(
      anthropic.usage(
        fields({
          input_tokens: 3,
          output_tokens: 4,
          cache_read_input_tokens: 10,
          cache_creation_input_tokens: 20,
        }),
      ),
    ).toEqual({ input: 33, output: 4, cacheRead: 10, cacheWrite: 20 });
    expect(anthropic.usage(fields({ prompt_tokens: 3 }))).toBeUndefined();
  });

  it('refuses with the error its SDK reads as a rate limit', () => {
    expect(anthropic.budgetError('spent')).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'spent' },
    });
  });
});
