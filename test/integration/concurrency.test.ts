// Many runs on one parent at once, and runs that were killed: separate processes (the bundle), real
// git, real Docker. Locks are cross-process, so only separate processes prove them.
import { afterAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runStep, type StepResult } from '../support/action.js';
import {
  containersWithLabel,
  probeInState,
  removeContainers,
  removeVolumes,
  uniquePrefix,
  volumesWithPrefix,
} from '../support/docker.js';
import { TEST_IMAGE } from '../support/env.js';
import { git, makeRepo, tryGit, type TestRepo } from '../support/repo.js';

const prefixes: string[] = [];
const repos: TestRepo[] = [];
/** Probe helpers that killed runs left (no post step runs here): removed at the end, as a post step would. */
const probes: string[] = [];
afterAll(() => {
  removeContainers(probes);
  for (const p of prefixes) removeVolumes(p);
  for (const r of repos) fs.rmSync(r.root, { recursive: true, force: true });
});

function setup() {
  const repo = makeRepo();
  repos.push(repo);
  const prefix = uniquePrefix('conc');
  prefixes.push(prefix);
  return { repo, prefix, root: path.join(repo.root, 'sandboxes') };
}

describe('concurrency', () => {
  it('8 runs on one parent at once (creating, reusing, removing) all succeed', async () => {
    const { repo, prefix, root } = setup();
    const base = {
      image: TEST_IMAGE,
      'repository-path': repo.parent,
      'volume-prefix': prefix,
      'worktree-root': root,
    };
    const jobs: Array<Record<string, string>> = [
      { isolation: 'disk', branch: 'a', command: 'echo a > a.txt' },
      { isolation: 'disk', branch: 'b', command: 'echo b > b.txt' },
      { isolation: 'disk', branch: 'c', command: 'echo c >> shared.txt' },
      { isolation: 'disk', branch: 'c', command: 'echo c >> shared.txt' },
      { isolation: 'container', command: 'git status --short' },
      { isolation: 'container', command: 'git status --short' },
      { isolation: 'container', branch: 'd', command: 'echo d > d.txt' },
      { isolation: 'disk', command: 'true' },
    ];
    const mains = await Promise.all(jobs.map((inputs) => runStep({ inputs: { ...base, ...inputs } })));
    for (const main of mains)
      expect({ code: main.code, err: main.stderr, out: main.code ? main.stdout : '' }).toEqual({
        code: 0,
        err: '',
        out: '',
      });
    // every run's summary says that nothing outside its sandbox could change
    for (const main of mains) expect(main.stdout).not.toMatch(/violation/i);
    // the two runs on branch c shared one sandbox, one after the other, never at once
    const c = mains.filter((m) => m.outputs.branch === 'c');
    expect(new Set(c.map((m) => m.outputs['worktree-path'])).size).toBe(1);
    expect(fs.readFileSync(path.join(c[0].outputs['worktree-path'], 'shared.txt'), 'utf8')).toBe('c\nc\n');
    const paths = mains.map((m) => m.outputs['worktree-path']);
    expect(new Set(paths).size).toBe(7);
    // each sandbox is recorded in the parent (refs/worktree-sandbox/<disk|volume>/<name>/head)
    const key = (i: number) =>
      `${jobs[i].isolation === 'disk' ? 'disk' : 'volume'}/${mains[i].outputs.sandbox}`;
    const recorded = () =>
      git(repo.parent, 'for-each-ref', '--format=%(refname)', 'refs/worktree-sandbox/')
        .split('\n')
        .filter((r) => r.endsWith('/head'))
        .map((r) => r.split('/').slice(2, 4).join('/'));
    expect(recorded().sort()).toEqual([...new Set(mains.map((_, i) => key(i)))].sort());

    // all post steps at once: transient clean sandboxes go, everything else stays registered
    const posts = await Promise.all(
      mains.map((m, i) => runStep({ inputs: { ...base, ...jobs[i] }, state: m.state })),
    );
    for (const post of posts) expect(post.code).toBe(0);
    expect(recorded().sort()).toEqual(
      [
        ...new Set(mains.map((m, i) => (m.outputs.kind === 'persistent' ? key(i) : '')).filter(Boolean)),
      ].sort(),
    );
    expect(volumesWithPrefix(prefix)).toEqual([mains[6].outputs.volume]);
    expect(git(repo.parent, 'worktree', 'list')).not.toContain('prunable');
  });

  it('a second run on the same branch waits, or fails saying why when it may not wait', async () => {
    const { repo, prefix, root } = setup();
    const inputs = {
      image: TEST_IMAGE,
      'repository-path': repo.parent,
      'volume-prefix': prefix,
      'worktree-root': root,
      isolation: 'disk',
      branch: `busy-${process.pid}`,
    };
    const first = runStep({ inputs: { ...inputs, command: 'sleep 8' } });
    // The second run starts once the first one's command runs (its lock is held by then), not after a
    // fixed delay that a slow machine can outrun.
    for (
      let waited = 0;
      !containersWithLabel(`worktree-sandbox.sandbox=${inputs.branch}`).length;
      waited += 100
    ) {
      if (waited > 60_000) throw new Error('the first run never started its command');
      await new Promise((r) => setTimeout(r, 100));
    }
    const second = await runStep({ inputs: { ...inputs, command: 'true', 'lock-timeout-minutes': '0.01' } });
    expect(second.code).toBe(1);
    expect(second.stdout).toMatch(
      new RegExp(
        `::error::sandbox ${inputs.branch} is in use by another run \\(process \\d+ on .*\\); two runs never share a sandbox`,
      ),
    );
    expect((await first).code).toBe(0);
  });
});

describe('a run killed midway', () => {
  async function killedThenRerun(isolation: string) {
    const { repo, prefix, root } = setup();
    const inputs = {
      image: TEST_IMAGE,
      'repository-path': repo.parent,
      'volume-prefix': prefix,
      'worktree-root': root,
      isolation,
      branch: 'work',
    };
    const killed: StepResult = await runStep({
      inputs: { ...inputs, command: 'echo draft > draft.txt; echo started; sleep 60' },
      killWhen: /^started$/m,
    });
    expect(killed.signal).toBe('SIGKILL');
    const probe = probeInState(killed.state);
    if (probe) probes.push(probe);
    const project = killed.state.run ? JSON.parse(killed.state.run).location.project : '';
    expect(containersWithLabel(`worktree-sandbox.project=${project}`)).toHaveLength(1);
    // the next run takes the stale lock over, removes the dead run's container, reuses the sandbox as it is
    const next = await runStep({ inputs: { ...inputs, command: 'cat draft.txt' } });
    expect(next.code).toBe(0);
    // the dead run's container is removed before anything else (by the git guard's recovery, which also
    // puts back what the command changed outside its sandbox)
    expect(next.stdout).toMatch(
      /interrupted while its command ran|Removed container\(s\) left by a run that was killed/,
    );
    expect(next.stdout).toMatch(/^draft$/m);
    expect(next.stdout).toContain('Reusing work');
    expect(containersWithLabel(`worktree-sandbox.project=${project}`)).toEqual([]);
    return { repo, next };
  }

  it('disk isolation: leaves a reusable sandbox', async () => {
    await killedThenRerun('disk');
  });

  it('container isolation: leaves a reusable sandbox', async () => {
    await killedThenRerun('container');
  });

  it('recovers a sandbox whose creation was killed (its `creating` record left) and a stale lock', async () => {
    const { repo, prefix, root } = setup();
    const inputs = {
      image: TEST_IMAGE,
      'repository-path': repo.parent,
      'volume-prefix': prefix,
      'worktree-root': root,
      isolation: 'disk',
      branch: 'half',
    };
    const first = await runStep({ inputs: { ...inputs, command: 'true' } });
    const wt = first.outputs['worktree-path'];
    // What a SIGKILL during creation leaves: the parent's `creating` record, a partial checkout.
    const creating = 'refs/worktree-sandbox/disk/half/creating';
    git(repo.parent, 'update-ref', creating, 'HEAD');
    fs.rmSync(path.join(wt, 'README.md'));
    // and the lock of a holder that died long ago
    const lock = path.join(repo.parent, '.git', 'worktree-sandbox', 'locks', 'repository.lock');
    fs.mkdirSync(lock, { recursive: true });
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, old, old);
    const next = await runStep({ inputs: { ...inputs, command: 'cat README.md' } });
    expect(next.code).toBe(0);
    expect(next.stdout).toContain('Recovering');
    expect(next.stdout).toMatch(/^# test$/m);
    expect(tryGit(repo.parent, 'rev-parse', '--verify', '--quiet', creating).ok).toBe(false);
  });
});
