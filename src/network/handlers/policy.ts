// The chain's first handler (chain.ts): is the request allowed. A plain-HTTP request is one request for
// one host, framed one way (request-rules.ts), so that what the server upstream parses is what is checked
// here; then its host and port are decided against the allow-list (policy.ts).
import type { Handler } from '../chain.js';
import { decide, type ProxiedPolicy } from '../policy.js';
import { framingRefusal, splitHostHeader } from '../request-rules.js';

export function policyHandler(policy: ProxiedPolicy): Handler {
  return {
    check({ request, host, port, isHttp }) {
      if (isHttp) {
        const framing = framingRefusal(request);
        if (framing) return { host, ...framing };
        const asked = request.headers.host === undefined ? '' : splitHostHeader(request.headers.host).host;
        if (asked && asked !== host)
          return {
            host: asked,
            reason: `the Host header differs from the request's host ${host}`,
            status: 403,
          };
      }
      const decision = decide(policy, host, port);
      return decision.allowed ? undefined : { host, reason: decision.reason, status: 403 };
    },
  };
}
