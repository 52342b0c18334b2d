// Live attacks: a sandbox trapped by its own command heals (src/sandbox/git-traps.ts). Through the
// bundle as the unprivileged runner user, on Docker, for volume and disk sandboxes. The command (here
// the test, as it could have) leaves, where the next run's helpers write in the sandbox's `.git`:
//  - a FIFO as the reflog of origin/<branch> (the offer helper's git blocked on it until its 2-minute
//    limit, on every run of that sandbox);
//  - a FIFO as the reflog of the capture's snapshot ref (the capture helper's git blocked on it, on every
//    run, push or not);
//  - dangling links as HEAD's and the branch's locks, with push: true (the capture's commit failed on
//    every run: git found the locks taken).
// The next run removes them in its helper's container, succeeds well within the helper's bound, names
// what it removed in the job summary and the log, and the work in the sandbox is intact.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TIME_LIMITS_OVERRIDE } from '../../src/engine/time-limits.js';
import { persistentSandboxName, projectName, volumeName } from '../../src/sandbox/naming.js';
import { runStep, type StepResult } from '../support/action.js';
import { inVolume, removeVolumes, uniquePrefix } from '../support/docker.js';
import { runnerIds, TEST_IMAGE } from '../support/env.js';
import { branchOnOrigin, moveOrigin } from '../support/origin.js';
import { chownTree, git, makeRepo, tempDir } from '../support/repo.js';

const prefix = uniquePrefix('heal');
const cleanup: string[] = [];
afterAll(() => {
  removeVolumes(prefix);
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
});

// Well below the helpers' limits (the offer's is 2 minutes; the capture's is shortened to the same for
// these tests, so that a run without the defence fails in minutes, not in ten): a run that waited on a
// FIFO takes longer. A healed run is the step's start, a helper or two and the command: seconds.
const HEALED_BOUND_MS = 60_000;
const CAPTURE_LIMIT_S = 120;

type Isolation = 'container' | 'disk';

function setup(isolation: Isolation, branch: string) {
  const owner = runnerIds();
  const repo = makeRepo();
  const root = tempDir('wts-heal-root-');
  cleanup.push(repo.root, root);
  chownTree(repo.root, owner);
  chownTree(root, owner);
  const parent = fs.realpathSync(repo.parent);
  const project = projectName(parent);
  const sandbox = persistentSandboxName(branch);
  const volume = volumeName(prefix, project, sandbox);
  const hostPath = path.join(fs.realpathSync(root), project, sandbox);
  const run = (more: Record<string, string>) =>
    runStep({
      inputs: {
        mode: 'run',
        image: TEST_IMAGE,
        engine: 'docker',
        isolation,
        'repository-path': parent,
        'worktree-root': root,
        'volume-prefix': prefix,
        cleanup: 'never',
        branch,
        ...more,
      },
      env: { GITHUB_WORKSPACE: parent, [TIME_LIMITS_OVERRIDE]: `capture=${CAPTURE_LIMIT_S}` },
      asRunner: true,
      timeoutMs: 300_000,
    });
  /** A shell script run as root in the sandbox's work tree (in a container for a volume), as the runner's user's files. */
  const inSandbox = (script: string): string => {
    const ids = `${owner.uid}:${owner.gid}`;
    if (isolation === 'container')
      return inVolume(TEST_IMAGE, volume, `cd "/sandbox/${sandbox}" && ids=${ids} && ${script}`);
    return execFileSync('sh', ['-c', `cd "${hostPath}" && ids=${ids} && ${script}`], { encoding: 'utf8' });
  };
  /** What a file of the work tree or its .git folder holds (a FIFO would fail this: `cat` of a regular file only). */
  const read = (rel: string) => inSandbox(`test -f "${rel}" && ! test -L "${rel}" && cat "${rel}"`).trim();
  /** The type of an entry of the sandbox, as `stat` says it without following it (`absent` if none). */
  const kind = (rel: string) => inSandbox(`stat -c %F "${rel}" 2>/dev/null || echo absent`).trim();
  return { owner, repo, parent, sandbox, run, inSandbox, read, kind };
}

function expectHealed(step: StepResult, elapsed: number, removed: string[]): void {
  expect(step.code).toBe(0);
  expect(elapsed).toBeLessThan(HEALED_BOUND_MS);
  // The job summary's row, and the log's warning, name each entry removed.
  const row = step.summary.split('\n').find((line) => line.startsWith('| Removed from .git |'));
  expect(row).toBeDefined();
  for (const entry of removed) {
    expect(row).toContain(entry);
    expect(step.stdout).toContain(entry);
  }
  expect(step.stdout).toMatch(/::warning::Removed from the git folder of /);
}

describe('a trapped sandbox heals', () => {
  it.each(['container', 'disk'] as const)(
    "a FIFO as origin/<branch>'s reflog, where the offer helper writes (%s isolation): the next run removes it, offers origin's branch, succeeds fast and says so; the work is intact",
    async (isolation) => {
      const branch = 'feature/fifo';
      const s = setup(isolation, branch);
      branchOnOrigin(s.repo, branch, s.owner);
      const first = await s.run({ command: 'echo unsaved work > work.txt' });
      expect(first.code).toBe(0);
      moveOrigin(s.repo, branch, s.owner);
      const log = `.git/logs/refs/remotes/origin/${branch}`;
      s.inSandbox(`rm -f "${log}" && mkfifo "${log}" && chown "$ids" "${log}"`);
      expect(s.kind(log)).toBe('fifo');

      const started = Date.now();
      const next = await s.run({ command: 'echo the command ran; cat work.txt' });
      const elapsed = Date.now() - started;
      expectHealed(next, elapsed, [`FIFO .git/logs/refs/remotes/origin/${branch} (offer)`]);
      expect(next.stdout).toContain('the command ran');
      // Offered inside: the sandbox's origin/<branch> is the parent's, and git wrote its log afresh.
      const upstream = git(s.repo.parent, 'rev-parse', `refs/remotes/origin/${branch}`);
      expect(s.read(`.git/refs/remotes/origin/${branch}`)).toBe(upstream);
      expect(s.kind(log)).toBe('regular file');
      // The work is intact.
      expect(s.read('work.txt')).toBe('unsaved work');
      process.stdout.write(`offer FIFO healed (${isolation}): ${elapsed} ms (bound ${HEALED_BOUND_MS} ms)\n`);
    },
    600_000,
  );

  it.each(['container', 'disk'] as const)(
    "a FIFO as the reflog of the capture's snapshot ref (%s isolation): the next run removes it, brings the work back, succeeds fast and says so",
    async (isolation) => {
      const branch = 'feature/snapshot-fifo';
      const s = setup(isolation, branch);
      const first = await s.run({ command: 'echo first work > first.txt' });
      expect(first.code).toBe(0);
      const log = '.git/logs/refs/worktree-sandbox/snapshot';
      s.inSandbox(
        `mkdir -p "$(dirname "${log}")" && mkfifo "${log}" && chown -R "$ids" .git/logs/refs/worktree-sandbox`,
      );

      const started = Date.now();
      const next = await s.run({ command: 'echo second work > second.txt' });
      const elapsed = Date.now() - started;
      expectHealed(next, elapsed, ['FIFO .git/logs/refs/worktree-sandbox/snapshot (capture)']);
      expect(next.outputs['diff-stat']).toContain('second.txt');
      expect(s.read('first.txt')).toBe('first work');
      expect(s.read('second.txt')).toBe('second work');
      process.stdout.write(
        `capture FIFO healed (${isolation}): ${elapsed} ms (bound ${HEALED_BOUND_MS} ms)\n`,
      );
    },
    600_000,
  );

  it.each(['disk', 'container'] as const)(
    "dangling links as HEAD's and the branch's locks, with push: true (%s isolation): the next run removes them, commits and pushes the leftovers, and says so",
    async (isolation) => {
      const branch = 'feature/lock-links';
      const s = setup(isolation, branch);
      const first = await s.run({ command: 'echo first work > first.txt', push: 'true' });
      expect(first.code).toBe(0);
      expect(first.outputs.pushed).toBe('true');
      const locks = ['.git/HEAD.lock', `.git/refs/heads/${branch}.lock`];
      for (const lock of locks) s.inSandbox(`ln -s /nonexistent/lock "${lock}" && chown -h "$ids" "${lock}"`);

      const started = Date.now();
      const next = await s.run({ command: 'echo left for the action > left.txt', push: 'true' });
      const elapsed = Date.now() - started;
      expectHealed(
        next,
        elapsed,
        locks.map((lock) => `symbolic link ${lock} (capture)`),
      );
      expect(next.outputs.commits).toBe('1');
      expect(next.outputs.pushed).toBe('true');
      expect(git(s.repo.origin, 'show', `${branch}:left.txt`)).toBe('left for the action');
      for (const lock of locks) expect(s.kind(lock)).toBe('absent');
      expect(s.read('left.txt')).toBe('left for the action');
      expect(s.read('first.txt')).toBe('first work');
      process.stdout.write(`lock links healed (${isolation}): ${elapsed} ms (bound ${HEALED_BOUND_MS} ms)\n`);
    },
    600_000,
  );
});
