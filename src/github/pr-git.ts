// The git steps a pull-request run adds around the sandbox, all on the host through the hardened wrapper:
// fetch a fork's head from the base repository, give it a local branch, and read what the run committed
// (commit list, patch). Commits live in the parent's object store whatever the isolation.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { NO_EXTERNAL_DIFF, OID, type GitCommands } from '../engine/git-commands.js';
import { changedPaths } from '../run/changed-paths.js';
import type { FinishedRun } from '../run/progress-data.js';

function checkSha(sha: string): string {
  if (!OID.test(sha)) throw new Error(`Not a commit id: ${JSON.stringify(sha)}.`);
  return sha;
}

/**
 * Fetches `refs/pull/N/head` from origin (GitHub keeps every pull request's head there) and returns its
 * commit, holding no lock and changing no ref (git.ts `fetchCommit`): the wait on the network holds up no
 * other run of the parent. `pointRef` then records it, under the repository lock.
 */
export async function fetchPullHead(git: GitCommands, parentPath: string, ref: string): Promise<string> {
  return checkSha(
    await git.fetchCommit(parentPath, 'origin', ref, `fetching the pull request's head ${ref} from origin`),
  );
}

/** Points `ref` at `sha` (a fork's fetched head at its tracking ref). */
export async function pointRef(
  git: GitCommands,
  parentPath: string,
  ref: string,
  sha: string,
): Promise<void> {
  await git.run(parentPath, [
    'update-ref',
    '-m',
    'worktree-sandbox: fetched from origin',
    '--',
    ref,
    checkSha(sha),
  ]);
}

/**
 * Creates the local branch at `sha` when it does not exist. An existing one is left as it is: it belongs to
 * a sandbox kept from an earlier run, which is reused as it is.
 */
export async function ensureLocalBranch(
  git: GitCommands,
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

/** The progress comment lists at most this many commits (the newest), their subjects cut at SUBJECT_MAX. */
export const MAX_LISTED_COMMITS = 250;
const SUBJECT_MAX = 200;

/**
 * The commits from `start` (excluded) to `head`, oldest first: the newest MAX_LISTED_COMMITS of them, each
 * subject cut at SUBJECT_MAX characters, so that what git prints stays a few tens of kilobytes whatever
 * the run committed; `more` when older ones were left out.
 */
export async function listCommits(
  git: GitCommands,
  parentPath: string,
  start: string,
  head: string,
): Promise<{ commits: FinishedRun['commits']; more: boolean }> {
  if (start === head) return { commits: [], more: false };
  const out = await git.run(parentPath, [
    'log',
    `--max-count=${MAX_LISTED_COMMITS + 1}`,
    '--no-show-signature',
    '--no-color',
    `--format=%H%x1f%<(${SUBJECT_MAX},trunc)%s`,
    '--end-of-options',
    `${checkSha(start)}..${checkSha(head)}`,
    '--',
  ]);
  const lines = out.split('\n').filter(Boolean);
  const commits = lines
    .slice(0, MAX_LISTED_COMMITS)
    .reverse()
    .map((line) => {
      const [sha, subject = ''] = line.split('\x1f');
      return { sha, subject: subject.trimEnd() };
    });
  return { commits, more: lines.length > MAX_LISTED_COMMITS };
}

/** Up to this many changed files the commits are saved as a patch (git's diff holds every path it compares). */
export const PATCH_MAX_PATHS = 10_000;
/** The largest patch written to its file; a larger one is not saved (the commits stay in the parent). */
export const PATCH_MAX_BYTES = 256 * 1024 * 1024;
/** The largest patch also read back for the progress comment (which shows up to 30,000 characters). */
const PATCH_TEXT_MAX_BYTES = 64 * 1024;

/**
 * The commits as a mailbox (`git am` applies it), streamed to a file under `dir` (never held here);
 * returns the path, and the text when it is small enough to show. Undefined when the commits change more
 * than PATCH_MAX_PATHS files (counted first, in bounded memory), git failed, or the patch is larger than
 * PATCH_MAX_BYTES (then no file is left): the commits stay in the parent repository.
 */
export async function savePatch(
  git: GitCommands,
  parentPath: string,
  start: string,
  head: string,
  dir: string,
  name: string,
): Promise<{ path: string; text: string } | undefined> {
  const span = await changedPaths(git, parentPath, checkSha(start), checkSha(head));
  if (!span.exact || span.count > PATCH_MAX_PATHS) return undefined;
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${name.replace(/[^A-Za-z0-9._-]/g, '-')}.patch`);
  await fs.rm(file, { force: true });
  const written = await git.stream(
    parentPath,
    [
      'format-patch',
      '--stdout',
      '--binary',
      ...NO_EXTERNAL_DIFF,
      '--no-signature',
      `${checkSha(start)}..${checkSha(head)}`,
      '--',
    ],
    { stdoutFile: { path: file, maxBytes: PATCH_MAX_BYTES } },
  );
  if (written.exitCode !== 0 || written.overLimit) {
    await fs.rm(file, { force: true });
    return undefined;
  }
  const text = written.stdoutBytes <= PATCH_TEXT_MAX_BYTES ? await fs.readFile(file, 'utf8') : '';
  return { path: file, text };
}
