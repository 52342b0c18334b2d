// `worktree-sandbox rm --dry-run` of the real binary on real sandboxes: it says what `rm` would do, by the
// same checks and gates (the real `rm` afterwards does and says exactly that), and changes nothing: the
// folder, the volume, the registration, the activity signals, the archive folder.
import { afterAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lockSandbox } from '../../src/sandbox/lock.js';
import { removeVolumes, uniquePrefix, volumesWithPrefix } from '../support/docker.js';
import { TEST_IMAGE } from '../support/env.js';
import { git, makeRepo, tempDir } from '../support/repo.js';
import { nodeRuntimes } from '../support/runtimes.js';
import { makeDiskSandbox, makeVolumeSandbox, projectDir, signalTimes } from '../support/sandboxes.js';
import { runCli as cli } from '../support/cli.js';

const cleanups: Array<() => void> = [];

/** The sandboxes a parent keeps records of, as `<disk|volume>/<name>`. */
const recorded = (parent: string) =>
  git(parent, 'for-each-ref', '--format=%(refname)', 'refs/worktree-sandbox/')
    .split('\n')
    .filter((r) => r.endsWith('/head'))
    .map((r) => r.split('/').slice(2, 4).join('/'));
afterAll(() => {
  for (const clean of cleanups.reverse()) clean();
});

describe.each(nodeRuntimes())('$name', ({ execPath }) => {
  describe('worktree-sandbox rm --dry-run', () => {
    it('says what would be removed and saved, removes nothing; rm then does what it said', async () => {
      const repo = makeRepo();
      const root = tempDir('wts-cli-dry-root-');
      const prefix = uniquePrefix('clidry');
      cleanups.push(
        () => fs.rmSync(repo.root, { recursive: true, force: true }),
        () => fs.rmSync(root, { recursive: true, force: true }),
        () => removeVolumes(prefix),
      );
      const project = path.basename(projectDir(root, repo.parent));
      const gitDir = path.join(fs.realpathSync(repo.parent), '.git');
      const clean = await makeDiskSandbox(repo, root, 'exploration-0000d001', { ageDays: 3 });
      const work = await makeDiskSandbox(repo, root, 'feature-draft', {
        branch: 'feature/draft',
        ageDays: 3,
      });
      fs.appendFileSync(path.join(work, 'README.md'), 'draft\n');
      const locked = await makeDiskSandbox(repo, root, 'exploration-0000d002', { ageDays: 40 });
      const volume = await makeVolumeSandbox(repo, prefix, {
        transientName: 'exploration-0000d003',
        ageDays: 40,
      });
      const release = await lockSandbox(gitDir, 'exploration-0000d002', 1000);
      cleanups.push(() => void release().catch(() => undefined));
      // Never created by a dry run.
      const archive = path.join(tempDir('wts-cli-dry-archive-'), 'not-yet');
      cleanups.push(() => fs.rmSync(path.dirname(archive), { recursive: true, force: true }));
      const where = ['--worktree-root', root, '--volume-prefix', prefix, '--image', TEST_IMAGE];
      const registered = recorded(repo.parent);
      const signals = signalTimes(clean);

      // A clean disk sandbox (fresh: rm judges it whatever its age).
      const dry = await cli(execPath, ['rm', 'exploration-0000d001', '--dry-run', ...where]);
      expect(dry.stderr).toBe('');
      expect(dry.code).toBe(0);
      expect(dry.stdout).toMatch(
        new RegExp(
          `^Would remove ${project}/exploration-0000d001 \\(${clean}\\): holds no work; \\d+(\\.\\d)? KiB would be freed\\.\\nDry run: nothing removed\\.\\n$`,
        ),
      );
      const json = await cli(execPath, ['rm', 'exploration-0000d001', '--dry-run', '--json', ...where]);
      expect(json.code).toBe(0);
      const judged = JSON.parse(json.stdout) as Record<string, unknown>;
      expect(judged).toMatchObject({
        status: 'would remove',
        dryRun: true,
        project,
        sandbox: 'exploration-0000d001',
        isolation: 'disk',
        where: clean,
        reason: 'holds no work',
        archived: [],
        freedBytes: 0,
      });
      expect(judged.sizeBytes).toBeGreaterThan(0);
      expect(fs.existsSync(clean)).toBe(true);
      expect(signalTimes(clean)).toEqual(signals);

      // Holding work: kept, as rm would (exit 4); with --force it would be saved first, then removed.
      const kept = await cli(execPath, ['rm', 'feature-draft', '--dry-run', ...where]);
      expect(kept.code).toBe(4);
      expect(kept.stderr).toContain(
        `kept ${project}/feature-draft (${work}): holds work: 1 uncommitted file(s)`,
      );
      const forced = await cli(execPath, [
        'rm',
        'feature-draft',
        '--dry-run',
        '--force',
        '--archive-dir',
        archive,
        ...where,
      ]);
      expect(forced.stderr).toBe('');
      expect(forced.code).toBe(0);
      expect(forced.stdout).toMatch(
        new RegExp(
          `^Would remove ${project}/feature-draft \\(${work}\\): force: holds work: 1 uncommitted file\\(s\\)`,
        ),
      );
      expect(forced.stdout).toContain(`\nWould save first: its work under ${path.join(archive, project)}\n`);
      expect(forced.stdout).toMatch(/\nDry run: nothing removed\.\n$/);
      expect(fs.existsSync(archive)).toBe(false);
      expect(fs.readFileSync(path.join(work, 'README.md'), 'utf8')).toMatch(/draft\n$/);

      // In use: kept even with --force, as rm would.
      const inUse = await cli(execPath, ['rm', 'exploration-0000d002', '--dry-run', '--force', ...where]);
      expect(inUse.code).toBe(4);
      expect(inUse.stderr).toContain('in use: a run holds its lock');

      // A volume sandbox.
      const vol = await cli(execPath, ['rm', volume.volume, '--dry-run', ...where]);
      expect(vol.stderr).toBe('');
      expect(vol.code).toBe(0);
      expect(vol.stdout).toMatch(
        new RegExp(
          `^Would remove ${project}/exploration-0000d003 \\(volume ${volume.volume}\\): holds no work`,
        ),
      );

      // Nothing changed.
      expect(recorded(repo.parent)).toEqual(registered);
      expect(volumesWithPrefix(prefix)).toEqual([volume.volume]);
      expect([clean, work, locked].every((d) => fs.existsSync(d))).toBe(true);

      // The real rm: what the dry run said.
      const real = await cli(execPath, ['rm', 'exploration-0000d001', ...where]);
      expect(real.stderr).toBe('');
      expect(real.code).toBe(0);
      expect(real.stdout).toMatch(
        new RegExp(`^Removed ${project}/exploration-0000d001 \\(${clean}\\): holds no work; `),
      );
      expect(fs.existsSync(clean)).toBe(false);
      const realVolume = await cli(execPath, ['rm', volume.volume, ...where]);
      expect(realVolume.code).toBe(0);
      expect(volumesWithPrefix(prefix)).toEqual([]);
      expect(recorded(repo.parent).sort()).toEqual(
        registered
          .filter((w) => w !== 'disk/exploration-0000d001' && w !== 'volume/exploration-0000d003')
          .sort(),
      );
      await release();
    }, 240_000);
  });
});
