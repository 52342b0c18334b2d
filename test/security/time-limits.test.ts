// Live attacks on the helpers' time limits, through the bundle as the unprivileged runner user (Docker):
//  - a reused sandbox whose `.git/HEAD` is a FIFO: the offer helper's git blocks reading it. A trap the
//    helpers' guard cannot heal (git-traps.ts clears only where git writes, and HEAD names the sandbox's
//    branch; a FIFO where git writes heals: trapped-sandbox.test.ts). The run ends within its stated bound
//    with an error naming the helper and the sandbox, the helper container is gone, the sandbox and its
//    work are kept, another branch runs on;
//  - an image whose /bin/sh sleeps, in the create helper: it must not hold the parent's repository lock.
//    Another branch's run on the same parent (normal image) succeeds while the hanging helper still
//    runs; the hanging run fails within its stated limit; nothing of it is left.
// The limits are shortened through the tests-only override (src/engine/time-limits.ts).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { persistentSandboxName, projectName, volumeName } from '../../src/sandbox/naming.js';
import { TIME_LIMITS_OVERRIDE } from '../../src/engine/time-limits.js';
import { sandboxRefs } from '../../src/sandbox/bookkeeping.js';
import { runMainAndPost, runStep } from '../support/action.js';
import { docker, inVolume, removeVolumes, uniquePrefix, volumesWithPrefix } from '../support/docker.js';
import { runnerIds, TEST_IMAGE } from '../support/env.js';
import { branchOnOrigin, moveOrigin } from '../support/origin.js';
import { chownTree, git, makeRepo, tempDir } from '../support/repo.js';

const prefix = uniquePrefix('limits');
const HANG_IMAGE = `worktree-sandbox-test-hang:${prefix}`;
const cleanup: string[] = [];
afterAll(() => {
  removeVolumes(prefix);
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
  try {
    docker('image', 'rm', '--force', HANG_IMAGE);
  } catch {
    /* never built */
  }
});

function setup() {
  const owner = runnerIds();
  const repo = makeRepo();
  const root = tempDir('wts-limits-root-');
  cleanup.push(repo.root, root);
  chownTree(repo.root, owner);
  chownTree(root, owner);
  const parent = fs.realpathSync(repo.parent);
  const inputs = (more: Record<string, string>) => ({
    mode: 'run',
    image: TEST_IMAGE,
    engine: 'docker',
    isolation: 'container',
    'repository-path': parent,
    'worktree-root': root,
    'volume-prefix': prefix,
    cleanup: 'never',
    ...more,
  });
  return { owner, repo, root, parent, project: projectName(parent), inputs };
}

/** Helper containers of one sandbox, running or not (their labels: helper role, project, sandbox). */
function helpersOf(project: string, sandbox: string): string[] {
  return docker(
    'ps',
    '--all',
    '--filter',
    'label=worktree-sandbox.role=helper',
    '--filter',
    `label=worktree-sandbox.project=${project}`,
    '--filter',
    `label=worktree-sandbox.sandbox=${sandbox}`,
    '--format',
    '{{.Names}}',
  )
    .split('\n')
    .filter(Boolean);
}

/** Containers of the hanging image (built for this test alone), running or not, however they are labelled. */
function hangingContainers(): string[] {
  return docker('ps', '--all', '--filter', `ancestor=${HANG_IMAGE}`, '--format', '{{.Names}}')
    .split('\n')
    .filter(Boolean);
}

describe('helper containers run under time limits', () => {
  it.each(['container', 'disk'] as const)(
    'a FIFO the guard cannot heal, as the .git/HEAD the offer helper reads (%s isolation): the reuse ends within its bound, names the helper and the sandbox, leaves no container and keeps the work',
    async (isolation) => {
      const { owner, repo, parent, project, inputs: base, root } = setup();
      const inputs = (more: Record<string, string>) => base({ isolation, ...more });
      const branch = 'feature/fifo';
      branchOnOrigin(repo, branch, owner);
      const sandbox = persistentSandboxName(branch);
      const volume = volumeName(prefix, project, sandbox);
      const hostPath = path.join(fs.realpathSync(root), project, sandbox);
      const where = isolation === 'container' ? `volume ${volume}` : hostPath;
      const first = await runStep({
        inputs: inputs({ branch, command: 'echo unsaved work > work.txt' }),
        env: { GITHUB_WORKSPACE: parent },
        asRunner: true,
      });
      expect(first.code).toBe(0);
      // origin moves on (the next run offers it inside); the sandbox's HEAD is a FIFO, as the command
      // could have left it. The guard leaves it: the helper's git only reads HEAD, which names the branch.
      moveOrigin(repo, branch, owner);
      const head = '.git/HEAD';
      const plant = (wt: string) =>
        `rm -f "${wt}/${head}" && mkfifo "${wt}/${head}" && chown ${owner.uid}:${owner.gid} "${wt}/${head}"`;
      if (isolation === 'container') inVolume(TEST_IMAGE, volume, plant(`/sandbox/${sandbox}`));
      else execFileSync('sh', ['-c', plant(hostPath)]);
      const readWork = () =>
        isolation === 'container'
          ? inVolume(TEST_IMAGE, volume, `cat "/sandbox/${sandbox}/work.txt"`)
          : fs.readFileSync(path.join(hostPath, 'work.txt'), 'utf8').trim();

      const OFFER_LIMIT_S = 5;
      // The step's start, the image check, the limit, and the container's kill and removal.
      const BOUND_MS = 45_000;
      const started = Date.now();
      const { main, post } = await runMainAndPost({
        inputs: inputs({ branch, command: 'echo the command must not run' }),
        env: { GITHUB_WORKSPACE: parent, [TIME_LIMITS_OVERRIDE]: `offer=${OFFER_LIMIT_S}` },
        asRunner: true,
        timeoutMs: 120_000,
      });
      const elapsed = Date.now() - started;
      expect(main.code).not.toBe(0);
      expect(elapsed).toBeLessThan(BOUND_MS);
      expect(main.stdout).toContain(
        `The offer helper container on ${sandbox} (${where}) ran out of its time limit (${OFFER_LIMIT_S} s) and was removed: origin/${branch} was not offered inside, and the sandbox is left as it is`,
      );
      expect(main.stdout).not.toContain('the command must not run');
      expect(post.code).toBe(0);
      expect(helpersOf(project, sandbox)).toEqual([]);
      // Nothing lost: the sandbox, its uncommitted work and the parent's record of it are all there.
      expect(readWork()).toBe('unsaved work');
      const refs = sandboxRefs({ isolation, name: sandbox });
      expect(git(repo.parent, 'for-each-ref', '--format=%(refname)', `${refs.prefix}/`)).toContain(refs.head);
      // An innocent branch on the same parent runs on.
      const other = await runStep({
        inputs: inputs({ branch: 'feature/innocent', command: 'echo innocent' }),
        env: { GITHUB_WORKSPACE: parent },
        asRunner: true,
      });
      expect(other.code).toBe(0);
      process.stdout.write(
        `offer with a FIFO as HEAD (${isolation}): failed after ${elapsed} ms (limit ${OFFER_LIMIT_S} s, bound ${BOUND_MS} ms)\n`,
      );
    },
    240_000,
  );

  it('a create helper that hangs holds no lock: another branch on the same parent runs meanwhile; the hanging run fails within its limit and leaves nothing', async () => {
    // An image whose /bin/sh never returns, built here from the test image (no registry).
    const context = tempDir('wts-hang-image-');
    cleanup.push(context);
    fs.writeFileSync(
      path.join(context, 'Dockerfile'),
      `FROM ${TEST_IMAGE}\nRUN printf '#!/bin/dash\\nexec sleep 3600\\n' > /usr/local/bin/hang && chmod 755 /usr/local/bin/hang && ln -sf /usr/local/bin/hang /bin/sh\n`,
    );
    execFileSync('docker', ['build', '--quiet', '--network', 'none', '--tag', HANG_IMAGE, context], {
      stdio: 'ignore',
    });
    const { parent, project, inputs, repo } = setup();
    const hanging = persistentSandboxName('feature/hang');
    const innocent = persistentSandboxName('feature/innocent');
    const CREATE_LIMIT_S = 40;
    // Its start, the limit, the kill and removal, the volume's removal.
    const HANG_BOUND_MS = 75_000;
    // A run on a parent whose lock is free: a few seconds; the lock's own wait would be 2 minutes.
    const INNOCENT_BOUND_MS = 30_000;

    const started = Date.now();
    const hangRun = runMainAndPost({
      inputs: inputs({ branch: 'feature/hang', image: HANG_IMAGE, command: 'true' }),
      env: { GITHUB_WORKSPACE: parent, [TIME_LIMITS_OVERRIDE]: `create=${CREATE_LIMIT_S}` },
      asRunner: true,
      timeoutMs: 180_000,
    }).then((r) => ({ ...r, elapsed: Date.now() - started }));
    // Wait until the hanging helper runs: from then on, a lock held while it runs would stop the other run.
    while (hangingContainers().length === 0) {
      if (Date.now() - started > 60_000) throw new Error('the create helper never started');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const otherStarted = Date.now();
    const other = await runStep({
      inputs: inputs({ branch: 'feature/innocent', command: 'echo innocent work > innocent.txt' }),
      env: { GITHUB_WORKSPACE: parent },
      asRunner: true,
    });
    const otherElapsed = Date.now() - otherStarted;
    expect(other.code).toBe(0);
    expect(otherElapsed).toBeLessThan(INNOCENT_BOUND_MS);
    // It finished while the hanging helper was still there.
    // (Beside it, the engine-view probe's helper of that run: created from the same image, never started.)
    const createHelpers = (names: string[]) => names.filter((n) => n.startsWith('worktree-sandbox-create-'));
    expect(createHelpers(hangingContainers())).toHaveLength(1);
    expect(createHelpers(helpersOf(project, hanging))).toEqual(createHelpers(hangingContainers()));

    const { main, post, elapsed } = await hangRun;
    expect(main.code).not.toBe(0);
    expect(elapsed).toBeLessThan(HANG_BOUND_MS);
    expect(elapsed).toBeGreaterThanOrEqual(CREATE_LIMIT_S * 1000);
    const hangVolume = volumeName(prefix, project, hanging);
    expect(main.stdout).toContain(
      `The create helper container on ${hanging} (volume ${hangVolume}) ran out of its time limit (${CREATE_LIMIT_S} s) and was removed: the sandbox was not created, and what was made of it is removed`,
    );
    expect(post.code).toBe(0);
    // Nothing left of the hanging run: no container, no volume, no record; the innocent one is whole.
    expect(hangingContainers()).toEqual([]);
    expect(helpersOf(project, hanging)).toEqual([]);
    expect(helpersOf(project, innocent)).toEqual([]);
    expect(volumesWithPrefix(prefix)).not.toContain(hangVolume);
    const records = git(repo.parent, 'for-each-ref', '--format=%(refname)', 'refs/worktree-sandbox/');
    const refsOf = (name: string) => sandboxRefs({ isolation: 'container', name });
    expect(records).not.toContain(refsOf(hanging).prefix);
    expect(records).toContain(refsOf(innocent).head);
    process.stdout.write(
      `hanging create helper: failed after ${elapsed} ms (limit ${CREATE_LIMIT_S} s, bound ${HANG_BOUND_MS} ms); the other branch's run took ${otherElapsed} ms meanwhile (bound ${INNOCENT_BOUND_MS} ms)\n`,
    );
  }, 240_000);
});
