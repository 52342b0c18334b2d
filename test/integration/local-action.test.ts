// The action's source run by GitHub's local runner for actions (@github/local-action, `npm run
// local-action`): it imports src/action/main.ts and src/action/post.ts, stubs @actions/core, and calls
// each module's run(). One real run on a disk sandbox: the command's commit reaches the parent's branch,
// the outputs are set, and the post step runs.
import { afterAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TEST_IMAGE } from '../support/env.js';
import { git, makeRepo, tempDir, type TestRepo } from '../support/repo.js';

const LOCAL_ACTION = path.resolve('node_modules/@github/local-action/bin/local-action.js');
const repos: TestRepo[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const r of repos) fs.rmSync(r.root, { recursive: true, force: true });
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('npm run local-action (the source, through @github/local-action)', () => {
  it('runs the main step and the post step: the commit reaches the parent, outputs are set', () => {
    const repo = makeRepo();
    repos.push(repo);
    const scratch = tempDir('wts-local-action-');
    dirs.push(scratch);
    const summary = path.join(scratch, 'summary.md');
    fs.writeFileSync(summary, '');
    const env = [
      `INPUT_REPOSITORY-PATH=${repo.parent}`,
      `INPUT_COMMAND="echo hello > greeting.txt && git add greeting.txt && git commit -qm greet"`,
      `INPUT_IMAGE=${TEST_IMAGE}`,
      'INPUT_ISOLATION=disk',
      `INPUT_WORKTREE-ROOT=${path.join(scratch, 'worktrees')}`,
      'INPUT_BRANCH=local-action',
      `RUNNER_TEMP=${scratch}`,
      `GITHUB_STEP_SUMMARY=${summary}`,
    ];
    const envFile = path.join(scratch, '.env');
    fs.writeFileSync(envFile, `${env.join('\n')}\n`);
    const result = spawnSync(
      process.execPath,
      [LOCAL_ACTION, '.', 'src/action/main.ts', envFile, '--post', 'src/action/post.ts'],
      { encoding: 'utf8', timeout: 180_000, env: { ...process.env, CI: '' } },
    );
    const out = `${result.stdout}${result.stderr}`;
    expect({ status: result.status, tail: out.slice(-2000) }).toEqual({
      status: 0,
      tail: expect.any(String),
    });
    expect(out).not.toMatch(/does not export a run\(\) function|::error::/);
    expect(out).toMatch(/Running Post Step/);
    expect(out).toMatch(/::set-output name=sandbox::local-action\n/);
    expect(out).toMatch(/::set-output name=exit-code::0\n/);
    expect(out).toMatch(/::set-output name=commits::1\n/);
    // The work came back to the parent's branch; the parent's own checkout is untouched.
    expect(git(repo.parent, 'show', 'local-action:greeting.txt')).toBe('hello');
    expect(fs.existsSync(path.join(repo.parent, 'greeting.txt'))).toBe(false);
    expect(fs.readFileSync(summary, 'utf8')).toMatch(/## worktree-sandbox: run/);
  });
});
