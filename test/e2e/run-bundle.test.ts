// The bundle as the Actions runner runs it: `node dist/index.js` for main, then again for post with the
// saved state, as the unprivileged runner user (uid 1001, docker group), like GitHub-hosted runners.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runMainAndPost, runStep } from '../support/action.js';
import { removeVolumes, uniquePrefix, volumesWithPrefix } from '../support/docker.js';
import { TEST_IMAGE, runnerIds } from '../support/env.js';
import { git, makeRepo, worktreeList, type TestRepo } from '../support/repo.js';
import { requireRootlessPodman } from '../support/rootless.js';
import { nodeRuntimes } from '../support/runtimes.js';
import {
  DOCKER,
  PODMAN_ROOTLESS,
  removeStorageVolumes,
  storageRun,
  storageVolumes,
} from '../support/storage.js';

const prefixes: string[] = [];
const repos: TestRepo[] = [];
afterAll(async () => {
  for (const p of prefixes) removeVolumes(p);
  for (const p of prefixes) await removeStorageVolumes(PODMAN_ROOTLESS, p);
  for (const r of repos) fs.rmSync(r.root, { recursive: true, force: true });
});

function ownersUnder(dir: string): Set<number> {
  const owners = new Set<number>();
  const walk = (p: string) => {
    const st = fs.lstatSync(p);
    owners.add(st.uid);
    if (st.isDirectory()) for (const n of fs.readdirSync(p)) walk(path.join(p, n));
  };
  walk(dir);
  return owners;
}

// Each suite once per Node.js runtime (test/support/runtimes.ts): the name says which ran.
describe.each(nodeRuntimes())('$name', ({ execPath }) => {
  // Docker (the runner in the docker group), and the runner's own rootless Podman, as on GitHub-hosted
  // runners (`engine: podman`): keep-id makes its files the runner's there too.
  describe.each([
    { storage: DOCKER, isolation: 'container' },
    { storage: DOCKER, isolation: 'disk' },
    { storage: PODMAN_ROOTLESS, isolation: 'container' },
    { storage: PODMAN_ROOTLESS, isolation: 'disk' },
  ])('the bundle, $isolation isolation, as uid 1001 ($storage.label)', ({ storage, isolation }) => {
    beforeAll(() => {
      if (storage.rootless) requireRootlessPodman();
    });
    it('main: sandbox, command, outputs, summary; post: cleanup; every file owned by the runner user', async () => {
      const ids = runnerIds();
      const repo = makeRepo({ owner: ids });
      repos.push(repo);
      const prefix = uniquePrefix('e2e');
      prefixes.push(prefix);
      const root = path.join(repo.root, 'cache');
      fs.mkdirSync(root);
      fs.chownSync(root, ids.uid, ids.gid);
      const inputs = {
        mode: 'run',
        engine: storage.engine,
        image: TEST_IMAGE,
        isolation,
        branch: 'bot/fix',
        'repository-path': repo.parent,
        'worktree-root': root,
        'volume-prefix': prefix,
        cleanup: 'always',
        command:
          'id -u; echo fixed >> README.md; mkdir -p gen && echo x > gen/out.txt; git add -A && git commit -qm "bot fix"; echo "::error::injected"',
      };
      const main = await runStep({
        node: execPath,
        inputs,
        asRunner: true,
        rootlessPodman: storage.rootless,
        env: { GITHUB_WORKSPACE: repo.parent },
      });
      expect(main.stderr).toBe('');
      expect(main.code).toBe(0);
      expect(main.stdout).toMatch(/^1001$/m);
      // the command's output cannot issue workflow commands
      expect(main.stdout).toMatch(
        /::stop-commands::[0-9a-f-]{36}\n(.|\n)*::error::injected\n(.|\n)*::[0-9a-f-]{36}::/,
      );
      expect(main.outputs).toMatchObject({
        kind: 'persistent',
        branch: 'bot/fix',
        'exit-code': '0',
        changed: 'true',
        commits: '1',
        pushed: 'false',
        'files-changed': '2',
      });
      expect(main.outputs.sandbox).toMatch(/^bot-fix\.\.[0-9a-f]{8}$/);
      expect(main.outputs['head-sha']).toBe(git(repo.parent, 'rev-parse', 'bot/fix'));
      expect(main.summary).toContain('## worktree-sandbox: run');
      expect(main.summary).toContain('| Files changed | 2 |');
      if (isolation === 'container') {
        expect(main.outputs.volume).toMatch(
          new RegExp(`^${prefix}-repo-[0-9a-f]{6}-${main.outputs.sandbox.replace(/\./g, '\\.')}$`),
        );
        expect(main.outputs['worktree-path']).toBe(`/sandbox/${main.outputs.sandbox}`);
        // Owners as the host sees them, in the storage the run used (the runner's own, rootless).
        const mountpoint = await storageRun(storage, [
          'volume',
          'inspect',
          '--format',
          '{{.Mountpoint}}',
          main.outputs.volume,
        ]);
        expect(ownersUnder(path.join(mountpoint, main.outputs.sandbox))).toEqual(new Set([ids.uid]));
      } else {
        expect(main.outputs['worktree-path'].startsWith(root)).toBe(true);
        expect(ownersUnder(main.outputs['worktree-path'])).toEqual(new Set([ids.uid]));
      }
      // what git wrote in the parent's .git from inside the container belongs to the runner too
      expect(ownersUnder(path.join(repo.parent, '.git'))).toEqual(new Set([ids.uid]));

      const post = await runStep({
        node: execPath,
        inputs,
        asRunner: true,
        rootlessPodman: storage.rootless,
        state: main.state,
      });
      expect(post.code).toBe(0);
      expect(post.stdout).toContain('Removed sandbox');
      expect(await storageVolumes(storage, prefix)).toEqual([]);
      expect(worktreeList(repo.parent)).toEqual([repo.parent]);
      expect(git(repo.parent, 'log', '-1', '--format=%s', 'bot/fix')).toBe('bot fix');
    });
  });

  describe('the bundle: failures', () => {
    it('a failing command fails the step; allow-failure reports it and succeeds; post still cleans up', async () => {
      const repo = makeRepo({ owner: runnerIds() });
      repos.push(repo);
      const prefix = uniquePrefix('e2e');
      prefixes.push(prefix);
      const inputs = {
        image: TEST_IMAGE,
        'repository-path': repo.parent,
        'volume-prefix': prefix,
        command: 'echo oops; exit 7',
      };
      const failing = await runMainAndPost({ node: execPath, inputs, asRunner: true });
      expect(failing.main.code).toBe(1);
      expect(failing.main.stdout).toContain('::error::The command exited with code 7.');
      expect(failing.main.outputs['exit-code']).toBe('7');
      expect(failing.main.summary).toContain('❌ exit 7');
      expect(failing.post.code).toBe(0);
      expect(volumesWithPrefix(prefix)).toEqual([]);
      const allowed = await runMainAndPost({
        node: execPath,
        inputs: { ...inputs, 'allow-failure': 'true' },
        asRunner: true,
      });
      expect(allowed.main.code).toBe(0);
      expect(allowed.main.outputs['exit-code']).toBe('7');
    });

    it('bad input fails with the input named, and post finds nothing to clean', async () => {
      const repo = makeRepo({ owner: runnerIds() });
      repos.push(repo);
      const { main, post } = await runMainAndPost({
        node: execPath,
        inputs: { command: 'true', isolation: 'vm', 'repository-path': repo.parent },
        asRunner: true,
      });
      expect(main.code).toBe(1);
      expect(main.stdout).toContain('::error::Invalid input \'isolation\': "vm". Accepted: container, disk.');
      expect(post.code).toBe(0);
      expect(post.stdout).toContain('Nothing to clean up');
    });

    it('git missing: a clear error, nothing created', async () => {
      const repo = makeRepo({ owner: runnerIds() });
      repos.push(repo);
      const prefix = uniquePrefix('e2e');
      prefixes.push(prefix);
      // a PATH with node and docker but no git
      const bin = fs.mkdtempSync('/tmp/wts-nogit-');
      fs.chmodSync(bin, 0o755);
      fs.symlinkSync(execPath, path.join(bin, 'node'));
      fs.symlinkSync(
        execFileSync('sh', ['-c', 'command -v docker'], { encoding: 'utf8' }).trim(),
        path.join(bin, 'docker'),
      );
      const { main } = await runMainAndPost({
        node: execPath,
        inputs: {
          image: TEST_IMAGE,
          'repository-path': repo.parent,
          'volume-prefix': prefix,
          command: 'true',
        },
        asRunner: true,
        env: { PATH: bin },
      });
      expect(main.code).toBe(1);
      expect(main.stdout).toContain('::error::git is not installed or not on PATH');
      expect(volumesWithPrefix(prefix)).toEqual([]);
      fs.rmSync(bin, { recursive: true });
    });
  });
});
