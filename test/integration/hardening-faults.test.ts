// Faults injected into real runs of the bundle (real git, real Docker): the action killed (SIGKILL) while
// it creates the sandbox, runs the command, pushes, removes; the engine unreachable at start and gone in
// the middle of a run; the command killed by its memory limit; a full disk; the parent deleted or moved;
// stale lock files; a post step after a main step that created nothing. In every case no work is lost and
// the next run recovers on its own.
//
// "Engine gone during a run" is simulated without touching the shared engine: the action's DOCKER_HOST is
// a proxy socket (test/support/engine-proxy.ts); the test kills the command's container through the real
// engine (as a stopping engine would) and closes the proxy, dropping every connection.
import { execFileSync } from 'node:child_process';
import { jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runStep, type StepOptions } from '../support/action.js';
import {
  containersWithLabel,
  docker,
  inVolume,
  removeVolumes,
  uniquePrefix,
  volumesWithPrefix,
} from '../support/docker.js';
import { startEngineProxy } from '../support/engine-proxy.js';
import { runnerIds, TEST_IMAGE } from '../support/env.js';
import { chownTree, git, makeRepo, tempDir, type TestRepo } from '../support/repo.js';

// Real Docker runs: the integration project's timeout, whichever way jest is started.
jest.setTimeout(180_000);

const rgit = (cwd: string, ...args: string[]) => git(cwd, '-c', 'safe.directory=*', ...args);
const HEADER = `AUTHORIZATION: basic ${Buffer.from('x-access-token:ghs_faultsToken0123456789').toString('base64')}`;

interface Scenario {
  repo: TestRepo;
  prefix: string;
  root: string;
  inputs: (extra: Record<string, string>) => Record<string, string>;
}

const cleanups: Array<() => void> = [];
afterAll(() => {
  for (const fn of cleanups.reverse()) {
    try {
      fn();
    } catch {
      /* keep cleaning */
    }
  }
});

function scenario(
  options: { owner?: { uid: number; gid: number }; files?: Record<string, string> } = {},
): Scenario {
  const repo = makeRepo(options);
  const root = tempDir('wts-root-');
  if (options.owner) chownTree(root, options.owner);
  const prefix = uniquePrefix('fault');
  cleanups.push(() => removeVolumes(prefix));
  cleanups.push(() => fs.rmSync(repo.root, { recursive: true, force: true }));
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  return {
    repo,
    prefix,
    root,
    inputs: (extra) => ({
      image: TEST_IMAGE,
      'repository-path': repo.parent,
      'worktree-root': root,
      'volume-prefix': prefix,
      ...extra,
    }),
  };
}

const WORK =
  'echo committed > work.txt && git add work.txt && git commit -qm "work before the fault" && echo uncommitted > uncommitted.txt';
const SHOW_WORK = 'git log --format=%s -1; cat uncommitted.txt';

async function run(options: StepOptions) {
  const step = await runStep(options);
  return { ...step, log: step.stdout + step.stderr };
}

describe('the action killed (SIGKILL)', () => {
  test.each([
    ['as the sandbox group starts', { killWhen: /::group::Sandbox/ }],
    ['1.5 s in', { killAfterMs: 1500 }],
  ])('during sandbox creation (%s), then a new run on the same branch recovers', async (_when, kill) => {
    const s = scenario();
    await run({ inputs: s.inputs({ command: 'true', branch: 'created' }), ...kill });
    const next = await run({ inputs: s.inputs({ command: 'echo RAN-$((6*7))', branch: 'created' }) });
    expect(next.code).toBe(0);
    expect(next.log).toContain('RAN-42');
    expect(volumesWithPrefix(s.prefix)).toHaveLength(1);
    expect(rgit(s.repo.parent, 'worktree', 'list')).toContain('/sandbox/created');
  });

  test('during the command: the next run (no post step) removes the container, restores .git, keeps the work', async () => {
    const owner = runnerIds();
    const s = scenario({ owner });
    rgit(s.repo.parent, 'config', 'http.https://github.com/.extraheader', HEADER);
    const configBefore = fs.readFileSync(path.join(s.repo.parent, '.git', 'config'), 'utf8');
    const branch = `killed-${process.pid}`;
    const killed = await run({
      asRunner: true,
      inputs: s.inputs({
        isolation: 'disk',
        branch,
        command: `${WORK}; printf '#!/bin/sh\\n' > "$SANDBOX_PARENT/.git/hooks/pre-commit"; echo READY-$((1+1)); sleep 120`,
      }),
      killWhen: /READY-2/,
    });
    expect(killed.signal).toBe('SIGKILL');
    expect(containersWithLabel(`worktree-sandbox.sandbox=${branch}`)).toHaveLength(1);
    // Meanwhile .git/config has no credential (and a planted hook): the next run puts it right.
    expect(fs.readFileSync(path.join(s.repo.parent, '.git', 'config'), 'utf8')).not.toContain('extraheader');

    const next = await run({
      asRunner: true,
      inputs: s.inputs({ isolation: 'disk', branch, command: SHOW_WORK }),
    });
    expect(next.code).toBe(0);
    expect(next.log).toContain('work before the fault');
    expect(next.log).toContain('uncommitted');
    expect(next.log).toContain(
      'Sandbox boundary (interrupted run): .git/hooks/pre-commit was added by the command: removed',
    );
    expect(containersWithLabel(`worktree-sandbox.sandbox=${branch}`)).toEqual([]);
    expect(fs.readFileSync(path.join(s.repo.parent, '.git', 'config'), 'utf8')).toBe(configBefore);
    expect(fs.existsSync(path.join(s.repo.parent, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  test('during the command: the post step removes the container and restores .git', async () => {
    const s = scenario();
    rgit(s.repo.parent, 'config', 'http.https://github.com/.extraheader', HEADER);
    const configBefore = fs.readFileSync(path.join(s.repo.parent, '.git', 'config'), 'utf8');
    const branch = `killed-post-${process.pid}`;
    const inputs = s.inputs({
      branch,
      command: `${WORK}; git config --file "$SANDBOX_PARENT/.git/config" core.fsmonitor /bin/false; echo READY-$((1+1)); sleep 120`,
    });
    const killed = await run({ inputs, killWhen: /READY-2/ });
    const post = await run({ inputs, state: killed.state });
    expect(post.code).toBe(0);
    expect(post.log).toContain('core.fsmonitor added');
    expect(containersWithLabel(`worktree-sandbox.sandbox=${branch}`)).toEqual([]);
    expect(fs.readFileSync(path.join(s.repo.parent, '.git', 'config'), 'utf8')).toBe(configBefore);
    const next = await run({ inputs: s.inputs({ branch, command: SHOW_WORK }) });
    expect(next.code).toBe(0);
    expect(next.log).toContain('work before the fault');
    expect(next.log).toContain('uncommitted');
  });

  test('during the push: the next run pushes the commits', async () => {
    const s = scenario();
    const inputs = (command: string) => s.inputs({ branch: 'pushed', push: 'true', command });
    const killed = await run({ inputs: inputs(WORK), killWhen: /::group::Push/ });
    expect(killed.signal).toBe('SIGKILL');
    const next = await run({ inputs: inputs('true') });
    expect(next.code).toBe(0);
    expect(next.outputs.pushed).toBe('true');
    expect(rgit(s.repo.origin, 'log', '--format=%s', 'pushed')).toContain('work before the fault');
    expect(rgit(s.repo.origin, 'show', 'pushed:uncommitted.txt')).toBe('uncommitted');
  });

  test('during removal (post step, cleanup: always): the work is in the saved patch or still in the sandbox', async () => {
    const s = scenario();
    const runnerTemp = tempDir('wts-runner-temp-');
    cleanups.push(() => fs.rmSync(runnerTemp, { recursive: true, force: true }));
    const inputs = s.inputs({
      branch: 'removed',
      cleanup: 'always',
      command: 'echo precious > precious.txt',
    });
    const env = { RUNNER_TEMP: runnerTemp };
    const main = await run({ inputs, env });
    expect(main.code).toBe(0);
    const post = await run({ inputs, env, state: main.state, killWhen: /Saved the uncommitted work/ });
    expect(post.signal).toBe('SIGKILL');
    const next = await run({
      inputs: s.inputs({ branch: 'removed', command: 'cat precious.txt || echo gone' }),
    });
    expect(next.code).toBe(0);
    const patches = fs.readdirSync(path.join(runnerTemp, 'worktree-sandbox'));
    const patch = patches
      .map((p) => fs.readFileSync(path.join(runnerTemp, 'worktree-sandbox', p), 'utf8'))
      .join('');
    expect(next.log.includes('precious') || patch.includes('+precious')).toBe(true);
    expect(patch).toContain('+precious');
  });
});

describe('the container engine', () => {
  test('unreachable at start: a clear error, nothing created; the post step has nothing to do', async () => {
    const s = scenario();
    const before = rgit(s.repo.parent, 'worktree', 'list', '--porcelain');
    const refs = rgit(s.repo.parent, 'for-each-ref');
    const env = { DOCKER_HOST: `unix://${path.join(s.root, 'no-engine.sock')}` };
    const inputs = s.inputs({ branch: 'no-engine', command: 'true' });
    const main = await run({ inputs, env });
    expect(main.code).toBe(1);
    expect(main.stdout).toMatch(/::error::The docker engine is unreachable/);
    const post = await run({ inputs, env, state: main.state });
    expect(post.code).toBe(0);
    expect(post.log).toContain('Nothing to clean up');
    expect(rgit(s.repo.parent, 'worktree', 'list', '--porcelain')).toBe(before);
    expect(rgit(s.repo.parent, 'for-each-ref')).toBe(refs);
    expect(volumesWithPrefix(s.prefix)).toEqual([]);
  });

  test('gone during the command: clear error, post keeps the sandbox, the next run recovers the work', async () => {
    const s = scenario();
    const proxy = await startEngineProxy(path.join(s.root, 'engine.sock'));
    const branch = `engine-gone-${process.pid}`;
    let stopped: Promise<void> | undefined;
    const inputs = s.inputs({ branch, command: `${WORK}; echo READY-$((1+1)); sleep 120` });
    const env = { DOCKER_HOST: proxy.host };
    const main = await run({
      inputs,
      env,
      onStdout: (out) => {
        if (stopped || !out.includes('READY-2')) return;
        // The engine stops: its containers die, every client connection drops, nobody answers.
        for (const c of containersWithLabel(`worktree-sandbox.sandbox=${branch}`)) docker('kill', c);
        stopped = proxy.stop();
      },
    });
    await stopped;
    expect(main.code).toBe(1);
    expect(main.stdout).toMatch(/::error::The docker engine became unreachable while the command ran/);
    const post = await run({ inputs, env, state: main.state });
    expect(post.code).toBe(0);
    expect(post.log).toMatch(/::warning::Cleanup did not complete/);
    // The engine is back (the real socket): the next run finishes the guard's work and finds the work.
    const next = await run({ inputs: s.inputs({ branch, command: SHOW_WORK }) });
    expect(next.code).toBe(0);
    expect(next.log).toContain('A run on this sandbox was interrupted');
    expect(next.log).toContain('work before the fault');
    expect(next.log).toContain('uncommitted');
    expect(containersWithLabel(`worktree-sandbox.sandbox=${branch}`)).toEqual([]);
  });
});

test('the command killed by its memory limit is reported as such', async () => {
  const s = scenario();
  const step = await run({
    inputs: s.inputs({
      branch: 'oom',
      memory: '32m',
      command: `${WORK}; awk 'BEGIN { s = "x"; while (1) s = s s }'`,
    }),
  });
  expect(step.code).toBe(1);
  expect(step.outputs['exit-code']).toBe('137');
  expect(step.log).toContain('The command was killed by the memory limit (exit code 137)');
  expect(step.summary).toContain('out of memory');
  const next = await run({ inputs: s.inputs({ branch: 'oom', command: SHOW_WORK }) });
  expect(next.log).toContain('work before the fault');
});

describe('a full disk (a small tmpfs as worktree-root)', () => {
  let mount: string;
  beforeEach(() => {
    mount = tempDir('wts-tmpfs-');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mount]);
    cleanups.push(() => {
      execFileSync('umount', ['-l', mount]);
      fs.rmSync(mount, { recursive: true, force: true });
    });
  });

  test('while the worktree is written: a clear error, nothing half-created; a run with room succeeds', async () => {
    const big = Buffer.alloc(6 * 1024 * 1024, 'x').toString();
    const s = scenario({ files: { 'README.md': '# big\n', 'big.txt': big } });
    const inputs = s.inputs({
      isolation: 'disk',
      branch: 'full',
      'worktree-root': mount,
      command: 'echo RAN-$((6*7))',
    });
    const step = await run({ inputs });
    expect(step.code).toBe(1);
    expect(step.stdout).toMatch(/::error::Writing the worktree under .* failed \(No space left on device\?/);
    expect(fs.readdirSync(mount).flatMap((p) => fs.readdirSync(path.join(mount, p)))).toEqual([]);
    expect(step.log).not.toContain('RAN-42');
    expect(
      rgit(s.repo.parent, 'worktree', 'list', '--porcelain')
        .split('\n')
        .filter((l) => l.startsWith('worktree ')),
    ).toHaveLength(1);
    execFileSync('mount', ['-o', 'remount,size=64m', mount]);
    const next = await run({ inputs });
    expect(next.code).toBe(0);
    expect(next.log).toContain('RAN-42');
  });

  test('while the command writes: the command fails, the work it committed is kept', async () => {
    const s = scenario();
    const inputs = s.inputs({ isolation: 'disk', branch: 'filling', 'worktree-root': mount });
    const step = await run({
      inputs: { ...inputs, command: `${WORK}; head -c 50000000 /dev/zero > big.bin` },
    });
    expect(step.code).toBe(1);
    expect(step.outputs['exit-code']).not.toBe('0');
    fs.rmSync(path.join(step.outputs['worktree-path'], 'big.bin'), { force: true });
    const next = await run({ inputs: { ...inputs, command: SHOW_WORK } });
    expect(next.code).toBe(0);
    expect(next.log).toContain('work before the fault');
    expect(next.log).toContain('uncommitted');
  });
});

describe('the parent repository', () => {
  test('moved while a sandbox exists: the sandbox and its work stay; a run from the new place works', async () => {
    const s = scenario();
    const first = await run({ inputs: s.inputs({ branch: 'moving', cleanup: 'never', command: WORK }) });
    expect(first.code).toBe(0);
    const volume = first.outputs.volume;
    const moved = `${s.repo.parent}-moved`;
    fs.renameSync(s.repo.parent, moved);
    const next = await run({
      inputs: {
        ...s.inputs({ branch: 'moving', command: 'git log --format=%s -1' }),
        'repository-path': moved,
      },
    });
    expect(next.code).toBe(0);
    expect(next.log).toContain('work before the fault');
    expect(inVolume(TEST_IMAGE, volume, 'cat /sandbox/moving/uncommitted.txt')).toBe('uncommitted');
  });

  test('deleted while a sandbox exists: post keeps the sandbox and its work; a new run says what is missing', async () => {
    const s = scenario();
    const inputs = s.inputs({ branch: 'deleted', command: WORK });
    const main = await run({ inputs });
    expect(main.code).toBe(0);
    fs.rmSync(s.repo.parent, { recursive: true, force: true });
    const post = await run({ inputs, state: main.state });
    expect(post.code).toBe(0);
    expect(inVolume(TEST_IMAGE, main.outputs.volume, 'cat /sandbox/deleted/uncommitted.txt')).toBe(
      'uncommitted',
    );
    const next = await run({ inputs });
    expect(next.code).toBe(1);
    expect(next.stdout).toMatch(/::error::repository-path .* does not exist/);
  });
});

test('stale lock files (git in the parent and the sandbox, the action): the run goes on, the parent locks untouched', async () => {
  const s = scenario();
  const first = await run({ inputs: s.inputs({ branch: 'locks', command: 'true' }) });
  expect(first.code).toBe(0);
  const gitDir = path.join(s.repo.parent, '.git');
  const admin = path.join(gitDir, 'worktrees', 'locks');
  const old = new Date(Date.now() - 3600_000);
  const stale = [
    path.join(gitDir, 'index.lock'),
    path.join(gitDir, 'HEAD.lock'),
    path.join(admin, 'index.lock'),
    path.join(admin, 'HEAD.lock'),
  ];
  for (const f of stale) fs.writeFileSync(f, '');
  const actionLocks = ['repository.lock', 'sandbox-locks.lock'].map((l) =>
    path.join(gitDir, 'worktree-sandbox', 'locks', l),
  );
  for (const l of actionLocks) {
    fs.mkdirSync(l, { recursive: true });
    fs.utimesSync(l, old, old);
  }
  const started = Date.now();
  const next = await run({
    inputs: s.inputs({ branch: 'locks', command: `${WORK}; git log --format=%s -1` }),
  });
  expect(next.code).toBe(0);
  expect(next.log).toContain('work before the fault');
  expect(next.log).toContain('Removed index.lock left in sandbox locks');
  expect(Date.now() - started).toBeLessThan(60_000);
  expect(fs.existsSync(path.join(gitDir, 'index.lock'))).toBe(true);
  expect(fs.existsSync(path.join(gitDir, 'HEAD.lock'))).toBe(true);
});

test('a post step after a main step that failed before creating anything does nothing and succeeds', async () => {
  const s = scenario();
  const inputs = s.inputs({ branch: 'a..b', command: 'true' });
  const main = await run({ inputs });
  expect(main.code).toBe(1);
  const post = await run({ inputs, state: main.state });
  expect(post.code).toBe(0);
  expect(post.log).toContain('Nothing to clean up');
  expect(volumesWithPrefix(s.prefix)).toEqual([]);
});
