import { describe, expect, it } from '@jest/globals';
import { fakeEngine } from '../../test/support/fakes.js';
import type { ContainerInfo } from '../engine/engine-commands.js';
import {
  leftByKilledRuns,
  removeLeftNetworkContainers,
  reportLeftNetworkContainers,
  sidecarName,
  type LabelledContainer,
} from './leftovers.js';

const command = (name: string, status: string): LabelledContainer => ({
  name,
  status,
  networkMode: 'container:0123abcd',
});
const sidecar = (of: string, status: string): LabelledContainer => ({
  name: sidecarName(of),
  status,
  networkMode: 'none',
});

describe('what killed runs with an allow-list left', () => {
  it('removes a command that ended (or never started) whose sidecar ended or is gone, the commands first', () => {
    expect(
      leftByKilledRuns([
        sidecar('worktree-sandbox-a-0a1b2c', 'exited'),
        command('worktree-sandbox-a-0a1b2c', 'exited'),
        command('worktree-sandbox-b-0a1b2c', 'exited'),
        command('worktree-sandbox-c-0a1b2c', 'created'),
        sidecar('worktree-sandbox-c-0a1b2c', 'exited'),
      ]),
    ).toEqual([
      'worktree-sandbox-a-0a1b2c',
      'worktree-sandbox-b-0a1b2c',
      'worktree-sandbox-c-0a1b2c',
      'worktree-sandbox-a-0a1b2c-net',
      'worktree-sandbox-c-0a1b2c-net',
    ]);
  });

  it("leaves a live run's ended command beside its running sidecar, and everything that runs", () => {
    expect(
      leftByKilledRuns([
        command('worktree-sandbox-a-0a1b2c', 'exited'),
        sidecar('worktree-sandbox-a-0a1b2c', 'running'),
        command('worktree-sandbox-b-0a1b2c', 'running'),
        sidecar('worktree-sandbox-c-0a1b2c', 'running'),
        command('worktree-sandbox-d-0a1b2c', 'created'),
        sidecar('worktree-sandbox-d-0a1b2c', 'running'),
        sidecar('worktree-sandbox-e-0a1b2c', 'created'),
      ]),
    ).toEqual([]);
  });

  it("leaves the ended command of a run without an allow-list (its own sandbox's next run removes it)", () => {
    expect(
      leftByKilledRuns([{ name: 'worktree-sandbox-a-0a1b2c', status: 'exited', networkMode: 'none' }]),
    ).toEqual([]);
  });

  it('removes an ended sidecar whose command still runs (Podman keeps it; nothing else of the run goes)', () => {
    expect(
      leftByKilledRuns([
        command('worktree-sandbox-a-0a1b2c', 'running'),
        sidecar('worktree-sandbox-a-0a1b2c', 'exited'),
      ]),
    ).toEqual(['worktree-sandbox-a-0a1b2c-net']);
  });
});

describe('removing what killed runs left', () => {
  const listed = (c: LabelledContainer): ContainerInfo => ({ ...c, running: false, volumes: [], binds: [] });

  it("lists only the commands' containers, removes the commands first, and names what went", async () => {
    const engine = fakeEngine();
    engine.listContainers.mockResolvedValue(
      [
        sidecar('worktree-sandbox-a-0a1b2c', 'exited'),
        command('worktree-sandbox-a-0a1b2c', 'exited'),
        command('worktree-sandbox-b-0a1b2c', 'exited'),
        sidecar('worktree-sandbox-b-0a1b2c', 'running'),
      ].map(listed),
    );
    // One removal fails (another run removed it first): not named.
    engine.removeContainer.mockImplementation(async (name) => name !== 'worktree-sandbox-a-0a1b2c-net');
    const lines: string[] = [];

    await reportLeftNetworkContainers(engine, { info: (line) => lines.push(line) });

    expect(engine.listContainers.mock.calls).toEqual([['worktree-sandbox.role=command']]);
    expect(engine.removeContainer.mock.calls).toEqual([
      ['worktree-sandbox-a-0a1b2c'],
      ['worktree-sandbox-a-0a1b2c-net'],
    ]);
    expect(lines).toEqual([
      'Removed 1 container(s) that killed runs with a network allow-list left: worktree-sandbox-a-0a1b2c.',
    ]);
  });

  it('never throws, and removes nothing, when the engine cannot list them', async () => {
    const engine = fakeEngine();
    engine.listContainers.mockRejectedValue(new Error('Cannot connect to the Docker daemon'));

    expect(await removeLeftNetworkContainers(engine)).toEqual([]);
    expect(engine.removeContainer).not.toHaveBeenCalled();
  });
});
