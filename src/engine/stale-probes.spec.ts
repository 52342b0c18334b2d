// Which probe helpers the reaper removes, with the engine faked: only never-started helpers named as the
// probe names them, at least an hour old by the engine's own `CreatedAt`; nothing when the engine's list
// fails. Against the real engine (its `ps` filters and format) once in test/integration/engine-probe.test.ts.
import { describe, expect, it } from '@jest/globals';
import { fakeEngine } from '../../test/support/fakes.js';
import { removeStaleProbes, STALE_PROBE_MS } from './engine-probe.js';

const NOW = Date.parse('2026-12-05T12:00:00Z');
const at = (msAgo: number) =>
  new Date(NOW - msAgo)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' +0000 UTC');

function engineListing(lines: string[], exitCode = 0) {
  const engine = fakeEngine();
  engine.exec.mockResolvedValue({ exitCode, stdout: lines.join('\n') + '\n', stderr: '' });
  engine.removeContainer.mockResolvedValue(true);
  return engine;
}

describe('removeStaleProbes', () => {
  it('removes never-started probe helpers at least an hour old, and nothing else', async () => {
    const engine = engineListing([
      `worktree-sandbox-probe-0000000a\t${at(STALE_PROBE_MS)}`,
      `worktree-sandbox-probe-0000000b\t${at(3 * STALE_PROBE_MS)}`,
      `worktree-sandbox-probe-0000000c\t${at(STALE_PROBE_MS - 60_000)}`,
      `wts-not-a-probe-0000000d\t${at(3 * STALE_PROBE_MS)}`,
      `worktree-sandbox-probe-0000000e-x\t${at(3 * STALE_PROBE_MS)}`,
      `worktree-sandbox-probe-0000000f\tyesterday`,
      `worktree-sandbox-probe-00000010`,
    ]);
    expect(await removeStaleProbes(engine, NOW)).toEqual([
      'worktree-sandbox-probe-0000000a',
      'worktree-sandbox-probe-0000000b',
    ]);
    expect(engine.removeContainer.mock.calls).toEqual([
      ['worktree-sandbox-probe-0000000a'],
      ['worktree-sandbox-probe-0000000b'],
    ]);
    // Asked of the engine: created (never started) containers with the helpers' label only.
    const [args] = engine.exec.mock.calls[0];
    expect(args.slice(0, 3)).toEqual(['ps', '--all', '--filter']);
    expect(args).toContain('status=created');
    expect(args).toContain('label=worktree-sandbox.role=helper');
  });

  it('names only what the engine did remove, and removes nothing when its list fails', async () => {
    const engine = engineListing([`worktree-sandbox-probe-0000000a\t${at(2 * STALE_PROBE_MS)}`]);
    engine.removeContainer.mockResolvedValue(false);
    expect(await removeStaleProbes(engine, NOW)).toEqual([]);
    const failing = engineListing([`worktree-sandbox-probe-0000000a\t${at(2 * STALE_PROBE_MS)}`], 1);
    expect(await removeStaleProbes(failing, NOW)).toEqual([]);
    expect(failing.removeContainer).not.toHaveBeenCalled();
  });
});
