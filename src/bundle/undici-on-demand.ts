// What the bundle gets for `import … from 'undici'` (tsconfig.json `paths`, which ncc's resolver follows;
// see docs/adr/0008-undici-on-demand.md). @actions/core loads its OIDC client, and with it
// @actions/http-client and undici, the moment it is imported, although only `getIDToken` uses it: a
// third of the bundle parsed and evaluated at every start, for a client this action never calls. Here
// undici is a chunk of its own, loaded by the one path that talks to GitHub (api.ts, before Octokit is
// made). The names are the ones the bundled toolkit imports (checked by on-demand.spec.ts).
import { onDemand } from './on-demand.js';

const undici = onDemand('undici', 'loadUndici', () => import('../../node_modules/undici/index.js'));
type Undici = Awaited<ReturnType<typeof undici.load>>;
const loaded = undici.loaded;

/** Loads undici (once); the GitHub API client awaits this before it builds anything that uses it. */
export const loadUndici: () => Promise<Undici> = undici.load;

/**
 * @actions/http-client builds one for a proxied request, synchronously: undici must be loaded by then.
 * (A constructor that returns the real agent, so callers get undici's own class.)
 */
export const ProxyAgent = function ProxyAgent(...args: ConstructorParameters<Undici['ProxyAgent']>) {
  return new (loaded().ProxyAgent)(...args);
} as unknown as Undici['ProxyAgent'];

/** @actions/github's fetch, with its proxy dispatcher. */
export const fetch: Undici['fetch'] = async (...args) => (await loadUndici()).fetch(...args);
