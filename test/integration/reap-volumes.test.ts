// The reaper on real Docker volume sandboxes made by run mode's own code: stale clean ones go, work and
// use keep them, orphans are archived and removed, other prefixes are never looked at, and every other
// worktree of the parent stays registered (live volume sandboxes look "prunable" from the host).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ContainerEngine } from '../../src/engine/engine.js';
import { Git } from '../../src/engine/git.js';
import { runInWorktree } from '../../src/sandbox/layout.js';
import { reap, type ReapOptions, type ReapResult } from '../../src/reap/index.js';
import { DEFAULT_RETENTION } from '../../src/reap/retention.js';
import { docker, inVolume, removeVolumes, uniquePrefix, volumesWithPrefix } from '../support/docker.js';
import { TEST_IMAGE } from '../support/env.js';
import { makeRepo, tempDir, worktreeList, git } from '../support/repo.js';
import { age, makeDiskSandbox, makeVolumeSandbox, signalTimes } from '../support/sandboxes.js';

const prefix = uniquePrefix('reapvol');
// Another tenant whose prefix starts with ours and a dash: its volume names start with `<prefix>-` too.
const otherPrefix = `${prefix}-t`;
const container = `${prefix}-user`;
const cleanup: string[] = [];

afterAll(() => {
  try {
    docker('rm', '--force', container);
  } catch {
    /* already gone */
  }
  removeVolumes(prefix);
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
});

function options(root: string, extra: Partial<ReapOptions> = {}): ReapOptions {
  return {
    worktreeRoot: root,
    volumePrefix: prefix,
    engine: 'docker',
    image: TEST_IMAGE,
    retention: DEFAULT_RETENTION,
    dryRun: false,
    maxRemovals: 0,
    force: false,
    archiveDir: '',
    ...extra,
  };
}

const byWhere = (result: ReapResult) => Object.fromEntries(result.sandboxes.map((s) => [s.where, s]));
const reapedVolumes = (result: ReapResult) =>
  result.sandboxes
    .filter((s) => s.isolation === 'container' && (s.result === 'removed' || s.result === 'would remove'))
    .map((s) => s.where)
    .sort();

describe('reap mode on volume sandboxes', () => {
  it('removes stale clean volumes, keeps work, use and fresh ones, archives orphans, leaves other prefixes alone', async () => {
    const repo = makeRepo();
    const gone = makeRepo();
    const root = tempDir('wts-reap-root-');
    const archive = tempDir('wts-reap-archive-');
    cleanup.push(repo.root, gone.root, root, archive);

    const stale = await makeVolumeSandbox(repo, prefix, {
      transientName: 'exploration-0000aa01',
      ageDays: 40,
    });
    const fresh = await makeVolumeSandbox(repo, prefix, {
      transientName: 'exploration-0000aa02',
      ageDays: 5,
    });
    const dirty = await makeVolumeSandbox(repo, prefix, { branch: 'bot/dirty', ageDays: 100 });
    const unpushed = await makeVolumeSandbox(repo, prefix, {
      transientName: 'exploration-0000aa03',
      ageDays: 100,
    });
    const busy = await makeVolumeSandbox(repo, prefix, {
      transientName: 'exploration-0000aa04',
      ageDays: 100,
    });
    const foreignTenant = await makeVolumeSandbox(repo, otherPrefix, {
      transientName: 'exploration-0000aa05',
      ageDays: 400,
    });
    const orphan = await makeVolumeSandbox(gone, prefix, {
      transientName: 'exploration-0000aa06',
      ageDays: 100,
    });
    const disk = makeDiskSandbox(repo, root, 'exploration-0000aa07', { ageDays: 100 });

    // Work made inside the volumes, as the bot would (then aged again).
    inVolume(TEST_IMAGE, dirty.volume, `echo edit >> /sandbox/${dirty.location.name}/README.md`);
    const committed = await runInWorktree(
      await Git.create(),
      new ContainerEngine('docker'),
      unpushed.location,
      TEST_IMAGE,
      'git -c user.name=bot -c user.email=bot@example.com commit --quiet --allow-empty -m local',
      [],
    );
    expect(committed.stderr).toBe('');
    for (const v of [dirty, unpushed]) age(undefined, 100, v.adminDir);
    fs.rmSync(gone.root, { recursive: true, force: true });
    docker(
      'run',
      '-d',
      '--name',
      container,
      '--mount',
      `type=volume,source=${busy.volume},target=/w`,
      TEST_IMAGE,
      'sleep',
      '300',
    );

    const before = signalTimes(dirty.adminDir);
    const dry = await reap(options(root, { dryRun: true }));
    expect(signalTimes(dirty.adminDir)).toEqual(before);
    expect(reapedVolumes(dry)).toEqual([orphan.volume, stale.volume].sort());
    expect(volumesWithPrefix(prefix)).toHaveLength(7);

    const result = await reap(options(root, { archiveDir: archive }));
    const d = byWhere(result);
    expect(d[stale.volume]).toMatchObject({ class: 'transient', result: 'removed', isolation: 'container' });
    expect(d[fresh.volume]).toMatchObject({ result: 'kept', reason: 'fresh: 5 of 30 days' });
    expect(d[dirty.volume].reason).toBe('holds work: 1 uncommitted file(s)');
    expect(d[unpushed.volume].reason).toBe('holds work: commits on no remote');
    expect(d[busy.volume].reason).toBe(`in use: running container ${container} mounts it`);
    expect(d[orphan.volume]).toMatchObject({ class: 'orphan', result: 'removed', archive: 'files' });
    expect(d[disk]).toMatchObject({ result: 'removed' });
    expect(d[foreignTenant.volume]).toBeUndefined();
    expect(d[stale.volume].sizeBytes).toBeGreaterThan(0);

    expect(volumesWithPrefix(prefix).sort()).toEqual(
      [fresh.volume, dirty.volume, unpushed.volume, busy.volume, foreignTenant.volume].sort(),
    );
    // Exactly the removed sandboxes left the parent's metadata: every live volume sandbox is still
    // registered and locked, although the host cannot resolve /sandbox/... .
    const registered = worktreeList(repo.parent);
    for (const live of [fresh, dirty, unpushed, busy, foreignTenant]) {
      expect(registered).toContain(live.location.worktreePath);
      expect(fs.readFileSync(path.join(live.adminDir, 'locked'), 'utf8')).toContain(live.volume);
    }
    expect(registered).not.toContain(stale.location.worktreePath);
    expect(fs.existsSync(stale.adminDir)).toBe(false);
    expect(git(repo.parent, 'worktree', 'list')).toContain('locked');

    const tarballs = fs.readdirSync(path.join(archive, orphan.location.project));
    expect(tarballs).toHaveLength(1);
    expect(tarballs[0]).toMatch(/^exploration-0000aa06\.container\.\d{8}T\d{6}Z\.tar\.gz$/);

    const second = await reap(options(root, { archiveDir: archive }));
    expect(reapedVolumes(second)).toEqual([]);
  }, 180_000);
});
