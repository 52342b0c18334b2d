// Scripted fakes of the three model APIs the agent CLIs speak (Anthropic Messages for Claude Code, OpenAI
// Responses for Codex CLI, Gemini generateContent for Gemini CLI), for test/e2e/agents/. Each answers the
// real CLI as its model would: first a call of the CLI's own file tool that writes a file in the work tree,
// then one that writes the reply file, then a final text. The turn is read from the conversation the CLI
// sends (how many tool results it holds), so a CLI's retries and side requests do not shift the script.
// Every request is recorded (its key header, its path) and every answer's usage added up, so a test can
// compare what the action reported with what this fake billed.
import type * as http from 'node:http';
import type { Handler } from './network.js';

/** What the fake billed, in the action's terms: `input` counts cached input tokens too. */
export interface Billed {
  requests: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface ScriptedFake {
  handler: Handler;
  /** The key of every request that reached the fake (its header, without `Bearer `), in order. */
  keys: string[];
  /** Method and path of every request. */
  paths: string[];
  /** The body of every request (the first 200,000 characters). */
  requests: string[];
  /** The body of every request that is a turn of the conversation (not a side question), in order. */
  turns: string[];
  /** The usage of every answer the fake gave with a usage, summed per model. */
  billed: Map<string, Billed>;
  /** When the first and the last request arrived (ms since the epoch), 0 before. */
  firstAt: number;
  lastAt: number;
}

/** What the script writes: a file in the work tree, and the reply. */
export const EDIT_FILE = 'FIXED_BY_AGENT.md';
export const EDIT_TEXT = 'The failing test is fixed.\n';
export const REPLY_TEXT = 'I wrote FIXED_BY_AGENT.md, as the comment asked.';
export const FINAL_TEXT = 'Done: one file written, and the reply.';

const REPLY_PATH = /(\/[^\s"'\\]*\/reply\.md)/;

function newFake(header: string): ScriptedFake {
  const fake: ScriptedFake = {
    handler: () => undefined,
    keys: [],
    paths: [],
    requests: [],
    turns: [],
    billed: new Map(),
    firstAt: 0,
    lastAt: 0,
  };
  fake.handler = (req) => {
    fake.lastAt = Date.now();
    if (!fake.firstAt) fake.firstAt = fake.lastAt;
    fake.keys.push(String(req.headers[header]).replace(/^Bearer /, ''));
    fake.paths.push(`${req.method} ${req.url}`);
  };
  return fake;
}

function bill(fake: ScriptedFake, model: string, usage: Omit<Billed, 'requests'>): void {
  const row = fake.billed.get(model) ?? { requests: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  row.requests++;
  row.input += usage.input;
  row.output += usage.output;
  row.cacheRead += usage.cacheRead;
  row.cacheWrite += usage.cacheWrite;
  fake.billed.set(model, row);
}

function body(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (d: Buffer) => {
      if (text.length < 8_000_000) text += d.toString();
    });
    req.on('end', () => resolve(text));
  });
}

function sse(res: http.ServerResponse, events: Array<[string | undefined, unknown]>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [event, data] of events)
    res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  res.end();
}

function refuse(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message } }));
}

/** The path of the reply file, from the prompt the CLI sent (the shell put it there). */
function replyPath(text: string): string {
  return REPLY_PATH.exec(text)?.[1] ?? '/run/worktree-sandbox/reply/reply.md';
}

/**
 * Claude Code: `POST /v1/messages` (streamed), tools `Write` (absolute `file_path`, `content`). The work
 * tree is the "Primary working directory" of its system prompt.
 */
export function claudeFake(key: string): ScriptedFake {
  const fake = newFake('x-api-key');
  const record = fake.handler;
  fake.handler = (req, res) => {
    record(req, res);
    void body(req).then((text) => {
      fake.requests.push(text.slice(0, 200_000));
      if (req.headers['x-api-key'] !== key) return refuse(res, 401, 'invalid x-api-key');
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) return refuse(res, 404, 'not here');
      const request = JSON.parse(text) as { model: string; tools?: unknown[]; messages: unknown[] };
      const all = JSON.stringify(request);
      if (request.tools?.length) fake.turns.push(all.slice(0, 200_000));
      const turn = (all.match(/"type":"tool_result"/g) ?? []).length;
      const cwd = /Primary working directory: ([^\s\\]+)/.exec(all)?.[1] ?? '/tmp';
      const call = (input: Record<string, string>) => ({
        type: 'tool_use',
        id: `toolu_${turn}`,
        name: 'Write',
        input,
      });
      const content = !request.tools?.length
        ? { type: 'text', text: 'ok' }
        : turn === 0
          ? call({ file_path: `${cwd}/${EDIT_FILE}`, content: EDIT_TEXT })
          : turn === 1
            ? call({ file_path: replyPath(all), content: REPLY_TEXT })
            : { type: 'text', text: FINAL_TEXT };
      const usage = {
        input_tokens: 100 + turn,
        output_tokens: 20 + turn,
        cache_read_input_tokens: 7,
        cache_creation_input_tokens: 3,
      };
      bill(fake, request.model, {
        input: usage.input_tokens + 10,
        output: usage.output_tokens,
        cacheRead: 7,
        cacheWrite: 3,
      });
      const { input, ...start } = content as { input?: unknown; type: string };
      sse(res, [
        [
          'message_start',
          {
            type: 'message_start',
            message: {
              id: `msg_${turn}`,
              type: 'message',
              role: 'assistant',
              model: request.model,
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage: { ...usage, output_tokens: 1 },
            },
          },
        ],
        [
          'content_block_start',
          {
            type: 'content_block_start',
            index: 0,
            content_block: input ? { ...start, input: {} } : { type: 'text', text: '' },
          },
        ],
        [
          'content_block_delta',
          input
            ? {
                type: 'content_block_delta',
                index: 0,
                delta: { type: 'input_json_delta', partial_json: JSON.stringify(input) },
              }
            : {
                type: 'content_block_delta',
                index: 0,
                delta: { type: 'text_delta', text: (content as { text: string }).text },
              },
        ],
        ['content_block_stop', { type: 'content_block_stop', index: 0 }],
        [
          'message_delta',
          {
            type: 'message_delta',
            delta: { stop_reason: input ? 'tool_use' : 'end_turn', stop_sequence: null },
            usage: { output_tokens: usage.output_tokens },
          },
        ],
        ['message_stop', { type: 'message_stop' }],
      ]);
    });
  };
  return fake;
}

/**
 * Codex CLI: `POST /v1/responses` (streamed; a `GET` asks for a WebSocket first, refused so that it falls
 * back to HTTPS). Its tools are reached through its `exec` tool (JavaScript that calls `tools.apply_patch`
 * with a patch); relative paths are the work tree's.
 */
export function codexFake(key: string): ScriptedFake {
  const fake = newFake('authorization');
  const record = fake.handler;
  fake.handler = (req, res) => {
    record(req, res);
    void body(req).then((text) => {
      fake.requests.push(text.slice(0, 200_000));
      if (req.headers.authorization !== `Bearer ${key}`) return refuse(res, 401, 'invalid key');
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/responses')) return refuse(res, 404, 'not here');
      const request = JSON.parse(text) as { model: string };
      const all = JSON.stringify(request);
      fake.turns.push(all.slice(0, 200_000));
      const turn = (all.match(/"type":"custom_tool_call_output"/g) ?? []).length;
      const patch = (file: string, content: string) =>
        `await tools.apply_patch(${JSON.stringify(`*** Begin Patch\n*** Add File: ${file}\n+${content.trimEnd()}\n*** End Patch\n`)});`;
      const item =
        turn === 0
          ? {
              type: 'custom_tool_call',
              id: 'ctc_0',
              call_id: 'call_0',
              name: 'exec',
              input: patch(EDIT_FILE, EDIT_TEXT),
              status: 'completed',
            }
          : turn === 1
            ? {
                type: 'custom_tool_call',
                id: 'ctc_1',
                call_id: 'call_1',
                name: 'exec',
                input: patch(replyPath(all), REPLY_TEXT),
                status: 'completed',
              }
            : {
                type: 'message',
                id: 'msg_2',
                role: 'assistant',
                status: 'completed',
                content: [{ type: 'output_text', text: FINAL_TEXT, annotations: [] }],
              };
      const usage = {
        input_tokens: 200 + turn,
        input_tokens_details: { cached_tokens: 50 },
        output_tokens: 30 + turn,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 230 + 2 * turn,
      };
      bill(fake, request.model, {
        input: usage.input_tokens,
        output: usage.output_tokens,
        cacheRead: 50,
        cacheWrite: 0,
      });
      const response = {
        id: `resp_${turn}`,
        object: 'response',
        created_at: 1,
        model: request.model,
        status: 'in_progress',
        output: [] as unknown[],
      };
      sse(res, [
        ['response.created', { type: 'response.created', sequence_number: 0, response }],
        [
          'response.output_item.added',
          { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item },
        ],
        [
          'response.output_item.done',
          { type: 'response.output_item.done', sequence_number: 2, output_index: 0, item },
        ],
        [
          'response.completed',
          {
            type: 'response.completed',
            sequence_number: 3,
            response: { ...response, status: 'completed', output: [item], usage },
          },
        ],
      ]);
    });
  };
  return fake;
}

/**
 * Gemini CLI: `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` for its turns and
 * `:generateContent` for its side questions (the model router), tool `write_file` (`file_path`,
 * `content`). The work tree is its first "Workspace Directories" entry.
 */
export function geminiFake(key: string): ScriptedFake {
  const fake = newFake('x-goog-api-key');
  const record = fake.handler;
  fake.handler = (req, res) => {
    record(req, res);
    void body(req).then((text) => {
      fake.requests.push(text.slice(0, 200_000));
      if (req.headers['x-goog-api-key'] !== key) return refuse(res, 401, 'API key not valid');
      const route = /^\/v1beta\/models\/([^:/]+):(generateContent|streamGenerateContent)/.exec(req.url ?? '');
      if (req.method !== 'POST' || !route) return refuse(res, 404, 'not here');
      const [, model, method] = route;
      const all = text;
      if (method === 'streamGenerateContent') fake.turns.push(all.slice(0, 200_000));
      const turn = (all.match(/"functionResponse"/g) ?? []).length;
      const cwd = /Workspace Directories:\*\*\\n\s*- ([^\s\\]+)/.exec(all)?.[1] ?? '/tmp';
      const write = (file_path: string, content: string) => ({
        functionCall: { name: 'write_file', args: { file_path, content } },
      });
      const part =
        method === 'generateContent'
          ? { text: JSON.stringify({ reasoning: 'a simple edit', complexity_score: 10 }) }
          : turn === 0
            ? write(`${cwd}/${EDIT_FILE}`, EDIT_TEXT)
            : turn === 1
              ? write(replyPath(all), REPLY_TEXT)
              : { text: FINAL_TEXT };
      const usageMetadata = {
        promptTokenCount: 300 + turn,
        candidatesTokenCount: 40 + turn,
        thoughtsTokenCount: 5,
        cachedContentTokenCount: 60,
        totalTokenCount: 345 + 2 * turn,
      };
      bill(fake, model, {
        input: usageMetadata.promptTokenCount,
        output: usageMetadata.candidatesTokenCount + 5,
        cacheRead: 60,
        cacheWrite: 0,
      });
      const chunk = {
        candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
        usageMetadata,
        modelVersion: model,
      };
      if (method === 'generateContent') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(chunk));
        return;
      }
      sse(res, [[undefined, chunk]]);
    });
  };
  return fake;
}
