// Pushing the sandbox branch from the host: never forced, only that branch, to the origin URL read
// before the command ran (so a container that rewrote .git/config cannot redirect it). The token travels
// as git configuration in the environment, never on a command line and never into the container.
import type { Git } from '../engine/git.js';
import { withRepositoryLock } from '../sandbox/lock.js';
import type { ParentRepository } from '../sandbox/repository.js';

export interface PushResult {
  pushed: boolean;
  /** Why not, when not pushed. */
  reason?: string;
  rejected?: boolean;
}

export function authConfig(url: string, token: string): Array<[string, string]> {
  if (!token || !/^https?:\/\//i.test(url)) return [];
  const basic = Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64');
  const { protocol, host } = new URL(url);
  return [[`http.${protocol}//${host}/.extraheader`, `AUTHORIZATION: basic ${basic}`]];
}

export async function pushBranch(
  git: Git,
  parent: ParentRepository,
  originUrl: string,
  branch: string,
  sha: string,
  token: string,
  options: { trackingRef?: string; label?: string } = {},
): Promise<PushResult> {
  const trackingRef = options.trackingRef ?? `refs/remotes/origin/${branch}`;
  const label = options.label ?? `origin/${branch}`;
  const result = await git.exec(
    parent.path,
    ['push', '--porcelain', '--no-verify', '--', originUrl, `${sha}:refs/heads/${branch}`],
    {
      config: authConfig(originUrl, token),
      work: 'git-push',
      purpose: `pushing the run's commits to ${label}`,
    },
  );
  if (result.exitCode === 0) {
    // The remote-tracking ref now names what origin has, so that the pushed commits count as on a remote.
    await withRepositoryLock(parent.gitDir, async () => {
      await git.exec(parent.path, ['update-ref', '-m', 'worktree-sandbox: pushed', '--', trackingRef, sha]);
    });
    return { pushed: true };
  }
  const text = `${result.stdout}\n${result.stderr}`;
  const rejected = /\[rejected\]|non-fast-forward|fetch first|\[remote rejected\]/.test(text);
  const reason = rejected
    ? `${label} has moved on since the sandbox started: the push was rejected (nothing is ever force-pushed). Rebase or rerun.`
    : `git push failed: ${result.stderr.trim().split('\n').slice(-2).join(' ')}`;
  return { pushed: false, rejected, reason };
}
