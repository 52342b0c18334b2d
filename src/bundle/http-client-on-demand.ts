// What the bundle gets for `import … from '@actions/http-client'` (tsconfig.json `paths`, which ncc's
// resolver follows; docs/adr/0008-undici-on-demand.md). @actions/core imports its OIDC client, and with
// it @actions/http-client, Node's http, https and tls, and tunnel (net, assert), the moment it is
// imported, although only `getIDToken` uses it, which this action never calls. Here the client is a
// chunk of its own, loaded by the one path that talks to GitHub (api.ts, before @actions/github, which
// builds its proxy agent with it as it loads). The copy loaded is the one @actions/github depends on:
// the only one that runs. The names are the ones the bundled toolkit imports (checked by
// on-demand.spec.ts).
import { onDemand } from './on-demand.js';

const client = onDemand(
  '@actions/http-client',
  'loadHttpClient',
  () => import('../../node_modules/@actions/github/node_modules/@actions/http-client/lib/index.js'),
);
type HttpClientModule = Awaited<ReturnType<typeof client.load>>;
const loaded = client.loaded;

/** Loads @actions/http-client (once); the GitHub API client awaits this before it loads @actions/github. */
export const loadHttpClient: () => Promise<HttpClientModule> = client.load;

/** A constructor that returns the real client, so callers get the toolkit's own class. */
export const HttpClient = function HttpClient(
  ...args: ConstructorParameters<HttpClientModule['HttpClient']>
) {
  return new (loaded().HttpClient)(...args);
} as unknown as HttpClientModule['HttpClient'];
