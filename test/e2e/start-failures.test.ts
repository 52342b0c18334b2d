// No false green: a container that never started fails the step with the engine's own message and a hint,
// and never reads as "exit 0, no changes". The bundle as the runner runs it, on Docker (as the runner, in
// the docker group), rootful Podman (as root) and rootless Podman (as the runner, its own storage), with
// an image that has no `sh`; and with rootless networking that cannot start (no /dev/net/tun).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runMainAndPost, runStep, type StepResult } from '../support/action.js';
import { uniquePrefix } from '../support/docker.js';
import { PODMAN_CONF } from '../support/engines.js';
import { runnerIds } from '../support/env.js';
import { makeRepo, tempDir, type TestRepo } from '../support/repo.js';
import { requireRootlessPodman } from '../support/rootless.js';
import {
  DOCKER,
  PODMAN_ROOTFUL,
  PODMAN_ROOTLESS,
  importImage,
  removeStorageVolumes,
  storageCli,
  storageVolumes,
  type Storage,
} from '../support/storage.js';

const NO_SH = `worktree-sandbox-nosh:${uniquePrefix('img').slice(4)}`;
const STORAGES = [DOCKER, PODMAN_ROOTFUL, PODMAN_ROOTLESS];
const cleanups: Array<() => Promise<unknown> | unknown> = [];
let rootfs: string;

beforeAll(async () => {
  requireRootlessPodman();
  // A root file system with one text file and no program at all: nothing can start in it.
  const dir = tempDir('wts-nosh-');
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dir, 'root'));
  fs.writeFileSync(path.join(dir, 'root', 'hello.txt'), 'no shell here\n');
  rootfs = path.join(dir, 'rootfs.tar');
  execFileSync('tar', ['-C', path.join(dir, 'root'), '-cf', rootfs, '.']);
  fs.chmodSync(rootfs, 0o644);
  for (const storage of STORAGES) {
    await importImage(storage, rootfs, NO_SH);
    cleanups.push(() => storageCli(storage, ['rmi', '--force', NO_SH]));
  }
}, 120_000);

afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean();
});

/** The step's log without the runner's file-command noise: what a person reads. */
function expectNoFalseGreen(main: StepResult): void {
  expect(main.code).toBe(1);
  expect(main.outputs['exit-code']).toBeUndefined();
  expect(main.stdout).not.toContain('No changes');
  expect(main.stdout).not.toMatch(/exited with code 0/);
  expect(main.summary).not.toContain('✅');
}

interface Case {
  storage: Storage;
  isolation: 'disk' | 'container';
}

function stepFor(storage: Storage, repo: TestRepo) {
  return {
    asRunner: storage !== PODMAN_ROOTFUL,
    rootlessPodman: storage.rootless,
    env: {
      GITHUB_WORKSPACE: repo.parent,
      ...(storage === PODMAN_ROOTFUL ? { CONTAINERS_CONF: PODMAN_CONF } : {}),
    },
  };
}

describe.each(
  STORAGES.flatMap((storage): Case[] => [
    { storage, isolation: 'disk' },
    { storage, isolation: 'container' },
  ]),
)('an image without sh: $storage.label, $isolation isolation', ({ storage, isolation }) => {
  it('fails the step with the engine’s message and the hint; no exit code, no "No changes"', async () => {
    const runAs = storage === PODMAN_ROOTFUL ? undefined : runnerIds();
    const repo = makeRepo(runAs ? { owner: runAs } : {});
    const prefix = uniquePrefix('nosh');
    cleanups.push(
      () => fs.rmSync(repo.root, { recursive: true, force: true }),
      () => removeStorageVolumes(storage, prefix),
    );
    const root = path.join(repo.root, 'cache');
    fs.mkdirSync(root);
    if (runAs) fs.chownSync(root, runAs.uid, runAs.gid);
    const { main, post } = await runMainAndPost({
      inputs: {
        mode: 'run',
        engine: storage.engine,
        image: NO_SH,
        isolation,
        network: 'none',
        'repository-path': repo.parent,
        'worktree-root': root,
        'volume-prefix': prefix,
        command: 'echo never',
      },
      ...stepFor(storage, repo),
    });
    expectNoFalseGreen(main);
    expect(main.stdout).not.toMatch(/^never$/m);
    // The engine's own words, then what to do.
    const error = main.stdout.split('\n').find((l) => l.startsWith('::error::')) ?? '';
    // Docker starts its init (tini), which then cannot exec `sh`; otherwise runc refuses to start at all.
    expect(error).toMatch(
      storage === DOCKER && isolation === 'disk'
        ? /\[FATAL tini \(\d+\)\] exec sh failed: No such file or directory/
        : /exec: \\?"sh\\?": executable file not found in \$PATH/,
    );
    expect(error).toMatch(/image has no `sh`/);
    expect(post.code).toBe(0);
    if (isolation === 'container') expect(await storageVolumes(storage, prefix)).toEqual([]);
  }, 240_000);
});

describe('rootless networking that cannot start (no /dev/net/tun), network: bridge', () => {
  it('fails the step with the engine’s message and the `network: none` hint', async () => {
    const ids = runnerIds();
    const repo = makeRepo({ owner: ids });
    // A Podman of the runner's own that starts where /dev/net/tun is missing: a private mount namespace
    // with an empty /dev/net, and a HOME and runtime folder of its own (the runner's usual Podman already
    // runs a pause process, whose namespaces every later call joins, /dev/net/tun included).
    const home = tempDir('wts-notun-home-');
    const runtime = tempDir('wts-notun-run-');
    for (const dir of [home, runtime]) fs.chownSync(dir, ids.uid, ids.gid);
    fs.chmodSync(runtime, 0o700);
    cleanups.push(() => fs.rmSync(repo.root, { recursive: true, force: true }));
    cleanups.push(() => stopPause(runtime, home));
    const hidden = ['unshare', '--mount', '--propagation', 'private', '--', 'sh', '-c'];
    const mountEmpty = 'mount -t tmpfs -o mode=755 tmpfs /dev/net && exec "$@"';
    const asRunnerThere = (args: string[]) =>
      execFileSync(
        hidden[0],
        [
          ...hidden.slice(1),
          `${mountEmpty}`,
          'hide',
          'setpriv',
          '--reuid',
          'runner',
          '--regid',
          'runner',
          '--init-groups',
          '--',
          'env',
          '-i',
          `HOME=${home}`,
          `XDG_RUNTIME_DIR=${runtime}`,
          'PATH=/usr/bin:/bin',
          'podman',
          ...args,
        ],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
      );
    // An image with `sh` and nothing more (dash and its libraries): without one, the missing `sh` would be
    // found first (runc fails before the network is set up).
    const tiny = path.join(home, 'sh-only');
    for (const file of ['/bin/sh', ...sharedLibraries('/bin/sh')]) {
      fs.mkdirSync(path.join(tiny, path.dirname(file)), { recursive: true });
      fs.copyFileSync(fs.realpathSync(file), path.join(tiny, file));
      fs.chmodSync(path.join(tiny, file), 0o755);
    }
    const shOnly = path.join(home, 'sh-only.tar');
    execFileSync('tar', ['-C', tiny, '-cf', shOnly, '.']);
    fs.chmodSync(shOnly, 0o644);
    asRunnerThere(['import', '--quiet', shOnly, 'worktree-sandbox-sh-only:test']);
    // The runner's own Podman there: networking cannot start.
    expect(() =>
      asRunnerThere([
        'run',
        '--rm',
        '--network',
        'bridge',
        'worktree-sandbox-sh-only:test',
        'sh',
        '-c',
        'true',
      ]),
    ).toThrow(/\/dev\/net\/tun/);
    const main = await runStep({
      inputs: {
        mode: 'run',
        engine: 'podman',
        image: 'worktree-sandbox-sh-only:test',
        isolation: 'disk',
        network: 'bridge',
        'repository-path': repo.parent,
        'worktree-root': path.join(home, 'sandboxes'),
        command: 'echo never',
      },
      asRunner: true,
      rootlessPodman: true,
      env: { HOME: home, XDG_RUNTIME_DIR: runtime, GITHUB_WORKSPACE: repo.parent },
      wrapWith: [...hidden, mountEmpty, 'hide'],
    });
    expectNoFalseGreen(main);
    const error = main.stdout.split('\n').find((l) => l.startsWith('::error::')) ?? '';
    expect(error).toContain('/dev/net/tun');
    expect(error).toMatch(/network: none/);
    expect(error).not.toMatch(/image has no `sh`/);
  }, 240_000);
});

/** The libraries a dynamically linked program loads (ldd), with the loader. */
function sharedLibraries(program: string): string[] {
  return [...execFileSync('ldd', [program], { encoding: 'utf8' }).matchAll(/(\/\S+) \(0x/g)].map((m) => m[1]);
}

/** Stops the pause process of that Podman (started by this test, found by its pid file), then removes its folders. */
function stopPause(runtime: string, home: string): void {
  const pidFile = path.join(runtime, 'libpod', 'tmp', 'pause.pid');
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
    if (pid > 1) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }
  execFileSync('rm', ['-rf', '--one-file-system', home, runtime]);
}
