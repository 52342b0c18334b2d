// engine-mode against real engines: rootless Podman as the runner user (uid 1001), as on GitHub-hosted
// Ubuntu runners, and rootful Podman and Docker as root. Needs the set-up of scripts/setup.sh (as root);
// fails, naming what is missing, without it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ContainerEngine } from '../../src/engine/engine.js';
import { detectEngineMode, userNamespaceArgs } from '../../src/engine/mode.js';
import { explainStartFailure } from '../../src/engine/start-failure.js';
import { availableEngines } from '../support/engines.js';
import { TEST_IMAGE, runnerIds } from '../support/env.js';
import { requireRootlessPodman, rootlessPodman, runAsRunner } from '../support/rootless.js';

describe('rootless Podman as the runner user', () => {
  let dir: string;

  beforeAll(() => requireRootlessPodman());

  beforeEach(() => {
    const { uid, gid } = runnerIds();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-rootless-'));
    fs.chownSync(dir, uid, gid);
  });

  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('detects keep-id, and a container run with those arguments writes a bind mount as the runner', async () => {
    const { uid, gid } = runnerIds();
    const mode = await detectEngineMode('podman', rootlessPodman);
    expect(mode).toMatchObject({ engine: 'podman', rootless: true, uidMapping: 'keep-id' });
    expect(mode.uidMap[0]).toEqual({ containerId: 0, hostId: uid, size: 1 });

    const result = await rootlessPodman([
      'run',
      '--rm',
      '--network',
      'none',
      ...userNamespaceArgs(mode, uid, gid),
      '--user',
      `${uid}:${gid}`,
      '--mount',
      `type=bind,source=${dir},target=/work`,
      '--entrypoint',
      'sh',
      TEST_IMAGE,
      '-c',
      'id -u; id -g; mkdir /work/sub && echo hello > /work/sub/file && git init -q /work/repo',
    ]);
    expect({ exitCode: result.exitCode, stderr: result.stderr }).toEqual({
      exitCode: 0,
      stderr: expect.not.stringMatching(/Error/),
    });
    expect(result.stdout.trim().split('\n')).toEqual([String(uid), String(gid)]);
    for (const written of ['sub', 'sub/file', 'repo', 'repo/.git/HEAD']) {
      const st = fs.statSync(path.join(dir, written));
      expect({ written, uid: st.uid, gid: st.gid }).toEqual({ written, uid, gid });
    }
  });

  it('without those arguments the same container cannot write the runner’s folder (what keep-id fixes)', async () => {
    const { uid, gid } = runnerIds();
    const result = await rootlessPodman([
      'run',
      '--rm',
      '--network',
      'none',
      '--user',
      `${uid}:${gid}`,
      '--mount',
      `type=bind,source=${dir},target=/work`,
      '--entrypoint',
      'sh',
      TEST_IMAGE,
      '-c',
      'echo hello > /work/file',
    ]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/cannot create \/work\/file: Permission denied/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('explains a container whose command is not in the image', async () => {
    const result = await rootlessPodman(['run', '--rm', '--network', 'none', TEST_IMAGE, 'no-such-command']);
    expect(result.exitCode).toBe(127);
    expect(explainStartFailure(result.stderr)).toMatchObject({ kind: 'command-not-found' });
  });

  it('gives the runner its own storage: the environment decides which Podman answers', async () => {
    // As root, Podman is rootful; the same call as the runner is rootless.
    const asRunner = await runAsRunner('podman', ['info', '--format', '{{.Host.Security.Rootless}}'], {
      rootlessPodman: true,
    });
    expect(asRunner.stdout.trim()).toBe('true');
  });
});

describe.each(availableEngines())('%s as root', (engine) => {
  it('is rootful: no user namespace arguments', async () => {
    const containerEngine = new ContainerEngine(engine);
    const mode = await detectEngineMode(engine, (args) => containerEngine.exec(args));
    expect(mode).toMatchObject({ engine, rootless: false, uidMapping: 'none' });
    expect(userNamespaceArgs(mode, 1001, 1001)).toEqual([]);
  });
});
