import * as fs from 'node:fs';
import { git as gitIn, tempDir } from '../../test/support/repo.js';
import { Git } from '../engine/git.js';
import { branchOf, countCommits, countUnsaved, describeUnsaved, savedRefs } from './saved.js';

describe('describeUnsaved', () => {
  it('names the count, the branch and what the commits are missing from', () => {
    expect(describeUnsaved({ count: 3, branch: 'feature/x', hasRemote: true })).toBe(
      '3 commit(s) on branch "feature/x" on no remote',
    );
    expect(describeUnsaved({ count: 1, hasRemote: false })).toBe(
      '1 commit(s) on a detached HEAD on no branch or tag of the parent',
    );
    expect(describeUnsaved({ count: 5, atLeast: true, hasRemote: true })).toBe(
      'at least 5 commit(s) on a detached HEAD on no remote',
    );
  });

  it('never prints a branch name raw (it may come from a sandbox)', () => {
    expect(describeUnsaved({ count: 1, branch: 'x\r::error::y`', hasRemote: true })).toBe(
      '1 commit(s) on branch "x\\r::error::y`" on no remote',
    );
  });
});

describe('branchOf', () => {
  it('is the branch HEAD is on, or none', () => {
    expect(branchOf('refs/heads/feature/x')).toBe('feature/x');
    expect(branchOf('refs/tags/v1')).toBeUndefined();
    expect(branchOf(undefined)).toBeUndefined();
  });
});

describe('savedRefs and countUnsaved on a real repository', () => {
  const dir = tempDir('wts-saved-');
  const git = (...args: string[]) => gitIn(dir, ...args);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('counts a local branch only while the parent has no remote', async () => {
    git('init', '--quiet', '--initial-branch=main');
    git('commit', '--quiet', '--allow-empty', '-m', 'one');
    git('commit', '--quiet', '--allow-empty', '-m', 'two');
    const tip = git('rev-parse', 'HEAD');
    const cli = await Git.create();

    const none = await savedRefs(cli, dir);
    expect(none).toEqual({ revs: ['--remotes', '--tags', '--branches'], hasRemote: false });
    expect(await countUnsaved(cli, dir, [tip], none)).toEqual({ count: 0, atLeast: false });

    git('remote', 'add', 'upstream', 'https://example.invalid/r.git');
    const some = await savedRefs(cli, dir);
    expect(some).toEqual({ revs: ['--remotes', '--tags'], hasRemote: true });
    expect(await countUnsaved(cli, dir, [tip], some)).toEqual({ count: 2, atLeast: false });

    // A remote-tracking ref or a tag saves what it reaches; the sandbox records never do.
    git('update-ref', 'refs/worktree-sandbox/disk/x/head', tip);
    expect(await countUnsaved(cli, dir, [tip], some)).toEqual({ count: 2, atLeast: false });
    git('update-ref', 'refs/remotes/upstream/main', `${tip}~1`);
    expect(await countUnsaved(cli, dir, [tip], some)).toEqual({ count: 1, atLeast: false });
    git('tag', 'v1', tip);
    expect(await countUnsaved(cli, dir, [tip], some)).toEqual({ count: 0, atLeast: false });

    // git cannot say: undefined, which the callers count as work
    expect(await countUnsaved(cli, dir, ['f'.repeat(40)], some)).toBeUndefined();
  });

  it('stops counting at its bound and says so ("at least")', async () => {
    const tip = git('rev-parse', 'HEAD');
    const cli = await Git.create();
    expect(await countCommits(cli, dir, [tip], 1)).toEqual({ count: 1, atLeast: true });
    expect(await countCommits(cli, dir, [tip], 2)).toEqual({ count: 2, atLeast: true });
    expect(await countCommits(cli, dir, [tip], 3)).toEqual({ count: 2, atLeast: false });
  });
});
