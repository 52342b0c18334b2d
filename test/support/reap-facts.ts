// One fixture for the reaper's pure specs: a moment to judge at, the default policy, and a disk sandbox's
// facts built from its name and age (days since its last activity; undefined: no signal could be read).
import type { DecisionPolicy, SandboxFacts } from '../../src/reap/decide.js';
import { DAY_MS, DEFAULT_RETENTION } from '../../src/reap/retention.js';

export const NOW = Date.UTC(2026, 5, 1);

export const policy: DecisionPolicy = {
  retention: DEFAULT_RETENTION,
  force: false,
  archive: false,
  maxRemovals: 0,
};

/** A disk sandbox `p/<sandbox>`, checked and clean unless `extra` says otherwise. */
export function facts(
  sandbox: string,
  days: number | undefined,
  extra: Partial<SandboxFacts> = {},
): SandboxFacts {
  return {
    key: `disk:/root/p/${sandbox}`,
    sandbox,
    project: 'p',
    isolation: 'disk',
    where: `/root/p/${sandbox}`,
    lastActivityMs: days === undefined ? undefined : NOW - days * DAY_MS,
    work: { state: 'clean' },
    ...extra,
  };
}
