// Faults injected into real runs of the bundle (real git, real Docker): the action killed (SIGKILL) while
// it creates the sandbox, runs the command, pushes, removes; the engine unreachable at start and gone in
// the middle of a run; the command killed by its memory limit; a full disk (while the sandbox is written,
// and while the command writes); the parent deleted or moved; stale lock files; a post step after a main
// step that created nothing. In every case no work is lost and the next run recovers on its own.
//
// A sandbox is a repository of its own (ADR 0001); the parent records it under
// `refs/worktree-sandbox/<disk|volume>/<name>/{head,offered,creating}`, and that is where these tests look
// (`records`), not at `git worktree list`. The parent's `.git` is never shown to a command (but its object
// store, read-only): the tests that plant something in `$SANDBOX_PARENT/.git` check that the parent's
// `.git/config` stays byte for byte what it was, with its persisted credential, during and after.
//
// Dropped with the git guard (nothing of it exists any more), and what took its place:
//  - the credential missing from `.git/config` while the command runs, and put back afterwards: the
//    parent's config is never changed, so it is asserted byte-identical at every point instead;
//  - "Sandbox boundary (interrupted run): … removed" and "core.fsmonitor added" (the guard's reports of
//    what it restored): nothing of the parent's `.git` is writable, so there is nothing to restore or
//    report; the planted hook and fsmonitor are asserted absent from the host;
//  - "A run on this sandbox was interrupted" (the guard closing a killed run): the next run removes the
//    killed run's container ("Removed container(s) left by a run that was killed");
//  - "Cleanup did not complete" when the engine is gone in the post step: a persistent sandbox is kept
//    without bringing its work back, so the post step no longer fails there;
//  - "Removed index.lock left in sandbox …": the sandbox's git locks are its own repository's
//    (`<work tree>/.git/*.lock`) and the action leaves them to the command's git.
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
  probeInState,
  removeContainers,
  removeVolumes,
  uniquePrefix,
  volumesWithPrefix,
} from '../support/docker.js';
import { startEngineProxy } from '../support/engine-proxy.js';
import { runnerIds, TEST_IMAGE } from '../support/env.js';
import { chownTree, git, makeRepo, tempDir, tryGit, type TestRepo } from '../support/repo.js';

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

/** The parent's records of one sandbox: the last part of each ref (`head`, `offered`, `creating`), sorted. */
function records(parent: string, isolation: 'disk' | 'volume', name: string): string[] {
  const prefix = `refs/worktree-sandbox/${isolation}/${name}/`;
  return rgit(parent, 'for-each-ref', '--format=%(refname)', '--', prefix)
    .split('\n')
    .filter(Boolean)
    .map((ref) => ref.slice(prefix.length))
    .sort();
}

/** The subject of the commit the parent records as the sandbox's (its `head` ref). */
function recordedSubject(parent: string, isolation: 'disk' | 'volume', name: string): string {
  return rgit(parent, 'log', '-1', '--format=%s', `refs/worktree-sandbox/${isolation}/${name}/head`);
}

/**
 * The engine-view probe's helper a killed main step saved for its post step, if it saved one. A test that
 * runs no post step removes it afterwards itself, as a post step would (the reaper would, an hour later).
 */
function leftProbe(state: Record<string, string>, removeAfterwards = true): string | undefined {
  const name = probeInState(state);
  if (name && removeAfterwards) cleanups.push(() => removeContainers([name]));
  return name;
}

/** Whether the engine has a container of that name (any state). */
function containerExists(name: string): boolean {
  return docker('ps', '--all', '--quiet', '--filter', `name=^${name}$`) !== '';
}

function privateStores(parent: string): string {
  return path.join(parent, '.git', 'worktree-sandbox', 'stores');
}

/**
 * Wraps the action (StepOptions.wrapWith) so that it is killed (SIGKILL) the moment `file` exists, polled
 * every 5 ms, far inside the window it is meant to hit; the wrapper then kills itself the same way. A node
 * wrapper, not `sh`: a shell drops the runner's `INPUT_REPOSITORY-PATH` (a name with a hyphen).
 */
function killOnceExists(file: string): string[] {
  const script = `const { spawn } = require('node:child_process');
const fs = require('node:fs');
const [file, cmd, ...args] = process.argv.slice(1);
const child = spawn(cmd, args, { stdio: 'inherit' });
const timer = setInterval(() => {
  if (!fs.existsSync(file)) return;
  clearInterval(timer);
  child.kill('SIGKILL');
}, 5);
child.on('exit', (code, signal) => {
  clearInterval(timer);
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});`;
  return [process.execPath, '-e', script, file];
}

describe('the action killed (SIGKILL)', () => {
  const creating = (s: Scenario) =>
    path.join(s.repo.parent, '.git', 'refs', 'worktree-sandbox', 'volume', 'created', 'creating');
  // What a kill during creation may leave: the records are written in one transaction at the end, so
  // never `head` and `creating` together.
  const anyStage = [[], ['creating'], ['head']];
  test.each<[string, (s: Scenario) => Partial<StepOptions>, string[][]]>([
    ['as the sandbox group starts', () => ({ killWhen: /::group::Sandbox/ }), anyStage],
    ['1.5 s in', () => ({ killAfterMs: 1500 }), anyStage],
    // The helper container is writing the volume: the run's `creating` record is there, no `head` yet.
    [
      'while its `creating` record is there',
      (s) => ({ wrapWith: killOnceExists(creating(s)) }),
      [['creating']],
    ],
  ])(
    'during sandbox creation (%s), then a new run on the same branch recovers',
    async (_when, kill, left) => {
      const s = scenario();
      const start = rgit(s.repo.parent, 'rev-parse', 'main');
      // A command that outlives every kill point: on a fast machine the whole run can end before 1.5 s
      // with `true`. A kill that lands in the command leaves its container; the next run removes it.
      const killed = await run({ inputs: s.inputs({ command: 'sleep 5', branch: 'created' }), ...kill(s) });
      expect(killed.signal).toBe('SIGKILL');
      leftProbe(killed.state);
      const after = records(s.repo.parent, 'volume', 'created');
      expect(left).toContainEqual(after);

      const next = await run({
        inputs: s.inputs({
          command: 'git status --porcelain; echo RAN-$((6*7)) $(git rev-parse HEAD)',
          branch: 'created',
        }),
      });
      expect(next.code).toBe(0);
      if (after.includes('creating'))
        expect(next.log).toMatch(/Recovering volume \S+-created: a run was killed while creating it\./);
      // A whole checkout of the start commit: nothing missing, nothing extra.
      expect(next.log).toContain(`RAN-42 ${start}`);
      expect(next.outputs.changed).toBe('false');
      expect(volumesWithPrefix(s.prefix)).toEqual([next.outputs.volume]);
      // `creating` is gone; the sandbox is recorded at its start commit.
      expect(records(s.repo.parent, 'volume', 'created')).toEqual(['head']);
      expect(rgit(s.repo.parent, 'rev-parse', 'refs/worktree-sandbox/volume/created/head')).toBe(start);
    },
  );

  test('during the command: the next run (no post step) removes the container and keeps the work; the parent .git/config is never changed', async () => {
    const owner = runnerIds();
    const s = scenario({ owner });
    rgit(s.repo.parent, 'config', 'http.https://github.com/.extraheader', HEADER);
    const config = path.join(s.repo.parent, '.git', 'config');
    const hook = path.join(s.repo.parent, '.git', 'hooks', 'pre-commit');
    const configBefore = fs.readFileSync(config);
    const branch = `killed-${process.pid}`;
    const plant = `(mkdir -p "$SANDBOX_PARENT/.git/hooks" && printf '#!/bin/sh\\n' > "$SANDBOX_PARENT/.git/hooks/pre-commit") 2>/dev/null`;
    const killed = await run({
      asRunner: true,
      inputs: s.inputs({
        isolation: 'disk',
        branch,
        command: `${WORK}; ${plant}; echo READY-$((1+1)); sleep 120`,
      }),
      killWhen: /READY-2/,
    });
    expect(killed.signal).toBe('SIGKILL');
    leftProbe(killed.state);
    expect(containersWithLabel(`worktree-sandbox.sandbox=${branch}`)).toHaveLength(1);
    // Its note says a container may be left: what makes the next run look for one.
    const note = path.join(s.repo.parent, '.git', 'worktree-sandbox', 'locks', `sandbox-${branch}.container`);
    expect(fs.readFileSync(note, 'utf8')).toMatch(new RegExp(`^worktree-sandbox-${branch}-`));
    // While the killed run's command still runs: the parent's config as it was, credential and all (it
    // was never stripped: the container does not see it), and no hook.
    expect(fs.readFileSync(config)).toEqual(configBefore);
    expect(fs.existsSync(hook)).toBe(false);

    const next = await run({
      asRunner: true,
      inputs: s.inputs({ isolation: 'disk', branch, command: SHOW_WORK }),
    });
    expect(next.code).toBe(0);
    expect(next.log).toMatch(
      new RegExp(`Removed container\\(s\\) left by a run that was killed: worktree-sandbox-${branch}-`),
    );
    expect(next.log).toContain('work before the fault');
    expect(next.log).toContain('uncommitted');
    expect(containersWithLabel(`worktree-sandbox.sandbox=${branch}`)).toEqual([]);
    // The container is gone, and so is the note (the next run's own container was removed too).
    expect(fs.existsSync(note)).toBe(false);
    // The killed run imported nothing; the next one brought its commit back.
    expect(recordedSubject(s.repo.parent, 'disk', branch)).toBe('work before the fault');
    expect(fs.readFileSync(config)).toEqual(configBefore);
    expect(fs.existsSync(hook)).toBe(false);
  });

  test('during the command: the post step removes the container and keeps the sandbox; the parent .git/config is never changed', async () => {
    const s = scenario();
    rgit(s.repo.parent, 'config', 'http.https://github.com/.extraheader', HEADER);
    const config = path.join(s.repo.parent, '.git', 'config');
    const configBefore = fs.readFileSync(config);
    const branch = `killed-post-${process.pid}`;
    const inputs = s.inputs({
      branch,
      command: `${WORK}; git config --file "$SANDBOX_PARENT/.git/config" core.fsmonitor /bin/false 2>/dev/null; echo READY-$((1+1)); sleep 120`,
    });
    const killed = await run({ inputs, killWhen: /READY-2/ });
    expect(killed.signal).toBe('SIGKILL');
    const containers = containersWithLabel(`worktree-sandbox.sandbox=${branch}`);
    expect(containers).toHaveLength(1);
    // The helper that proved what the engine sees (created for the new sandbox, never started) was still
    // there: the main step removes it only at its end, and saved its name before the engine created it.
    const probe = leftProbe(killed.state, false);
    expect(probe).toMatch(/^worktree-sandbox-probe-[0-9a-f]{8}$/);
    expect(containerExists(probe!)).toBe(true);
    expect(fs.readFileSync(config)).toEqual(configBefore);
    const post = await run({ inputs, state: killed.state });
    expect(post.code).toBe(0);
    expect(post.log).toContain(`Removed the helper ${probe} that checked what the engine sees.`);
    expect(containerExists(probe!)).toBe(false);
    expect(post.log).toContain(`Removed container ${containers[0]}.`);
    expect(post.log).toMatch(
      new RegExp(`Kept sandbox ${branch} \\(volume \\S+\\): persistent sandboxes are kept for reuse`),
    );
    expect(containersWithLabel(`worktree-sandbox.sandbox=${branch}`)).toEqual([]);
    expect(fs.readFileSync(config)).toEqual(configBefore);
    expect(fs.readFileSync(config, 'utf8')).not.toContain('fsmonitor');
    const next = await run({ inputs: s.inputs({ branch, command: SHOW_WORK }) });
    expect(next.code).toBe(0);
    expect(next.log).toContain('work before the fault');
    expect(next.log).toContain('uncommitted');
    expect(recordedSubject(s.repo.parent, 'volume', branch)).toBe('work before the fault');
  });

  test('during the push: the next run pushes the commits', async () => {
    const s = scenario();
    const inputs = (command: string) => s.inputs({ branch: 'pushed', push: 'true', command });
    const killed = await run({ inputs: inputs(WORK), killWhen: /::group::Push/ });
    expect(killed.signal).toBe('SIGKILL');
    leftProbe(killed.state);
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
    // A main step that ended removed its probe's helper, and the name left its state with it.
    expect(leftProbe(main.state, false)).toBeUndefined();
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
    const refs = rgit(s.repo.parent, 'for-each-ref');
    const env = { DOCKER_HOST: `unix://${path.join(s.root, 'no-engine.sock')}` };
    const inputs = s.inputs({ branch: 'no-engine', command: 'true' });
    const main = await run({ inputs, env });
    expect(main.code).toBe(1);
    expect(main.stdout).toMatch(/::error::The docker engine is unreachable/);
    const post = await run({ inputs, env, state: main.state });
    expect(post.code).toBe(0);
    expect(post.log).toContain('Nothing to clean up');
    expect(rgit(s.repo.parent, 'for-each-ref')).toBe(refs);
    expect(fs.existsSync(privateStores(s.repo.parent))).toBe(false);
    expect(fs.readdirSync(s.root)).toEqual([]);
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
    // Nor could it remove its probe's helper: the name stays in its state, for the post step to try again.
    expect(leftProbe(main.state)).toMatch(/^worktree-sandbox-probe-[0-9a-f]{8}$/);
    // The engine is still gone: a persistent sandbox is kept as it is (its work is brought back by the
    // next run, not by the post step), and the container the engine could not remove stays for that run.
    const post = await run({ inputs, env, state: main.state });
    expect(post.code).toBe(0);
    expect(post.log).toMatch(
      new RegExp(`Kept sandbox ${branch} \\(volume \\S+\\): persistent sandboxes are kept for reuse`),
    );
    expect(post.log).not.toContain('Cleanup did not complete');
    expect(containersWithLabel(`worktree-sandbox.sandbox=${branch}`)).toHaveLength(1);
    // The engine is back (the real socket): the next run removes that container and finds the work.
    const next = await run({ inputs: s.inputs({ branch, command: SHOW_WORK }) });
    expect(next.code).toBe(0);
    expect(next.log).toContain('Removed container(s) left by a run that was killed');
    expect(next.log).toContain('work before the fault');
    expect(next.log).toContain('uncommitted');
    expect(containersWithLabel(`worktree-sandbox.sandbox=${branch}`)).toEqual([]);
    expect(recordedSubject(s.repo.parent, 'volume', branch)).toBe('work before the fault');
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
    // Each test's own mount, named in its cleanup (`mount` itself is the next test's by then).
    const made = tempDir('wts-tmpfs-');
    mount = made;
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', made]);
    cleanups.push(() => {
      execFileSync('umount', ['-l', made]);
      fs.rmSync(made, { recursive: true, force: true });
    });
  });

  test('while the sandbox is written: a clear error, nothing half-created; a run with room succeeds', async () => {
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
    const projects = fs.readdirSync(mount);
    expect(projects).toHaveLength(1);
    const project = path.join(mount, projects[0]);
    expect(step.stdout).toContain(
      `::error::Writing the sandbox under ${project} failed (No space left on device?`,
    );
    expect(step.stdout).toContain('the sandbox was not created.');
    expect(step.log).not.toContain('RAN-42');
    // No sandbox folder, no home: only what the project's sandboxes share is left, the note naming the
    // parent (for the reaper) and the (empty) folder of homes.
    expect(fs.readdirSync(project).sort()).toEqual(['.home', '.parent']);
    expect(fs.readdirSync(path.join(project, '.home'))).toEqual([]);
    // No records, no private store.
    expect(records(s.repo.parent, 'disk', 'full')).toEqual([]);
    expect(fs.existsSync(privateStores(s.repo.parent))).toBe(false);
    execFileSync('mount', ['-o', 'remount,size=64m', mount]);
    const next = await run({ inputs });
    expect(next.code).toBe(0);
    expect(next.log).toContain('RAN-42');
    expect(records(s.repo.parent, 'disk', 'full')).toEqual(['head']);
  });

  // The capture writes a snapshot of the uncommitted work in the sandbox itself (new objects in its own
  // store): on a full disk it cannot. The work stays where it is, nothing is imported, the step says where
  // room is missing; once there is room, the next run brings everything back.
  test('while the command writes: the command fails, the step names the full disk, the work it committed is kept', async () => {
    const s = scenario();
    const start = rgit(s.repo.parent, 'rev-parse', 'main');
    const inputs = s.inputs({ isolation: 'disk', branch: 'filling', 'worktree-root': mount });
    const step = await run({
      inputs: { ...inputs, command: `${WORK}; head -c 50000000 /dev/zero > big.bin` },
    });
    expect(step.code).toBe(1);
    expect(step.log).toContain('No space left on device'); // the command's own error
    expect(step.log).toContain('The command exited with code 1');
    const [project] = fs.readdirSync(mount);
    const worktree = path.join(mount, project, 'filling');
    expect(step.stdout).toContain(
      `::error::Capturing the changes of filling needs room in ${worktree} for a snapshot of its uncommitted work, and writing it failed (No space left on device?`,
    );
    expect(step.stdout).toContain(
      'nothing was imported; the sandbox is kept as it is, its commits included.',
    );
    // Nothing half-imported: the record still at the start, no private store, no branch in the parent.
    expect(rgit(s.repo.parent, 'rev-parse', 'refs/worktree-sandbox/disk/filling/head')).toBe(start);
    expect(fs.existsSync(privateStores(s.repo.parent))).toBe(false);
    expect(tryGit(s.repo.parent, 'rev-parse', '--verify', '--quiet', 'refs/heads/filling').ok).toBe(false);
    // The work is in the sandbox: its commit and the uncommitted file.
    expect(rgit(worktree, 'log', '-1', '--format=%s')).toBe('work before the fault');
    expect(fs.readFileSync(path.join(worktree, 'uncommitted.txt'), 'utf8')).toBe('uncommitted\n');

    fs.rmSync(path.join(worktree, 'big.bin'));
    const next = await run({ inputs: { ...inputs, command: SHOW_WORK } });
    expect(next.code).toBe(0);
    expect(next.log).toContain('work before the fault');
    expect(next.log).toContain('uncommitted');
    expect(recordedSubject(s.repo.parent, 'disk', 'filling')).toBe('work before the fault');
    expect(rgit(s.repo.parent, 'log', '-1', '--format=%s', 'filling')).toBe('work before the fault');
  });
});

describe('the parent repository', () => {
  // A project is the parent's path (its name and a hash of it): from the new place it is another
  // project, whose sandbox on this branch starts from the parent's branch, which holds the commits the
  // first run imported. The old sandbox stays as it was, its uncommitted work in it.
  test('moved while a sandbox exists: the sandbox and its work stay; a run from the new place works', async () => {
    const s = scenario();
    const first = await run({ inputs: s.inputs({ branch: 'moving', cleanup: 'never', command: WORK }) });
    expect(first.code).toBe(0);
    const volume = first.outputs.volume;
    const moved = `${s.repo.parent}-moved`;
    fs.renameSync(s.repo.parent, moved);
    const next = await run({
      inputs: {
        ...s.inputs({
          branch: 'moving',
          command: 'git log --format=%s -1; cat uncommitted.txt 2>/dev/null || echo NOT-CARRIED-OVER',
        }),
        'repository-path': moved,
      },
    });
    expect(next.code).toBe(0);
    expect(next.log).toContain('work before the fault');
    expect(next.log).toContain('NOT-CARRIED-OVER');
    expect(next.outputs.volume).not.toBe(volume);
    expect(volumesWithPrefix(s.prefix).sort()).toEqual([volume, next.outputs.volume].sort());
    expect(inVolume(TEST_IMAGE, volume, 'cat /sandbox/moving/uncommitted.txt')).toBe('uncommitted');
    // The import from the new place worked (the private store follows the parent's object store).
    expect(recordedSubject(moved, 'volume', 'moving')).toBe('work before the fault');
    expect(next.outputs['head-sha']).toBe(rgit(moved, 'rev-parse', 'moving'));
  });

  test('deleted while a sandbox exists: post keeps the sandbox and its work; a new run says what is missing', async () => {
    const s = scenario();
    const inputs = s.inputs({ branch: 'deleted', command: WORK });
    const main = await run({ inputs });
    expect(main.code).toBe(0);
    fs.rmSync(s.repo.parent, { recursive: true, force: true });
    const post = await run({ inputs, state: main.state });
    expect(post.code).toBe(0);
    // Taking the sandbox's lock did not bring the deleted repository's path back.
    expect(fs.existsSync(s.repo.parent)).toBe(false);
    expect(post.stdout).toMatch(
      /Kept sandbox deleted .*: its lock could not be taken .*nothing of it was touched/,
    );
    expect(inVolume(TEST_IMAGE, main.outputs.volume, 'cat /sandbox/deleted/uncommitted.txt')).toBe(
      'uncommitted',
    );
    const next = await run({ inputs });
    expect(next.code).toBe(1);
    expect(next.stdout).toMatch(/::error::repository-path .* does not exist/);
  });
});

test('stale lock files (git in the parent and the sandbox, the action): the run goes on, git locks are left to their repositories', async () => {
  const s = scenario();
  const inputs = (command: string) => s.inputs({ isolation: 'disk', branch: 'locks', command });
  const first = await run({ inputs: inputs('true') });
  expect(first.code).toBe(0);
  const worktree = first.outputs['worktree-path'];
  const gitDir = path.join(s.repo.parent, '.git');
  const parentLocks = [path.join(gitDir, 'index.lock'), path.join(gitDir, 'HEAD.lock')];
  const sandboxLocks = [path.join(worktree, '.git', 'index.lock'), path.join(worktree, '.git', 'HEAD.lock')];
  for (const f of [...parentLocks, ...sandboxLocks]) fs.writeFileSync(f, 'left by a killed git\n');
  const old = new Date(Date.now() - 3600_000);
  const actionLocks = ['repository.lock', 'sandbox-locks.lock'].map((l) =>
    path.join(gitDir, 'worktree-sandbox', 'locks', l),
  );
  for (const l of actionLocks) {
    fs.mkdirSync(l, { recursive: true });
    fs.utimesSync(l, old, old);
  }
  const started = Date.now();
  const next = await run({ inputs: inputs(`${WORK} || echo REFUSED-$((1+1))`) });
  expect(next.code).toBe(0);
  // The action's own stale locks were taken over at once (and released at the end).
  expect(Date.now() - started).toBeLessThan(30_000);
  for (const l of actionLocks) expect(fs.existsSync(l)).toBe(false);
  // The sandbox's git locks are its repository's business: the action leaves them, the command's git
  // reports them as it would anywhere.
  expect(next.log).toContain(`Unable to create '${worktree}/.git/index.lock': File exists.`);
  expect(next.log).toContain('REFUSED-2');
  for (const f of sandboxLocks) expect(fs.existsSync(f)).toBe(true);
  // They do not stop the capture (it stages into an index of its own): the file the command could not
  // add comes back as uncommitted work.
  expect(next.outputs.commits).toBe('0');
  expect(next.outputs['diff-stat']).toContain('work.txt');

  // The command's git deals with its own repository: it removes them and commits.
  const third = await run({
    inputs: inputs(`rm .git/index.lock .git/HEAD.lock && ${WORK} && git log --format=%s -1`),
  });
  expect(third.code).toBe(0);
  expect(third.log).toContain('work before the fault');
  expect(third.outputs.commits).toBe('1');
  expect(recordedSubject(s.repo.parent, 'disk', 'locks')).toBe('work before the fault');
  // The parent's git locks are not the action's: left alone, through both runs.
  for (const f of parentLocks) expect(fs.readFileSync(f, 'utf8')).toBe('left by a killed git\n');
});

test('stale git locks in the sandbox with push: true: the leftovers are still committed and pushed', async () => {
  const s = scenario();
  const inputs = (command: string) =>
    s.inputs({ isolation: 'disk', branch: 'locked-push', push: 'true', command });
  const first = await run({ inputs: inputs('true') });
  expect(first.code).toBe(0);
  const worktree = first.outputs['worktree-path'];
  const locks = [path.join(worktree, '.git', 'index.lock'), path.join(worktree, '.git', 'HEAD.lock')];
  for (const f of locks) fs.writeFileSync(f, 'left by a killed git\n');
  // The command writes a file and leaves git alone (its git would stop at the lock).
  const next = await run({ inputs: inputs('echo after-the-kill > left.txt') });
  expect(next.code).toBe(0);
  expect(next.outputs.commits).toBe('1');
  expect(next.outputs.pushed).toBe('true');
  expect(rgit(s.repo.origin, 'show', 'locked-push:left.txt')).toBe('after-the-kill');
  // HEAD's lock stopped the branch from moving: removed, and said so. The index's is left for the
  // command's git (the commit was staged in an index of its own).
  expect(next.log).toContain('Removed 1 stale git lock(s)');
  expect(fs.existsSync(locks[1])).toBe(false);
  expect(fs.readFileSync(locks[0], 'utf8')).toBe('left by a killed git\n');

  // The sandbox's index follows the commit: once the command clears the locks, nothing shows as changed.
  const clean = await run({
    inputs: inputs(`rm .git/index.lock && echo STATUS-$(git status --porcelain | wc -l)`),
  });
  expect(clean.code).toBe(0);
  expect(clean.log).toContain('STATUS-0');
  expect(clean.outputs.commits).toBe('0');
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
