// Facts about the test machine, shared by every test: the local image, the unprivileged runner user.
import { execFileSync } from 'node:child_process';

/** Built by scripts/setup.sh (debootstrap minbase + git, docker import): there is no registry here. */
export const TEST_IMAGE = process.env.WORKTREE_SANDBOX_TEST_IMAGE ?? 'worktree-sandbox-test:bookworm';
export const RUNNER_USER = process.env.WORKTREE_SANDBOX_TEST_USER ?? 'runner';

export function runnerIds(): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', RUNNER_USER], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', RUNNER_USER], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

export const isRoot = process.getuid?.() === 0;
