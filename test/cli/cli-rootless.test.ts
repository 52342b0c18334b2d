// The CLI's sandbox commands as the runner user with rootless Podman (its own storage), on sandboxes that
// run mode made there: `list` sees them with their state, `rm --dry-run` changes nothing, `rm` refuses one
// holding work and removes a clean one, `reap` in a dry run judges from the runner's storage only.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runMainAndPost } from '../support/action.js';
import { BIN } from '../support/cli.js';
import { uniquePrefix } from '../support/docker.js';
import { TEST_IMAGE, runnerIds } from '../support/env.js';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { requireRootlessPodman, rootlessPodman, runAsRunner } from '../support/rootless.js';

const repos: TestRepo[] = [];
let prefix = '';
beforeAll(() => {
  requireRootlessPodman();
  prefix = uniquePrefix('clirl');
});
afterAll(async () => {
  const listed = await rootlessPodman(['volume', 'ls', '--quiet', '--filter', `name=${prefix}`]);
  const names = listed.stdout.split('\n').filter(Boolean);
  if (names.length) await rootlessPodman(['volume', 'rm', '--force', ...names]);
  for (const r of repos) fs.rmSync(r.root, { recursive: true, force: true });
});

interface Listed {
  sandbox: string;
  isolation: string;
  state: string;
  where: string;
}

describe('worktree-sandbox list, rm and reap as uid 1001 on rootless Podman', () => {
  it('sees the sandboxes in the runner’s own storage, removes a clean one, keeps the one with work', async () => {
    const repo = makeRepo({ owner: runnerIds() });
    repos.push(repo);
    const common = {
      mode: 'run',
      engine: 'podman',
      network: 'none',
      image: TEST_IMAGE,
      'repository-path': repo.parent,
      'volume-prefix': prefix,
      cleanup: 'never',
    };
    for (const [branch, command] of [
      ['rl-clean', 'true'],
      ['rl-work', 'echo draft > draft.txt'],
    ]) {
      const made = await runMainAndPost({
        inputs: { ...common, branch, command },
        asRunner: true,
        rootlessPodman: true,
        env: { GITHUB_WORKSPACE: repo.parent },
      });
      expect({ branch, code: made.main.code, stderr: made.main.stderr }).toEqual({
        branch,
        code: 0,
        stderr: '',
      });
    }
    const where = [
      '--volume-prefix',
      prefix,
      '--image',
      TEST_IMAGE,
      '--worktree-root',
      path.join(repo.root, 'none'),
    ];
    const cli = (args: string[]) =>
      runAsRunner(process.execPath, [BIN, ...args], { rootlessPodman: true, env: { CI: '' } });

    const listed = await cli(['list', '--json', '--engine', 'podman', ...where]);
    expect({ code: listed.code, stderr: listed.stderr }).toEqual({ code: 0, stderr: '' });
    const byName = Object.fromEntries((JSON.parse(listed.stdout) as Listed[]).map((e) => [e.sandbox, e]));
    expect(byName['rl-clean']).toMatchObject({ isolation: 'container', state: 'clean' });
    expect(byName['rl-work']).toMatchObject({ isolation: 'container', state: 'holds work' });

    const dry = await cli(['rm', 'rl-clean', '--dry-run', '--engine', 'podman', ...where]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^Would remove /m);
    const volumes = async () =>
      (await rootlessPodman(['volume', 'ls', '--quiet', '--filter', `name=${prefix}`])).stdout
        .split('\n')
        .filter(Boolean)
        .sort();
    expect(await volumes()).toHaveLength(2);

    const refused = await cli(['rm', 'rl-work', '--engine', 'podman', ...where]);
    expect(refused.code).toBe(4);
    const removed = await cli(['rm', 'rl-clean', '--engine', 'podman', ...where]);
    expect({ code: removed.code, stderr: removed.stderr }).toEqual({ code: 0, stderr: '' });
    expect(await volumes()).toEqual([byName['rl-work'].where].sort());

    // The reaper as the runner, in a dry run, on the runner's storage: the sandbox with work is kept.
    const reap = await cli(['reap', '--dry-run', '--json', '--engine', 'podman', ...where]);
    expect({ code: reap.code, stderr: reap.stderr }).toEqual({ code: 0, stderr: '' });
    expect(reap.stdout).toContain('rl-work');
    expect(await volumes()).toEqual([byName['rl-work'].where].sort());
  }, 300_000);
});
