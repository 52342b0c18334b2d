// What each request is for the budget (free, metered and read, metered and unreadable) under every path
// spelling a server routes the same way, what the proxy changes to make a usage readable, and the 429
// answers in each API's own format, Gemini's with Google's RetryInfo.
import { describe, expect, it } from '@jest/globals';
import { withIncludeUsage } from './metered-request.js';
import { budgetAnswer, classifyRequest } from './model-apis.js';

describe('classifyRequest', () => {
  it.each([
    ['/v1/messages', { kind: 'metered', api: 'anthropic', path: '/v1/messages' }],
    ['/v1/messages?beta=true', { kind: 'metered', api: 'anthropic', path: '/v1/messages?beta=true' }],
    ['/gateway/anthropic/v1/messages', { kind: 'metered', api: 'anthropic' }],
    ['//v1//Messages/', { kind: 'metered', api: 'anthropic' }],
    ['/v1/x/../messages', { kind: 'metered', api: 'anthropic' }],
    ['/v1/%6Dessages', { kind: 'metered', api: 'anthropic' }],
    [
      'http://llm.internal:8080/v1/chat/completions',
      { kind: 'metered', api: 'openai', path: '/v1/chat/completions', rewrite: 'include-usage' },
    ],
    ['/v1/completions', { kind: 'metered', api: 'openai', rewrite: 'include-usage' }],
    [
      '/openai/deployments/gpt/chat/completions?api-version=2024-10-21',
      { kind: 'metered', api: 'openai', rewrite: 'include-usage' },
    ],
    ['/openai/v1/responses', { kind: 'metered', api: 'openai' }],
    ['/v1/embeddings', { kind: 'metered', api: 'openai' }],
    [
      '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
      {
        kind: 'metered',
        api: 'gemini',
        pathModel: 'gemini-2.5-flash',
        path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
      },
    ],
    [
      '/v1beta/models/gemini-2.5-flash:generateContent',
      { kind: 'metered', api: 'gemini', pathModel: 'gemini-2.5-flash' },
    ],
    ['/v1beta/tunedModels/mine-1:generateContent', { kind: 'metered', api: 'gemini', pathModel: 'mine-1' }],
    [
      '/v1beta/models/g:generateContent?alt=proto&key=k',
      { kind: 'metered', api: 'gemini', path: '/v1beta/models/g:generateContent?key=k&alt=json' },
    ],
    [
      '/v1beta/models/g:streamGenerateContent?%24alt=proto',
      { kind: 'metered', api: 'gemini', path: '/v1beta/models/g:streamGenerateContent?alt=sse' },
    ],
  ])('meters and reads POST %s', (target, expected) => {
    expect(classifyRequest('POST', target)).toMatchObject(expected);
  });

  it.each([
    ['/v1/messages/batches', 'anthropic'],
    ['/v1/complete', 'anthropic'],
    ['/v1/threads/runs', 'openai'],
    ['/v1/threads/thread_1/runs', 'openai'],
    ['/v1/images/generations', 'openai'],
    ['/v1/batches', 'openai'],
    ['/v1beta/models/g:batchGenerateContent', 'gemini'],
    ['/v1beta/models/g:embedContent', 'gemini'],
    ['/v1beta/tunedModels/t:batchEmbedContents', 'gemini'],
  ])('meters POST %s as unreadable, whatever the host', (target, api) => {
    expect(classifyRequest('POST', target)).toMatchObject({
      kind: 'unreadable',
      api,
      why: expect.any(String),
    });
  });

  it('on a metered host, counts every other POST as unreadable, in the family its headers name', () => {
    expect(classifyRequest('POST', '/v2/anything', ['anthropic-version', '2023-06-01'], true)).toMatchObject({
      kind: 'unreadable',
      api: 'anthropic',
    });
    expect(classifyRequest('POST', '/x', ['X-Goog-Api-Key', 'k'], true)).toMatchObject({ api: 'gemini' });
    expect(classifyRequest('POST', '/x', [], true)).toMatchObject({ api: 'openai' });
    expect(classifyRequest('POST', '/x')).toBeUndefined();
  });

  it.each([
    ['GET', '/v1/messages'],
    ['GET', '/v1/models'],
    ['POST', '/v1/messages/count_tokens'],
    ['POST', '/v1beta/models/gemini:countTokens'],
    ['POST', '/v1/responses/input_tokens'],
  ])('lets %s %s pass free on a metered host', (method, target) => {
    expect(classifyRequest(method, target, [], true)).toEqual({ kind: 'free' });
  });

  it('does not meter other hosts’ requests that are not a model API', () => {
    expect(classifyRequest('GET', '/v1/messages')).toBeUndefined();
    expect(classifyRequest('POST', '/v1/models')).toBeUndefined();
  });
});

describe('withIncludeUsage', () => {
  const body = (value: unknown) => Buffer.from(JSON.stringify(value));
  const parsed = (r: ReturnType<typeof withIncludeUsage>) =>
    JSON.parse(('body' in r ? r.body : Buffer.from('')).toString());

  it('asks a stream for its usage, keeping the other stream options', () => {
    expect(parsed(withIncludeUsage(body({ model: 'm', stream: true })))).toEqual({
      model: 'm',
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(
      parsed(withIncludeUsage(body({ stream: true, stream_options: { include_usage: false, x: 1 } }))),
    ).toEqual({ stream: true, stream_options: { include_usage: true, x: 1 } });
  });

  it('leaves an answer that is not streamed, or already asks, byte for byte', () => {
    const plain = body({ model: 'm', messages: [] });
    expect(withIncludeUsage(plain)).toEqual({ body: plain });
    const asks = body({ stream: true, stream_options: { include_usage: true } });
    expect(withIncludeUsage(asks)).toEqual({ body: asks });
  });

  it('says why a body cannot be read', () => {
    expect(withIncludeUsage(Buffer.from('{"stream":tru'))).toEqual({
      why: 'a request body that is not JSON',
    });
    expect(withIncludeUsage(Buffer.from('[1]'))).toEqual({ why: 'a request body that is not a JSON object' });
  });
});

describe('budgetAnswer', () => {
  it("gives Gemini Google's error shape with a RetryInfo of a day, and every API x-should-retry: false", () => {
    const gemini = budgetAnswer('gemini', 'spent');
    expect(JSON.parse(gemini.body)).toEqual({
      error: {
        code: 429,
        message: 'worktree-sandbox: spent',
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '86400s' }],
      },
    });
    for (const api of ['anthropic', 'openai', 'gemini'] as const)
      expect(budgetAnswer(api, 'x')).toMatchObject({
        statusCode: 429,
        headers: { 'x-should-retry': 'false' },
      });
    expect(JSON.parse(budgetAnswer('anthropic', 'x').body).error.type).toBe('rate_limit_error');
    expect(JSON.parse(budgetAnswer('openai', 'x').body).error.code).toBe('insufficient_quota');
  });
});
