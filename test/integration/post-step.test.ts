// The post step's cleanup: what it counts as work (src/sandbox/saved.ts, the reaper's definition), and
// that it removes nothing another run holds. Real git, real Docker; the lock race runs the bundle in
// separate processes, as the runner runs two jobs, because locks are cross-process.
import { afterAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanupRun } from '../../src/run/cleanup.js';
import { runSandbox } from '../../src/run/run.js';
import type { RunState } from '../../src/run/run-state.js';
import { silentUi, type Ui } from '../../src/ui/ui.js';
import { parseSettings, type RunSettings } from '../../src/settings/settings.js';
import { runStep, type StepResult } from '../support/action.js';
import { TEST_IMAGE } from '../support/env.js';
import { git, makeRepo, tempDir, type TestRepo } from '../support/repo.js';

const repos: TestRepo[] = [];
afterAll(() => {
  for (const r of repos) fs.rmSync(r.root, { recursive: true, force: true });
});

function newRepo(): TestRepo {
  const repo = makeRepo();
  repos.push(repo);
  return repo;
}

/** A Ui that keeps what the post step says. */
function listeningUi(): { ui: Ui; said: string[] } {
  const said: string[] = [];
  return { ui: { ...silentUi, info: (m: string) => said.push(m) }, said };
}

describe("the post step's cleanup: auto counts work as the reaper does", () => {
  it('keeps a transient sandbox whose commits are only on a local branch of a parent with a remote; removes it once the parent has none', async () => {
    const repo = newRepo();
    const root = path.join(repo.root, 'sandboxes');
    const inputs: Record<string, string> = {
      engine: 'docker',
      image: TEST_IMAGE,
      'repository-path': repo.parent,
      isolation: 'disk',
      'worktree-root': root,
      command:
        'git switch -qc feature/y && for f in y z; do echo $f > $f.txt; git add $f.txt; git commit -qm $f; done',
    };
    const settings = parseSettings((name) => inputs[name] ?? '', process.env) as RunSettings;
    let state: Partial<RunState> = {};
    const outcome = await runSandbox(settings, { ui: silentUi, save: (s) => (state = { ...state, ...s }) });
    expect(outcome.sandbox.kind).toBe('transient');
    expect(outcome.report.commits).toBe(2);
    expect(outcome.report.uncommitted).toEqual([]);
    // The commits on a branch of the parent, as an import puts them: on a self-hosted runner, the next
    // job's checkout deletes that branch.
    git(repo.parent, 'branch', 'feature/y', outcome.report.tip);
    const worktree = outcome.sandbox.worktreePath;

    const { ui, said } = listeningUi();
    const kept = await cleanupRun(state as RunState, ui, tempDir());
    const why = 'it holds work: 2 commit(s) on branch "feature/y" on no remote';
    expect(kept).toMatchObject({
      removed: false,
      kept: why,
      unsaved: { count: 2, branch: 'feature/y', hasRemote: true },
    });
    expect(said).toContain(`Kept sandbox ${outcome.sandbox.name} (${worktree}): ${why}.`);
    expect(fs.readFileSync(path.join(worktree, 'z.txt'), 'utf8')).toBe('z\n');

    // A parent with no remote: its branch is where the commits are kept, and nobody deletes it.
    git(repo.parent, 'remote', 'remove', 'origin');
    const removed = await cleanupRun(state as RunState, silentUi, tempDir());
    expect(removed).toEqual({ removed: true });
    expect(fs.existsSync(worktree)).toBe(false);
    expect(git(repo.parent, 'rev-parse', 'refs/heads/feature/y')).toBe(outcome.report.tip);
  }, 120_000);
});

describe('a post step and another run on the same sandbox', () => {
  it('removes nothing while another run holds the sandbox, names that run, and leaves its work to it', async () => {
    const repo = newRepo();
    const base = {
      image: TEST_IMAGE,
      'repository-path': repo.parent,
      isolation: 'disk',
      'worktree-root': path.join(repo.root, 'sandboxes'),
      branch: 'race',
    };
    const jobA = { GITHUB_RUN_ID: '1001', GITHUB_RUN_ATTEMPT: '1', GITHUB_JOB: 'job-a' };
    const jobB = { GITHUB_RUN_ID: '2002', GITHUB_RUN_ATTEMPT: '3', GITHUB_JOB: 'job-b' };
    const inputsA = { ...base, command: 'echo a > a.txt', cleanup: 'always' };

    // Job A's main step ends, leaving uncommitted work; job B then takes the same branch's sandbox.
    const mainA = await runStep({ inputs: inputsA, env: jobA, timeoutMs: 120_000 });
    expect({ code: mainA.code, err: mainA.stderr }).toEqual({ code: 0, err: '' });
    const worktree = mainA.outputs['worktree-path'];
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let finishedB = false;
    const mainB: Promise<StepResult> = runStep({
      inputs: { ...base, command: 'echo b > b.txt; echo started; sleep 45', cleanup: 'never' },
      env: jobB,
      onStdout: (out) => /^started$/m.test(out) && started(),
      timeoutMs: 150_000,
    }).then((r) => {
      finishedB = true;
      return r;
    });
    await Promise.race([running, mainB]);
    expect(finishedB).toBe(false);

    // Job A's post step (cleanup: always) while B's command runs.
    const began = Date.now();
    const postA = await runStep({ inputs: inputsA, state: mainA.state, env: jobA, timeoutMs: 60_000 });
    expect(Date.now() - began).toBeLessThan(40_000);
    expect(finishedB).toBe(false);
    expect(postA.code).toBe(0);
    expect(postA.stdout).toMatch(
      /Kept sandbox race \(.*\): another run holds it \(process \d+ on "[^"]+", run 2002 \(attempt 3\), job "job-b", since [0-9T:.-]+Z\): nothing of it was touched\./,
    );
    expect(postA.stdout).not.toMatch(/Removed sandbox/);
    // Nothing was removed: the folder, B's uncommitted work, A's too, the parent's records.
    expect(fs.readFileSync(path.join(worktree, 'b.txt'), 'utf8')).toBe('b\n');
    expect(fs.readFileSync(path.join(worktree, 'a.txt'), 'utf8')).toBe('a\n');
    expect(git(repo.parent, 'for-each-ref', '--format=%(refname)', 'refs/worktree-sandbox/')).toBe(
      'refs/worktree-sandbox/disk/race/head',
    );

    // B finishes and brings its work back.
    const doneB = await mainB;
    expect({ code: doneB.code, err: doneB.stderr }).toEqual({ code: 0, err: '' });
    expect(doneB.outputs['diff-stat']).toContain('b.txt');
    const store = path.join(repo.parent, '.git', 'worktree-sandbox', 'stores', 'disk', 'race.git');
    expect(git(store, 'show', 'refs/run/snapshot:b.txt')).toBe('b');

    // With B gone, A's post step takes the lock and does what cleanup: always says.
    const again = await runStep({ inputs: inputsA, state: mainA.state, env: jobA, timeoutMs: 60_000 });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Removed sandbox race (cleanup: always).');
    expect(fs.existsSync(worktree)).toBe(false);
  }, 240_000);
});
