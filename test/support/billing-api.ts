// A fake model API that bills: it records every request that reaches it (method, path, what the body
// asked), whatever the path, and answers in the shape of Anthropic's, OpenAI's and Gemini's APIs, with
// the answers that step around a meter: batch, legacy and image endpoints (no usage), an OpenAI stream
// that carries usage only when asked (`stream_options.include_usage`), a Responses stream whose final
// event is 600 KB, an Embeddings answer of 3.5 MB, Gemini's `alt=proto`, and an Anthropic stream whose
// `message_start` reports its input tokens and then stays open a while. For test/security/model-budget.
import type * as http from 'node:http';
import type { Handler } from './network.js';

export interface Billed {
  method: string;
  url: string;
  /** The request asked for a streamed answer's usage (`stream_options.include_usage`). */
  includeUsage?: boolean;
  upgrade?: string;
}

/** Input tokens of the slow Anthropic stream's `message_start`; how long it stays open after it. */
export const SLOW_INPUT_TOKENS = 5_000;
export const SLOW_OPEN_MS = 6_000;
/** Tokens each read answer reports (input, output). */
export const BILLED_USAGE = { input: 7, output: 3 };
export const FINAL_EVENT_BYTES = 600_000;
export const EMBEDDINGS_BYTES = 3_500_000;

function body(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (d: Buffer) => {
      size += d.length;
      if (size < 1_000_000) parts.push(d);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(parts).toString()) as Record<string, unknown>);
      } catch {
        resolve({});
      }
    });
  });
}

const event = (data: unknown, name?: string) =>
  `${name ? `event: ${name}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

function json(res: http.ServerResponse, value: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

const { input, output } = BILLED_USAGE;

/** The handler; `billed` gets every request that reached it. */
export function billingApi(billed: Billed[]): Handler {
  return (req, res) => {
    void body(req).then((asked) => {
      const url = req.url ?? '';
      const options = asked.stream_options as { include_usage?: unknown } | undefined;
      billed.push({
        method: req.method ?? '',
        url,
        includeUsage: options?.include_usage === true,
        ...(req.headers.upgrade ? { upgrade: String(req.headers.upgrade) } : {}),
      });
      const p = url.split('?')[0];
      if (req.headers.upgrade) {
        res.writeHead(426);
        res.end();
      } else if (p === '/v1/messages' && asked.stream === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(
          event(
            {
              type: 'message_start',
              message: { model: 'claude-slow', usage: { input_tokens: SLOW_INPUT_TOKENS, output_tokens: 1 } },
            },
            'message_start',
          ),
        );
        setTimeout(() => {
          res.write(event({ type: 'content_block_delta', delta: { type: 'text_delta', text: 'slow' } }));
          res.write(event({ type: 'message_delta', usage: { output_tokens: 2 } }, 'message_delta'));
          res.end(event({ type: 'message_stop' }, 'message_stop'));
        }, SLOW_OPEN_MS);
      } else if (p === '/v1/messages')
        json(res, {
          type: 'message',
          model: 'claude-x',
          content: [{ type: 'text', text: 'hi' }],
          usage: { input_tokens: input, output_tokens: output },
        });
      else if (p === '/v1/chat/completions' && asked.stream === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(event({ model: 'gpt-x', choices: [{ index: 0, delta: { content: 'hi' } }] }));
        if (options?.include_usage === true)
          res.write(
            event({
              model: 'gpt-x',
              choices: [],
              usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
            }),
          );
        res.end('data: [DONE]\n\n');
      } else if (p === '/v1/responses') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(event({ type: 'response.created', response: { model: 'gpt-r', usage: null } }));
        const text = 'r'.repeat(FINAL_EVENT_BYTES);
        res.end(
          event({
            type: 'response.completed',
            response: {
              model: 'gpt-r',
              output: [{ type: 'message', content: [{ type: 'output_text', text }] }],
              usage: { input_tokens: input, output_tokens: output },
            },
          }),
        );
      } else if (p === '/v1/embeddings') {
        const answer = {
          object: 'list',
          pad: '',
          data: [{ object: 'embedding', index: 0, embedding: [0.5] }],
          model: 'emb-x',
          usage: { prompt_tokens: input, total_tokens: input },
        };
        answer.pad = 'e'.repeat(EMBEDDINGS_BYTES - JSON.stringify(answer).length);
        json(res, answer);
      } else if (/:(?:stream)?generateContent$/.test(p)) {
        const alt = new URL(url, 'http://x').searchParams.get('alt');
        if (alt === 'proto') {
          res.writeHead(200, { 'content-type': 'application/x-protobuf' });
          res.end(Buffer.from([0x0a, 0x02, 0x68, 0x69]));
        } else
          json(res, {
            candidates: [{ content: { parts: [{ text: 'hi' }] } }],
            modelVersion: 'gemini-x',
            usageMetadata: { promptTokenCount: input, candidatesTokenCount: output },
          });
      } else json(res, { id: 'billed-without-usage', object: 'anything' });
    });
  };
}
