// Which git the action needs, checked once when the wrapper is made: an older git lacks options the
// hardening relies on.
import { ProcError, runProcess, type ProcResult } from './proc.js';
import { timeLimitMs } from './time-limits.js';

export const MIN_GIT_VERSION = [2, 31, 0] as const;

/** Throws when git is missing or older than MIN_GIT_VERSION, saying which. */
export async function checkGitVersion(env: Record<string, string>): Promise<void> {
  let result: ProcResult;
  try {
    result = await runProcess('git', ['version'], {
      env,
      limit: { ms: timeLimitMs('git'), purpose: 'checking that git is new enough' },
    });
  } catch (error) {
    if (error instanceof ProcError) {
      throw new Error('git is not installed or not on PATH: the action needs git 2.31 or newer.', {
        cause: error,
      });
    }
    throw error;
  }
  const match = /git version (\d+)\.(\d+)\.(\d+)/.exec(result.stdout);
  if (!match) throw new Error(`Cannot read the git version from "${result.stdout.trim()}".`);
  const version = match.slice(1, 4).map(Number);
  if (compareVersions(version, MIN_GIT_VERSION) < 0) {
    throw new Error(
      `git ${version.join('.')} is too old: worktree-sandbox needs git ${MIN_GIT_VERSION.join('.')} or newer.`,
    );
  }
}

export function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
