// The real `worktree-sandbox` binary, run as a user would: help, exit codes, --json.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { removeVolumes, uniquePrefix, volumesWithPrefix } from '../support/docker.js';
import { TEST_IMAGE } from '../support/env.js';
import { git, makeRepo, type TestRepo } from '../support/repo.js';
import { requireRootlessPodman, runAsRunner } from '../support/rootless.js';
import { nodeRuntimes } from '../support/runtimes.js';
import { PODMAN_ROOTLESS, removeStorageVolumes, storageVolumes } from '../support/storage.js';
import { runnerIds } from '../support/env.js';

const BIN = path.resolve('bin/worktree-sandbox.js');
const repos: TestRepo[] = [];
const prefixes: string[] = [];
afterAll(async () => {
  for (const p of prefixes) removeVolumes(p);
  for (const p of prefixes) await removeStorageVolumes(PODMAN_ROOTLESS, p);
  for (const r of repos) fs.rmSync(r.root, { recursive: true, force: true });
});

function cli(node: string, args: string[], cwd = process.cwd()) {
  const r = spawnSync(node, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, CI: '' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

// Each suite once per Node.js runtime (test/support/runtimes.ts): the name says which ran.
describe.each(nodeRuntimes())('$name', ({ execPath }) => {
  describe('worktree-sandbox CLI', () => {
    it('prints help for the program and each subcommand, with the exit codes', () => {
      const top = cli(execPath, ['--help']);
      expect(top.code).toBe(0);
      expect(top.stdout).toContain('Usage: worktree-sandbox');
      expect(top.stdout).toMatch(/Exit codes:\n\s+0\s+success/);
      const run = cli(execPath, ['run', '--help']);
      expect(run.code).toBe(0);
      for (const option of ['--command', '--isolation', '--branch', '--cleanup', '--env', '--push', '--json'])
        expect(run.stdout).toContain(option);
    });

    it('usage errors exit 2 with one clear line and no stack trace', () => {
      const unknown = cli(execPath, ['run', '--command', 'x', '--no-such-option']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
      const invalid = cli(execPath, ['run', '--command', 'x', '--timeout-minutes', '-3']);
      expect(invalid.code).toBe(2);
      expect(invalid.stderr).toBe(
        'worktree-sandbox: Invalid option \'--timeout-minutes\': "-3". Accepted: a number ≥ 0.\n',
      );
    });

    it('errors exit 1 with one line, and a stack trace only with --debug', () => {
      const dir = fs.mkdtempSync('/tmp/wts-cli-');
      const plain = cli(execPath, [
        'run',
        '--command',
        'true',
        '--image',
        TEST_IMAGE,
        '--repository-path',
        dir,
      ]);
      expect(plain.code).toBe(1);
      expect(plain.stderr).toMatch(/^worktree-sandbox: repository-path .* is not a git work tree/m);
      expect(plain.stderr).not.toMatch(/\n\s+at /);
      const debug = cli(execPath, [
        '--debug',
        'run',
        '--command',
        'true',
        '--image',
        TEST_IMAGE,
        '--repository-path',
        dir,
      ]);
      expect(debug.stderr).toMatch(/\n\s+at /);
      fs.rmSync(dir, { recursive: true });
    });

    it('run: streams the output, prints the outcome, --json parses; a failing command exits 3', () => {
      const repo = makeRepo();
      repos.push(repo);
      const prefix = uniquePrefix('cli');
      prefixes.push(prefix);
      const base = ['run', '--image', TEST_IMAGE, '--volume-prefix', prefix];
      const text = cli(execPath, [...base, '--command', 'echo from-the-sandbox'], repo.parent);
      expect(text.code).toBe(0);
      expect(text.stdout).toBe('from-the-sandbox\n');
      expect(text.stderr).toMatch(/^Command\s+✅ exit 0$/m);
      const json = cli(
        execPath,
        [...base, '--json', '--branch', 'cli-branch', '--command', 'echo x > x.txt'],
        repo.parent,
      );
      expect(json.code).toBe(0);
      const outcome = JSON.parse(json.stdout.slice(json.stdout.indexOf('{')));
      expect(outcome.sandbox).toMatchObject({ name: 'cli-branch', kind: 'persistent' });
      expect(outcome.report.changedFiles).toEqual(['x.txt']);
      expect(outcome.cleanup).toMatchObject({ removed: false });
      const failing = cli(execPath, [...base, '--command', 'exit 5'], repo.parent);
      expect(failing.code).toBe(3);
      expect(failing.stderr).toContain('worktree-sandbox: the command exited with code 5');
      // transient sandboxes without work are gone; the branch sandbox stays for reuse
      expect(volumesWithPrefix(prefix)).toHaveLength(1);
      expect(
        git(repo.parent, 'for-each-ref', '--format=%(refname)', 'refs/worktree-sandbox/')
          .split('\n')
          .filter(Boolean),
      ).toEqual(['refs/worktree-sandbox/volume/cli-branch/head']);
    });
  });
});

// The same run as the runner user on its own rootless Podman (`--engine podman`), as on GitHub-hosted runners.
describe('worktree-sandbox run on rootless Podman, as uid 1001', () => {
  beforeAll(() => requireRootlessPodman());

  it('streams the output, writes as the runner, keeps the branch sandbox in the runner’s storage', async () => {
    const ids = runnerIds();
    const repo = makeRepo({ owner: ids });
    repos.push(repo);
    const prefix = uniquePrefix('clirl');
    prefixes.push(prefix);
    const base = [BIN, 'run', '--engine', 'podman', '--image', TEST_IMAGE, '--volume-prefix', prefix];
    const run = (args: string[]) =>
      runAsRunner(process.execPath, [...base, ...args], {
        rootlessPodman: true,
        cwd: repo.parent,
        env: { CI: '' },
      });
    const text = await run(['--network', 'none', '--command', 'id -u; echo from-the-sandbox']);
    expect(text.code).toBe(0);
    // Rootless Podman on cgroups v1 (this host) warns on every run that it ignores the limits
    // (docs/podman.md, History, finding 4); the CLI passes the engine's line on like the command's output.
    expect(
      text.stdout.replace(
        /^Resource limits are not supported and ignored on cgroups V1 rootless systems\n/m,
        '',
      ),
    ).toBe(`${ids.uid}\nfrom-the-sandbox\n`);
    expect(text.stderr).toMatch(/^Command\s+✅ exit 0$/m);
    const json = await run([
      '--json',
      '--branch',
      'cli-branch',
      '--command',
      'echo x > x.txt; git add x.txt; git commit -qm x',
    ]);
    expect(json.code).toBe(0);
    const outcome = JSON.parse(json.stdout.slice(json.stdout.indexOf('{')));
    expect(outcome.sandbox).toMatchObject({ name: 'cli-branch', kind: 'persistent' });
    expect(outcome.report.commits).toBe(1);
    const failing = await run(['--command', 'exit 5']);
    expect(failing.code).toBe(3);
    expect(failing.stderr).toContain('worktree-sandbox: the command exited with code 5');
    // The branch sandbox stays, in the runner's storage; root's Docker knows nothing of it.
    expect(await storageVolumes(PODMAN_ROOTLESS, prefix)).toHaveLength(1);
    expect(volumesWithPrefix(prefix)).toEqual([]);
    expect(git(repo.parent, 'log', '-1', '--format=%s', 'cli-branch')).toBe('x');
  }, 240_000);
});
