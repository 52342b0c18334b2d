// The reaper's options as the integration suites run it: Docker, the test image, the default retention,
// a real run that removes what it may; each suite names its own root and volume prefix.
import type { ReapOptions } from '../../src/reap/reap.js';
import { DEFAULT_RETENTION } from '../../src/reap/retention.js';
import { TEST_IMAGE } from './env.js';

export function reapOptions(
  root: string,
  volumePrefix: string,
  extra: Partial<ReapOptions> = {},
): ReapOptions {
  return {
    worktreeRoot: root,
    volumePrefix,
    engine: 'docker',
    image: TEST_IMAGE,
    retention: DEFAULT_RETENTION,
    dryRun: false,
    maxRemovals: 0,
    force: false,
    archiveDir: '',
    ...extra,
  };
}
