// The usage scanner: each family's answers, JSON and streamed, fed whole, a byte at a time and split at
// every byte boundary; usage inside the content is not taken; the bounds hold.
import { describe, expect, it } from '@jest/globals';
import { MAX_HELD_BYTES, UsageScanner, type ScannedAnswer, type Usage } from './usage-scanner.js';
import type { ModelApi } from './model-apis.js';

const sse = (events: Array<[string | undefined, unknown]>) =>
  events
    .map(([event, data]) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`)
    .join('');

const ANTHROPIC_STREAM = sse([
  [
    'message_start',
    {
      type: 'message_start',
      message: {
        id: 'msg_1',
        model: 'claude-test',
        content: [],
        usage: {
          input_tokens: 25,
          output_tokens: 1,
          cache_read_input_tokens: 5,
          cache_creation_input_tokens: 3,
        },
      },
    },
  ],
  [
    'content_block_delta',
    { type: 'content_block_delta', delta: { type: 'text_delta', text: '"usage":{"input_tokens":0}' } },
  ],
  [
    'message_delta',
    { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 15 } },
  ],
  ['message_stop', { type: 'message_stop' }],
]);

const OPENAI_STREAM =
  sse([
    [
      undefined,
      {
        id: 'c',
        object: 'chat.completion.chunk',
        model: 'gpt-test',
        choices: [{ delta: { content: 'hi' } }],
        usage: null,
      },
    ],
    [
      undefined,
      {
        id: 'c',
        object: 'chat.completion.chunk',
        model: 'gpt-test',
        choices: [],
        usage: { prompt_tokens: 11, completion_tokens: 4, prompt_tokens_details: { cached_tokens: 2 } },
      },
    ],
  ]) + 'data: [DONE]\n\n';

const RESPONSES_STREAM = sse([
  ['response.created', { type: 'response.created', response: { model: 'gpt-r', usage: null } }],
  ['response.output_text.delta', { type: 'response.output_text.delta', delta: 'x' }],
  [
    'response.completed',
    {
      type: 'response.completed',
      response: {
        model: 'gpt-r',
        output: [],
        usage: { input_tokens: 9, output_tokens: 6, input_tokens_details: { cached_tokens: 1 } },
      },
    },
  ],
]);

// Gemini writes a space after each colon.
const GEMINI_STREAM = [
  'data: {"candidates": [{"content": {"parts": [{"text": "a"}]}}], "usageMetadata": {"promptTokenCount": 8}, "modelVersion": "gemini-test"}\r\n\r\n',
  'data: {"candidates": [{"content": {"parts": [{"text": "b"}]}}], "usageMetadata": {"promptTokenCount": 8, "candidatesTokenCount": 12, "thoughtsTokenCount": 3, "cachedContentTokenCount": 4}, "modelVersion": "gemini-test"}\r\n\r\n',
].join('');

function scan(api: ModelApi, format: 'json' | 'sse', text: string, cuts: number[] = []): ScannedAnswer {
  const scanner = new UsageScanner(api, format);
  const bytes = Buffer.from(text);
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    scanner.write(bytes.subarray(from, cut));
    from = cut;
  }
  return scanner.end();
}

const cases: Array<[string, ModelApi, 'json' | 'sse', string, ScannedAnswer]> = [
  [
    'Anthropic streamed (cache tokens are input too)',
    'anthropic',
    'sse',
    ANTHROPIC_STREAM,
    { usage: { input: 33, output: 15, cacheRead: 5, cacheWrite: 3 }, model: 'claude-test', overBound: false },
  ],
  [
    'Anthropic JSON, a tool input holding a usage key',
    'anthropic',
    'json',
    JSON.stringify({
      model: 'claude-test',
      content: [{ type: 'tool_use', input: { usage: { input_tokens: 0, output_tokens: 0 } } }],
      usage: { input_tokens: 1, output_tokens: 7 },
    }),
    { usage: { input: 1, output: 7, cacheRead: 0, cacheWrite: 0 }, model: 'claude-test', overBound: false },
  ],
  [
    'OpenAI Chat Completions streamed with include_usage',
    'openai',
    'sse',
    OPENAI_STREAM,
    { usage: { input: 11, output: 4, cacheRead: 2, cacheWrite: 0 }, model: 'gpt-test', overBound: false },
  ],
  [
    'OpenAI Responses streamed',
    'openai',
    'sse',
    RESPONSES_STREAM,
    { usage: { input: 9, output: 6, cacheRead: 1, cacheWrite: 0 }, model: 'gpt-r', overBound: false },
  ],
  [
    'OpenAI Embeddings JSON',
    'openai',
    'json',
    JSON.stringify({
      object: 'list',
      data: [{ embedding: [0.1, 0.2] }],
      model: 'emb',
      usage: { prompt_tokens: 5, total_tokens: 5 },
    }),
    { usage: { input: 5, output: 0, cacheRead: 0, cacheWrite: 0 }, model: 'emb', overBound: false },
  ],
  [
    'Gemini streamed (thoughts are output)',
    'gemini',
    'sse',
    GEMINI_STREAM,
    { usage: { input: 8, output: 15, cacheRead: 4, cacheWrite: 0 }, model: 'gemini-test', overBound: false },
  ],
  [
    'Gemini streamed as a JSON array (no alt=sse)',
    'gemini',
    'json',
    '[{"usageMetadata": {"promptTokenCount": 2}},\r\n{"usageMetadata": {"promptTokenCount": 2, "candidatesTokenCount": 6}, "modelVersion": "g"}]',
    { usage: { input: 2, output: 6, cacheRead: 0, cacheWrite: 0 }, model: 'g', overBound: false },
  ],
  [
    'OpenAI streamed without usage',
    'openai',
    'sse',
    sse([[undefined, { model: 'gpt-test', choices: [{ delta: { content: 'hi' } }] }]]),
    { usage: undefined, model: 'gpt-test', overBound: false },
  ],
];

describe('UsageScanner', () => {
  it.each(cases)('%s: whole', (_name, api, format, text, expected) => {
    expect(scan(api, format, text)).toEqual(expected);
  });

  it.each(cases)('%s: a byte at a time', (_name, api, format, text, expected) => {
    const length = Buffer.byteLength(text);
    expect(
      scan(
        api,
        format,
        text,
        Array.from({ length }, (_, i) => i),
      ),
    ).toEqual(expected);
  });

  it.each(cases)('%s: split in two at every byte boundary', (_name, api, format, text, expected) => {
    for (let cut = 0; cut <= Buffer.byteLength(text); cut++)
      expect(scan(api, format, text, [cut])).toEqual(expected);
  });

  it('does not take usage written as text by the model, streamed', () => {
    const text = sse([
      [
        'message_start',
        { type: 'message_start', message: { model: 'm', usage: { input_tokens: 3, output_tokens: 1 } } },
      ],
      [
        'content_block_delta',
        { type: 'content_block_delta', delta: { text: 'data: {"usage":{"output_tokens":0}}\n' } },
      ],
      ['message_delta', { type: 'message_delta', usage: { output_tokens: 9 } }],
    ]);
    expect(scan('anthropic', 'sse', text).usage).toEqual({
      input: 3,
      output: 9,
      cacheRead: 0,
      cacheWrite: 0,
    });
  });

  it('holds at most the bound of a JSON answer, and says when one was over it', () => {
    const big = JSON.stringify({
      model: 'm',
      content: 'x'.repeat(MAX_HELD_BYTES),
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    const scanner = new UsageScanner('anthropic', 'json');
    for (let i = 0; i < big.length; i += 65536) scanner.write(Buffer.from(big.slice(i, i + 65536)));
    expect((scanner as unknown as { heldBytes: number }).heldBytes).toBe(0);
    expect(scanner.end()).toEqual({ usage: undefined, model: undefined, overBound: true });
  });

  it('reads a long stream line by line as it comes, holding only the unfinished line, and hands on each usage at once', () => {
    const text =
      sse([
        [
          'message_start',
          { type: 'message_start', message: { model: 'm', usage: { input_tokens: 4, output_tokens: 1 } } },
        ],
      ]) +
      sse([[undefined, { type: 'content_block_delta', delta: { text: 'y'.repeat(200_000) } }]]) +
      sse([[undefined, { type: 'content_block_delta', delta: { text: 'z' } }]]).repeat(30_000) +
      sse([[undefined, { type: 'message_delta', usage: { output_tokens: 2 } }]]);
    const reported: Array<[number, Usage]> = [];
    const bytes = Buffer.from(text);
    let at = 0;
    const scanner = new UsageScanner('anthropic', 'sse', (usage) => reported.push([at, usage]));
    const state = scanner as unknown as { heldBytes: number };
    let most = 0;
    for (; at < bytes.length; at += 4096) {
      scanner.write(bytes.subarray(at, at + 4096));
      most = Math.max(most, state.heldBytes);
    }
    // The longest line (200 KB) is the most held.
    expect(most).toBeLessThan(210_000);
    // message_start's input tokens in the first chunk, not at the end.
    expect(reported[0]).toEqual([0, { input: 4, output: 1, cacheRead: 0, cacheWrite: 0 }]);
    expect(reported.at(-1)![1]).toEqual({ input: 4, output: 2, cacheRead: 0, cacheWrite: 0 });
    expect(scanner.end()).toEqual({
      usage: { input: 4, output: 2, cacheRead: 0, cacheWrite: 0 },
      model: 'm',
      overBound: false,
    });
  });

  it("reads a Responses stream's final event of 600 KB, and says when a line is past the bound", () => {
    const final = sse([
      [
        'response.completed',
        {
          type: 'response.completed',
          response: {
            model: 'gpt-x',
            output: [{ type: 'message', content: [{ type: 'output_text', text: 'w'.repeat(600_000) }] }],
            usage: { input_tokens: 11, output_tokens: 150_000 },
          },
        },
      ],
    ]);
    expect(scan('openai', 'sse', final)).toEqual({
      usage: { input: 11, output: 150_000, cacheRead: 0, cacheWrite: 0 },
      model: 'gpt-x',
      overBound: false,
    });
    // Past the bound by more than a read, so that reads go on being skipped.
    const past = `data: {"type":"x","text":"${'v'.repeat(MAX_HELD_BYTES + 200_000)}"}\n\n`;
    // As a socket hands it on, in 64 KiB reads.
    const reads = (text: string) =>
      Array.from({ length: Math.floor(Buffer.byteLength(text) / 65536) }, (_, i) => (i + 1) * 65536);
    const text = past + final;
    expect(scan('openai', 'sse', text, reads(text))).toMatchObject({
      overBound: true,
      usage: { output: 150_000 },
    });
    // The model named first: the read that ends the line past the bound holds no key at all.
    const named = sse([[undefined, { type: 'response.created', response: { model: 'gpt-x' } }]]) + text;
    expect(scan('openai', 'sse', named, reads(named))).toMatchObject({
      overBound: true,
      usage: { output: 150_000 },
    });
  });

  it('reads an Embeddings answer of 3.5 MB whole', () => {
    const vector = Array.from({ length: 3072 }, (_, i) => -0.012345678 + i / 1e6);
    const answer = JSON.stringify({
      object: 'list',
      data: Array.from({ length: 16 }, (_, index) => ({ object: 'embedding', index, embedding: vector })),
      model: 'text-embedding-3-large',
      usage: { prompt_tokens: 64, total_tokens: 64 },
    });
    const big = answer.replace(
      '"object":"list"',
      `"object":"list","pad":"${'p'.repeat(3_500_000 - answer.length)}"`,
    );
    expect(big.length).toBeGreaterThanOrEqual(3_500_000);
    expect(scan('openai', 'json', big)).toEqual({
      usage: { input: 64, output: 0, cacheRead: 0, cacheWrite: 0 },
      model: 'text-embedding-3-large',
      overBound: false,
    });
  });
});
