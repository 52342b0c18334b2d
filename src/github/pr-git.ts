// The git steps a pull-request run adds around the sandbox, all on the host through the hardened wrapper:
// fetch a fork's head from the base repository, give it a local branch, and read what the run committed
// (commit list, patch). Commits live in the parent's object store whatever the isolation.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Git } from '../engine/git.js';
import type { CommitLine } from './progress.js';

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

function checkSha(sha: string): string {
  if (!SHA.test(sha)) throw new Error(`Not a commit id: ${JSON.stringify(sha)}.`);
  return sha;
}

/** Fetches `refs/pull/N/head` from origin (GitHub keeps every pull request's head there); returns its commit. */
export async function fetchPullHead(
  git: Git,
  parentPath: string,
  fetch: { ref: string; into: string },
): Promise<string> {
  await git.run(parentPath, ['fetch', '--no-tags', '--quiet', '--', 'origin', `+${fetch.ref}:${fetch.into}`]);
  return checkSha(
    (
      await git.run(parentPath, ['rev-parse', '--verify', '--end-of-options', `${fetch.into}^{commit}`])
    ).trim(),
  );
}

/**
 * Creates the local branch at `sha` when it does not exist. An existing one is left as it is: it belongs to
 * a sandbox kept from an earlier run, which is reused as it is.
 */
export async function ensureLocalBranch(
  git: Git,
  parentPath: string,
  branch: string,
  sha: string,
): Promise<boolean> {
  if (await git.refExists(parentPath, `refs/heads/${branch}`)) return false;
  await git.run(parentPath, [
    'update-ref',
    '-m',
    'worktree-sandbox: pull request head',
    '--',
    `refs/heads/${branch}`,
    checkSha(sha),
    '',
  ]);
  return true;
}

/** The commits from `start` (excluded) to `head`, oldest first. */
export async function listCommits(
  git: Git,
  parentPath: string,
  start: string,
  head: string,
): Promise<CommitLine[]> {
  if (start === head) return [];
  const out = await git.run(parentPath, [
    'log',
    '--reverse',
    '--no-show-signature',
    '--no-color',
    '--format=%H%x1f%s',
    '--end-of-options',
    `${checkSha(start)}..${checkSha(head)}`,
    '--',
  ]);
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [sha, subject = ''] = line.split('\x1f');
      return { sha, subject };
    });
}

/** The commits as a mailbox (`git am` applies it), saved under `dir`; returns the path and the text. */
export async function savePatch(
  git: Git,
  parentPath: string,
  start: string,
  head: string,
  dir: string,
  name: string,
): Promise<{ path: string; text: string }> {
  const text = await git.run(parentPath, [
    'format-patch',
    '--stdout',
    '--binary',
    '--no-ext-diff',
    '--no-textconv',
    '--no-signature',
    `${checkSha(start)}..${checkSha(head)}`,
    '--',
  ]);
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${name.replace(/[^A-Za-z0-9._-]/g, '-')}.patch`);
  await fs.writeFile(file, text);
  return { path: file, text };
}
