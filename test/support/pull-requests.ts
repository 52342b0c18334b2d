// Git repositories shaped like GitHub's around pull requests: a bare `origin` (the base repository) with a
// pull-request branch and the `refs/pull/N/head` refs GitHub keeps, a second bare repository as a fork
// whose head branch is called `main` like the base's, and the parent clone a workflow checks out.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chownTree, git, makeRepo, tempDir, type TestRepo } from './repo.js';

export interface PullRequestRepos extends TestRepo {
  /** The fork, a bare repository. */
  fork: string;
  /** A clone used to push as other people do (not the parent). */
  scratch: string;
  /** The same-repository pull request: its head branch (unique per test) and number. */
  branch: string;
  number: number;
  headSha: string;
  /** The fork's pull request: head `main` in the fork. */
  forkNumber: number;
  forkHeadSha: string;
}

export function makePullRequestRepos(
  options: { owner?: { uid: number; gid: number } } = {},
): PullRequestRepos {
  const repo = makeRepo();
  const branch = `fix-typo-${randomBytes(3).toString('hex')}`;
  const number = 7;
  const forkNumber = 8;
  const scratch = path.join(repo.root, 'scratch');
  git(repo.root, 'clone', '--quiet', repo.origin, scratch);

  git(scratch, 'switch', '--quiet', '-c', branch);
  fs.writeFileSync(path.join(scratch, 'README.md'), '# test\n\nA typo: teh.\n');
  git(scratch, 'commit', '--quiet', '-am', 'docs: a sentence with a typo');
  const headSha = git(scratch, 'rev-parse', 'HEAD');
  git(scratch, 'push', '--quiet', 'origin', `${branch}`, `HEAD:refs/pull/${number}/head`);

  const fork = path.join(repo.root, 'fork.git');
  git(repo.root, 'clone', '--quiet', '--bare', repo.origin, fork);
  git(scratch, 'switch', '--quiet', '-c', 'fork-main', 'origin/main');
  fs.writeFileSync(path.join(scratch, 'src/app.js'), 'console.log("hi from a fork")\n');
  git(scratch, 'commit', '--quiet', '-am', 'feat: greet from the fork');
  const forkHeadSha = git(scratch, 'rev-parse', 'HEAD');
  git(scratch, 'push', '--quiet', fork, 'HEAD:refs/heads/main');
  git(scratch, 'push', '--quiet', 'origin', `HEAD:refs/pull/${forkNumber}/head`);
  git(scratch, 'switch', '--quiet', 'main');

  if (options.owner) chownTree(repo.root, options.owner);
  return { ...repo, fork, scratch, branch, number, headSha, forkNumber, forkHeadSha };
}

/**
 * A copy of `template` (made by makePullRequestRepos and used by no test) whose head branch has a name of
 * its own: what a test makes in it is its own, as in a new one, for one copy and one git call rather than
 * twenty (a file makes the template once).
 */
export function copyPullRequestRepos(
  template: PullRequestRepos,
  options: { owner?: { uid: number; gid: number } } = {},
): PullRequestRepos {
  const root = tempDir();
  execFileSync('cp', ['-a', `${template.root}/.`, root]);
  const moved = (p: string) => path.join(root, path.relative(template.root, p));
  const copy: PullRequestRepos = {
    ...template,
    root,
    parent: moved(template.parent),
    origin: moved(template.origin),
    fork: moved(template.fork),
    scratch: moved(template.scratch),
    branch: `fix-typo-${randomBytes(3).toString('hex')}`,
  };
  // Their remotes name each other by path.
  for (const config of [`${copy.parent}/.git/config`, `${copy.scratch}/.git/config`, `${copy.fork}/config`])
    fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replaceAll(template.root, root));
  git(copy.origin, 'branch', '-m', template.branch, copy.branch);
  if (options.owner) chownTree(root, options.owner);
  return copy;
}

/** The commit a ref names in a (bare) repository. */
export function refOf(repository: string, ref: string): string {
  // The repository may belong to the runner user: this root-run check must not stop at its ownership.
  return git(repository, '-c', 'safe.directory=*', 'rev-parse', '--verify', `${ref}^{commit}`);
}

/** Someone else pushes a commit to `branch` on origin (the branch moves on). */
export function pushCommitAsSomeoneElse(repos: PullRequestRepos, branch: string): string {
  const { scratch } = repos;
  git(scratch, 'fetch', '--quiet', 'origin', branch);
  git(scratch, 'switch', '--quiet', '--detach', 'FETCH_HEAD');
  fs.writeFileSync(path.join(scratch, 'CHANGELOG.md'), 'v2\n');
  git(scratch, 'commit', '--quiet', '-am', 'chore: someone else moved the branch');
  const sha = git(scratch, 'rev-parse', 'HEAD');
  git(scratch, 'push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`);
  git(scratch, 'switch', '--quiet', 'main');
  return sha;
}
