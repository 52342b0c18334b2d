// Creation writes a sandbox holding the sandbox's lock, not the parent's repository lock. The post step of
// a run that was killed while creating recovers the half-made sandbox only once it holds that lock: a live
// run creating the same sandbox keeps it; a dead one's half-made sandbox is removed.
import * as fs from 'node:fs';
import { cleanupRun } from '../../src/run/cleanup.js';
import type { RunState } from '../../src/run/run-state.js';
import { silentUi } from '../../src/ui/ui.js';
import { Git } from '../../src/engine/git.js';
import { sandboxRefs } from '../../src/sandbox/bookkeeping.js';
import { locateSandbox } from '../../src/sandbox/layout.js';
import { lockSandbox } from '../../src/sandbox/lock.js';
import { findParentRepository } from '../../src/sandbox/repository.js';
import { TEST_IMAGE } from '../support/env.js';
import { git, makeRepo, tempDir } from '../support/repo.js';
import { makeDiskSandbox } from '../support/sandboxes.js';

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
});

it('the post step keeps a half-made sandbox while a live run holds its lock, and removes it once none does', async () => {
  const repo = makeRepo();
  const root = tempDir('wts-creation-lock-');
  cleanup.push(repo.root, root);
  const name = 'exploration-0000c001';
  const worktree = await makeDiskSandbox(repo, root, name);
  const parent = await findParentRepository(await Git.create(), repo.parent);
  const location = locateSandbox(
    { sandbox: name, kind: 'transient', branch: '' },
    parent,
    'disk',
    fs.realpathSync(root),
    'unused',
  );
  expect(location.worktreePath).toBe(worktree);
  // What a creation under way (or a killed one) leaves: the `creating` record.
  const refs = sandboxRefs(location);
  git(repo.parent, 'update-ref', refs.creating, 'HEAD');
  const state: RunState = {
    engine: 'docker',
    image: TEST_IMAGE,
    cleanup: 'auto',
    location,
    collect: {
      author: { name: 'a', email: 'a@example.com' },
      committer: { name: 'a', email: 'a@example.com' },
      maxImportBytes: 1024 ** 2,
    },
    ready: false,
  };

  // Another run is creating it (a live lock holder): the post step waits out a stale lock's time, then
  // keeps everything.
  const release = await lockSandbox(parent.gitDir, name, 0);
  let kept;
  try {
    kept = await cleanupRun(state, silentUi, tempDir());
  } finally {
    await release();
  }
  // ... and says which run holds it.
  expect(kept).toMatchObject({ removed: false, heldBy: expect.stringMatching(/^process \d+ on /) });
  expect(kept!.kept).toMatch(/^another run holds it \(process \d+ on .*\): nothing of it was touched$/);
  expect(fs.existsSync(worktree)).toBe(true);
  expect(git(repo.parent, 'for-each-ref', '--format=%(refname)', `${refs.prefix}/`)).toContain(refs.creating);

  // Nobody holds it: what was half-made goes, records and all.
  expect(await cleanupRun(state, silentUi, tempDir())).toEqual({ removed: true });
  expect(fs.existsSync(worktree)).toBe(false);
  expect(git(repo.parent, 'for-each-ref', '--format=%(refname)', `${refs.prefix}/`)).toBe('');
}, 60_000);
