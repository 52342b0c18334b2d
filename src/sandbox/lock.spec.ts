import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { lockSandbox, LockTimeoutError } from './lock.js';

describe('the sandbox lock names its holder', () => {
  const gitDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-lock-'));
  const saved = { ...process.env };
  afterAll(() => {
    process.env = saved;
    fs.rmSync(gitDir, { recursive: true, force: true });
  });

  it('says which process, run, attempt, job and workflow hold it to whoever is refused', async () => {
    Object.assign(process.env, {
      GITHUB_RUN_ID: '2002',
      GITHUB_RUN_ATTEMPT: '3',
      GITHUB_JOB: 'job-b',
      GITHUB_WORKFLOW: 'CI "nightly"',
    });
    const release = await lockSandbox(gitDir, 'feature-x', 0);
    try {
      const refused = await lockSandbox(gitDir, 'feature-x', 0).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(LockTimeoutError);
      const holder = (refused as LockTimeoutError).holder;
      expect(holder).toMatch(
        new RegExp(
          `^process ${process.pid} on "[^"]+", run 2002 \\(attempt 3\\), job "job-b", workflow "CI \\\\"nightly\\\\"", since \\d{4}-`,
        ),
      );
      expect((refused as Error).message).toContain(`sandbox feature-x is in use by another run (${holder})`);
    } finally {
      await release();
    }
    // Released: the next one gets it.
    await (
      await lockSandbox(gitDir, 'feature-x', 0)
    )();
  });
});

describe('the lock folder', () => {
  it('is made once per process, and again when it went since; never where the repository is gone', async () => {
    const gitDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-lock-dir-'));
    try {
      const locks = path.join(gitDir, 'worktree-sandbox', 'locks');
      await (
        await lockSandbox(gitDir, 'a', 0)
      )();
      expect(fs.existsSync(locks)).toBe(true);
      // Removed behind the process's back: the next lock makes it again.
      fs.rmSync(path.join(gitDir, 'worktree-sandbox'), { recursive: true });
      const release = await lockSandbox(gitDir, 'b', 0);
      expect(fs.existsSync(path.join(locks, 'sandbox-b.lock'))).toBe(true);
      await release();
      // The repository itself gone: refused, and its path is not brought back.
      fs.rmSync(gitDir, { recursive: true });
      await expect(lockSandbox(gitDir, 'c', 0)).rejects.toMatchObject({ code: 'ENOENT' });
      expect(fs.existsSync(gitDir)).toBe(false);
    } finally {
      fs.rmSync(gitDir, { recursive: true, force: true });
    }
  });
});
