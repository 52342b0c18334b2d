// What the bundle gets for `import … from '@actions/exec'` (tsconfig.json `paths`, which ncc's resolver
// follows; docs/adr/0008-undici-on-demand.md). @actions/core imports it for `platform` (the runner's OS
// details), which this action never reads; with it came @actions/io and Node's `assert`, evaluated at the
// start of every step. Here it is a chunk of its own, loaded by the first call (none, today). The names are
// the ones the bundled toolkit imports (checked by on-demand.spec.ts).
import { onDemand } from './on-demand.js';

const exec = onDemand(
  '@actions/exec',
  'getExecOutput',
  () => import('../../node_modules/@actions/exec/lib/exec.js'),
);
type ExecModule = Awaited<ReturnType<typeof exec.load>>;

/** @actions/exec's getExecOutput, loaded on its first call. */
export const getExecOutput: ExecModule['getExecOutput'] = async (...args) =>
  (await exec.load()).getExecOutput(...args);
