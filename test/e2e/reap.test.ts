// Reap mode end to end: the bundle (dist/index.js) run as the Actions runner runs it, as the unprivileged
// runner user, on sandboxes that run mode (the same bundle) made: a transient disk sandbox and a
// persistent volume sandbox, both aged past their expiry. Dry run, real run, second run.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { persistentSandboxName, projectName, volumeName } from '../../src/sandbox/naming.js';
import { runMainAndPost, runStep, type StepResult } from '../support/action.js';
import { docker, removeVolumes, uniquePrefix, volumesWithPrefix } from '../support/docker.js';
import { runnerIds, TEST_IMAGE } from '../support/env.js';
import { chownTree, git, makeRepo, tempDir } from '../support/repo.js';
import { age, ageVolume, DAY, type MadeVolumeSandbox } from '../support/sandboxes.js';
import { nodeRuntimes } from '../support/runtimes.js';
import { requireRootlessPodman } from '../support/rootless.js';
import {
  PODMAN_ROOTFUL,
  PODMAN_ROOTLESS,
  createStorageVolume,
  inStorageVolume,
  removeStorageVolumes,
  storageCli,
  storageRun,
  storageVolumes,
} from '../support/storage.js';
import { SIGNAL_FILES } from '../support/sandboxes.js';

const prefixes: string[] = [];
const cleanup: string[] = [];
const asyncCleanup: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const clean of asyncCleanup.reverse()) await clean();
  for (const prefix of prefixes) removeVolumes(prefix);
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
});

interface Record {
  sandbox: string;
  project: string;
  isolation: string;
  kind: string;
  ageDays: number | null;
  reason: string;
}

const records = (step: StepResult, name: 'reaped' | 'kept') => JSON.parse(step.outputs[name]) as Record[];

// Each suite once per Node.js runtime (test/support/runtimes.ts): the name says which ran.
describe.each(nodeRuntimes())('$name', ({ execPath }) => {
  const prefix = uniquePrefix('reape2e');
  prefixes.push(prefix);
  describe('mode: reap, run by the runner', () => {
    it('finds what run mode made, reports it in a dry run, removes it, then finds nothing to do', async () => {
      const owner = runnerIds();
      const repo = makeRepo({ owner });
      const root = tempDir('wts-reap-e2e-root-');
      chownTree(root, owner);
      cleanup.push(repo.root, root);
      const parent = fs.realpathSync(repo.parent);
      const project = projectName(parent);
      const common = {
        'repository-path': parent,
        'worktree-root': root,
        'volume-prefix': prefix,
        image: TEST_IMAGE,
      };

      // A persistent volume sandbox: its volume made beforehand with an old `created` label, as if it were
      // 100 days old; run mode then creates the worktree in it and keeps it (cleanup: never).
      const volumeSandbox = persistentSandboxName('bot/e2e');
      const volume = volumeName(prefix, project, volumeSandbox);
      const created = new Date(Date.now() - 100 * DAY).toISOString().replace(/\.\d{3}Z$/, 'Z');
      docker(
        'volume',
        'create',
        ...Object.entries({
          managed: 'true',
          project,
          sandbox: volumeSandbox,
          kind: 'persistent',
          branch: 'bot/e2e',
          parent,
          created,
        }).flatMap(([k, v]) => ['--label', `worktree-sandbox.${k}=${v}`]),
        volume,
      );
      const inVolume = await runMainAndPost({
        node: execPath,
        inputs: { ...common, mode: 'run', command: 'true', branch: 'bot/e2e', cleanup: 'never' },
        asRunner: true,
      });
      expect(inVolume.main.code).toBe(0);
      expect(inVolume.main.outputs.volume).toBe(volume);
      const onDisk = await runMainAndPost({
        node: execPath,
        inputs: { ...common, mode: 'run', command: 'true', isolation: 'disk', cleanup: 'never' },
        asRunner: true,
      });
      expect(onDisk.main.code).toBe(0);
      const diskPath = onDisk.main.outputs['worktree-path'];
      expect(fs.existsSync(path.join(diskPath, '.git'))).toBe(true);
      // Age both: the run used them just now.
      age(diskPath, 100);
      ageVolume(
        {
          location: { worktreePath: `/sandbox/${volumeSandbox}`, parent: { objectStores: [] } },
          volume,
          engine: 'docker',
        } as unknown as MadeVolumeSandbox,
        100,
      );

      const reapInputs = { ...common, mode: 'reap' };
      // With the step's debug log on (ACTIONS_STEP_DEBUG sets RUNNER_DEBUG): the facts behind each decision.
      const dry = await runStep({
        node: execPath,
        inputs: { ...reapInputs, 'dry-run': 'true' },
        env: { RUNNER_DEBUG: '1' },
        asRunner: true,
      });
      expect(dry.stderr).toBe('');
      expect(dry.code).toBe(0);
      expect(records(dry, 'reaped').map((r) => [r.sandbox, r.isolation, r.kind, r.ageDays])).toEqual(
        expect.arrayContaining([
          [path.basename(diskPath), 'disk', 'transient', 100],
          [volumeSandbox, 'container', 'persistent', 100],
        ]),
      );
      expect(records(dry, 'reaped')).toHaveLength(2);
      expect(records(dry, 'reaped')[0].reason).toMatch(/^dry run: would remove: stale and holds no work/);
      expect(records(dry, 'kept')).toEqual([]);
      expect(dry.summary).toMatch(/^## worktree-sandbox: reap \(dry run: nothing removed\)\n\n```mermaid\n/);
      expect(dry.summary).toContain('  found --> o0["2 would remove');
      expect(dry.stdout).toContain(
        `::debug::would remove ${project}/${path.basename(diskPath)} (${diskPath}); class transient, expiry 30 days; 100 day(s) old`,
      );
      const volumeTrace = dry.stdout
        .split('\n')
        .find((l) => l.startsWith(`::debug::would remove ${project}/${volumeSandbox} `));
      expect(volumeTrace).toContain(`(volume ${volume}); class persistent, expiry 90 days; 100 day(s) old`);
      expect(volumeTrace).toContain('; in use: no; work: none; ');
      expect(volumeTrace).toMatch(/; reason: stale and holds no work$/);
      expect(dry.summary).toContain(
        '| Sandbox | Project | Isolation | Class | Age (days) | Decision | Reason | Size |',
      );
      expect(volumesWithPrefix(prefix)).toEqual([volume]);
      expect(fs.existsSync(diskPath)).toBe(true);

      const real = await runStep({ node: execPath, inputs: reapInputs, asRunner: true });
      expect(real.code).toBe(0);
      expect(
        records(real, 'reaped')
          .map((r) => r.sandbox)
          .sort(),
      ).toEqual([path.basename(diskPath), volumeSandbox].sort());
      expect(Number(real.outputs['freed-bytes'])).toBeGreaterThan(0);
      expect(real.summary).toMatch(
        new RegExp(
          `\\| ${volumeSandbox.replace(/\./g, '\\.')} \\| ${project} \\| volume \\| persistent \\| 100 \\| removed \\|`,
        ),
      );
      // Each decision on a line of the log; without the debug log, no facts behind them.
      expect(real.stdout.split('\n')).toEqual(
        expect.arrayContaining([
          `remove ${project}/${path.basename(diskPath)} [disk, transient]: stale and holds no work`,
          `remove ${project}/${volumeSandbox} [container, persistent]: stale and holds no work`,
        ]),
      );
      expect(real.stdout).not.toContain('::debug::');
      expect(volumesWithPrefix(prefix)).toEqual([]);
      expect(fs.existsSync(diskPath)).toBe(false);
      // Both sandboxes' records dropped.
      expect(git(parent, 'for-each-ref', 'refs/worktree-sandbox/')).toBe('');

      const again = await runStep({ node: execPath, inputs: reapInputs, asRunner: true });
      expect(again.code).toBe(0);
      expect(records(again, 'reaped')).toEqual([]);
      expect(again.outputs['freed-bytes']).toBe('0');
    }, 300_000);

    it('rejects an expiry that is not a whole number of days ≥ 1, before doing anything', async () => {
      const step = await runStep({ node: execPath, inputs: { mode: 'reap', 'headless-expiry-days': '0.5' } });
      expect(step.code).toBe(1);
      expect(step.stdout).toContain(
        `::error::Invalid input 'headless-expiry-days': "0.5". Accepted: a whole number ≥ 1.`,
      );
    }, 300_000);
  });
});

// The runner's own rootless Podman, as on GitHub-hosted runners: the reaper, run as the runner, must look
// in the runner's storage (under its HOME), find the stale volume sandboxes there and keep one a running
// container of the runner's mounts; root's (rootful) storage is another engine's, never touched.
describe('mode: reap, run by the runner on its rootless Podman', () => {
  beforeAll(() => requireRootlessPodman());

  it('reaps a stale volume in the runner’s storage, keeps one in use, never sees root’s storage', async () => {
    const owner = runnerIds();
    const repo = makeRepo({ owner });
    const root = tempDir('wts-reap-rootless-root-');
    chownTree(root, owner);
    cleanup.push(repo.root, root);
    const prefix = uniquePrefix('reaprl');
    asyncCleanup.push(
      () => removeStorageVolumes(PODMAN_ROOTLESS, prefix),
      () => removeStorageVolumes(PODMAN_ROOTFUL, prefix),
    );
    const parent = fs.realpathSync(repo.parent);
    const project = projectName(parent);
    const common = {
      engine: 'podman',
      'repository-path': parent,
      'worktree-root': root,
      'volume-prefix': prefix,
      image: TEST_IMAGE,
    };
    const created = new Date(Date.now() - 100 * DAY).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const labelsOf = (sandbox: string, branch: string) =>
      Object.fromEntries(
        Object.entries({
          managed: 'true',
          project,
          sandbox,
          kind: 'persistent',
          branch,
          parent,
          created,
        }).map(([k, v]) => [`worktree-sandbox.${k}`, v]),
      );
    // Two persistent volume sandboxes made by run mode in the runner's storage, volumes 100 days old.
    const made: string[] = [];
    for (const branch of ['bot/stale', 'bot/busy']) {
      const sandbox = persistentSandboxName(branch);
      const volume = volumeName(prefix, project, sandbox);
      await createStorageVolume(PODMAN_ROOTLESS, volume, labelsOf(sandbox, branch));
      const run = await runMainAndPost({
        inputs: { ...common, mode: 'run', command: 'true', branch, cleanup: 'never' },
        asRunner: true,
        rootlessPodman: true,
      });
      expect(run.main.stderr).toBe('');
      expect(run.main.code).toBe(0);
      expect(run.main.outputs.volume).toBe(volume);
      // Aged inside the volume, as the container's root (on rootless Podman: the runner, their owner).
      const when = Math.floor((Date.now() - 100 * DAY) / 1000);
      await inStorageVolume(
        PODMAN_ROOTLESS,
        volume,
        `for p in "$1" ${SIGNAL_FILES.map((f) => `"$1/.git/${f}"`).join(' ')}; do touch -c -h -d @${when} "$p"; done`,
        [`/sandbox/${sandbox}`],
      );
      made.push(volume);
    }
    const [stale, busy] = made;
    expect(await storageVolumes(PODMAN_ROOTLESS, prefix)).toEqual([...made].sort());
    // Root's Podman does not see the runner's volumes; a stale one of its own, same prefix and labels,
    // must stay out of the runner's reap.
    expect(await storageVolumes(PODMAN_ROOTFUL, prefix)).toEqual([]);
    const rootOnly = volumeName(prefix, project, persistentSandboxName('bot/root-only'));
    await createStorageVolume(
      PODMAN_ROOTFUL,
      rootOnly,
      labelsOf(persistentSandboxName('bot/root-only'), 'bot/root-only'),
    );
    // A running container of the runner's mounts the busy one.
    const user = `${prefix}-user`;
    await storageRun(PODMAN_ROOTLESS, [
      'run',
      '-d',
      '--name',
      user,
      '--network',
      'none',
      '--mount',
      `type=volume,source=${busy},target=/w`,
      '--entrypoint',
      'sleep',
      TEST_IMAGE,
      '600',
    ]);
    asyncCleanup.push(async () => {
      await storageCli(PODMAN_ROOTLESS, ['kill', user]);
      await storageCli(PODMAN_ROOTLESS, ['rm', '--force', user]);
    });

    const reaped = await runStep({
      inputs: { ...common, mode: 'reap' },
      asRunner: true,
      rootlessPodman: true,
    });
    expect(reaped.stderr).toBe('');
    expect(reaped.code).toBe(0);
    const names = (list: Record[]) => list.filter((r) => r.project === project).map((r) => r.sandbox);
    expect(names(records(reaped, 'reaped'))).toEqual([persistentSandboxName('bot/stale')]);
    const kept = records(reaped, 'kept').filter((r) => r.project === project);
    expect(kept.map((r) => r.sandbox)).toEqual([persistentSandboxName('bot/busy')]);
    expect(kept[0].reason).toMatch(/in use/);
    expect(kept[0].reason).toContain(user);
    expect(await storageVolumes(PODMAN_ROOTLESS, prefix)).toEqual([busy]);
    expect(made).toContain(stale);
    expect(await storageVolumes(PODMAN_ROOTFUL, prefix)).toEqual([rootOnly]);
    // The stale sandbox's records dropped; the busy one's kept.
    const refs = git(parent, 'for-each-ref', '--format=%(refname)', 'refs/worktree-sandbox/');
    expect(refs).not.toContain('refs/worktree-sandbox/volume/bot-stale');
    expect(refs).toContain('refs/worktree-sandbox/volume/bot-busy');
  }, 300_000);
});
