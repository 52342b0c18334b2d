// The short chain a request to the proxy passes, each handler with one job, in the way mitmproxy's addons
// each do one thing: policy (is it allowed) → credentials (which key, and where a key's host is served) →
// meter (a model API in clear, against the budget) → tally (what went where). Every handler's checks run
// first; a refusal is told to every handler and answered by proxy-chain; then the first handler that
// routes the request takes it, and a request none takes is tunneled or forwarded as it is (proxy.ts).
import type * as http from 'node:http';
import { RequestError, type PrepareRequestFunctionResult } from 'proxy-chain';
import type { Credential } from './policy.js';
import type { Refusal } from './request-rules.js';

/** One host name's length in a row and in a refusal's message. */
export const MAX_HOST_CHARS = 253;

/** One request proxy-chain parsed: a CONNECT (`isHttp` false) or a plain-HTTP request. */
export interface Flow {
  connectionId: number;
  request: http.IncomingMessage;
  /** Normalised (policy.ts). */
  host: string;
  port: number;
  isHttp: boolean;
  /** The credentials a plain-HTTP request carries on (set by handlers/credentials.ts). */
  credentials: readonly Credential[];
}

/** Ours instead of proxy-chain's own tunnel or forward: `customConnectServer` or `customResponseFunction`. */
export type Route = PrepareRequestFunctionResult;

/** `host`: the host refused, the request's or the one its Host header asked for. */
export type Refused = Refusal & { host: string };

export interface Handler {
  /** Why the request is refused, or undefined. */
  check?(flow: Flow): Refused | undefined;
  /** The request passed every check. */
  allowed?(flow: Flow): void;
  /** A request was refused, here or inside a tunnel the proxy ended (host cut to MAX_HOST_CHARS). */
  refused?(host: string, port: number, reason: string): void;
  /** Where the request goes, when this handler takes it. */
  route?(flow: Flow): Route | undefined | Promise<Route | undefined>;
  /** A connection proxy-chain served has closed, with its byte counts. */
  closed?(connectionId: number, stats: Record<string, number> | undefined): void;
}

/** Runs `flow` through `handlers`: the route one of them chose, or undefined. Throws proxy-chain's refusal. */
export async function runChain(handlers: readonly Handler[], flow: Flow): Promise<Route | undefined> {
  for (const handler of handlers) {
    const refusal = handler.check?.(flow);
    if (!refusal) continue;
    const host = refusal.host.slice(0, MAX_HOST_CHARS);
    for (const each of handlers) each.refused?.(host, flow.port, refusal.reason);
    throw new RequestError(
      `worktree-sandbox network: ${host}:${flow.port} refused (${refusal.reason})`,
      refusal.status,
    );
  }
  for (const handler of handlers) handler.allowed?.(flow);
  for (const handler of handlers) {
    const route = await handler.route?.(flow);
    if (route) return route;
  }
  return undefined;
}
