// Real git repositories for tests: a parent clone, its bare origin, and helpers to look at them.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  // the tests (root) look at repositories owned by the unprivileged runner user
  GIT_CONFIG_COUNT: '1',
  GIT_CONFIG_KEY_0: 'safe.directory',
  GIT_CONFIG_VALUE_0: '*',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    env: GIT_ENV,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/** `git` with `input` on its stdin: several ref updates (`update-ref --stdin`) or commits (`fast-import`) in one process. */
export function gitWithInput(cwd: string, input: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    env: GIT_ENV,
    encoding: 'utf8',
    input,
    stdio: ['pipe', 'pipe', 'pipe'],
  }).trim();
}

/** Empty commits on `main`, one per message, as a `git fast-import` stream: one git process for them all. */
export function emptyCommits(messages: string[]): string {
  return messages
    .map(
      (m, i) =>
        `commit refs/heads/main\ncommitter t <t@e> ${1_700_000_000 + i} +0000\ndata ${m.length}\n${m}\n`,
    )
    .join('');
}

export function tryGit(cwd: string, ...args: string[]): { ok: boolean; out: string } {
  try {
    return { ok: true, out: git(cwd, ...args) };
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string };
    return { ok: false, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/** A fresh temporary folder (world-readable, so the unprivileged runner user can use what we make in it). */
export function tempDir(prefix = 'wts-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755);
  return dir;
}

export interface TestRepo {
  root: string;
  parent: string;
  origin: string;
}

const DEFAULT_FILES = { 'README.md': '# test\n', 'src/app.js': 'console.log("hi")\n' };

/**
 * A repository with one commit on `main` holding `files` (makeRepo's files and CHANGELOG.md by default),
 * with no origin: three git processes where makeRepo takes ten, for tests that read and add commits only.
 */
export function makeLocalRepo(files: Record<string, string> = { ...DEFAULT_FILES, 'CHANGELOG.md': 'v1\n' }): {
  root: string;
  parent: string;
} {
  const root = tempDir();
  const parent = path.join(root, 'repo');
  git(root, 'init', '--quiet', '--initial-branch=main', parent);
  commitFiles(parent, files, 'first');
  return { root, parent };
}

/** Writes `files` into the repository at `dir` and commits everything there as `message`. */
function commitFiles(dir: string, files: Record<string, string>, message: string): void {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '--quiet', '-m', message);
}

/** A parent repository with two commits on `main`, cloned from a bare `origin`; everything under one temp root. */
export function makeRepo(
  options: { files?: Record<string, string>; owner?: { uid: number; gid: number } } = {},
): TestRepo {
  const root = tempDir();
  const origin = path.join(root, 'origin.git');
  const seed = path.join(root, 'seed');
  git(root, 'init', '--quiet', '--bare', '--initial-branch=main', origin);
  git(root, 'init', '--quiet', '--initial-branch=main', seed);
  commitFiles(seed, options.files ?? DEFAULT_FILES, 'first');
  commitFiles(seed, { 'CHANGELOG.md': 'v1\n' }, 'second');
  git(seed, 'push', '--quiet', origin, 'main');
  const parent = path.join(root, 'work', 'repo');
  fs.mkdirSync(path.dirname(parent), { recursive: true });
  git(root, 'clone', '--quiet', origin, parent);
  fs.rmSync(seed, { recursive: true, force: true });
  if (options.owner) chownTree(root, options.owner);
  return { root, parent, origin };
}

export function chownTree(dir: string, owner: { uid: number; gid: number }): void {
  execFileSync('chown', ['-R', `${owner.uid}:${owner.gid}`, dir]);
}

export function worktreeList(parent: string): string[] {
  return git(parent, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree '))
    .map((l) => l.slice('worktree '.length));
}
