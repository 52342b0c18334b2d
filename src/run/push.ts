// Pushing the sandbox branch from the host: never forced, only that branch, to the origin URL read
// before the command ran (so a container that rewrote .git/config cannot redirect it). The token travels
// as git configuration in the environment, never on a command line and never into the container.
import type { GitCommands } from '../engine/git-commands.js';
import type { PreparedSandbox } from '../sandbox/layout.js';
import { withRepositoryLock } from '../sandbox/lock.js';
import type { ParentRepository } from '../sandbox/repository.js';
import { MAX_COUNTED_COMMITS } from '../sandbox/saved.js';
import type { Ui } from '../ui/ui.js';
import { commitsNotIn, type WorktreeReport } from './report.js';
import { checkCommits, type SecretGate } from './secret-gate.js';

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
  git: GitCommands,
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

export interface PushDestination {
  url: string;
  branch: string;
  /** Updated after a push, so that the pushed commits count as on a remote. */
  trackingRef: string;
  /** How reports name the destination (`origin/feature`). */
  label: string;
}

/** A run's push: its branch tip, to `to`, once the secret scan lets the commits go. */
export async function pushSandbox(
  git: GitCommands,
  sandbox: PreparedSandbox,
  report: WorktreeReport,
  to: PushDestination | { withheld: string },
  token: string,
  ui: Ui,
  gate: SecretGate,
): Promise<PushResult> {
  if (!sandbox.branch) return { pushed: false, reason: 'a transient sandbox has no branch to push' };
  // What is pushed is the branch tip the parent recorded from the bundle, and only while HEAD was on it.
  if (report.currentBranch !== sandbox.branch || report.headSha !== report.tip) {
    return {
      pushed: false,
      reason: `the sandbox is no longer on its branch (HEAD: ${report.currentBranch ? 'another branch' : 'detached'}); nothing pushed`,
    };
  }
  if ('withheld' in to) {
    if (report.commits === 0) return { pushed: false, reason: 'no new commits' };
    ui.info(`Nothing pushed: ${to.withheld}.`);
    return { pushed: false, reason: to.withheld };
  }
  // Counted against the destination, not against this run's start: a run killed before its push
  // completed left commits that the next run must still push.
  const parentPath = sandbox.parent.path;
  const tracking = (await git.refExists(parentPath, to.trackingRef)) ? [to.trackingRef] : ['--remotes'];
  const unpushed = await commitsNotIn(git, parentPath, report.tip, tracking);
  if (unpushed === 0) return { pushed: false, reason: `no commits that ${to.label} does not have` };
  await checkCommits(git, parentPath, [report.tip, '--not', ...tracking], gate, `the push to ${to.label}`);
  const result = await pushBranch(git, sandbox.parent, to.url, to.branch, report.tip, token, {
    trackingRef: to.trackingRef,
    label: to.label,
  });
  const atLeast = unpushed >= MAX_COUNTED_COMMITS ? 'at least ' : '';
  if (result.pushed) ui.info(`Pushed ${atLeast}${unpushed} commit(s) to ${to.label}.`);
  else ui.warning(result.reason ?? 'push failed');
  return result;
}
