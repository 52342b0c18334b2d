// One request to a model API the proxy sees in clear, decided against the run's budget and then answered
// here (429, in the API's own format) or sent on with its answer metered: the one path for requests inside
// a tunnel the proxy ends (interceptor.ts) and for plain-HTTP ones (proxy.ts). Where the usage can be made
// readable, the request is changed first: an OpenAI (chat) completions stream is asked for its usage
// (`stream_options.include_usage`, as gateways do), which means holding its body, within a bound, to read
// `stream`. ADR 0009, docs/network.md.
import type * as http from 'node:http';
import { budgetAnswer, type ModelRequest } from './model-apis.js';
import type { ModelMeter } from './model-meter.js';
import { sendOn, type SendOnOptions } from './send-on.js';
import { valuesOf } from './request-rules.js';

/** The most of a request body held to add `include_usage`; past it the body is sent on as it is. */
export const MAX_REWRITE_BYTES = 32 * 1024 * 1024;

type BodyRead = { body: Buffer } | { head: Buffer[]; why: string };

/** The request's body, whole, or the part read when it is past the bound (the rest still to come). */
function readBody(req: http.IncomingMessage): Promise<BodyRead> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      parts.push(chunk);
      size += chunk.length;
      if (size > MAX_REWRITE_BYTES) {
        req.off('data', onData);
        req.off('end', onEnd);
        req.pause();
        resolve({ head: parts, why: `a request body over ${MAX_REWRITE_BYTES / 1024 / 1024} MiB` });
      }
    };
    const onEnd = () => resolve({ body: Buffer.concat(parts) });
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', () => resolve({ head: parts, why: 'a request body that did not arrive whole' }));
  });
}

/**
 * An OpenAI (chat) completions body with `stream_options.include_usage` set when it streams, or why it
 * cannot be read (the answer would then carry no usage).
 */
export function withIncludeUsage(body: Buffer): { body: Buffer } | { why: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return { why: 'a request body that is not JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { why: 'a request body that is not a JSON object' };
  const request = parsed as Record<string, unknown>;
  if (request.stream !== true) return { body };
  const options = request.stream_options;
  if (typeof options === 'object' && options !== null && !Array.isArray(options)) {
    if ((options as Record<string, unknown>).include_usage === true) return { body };
    request.stream_options = { ...(options as Record<string, unknown>), include_usage: true };
  } else request.stream_options = { include_usage: true };
  return { body: Buffer.from(JSON.stringify(request)) };
}

/** Whether the request's body is encoded (gzip...): then it cannot be read, nor changed. */
function encodedBody(headers: readonly string[]): boolean {
  return valuesOf(headers, 'content-encoding').some((v) => v.trim().toLowerCase() !== 'identity');
}

export interface MeteredTarget {
  meter: ModelMeter;
  host: string;
  port: number;
  /** The request's target in origin form, for a free request (a metered one is sent to its `call.path`). */
  path: string;
  /** How to send it on, less its path, body and meter. */
  send: Omit<SendOnOptions, 'path' | 'meter' | 'body' | 'head'>;
}

/** Decides `req` (classified as `call`) against the budget, and refuses it or sends it on; settles when done. */
export async function serveModelRequest(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  call: ModelRequest,
  target: MeteredTarget,
): Promise<void> {
  if (call.kind === 'free') return sendOn(req, res, { ...target.send, path: target.path });
  const { meter, host, port } = target;
  let why = call.kind === 'unreadable' ? call.why : undefined;
  let body: Buffer | undefined;
  let head: Buffer[] | undefined;
  if (call.kind === 'metered' && call.rewrite === 'include-usage') {
    if (encodedBody(target.send.headers)) why = 'an encoded request body, which the proxy cannot read';
    else {
      const read = await readBody(req);
      if ('body' in read) {
        const rewritten = withIncludeUsage(read.body);
        if ('body' in rewritten) body = rewritten.body;
        else {
          body = read.body;
          why = rewritten.why;
        }
      } else {
        head = read.head;
        why = read.why;
      }
    }
  }
  const refused = meter.admit(why);
  if (refused) {
    req.resume();
    const answer = budgetAnswer(call.api, refused);
    res.writeHead(answer.statusCode, answer.headers);
    res.end(answer.body);
    return;
  }
  const open = meter.open(host, port, call.api, call.kind === 'metered' ? call.pathModel : undefined);
  return sendOn(req, res, {
    ...target.send,
    path: call.path,
    body,
    head,
    meter: { api: call.api, update: open.update, done: open.done },
  });
}
