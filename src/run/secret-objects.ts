// The secret scan's read of each new commit object as git stores it: every header (author, committer,
// `gpgsig`, any extra one) and the message bytes whatever `encoding` says, none of which `git log -p`
// shows as stored. One `git cat-file` pair in the parent (a host-controlled repository, whose objects came
// in through a bundle fetched with fsck), each object's size asked first and counted against the scan's
// byte bound before it is read, the processes killed when the scan's time runs out.
import type { GitCommands } from '../engine/git-commands.js';
import { rawCommitLines } from './raw-commit.js';
import type { SecretScanner } from './secret-scan.js';

/** The scan's bounds, shared by every read of one scan: bytes read so far, and when its time runs out. */
export interface ScanBudget {
  maxBytes: number;
  bytes: number;
  /** `Date.now()` past which nothing more is read. */
  deadline: number;
  limitMs: number;
}

/**
 * Feeds the lines of each commit in `commits` to `scanner`, raw. Returns why it could not read them all
 * (then the scan is a finding of its own), or undefined when it did.
 */
export async function readRawCommits(
  git: Pick<GitCommands, 'objectReader'>,
  repo: string,
  commits: readonly string[],
  scanner: SecretScanner,
  budget: ScanBudget,
): Promise<string | undefined> {
  if (!commits.length) return undefined;
  const outOfTime = `reading it ran out of the scan's time limit (${Math.round(budget.limitMs / 1000)} s)`;
  const left = budget.deadline - Date.now();
  if (left <= 0) return outOfTime;
  const reader = await git.objectReader(repo, left);
  try {
    for (const commit of commits) {
      const info = await reader.info(commit);
      if (info?.type !== 'commit') return `git has no commit ${commit.slice(0, 12)} to read raw`;
      budget.bytes += info.size;
      if (budget.bytes > budget.maxBytes)
        return `what it carries is larger than the scan's bound (commit ${commit.slice(0, 12)} goes past ${budget.maxBytes} bytes)`;
      const object = await reader.read(commit);
      if (!object) return `git has no commit ${commit.slice(0, 12)} to read raw`;
      for (const { place, line, text } of rawCommitLines(commit, object.body)) {
        const wait = scanner.add(place, line, text);
        if (wait) await wait;
      }
    }
    return undefined;
  } catch (error) {
    if (Date.now() >= budget.deadline) return outOfTime;
    return `git could not read the commits raw (${(error as Error).message.slice(0, 200)})`;
  } finally {
    await reader.close().catch(() => undefined);
  }
}
