// The chain's credentials handler (chain.ts): which key a request carries, set by the proxy, never by the
// command. A key goes over TLS only, unless its line named `http://`: a tunnel to a host with a key is
// ended here (interceptor.ts), which sets the header on each request inside; a plain-HTTP request to a
// host whose line named `http://` carries the key on its ports only, and one whose key goes over TLS only
// is refused (in clear, anyone on the way could read it).
import type * as http from 'node:http';
import type { Flow, Handler } from '../chain.js';
import type { Interceptors } from '../interceptor.js';
import type { Credential } from '../policy.js';
import { headersWithout } from '../request-rules.js';

/** The credentials for a host and port: each on the ports its line allows, by its scheme. */
export function credentialsFor(
  credentials: readonly Credential[],
  host: string,
  port: number,
  scheme: Credential['scheme'],
): Credential[] {
  return credentials.filter((c) => c.host === host && c.ports.includes(port) && c.scheme === scheme);
}

export function credentialsHandler(credentials: readonly Credential[], interceptors: Interceptors): Handler {
  const over = (flow: Flow, scheme: Credential['scheme']) =>
    credentialsFor(credentials, flow.host, flow.port, scheme);
  return {
    check(flow) {
      if (!flow.isHttp || over(flow, 'https').length === 0) return undefined;
      const reason = `${flow.host} has a credential, which is sent over TLS only: use https://`;
      return { host: flow.host, reason, status: 403 };
    },
    async route(flow) {
      if (flow.isHttp) {
        flow.credentials = over(flow, 'http');
        return undefined;
      }
      // A tunnel to a host whose line named http:// carries plain HTTP: ended here too, for the header.
      for (const scheme of ['https', 'http'] as const)
        if (over(flow, scheme).length > 0)
          return {
            customConnectServer: (await interceptors.get(flow.host, flow.port, scheme)) as http.Server,
          };
      return undefined;
    },
  };
}

/** A plain request forwarded as it is, with its credentials: any header of theirs replaced, then added. */
export function setCredentials(flow: Flow): void {
  if (flow.credentials.length === 0) return;
  const raw = flow.request.rawHeaders;
  const names = new Set(flow.credentials.map((c) => c.header.toLowerCase()));
  const added = flow.credentials.flatMap((c) => [c.header, c.value]);
  raw.splice(0, raw.length, ...headersWithout(raw, names, added));
}
