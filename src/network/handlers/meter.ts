// The chain's meter handler (chain.ts): a plain-HTTP request to a model API (model-apis.ts) is decided
// against the run's budget before anything is sent, and answered here or sent on by send-on.ts instead of
// proxy-chain's `forward`, so that its answer passes the usage scanner. On a host with a credential, every
// POST counts. (Requests inside a tunnel the proxy ends are metered by interceptor.ts, on the same path.)
import type { Handler } from '../chain.js';
import { serveModelRequest } from '../metered-request.js';
import { classifyRequest } from '../model-apis.js';
import type { ModelMeter } from '../model-meter.js';
import { upstreamHeaders } from '../request-rules.js';
import type { plainResponses } from '../send-on.js';

/** Hands a plain request's response to `serve`. */
type ServePlain = ReturnType<typeof plainResponses>;

export function meterHandler(meter: ModelMeter, servePlain: ServePlain): Handler {
  return {
    route({ request, host, port, isHttp, credentials }) {
      if (!isHttp) return undefined;
      const call = classifyRequest(
        request.method,
        request.url ?? '',
        request.rawHeaders,
        credentials.length > 0,
      );
      if (!call) return undefined;
      const target = new URL(request.url ?? '/', `http://${host}`);
      const send = {
        protocol: 'http' as const,
        host,
        port,
        headers: upstreamHeaders(request.rawHeaders, host, port, credentials),
      };
      const path = `${target.pathname}${target.search}`;
      return {
        customResponseFunction: () =>
          servePlain(request, (res) =>
            serveModelRequest(request, res, call, { meter, host, port, path, send }),
          ),
      };
    },
  };
}
