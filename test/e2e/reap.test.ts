// Reap mode end to end: the bundle (dist/index.js) run as the Actions runner runs it, as the unprivileged
// runner user, on sandboxes that run mode (the same bundle) made: a transient disk sandbox and a
// persistent volume sandbox, both aged past their expiry. Dry run, real run, second run.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { persistentSandboxName, projectName, volumeName } from '../../src/naming.js';
import { runMainAndPost, runStep, type StepResult } from '../support/action.js';
import { docker, removeVolumes, uniquePrefix, volumesWithPrefix } from '../support/docker.js';
import { runnerIds, TEST_IMAGE } from '../support/env.js';
import { chownTree, makeRepo, tempDir } from '../support/repo.js';
import { age, DAY } from '../support/sandboxes.js';
import { nodeRuntimes } from '../support/runtimes.js';

const prefixes: string[] = [];
const cleanup: string[] = [];
afterAll(() => {
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
      // Age both: the run marked them used just now.
      age(diskPath, 100);
      const volumeAdmin = fs
        .readdirSync(path.join(parent, '.git', 'worktrees'))
        .map((id) => path.join(parent, '.git', 'worktrees', id))
        .find(
          (dir) =>
            fs.readFileSync(path.join(dir, 'gitdir'), 'utf8').trim() === `/sandbox/${volumeSandbox}/.git`,
        )!;
      age(undefined, 100, volumeAdmin);

      const reapInputs = { ...common, mode: 'reap' };
      const dry = await runStep({
        node: execPath,
        inputs: { ...reapInputs, 'dry-run': 'true' },
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
      expect(dry.summary).toContain('## worktree-sandbox: reap (dry run: nothing removed)');
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
      expect(volumesWithPrefix(prefix)).toEqual([]);
      expect(fs.existsSync(diskPath)).toBe(false);
      // Both registrations dropped (the folder goes with its last entry, as git does it).
      expect(fs.existsSync(path.join(parent, '.git', 'worktrees'))).toBe(false);

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
