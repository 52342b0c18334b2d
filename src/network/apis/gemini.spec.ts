// Gemini's record: generateContent read, with the model from the path and JSON asked for instead of
// protobuf; other actions unread; thoughts and tool-use prompts counted; RetryInfo of a day in the refusal.
import { describe, expect, it } from '@jest/globals';
import { gemini } from './gemini.js';

const fields = (values: Record<string, number>) => ({
  get: (name: string) => values[name] ?? 0,
  has: (...names: string[]) => names.some((n) => n in values),
});

describe('gemini', () => {
  it('reads generateContent, asking for JSON or server-sent events instead of protobuf', () => {
    expect(
      gemini.readable('/v1beta/models/g-1:generatecontent', '/v1beta/models/g-1:generateContent?alt=proto'),
    ).toEqual({
      pathModel: 'g-1',
      path: '/v1beta/models/g-1:generateContent?alt=json',
    });
    expect(gemini.readable('/v1beta/tunedmodels/t:streamgeneratecontent', '/x?$alt=proto')).toEqual({
      pathModel: 't',
      path: '/x?alt=sse',
    });
    expect(gemini.unreadable('/v1beta/models/g:embedcontent')).toBe(
      "Gemini's :embedcontent reports no usage the proxy can read",
    );
    expect(gemini.free.some((re) => re.test('/v1beta/models/g:counttokens'))).toBe(true);
    expect(gemini.namedBy('x-goog-api-key')).toBe(true);
  });

  it('counts tool-use prompts as input and thoughts as output', () => {
    expect(
      gemini.usage(
        fields({
          promptTokenCount: 1,
          toolUsePromptTokenCount: 2,
          candidatesTokenCount: 3,
          thoughtsTokenCount: 4,
          cachedContentTokenCount: 1,
        }),
      ),
    ).toEqual({ input: 3, output: 7, cacheRead: 1, cacheWrite: 0 });
  });

  it('refuses with RetryInfo of a day, so that Gemini CLI stops at once', () => {
    expect(gemini.budgetError('spent')).toMatchObject({
      error: { code: 429, status: 'RESOURCE_EXHAUSTED', details: [{ retryDelay: '86400s' }] },
    });
  });
});
