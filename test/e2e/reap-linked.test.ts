// Reap mode end to end on a cache of linked worktrees (`git worktree add`, the seed tool's layout): the
// bundle (dist/index.js) run as the Actions runner runs it, as the unprivileged runner user. A clean stale
// worktree goes with exactly its registration; one with an uncommitted change, one with an untracked
// file and one with a commit no remote has are kept with their reasons. Dry run, real run, second run.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runStep, type StepResult } from '../support/action.js';
import { uniquePrefix } from '../support/docker.js';
import { runnerIds, TEST_IMAGE } from '../support/env.js';
import { addLinkedWorktree, ageLinked } from '../support/linked.js';
import { chownTree, git, makeRepo, tempDir, worktreeList } from '../support/repo.js';
import { nodeRuntimes } from '../support/runtimes.js';

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
});

interface Record {
  sandbox: string;
  isolation: string;
  kind: string;
  ageDays: number | null;
  reason: string;
}

const records = (step: StepResult, name: 'reaped' | 'kept') => JSON.parse(step.outputs[name]) as Record[];
const names = (list: Record[]) => list.map((r) => r.sandbox).sort();

describe.each(nodeRuntimes())('$name', ({ execPath }) => {
  it('mode: reap removes a clean stale linked worktree with its registration, keeps those with work', async () => {
    const owner = runnerIds();
    const repo = makeRepo();
    const root = tempDir('wts-reap-linked-e2e-');
    cleanup.push(repo.root, root);
    const parent = fs.realpathSync(repo.parent);
    const add = (name: string) => addLinkedWorktree(parent, root, 'cache', name);
    const clean = add('exploration-0000c0e2');
    const dirty = add('exploration-0000d0e2');
    fs.appendFileSync(path.join(dirty, 'README.md'), 'edited\n');
    const untracked = add('exploration-0000u0e2');
    fs.writeFileSync(path.join(untracked, 'notes.txt'), 'draft\n');
    const unpushed = add('exploration-0000p0e2');
    fs.writeFileSync(path.join(unpushed, 'local.txt'), 'local\n');
    git(unpushed, 'add', 'local.txt');
    git(unpushed, 'commit', '--quiet', '-m', 'a commit no remote has');
    chownTree(repo.root, owner);
    chownTree(root, owner);
    for (const dir of [clean, dirty, untracked, unpushed]) ageLinked(dir, 100);
    const inputs = {
      mode: 'reap',
      'worktree-root': root,
      'volume-prefix': uniquePrefix('reaplinkede2e'),
      image: TEST_IMAGE,
    };

    const dry = await runStep({ node: execPath, inputs: { ...inputs, 'dry-run': 'true' }, asRunner: true });
    expect(dry.code).toBe(0);
    expect(names(records(dry, 'reaped'))).toEqual(['exploration-0000c0e2']);
    expect(fs.existsSync(clean)).toBe(true);

    const real = await runStep({ node: execPath, inputs, asRunner: true });
    expect(real.code).toBe(0);
    expect(records(real, 'reaped')).toEqual([
      expect.objectContaining({
        sandbox: 'exploration-0000c0e2',
        isolation: 'disk',
        kind: 'transient',
        ageDays: 100,
        reason: 'stale and holds no work',
      }),
    ]);
    const kept = Object.fromEntries(records(real, 'kept').map((r) => [r.sandbox, r.reason]));
    expect(kept).toEqual({
      'exploration-0000d0e2': 'holds work: 1 uncommitted file(s)',
      'exploration-0000u0e2': 'holds work: 1 uncommitted file(s)',
      'exploration-0000p0e2': 'holds work: 1 commit(s) on a detached HEAD on no remote',
    });
    expect(real.summary).toMatch(
      /\| exploration-0000c0e2 \| cache \| disk \| transient \| 100 \| removed \|/,
    );
    expect(fs.existsSync(clean)).toBe(false);
    // Exactly its registration went; git in the parent sees the main worktree and the three kept.
    expect(fs.readdirSync(path.join(parent, '.git', 'worktrees')).sort()).toEqual([
      'exploration-0000d0e2',
      'exploration-0000p0e2',
      'exploration-0000u0e2',
    ]);
    expect(worktreeList(parent).sort()).toEqual([parent, dirty, untracked, unpushed].sort());
    expect(git(dirty, 'status', '--porcelain')).toBe('M README.md');

    const again = await runStep({ node: execPath, inputs, asRunner: true });
    expect(again.code).toBe(0);
    expect(records(again, 'reaped')).toEqual([]);
  }, 300_000);
});
