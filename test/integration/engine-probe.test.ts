// The probe against the real engine on the plain host layout: it proves what the engine sees and leaves
// nothing; the reaper's clean-up of probe helpers that killed runs left unstarted.
import { afterAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { probeEngineView, removeStaleProbes } from '../../src/engine/engine-probe.js';
import { ContainerEngine } from '../../src/engine/engine.js';
import { docker } from '../support/docker.js';
import { TEST_IMAGE } from '../support/env.js';
import { tempDir } from '../support/repo.js';

const dirs: string[] = [];
const containers: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  for (const c of containers) docker('rm', '--force', c);
});

const exists = (name: string) => {
  try {
    docker('container', 'inspect', '--format', '{{.Id}}', name);
    return true;
  } catch {
    return false;
  }
};

describe('probeEngineView on the plain host', () => {
  it('succeeds for folders the engine sees, makes a missing one, and leaves no file or helper', async () => {
    const dir = tempDir('wts-probe-');
    dirs.push(dir);
    const root = path.join(dir, 'not', 'yet');
    const engine = new ContainerEngine('docker');
    const probes = () =>
      docker('ps', '--all', '--filter', 'name=worktree-sandbox-probe-', '--format', '{{.Names}}')
        .split('\n')
        .filter(Boolean);
    const before = new Set(probes());
    const probe = await probeEngineView(engine, TEST_IMAGE, [
      { path: dir, what: 'parent repository' },
      { path: root, what: 'worktree-root' },
    ]);
    expect(fs.readdirSync(dir)).toEqual(['not']);
    expect(fs.readdirSync(root)).toEqual([]);
    // Its helper, created and never started, stays until the run ends.
    const mine = probes().filter((name) => !before.has(name));
    expect(mine).toHaveLength(1);
    expect(docker('container', 'inspect', '--format', '{{.State.Status}}', mine[0])).toBe('created');
    await probe.remove();
    expect(exists(mine[0])).toBe(false);
  });

  it('fails with the engine’s words for an image it does not have, creating nothing', async () => {
    const dir = tempDir('wts-probe-');
    dirs.push(dir);
    const engine = new ContainerEngine('docker');
    await expect(
      probeEngineView(
        engine,
        `wts-no-such-image-${randomBytes(4).toString('hex')}:x`,
        [{ path: path.join(dir, 'made'), what: 'worktree-root' }],
        Promise.reject(new Error('image could not be pulled')),
      ),
    ).rejects.toThrow('image could not be pulled');
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('removeStaleProbes', () => {
  it('removes unstarted probe helpers older than the limit, and nothing else', async () => {
    const probe = `worktree-sandbox-probe-${randomBytes(4).toString('hex')}`;
    const other = `wts-not-a-probe-${randomBytes(4).toString('hex')}`;
    containers.push(probe, other);
    for (const name of [probe, other])
      docker(
        'create',
        '--name',
        name,
        '--label',
        'worktree-sandbox.managed=true',
        '--label',
        'worktree-sandbox.role=helper',
        '--entrypoint',
        'true',
        TEST_IMAGE,
      );
    const engine = new ContainerEngine('docker');
    // Not old enough yet.
    expect(await removeStaleProbes(engine)).not.toContain(probe);
    expect(exists(probe)).toBe(true);
    const removed = await removeStaleProbes(engine, Date.now() + 2 * 60 * 60_000);
    expect(removed).toContain(probe);
    expect(exists(probe)).toBe(false);
    expect(exists(other)).toBe(true);
  });
});
