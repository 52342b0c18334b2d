import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { GitCommands } from '../engine/git-commands.js';
import { GitError } from '../engine/git.js';
import { ProcTimeLimitError } from '../engine/proc.js';
import { planBranch, resolveBranch } from './branch.js';

const base = 'a'.repeat(40);
const facts = (branch: string, localExists = false, remoteExists = false) => ({
  branch,
  localExists,
  remoteExists,
  baseCommit: base,
});

describe('planBranch (the branch resolution protocol)', () => {
  it('no branch: a transient sandbox on a detached HEAD at base', () => {
    const plan = planBranch(facts(''), () => 'exploration-0000abcd');
    expect(plan).toEqual({
      kind: 'transient',
      sandbox: 'exploration-0000abcd',
      branch: '',
      source: 'detached',
      startPoint: base,
    });
  });

  it('an existing local branch is checked out', () => {
    expect(planBranch(facts('fix', true, true))).toMatchObject({
      kind: 'persistent',
      sandbox: 'fix',
      source: 'local',
      startPoint: 'fix',
    });
  });

  it('a branch only on origin becomes a local branch tracking it', () => {
    expect(planBranch(facts('feat/x', false, true))).toMatchObject({
      source: 'remote',
      startPoint: 'origin/feat/x',
    });
  });

  it('a new branch is created from base', () => {
    expect(planBranch(facts('new-work'))).toMatchObject({
      source: 'new',
      startPoint: base,
      branch: 'new-work',
    });
  });
});

/** A parent repository as git answers for it: its refs, origin's answer to a fetch, and what was run. */
function fakeGit(refs: Record<string, string>, fetched: () => Promise<string>) {
  const ran: string[][] = [];
  const git: Parameters<typeof resolveBranch>[0] = {
    resolveCommit: () => Promise.resolve(base),
    readRefs: (_cwd, names) =>
      Promise.resolve(new Map(names.filter((n) => n in refs).map((n) => [n, refs[n]] as [string, string]))),
    remoteUrl: () => Promise.resolve('https://example.invalid/repo.git'),
    fetchCommit: fetched,
    run: (_cwd, args) => {
      ran.push([...args]);
      return Promise.resolve('');
    },
  } satisfies Pick<GitCommands, 'resolveCommit' | 'readRefs' | 'remoteUrl' | 'fetchCommit' | 'run'>;
  return { git, ran };
}

describe('resolveBranch (with git faked)', () => {
  const parent = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-branch-'));
    return { path: dir, gitDir: dir, objectStores: [path.join(dir, 'objects')] };
  };
  const refused = () =>
    Promise.reject(new GitError(['fetch'], { exitCode: 128, stdout: '', stderr: 'no ref' }));

  it('asks origin for a branch it does not know, and tracks what origin has', async () => {
    const where = parent();
    const tip = 'b'.repeat(40);
    const { git, ran } = fakeGit({}, () => Promise.resolve(tip));
    await expect(resolveBranch(git, where, 'feat/x', '')).resolves.toMatchObject({ source: 'remote' });
    expect(ran).toContainEqual(expect.arrayContaining(['update-ref', 'refs/remotes/origin/feat/x', tip]));
    fs.rmSync(where.path, { recursive: true, force: true });
  });

  it('starts the branch anew only when origin says it has no such branch', async () => {
    const where = parent();
    const { git, ran } = fakeGit({}, refused);
    await expect(resolveBranch(git, where, 'new-work', '')).resolves.toMatchObject({ source: 'new' });
    expect(ran).toEqual([]);
    fs.rmSync(where.path, { recursive: true, force: true });
  });

  it('fails the run, rather than start anew, when origin does not answer in time', async () => {
    const where = parent();
    const { git } = fakeGit({}, () =>
      Promise.reject(new ProcTimeLimitError('git fetch', 'asking origin', 1_000)),
    );
    await expect(resolveBranch(git, where, 'maybe-on-origin', '')).rejects.toBeInstanceOf(ProcTimeLimitError);
    fs.rmSync(where.path, { recursive: true, force: true });
  });

  it('takes a local branch as it is, without asking origin', async () => {
    const where = parent();
    const { git } = fakeGit({ 'refs/heads/fix': base }, () => Promise.reject(new Error('not asked')));
    await expect(resolveBranch(git, where, 'fix', '')).resolves.toMatchObject({ source: 'local' });
    fs.rmSync(where.path, { recursive: true, force: true });
  });
});
