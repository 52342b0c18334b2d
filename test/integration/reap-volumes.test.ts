// The reaper on real Docker volume sandboxes made by run mode's own code: stale clean ones go, work and
// use keep them, orphans are archived and removed, other prefixes are never looked at, the parent keeps
// the records of every other sandbox, and no file name in a volume can forge another's record.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { reap, type ReapOptions } from '../../src/reap/reap.js';
import type { ReapResult } from '../../src/reap/reap-report.js';
import { sandboxRefs } from '../../src/sandbox/bookkeeping.js';
import { docker, removeVolumes, uniquePrefix, volumesWithPrefix } from '../support/docker.js';
import { TEST_IMAGE } from '../support/env.js';
import { git, makeRepo, tempDir } from '../support/repo.js';
import {
  ageVolume,
  gitInVolume,
  inVolumeSandbox,
  makeDiskSandbox,
  makeVolumeSandbox,
  volumeSignalTimes,
} from '../support/sandboxes.js';
import { reapOptions } from '../support/reap-options.js';

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
  return reapOptions(root, prefix, extra);
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
    const disk = await makeDiskSandbox(repo, root, 'exploration-0000aa07', { ageDays: 100 });

    // Work made inside the volumes, as the bot would (then aged again).
    inVolumeSandbox(dirty, 'echo edit >> "$1/README.md"');
    gitInVolume(unpushed, 'commit --quiet --allow-empty -m local');
    for (const v of [dirty, unpushed]) ageVolume(v, 100);
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

    const before = volumeSignalTimes(dirty);
    const dry = await reap(options(root, { dryRun: true }));
    expect(volumeSignalTimes(dirty)).toEqual(before);
    expect(reapedVolumes(dry)).toEqual([orphan.volume, stale.volume].sort());
    expect(volumesWithPrefix(prefix)).toHaveLength(7);

    const result = await reap(options(root, { archiveDir: archive }));
    const d = byWhere(result);
    expect(d[stale.volume]).toMatchObject({ class: 'transient', result: 'removed', isolation: 'container' });
    expect(d[fresh.volume]).toMatchObject({ result: 'kept', reason: 'fresh: 5 of 30 days' });
    expect(d[dirty.volume].reason).toBe('holds work: 1 uncommitted file(s)');
    expect(d[unpushed.volume].reason).toBe(
      'holds work: at least 1 commit(s) on a detached HEAD on no remote',
    );
    expect(d[busy.volume].reason).toBe(`in use: running container ${container} mounts it`);
    expect(d[orphan.volume]).toMatchObject({ class: 'orphan', result: 'removed', archive: 'files' });
    expect(d[disk]).toMatchObject({ result: 'removed' });
    expect(d[foreignTenant.volume]).toBeUndefined();
    expect(d[stale.volume].sizeBytes).toBeGreaterThan(0);

    expect(volumesWithPrefix(prefix).sort()).toEqual(
      [fresh.volume, dirty.volume, unpushed.volume, busy.volume, foreignTenant.volume].sort(),
    );
    // Exactly the removed sandboxes left the parent's records.
    const records = git(repo.parent, 'for-each-ref', '--format=%(refname)', 'refs/worktree-sandbox/volume/')
      .split('\n')
      .filter((r) => r.endsWith('/head'))
      .sort();
    expect(records).toEqual(
      [fresh, dirty, unpushed, busy, foreignTenant].map((v) => sandboxRefs(v.location).head).sort(),
    );

    const tarballs = fs.readdirSync(path.join(archive, orphan.location.project));
    expect(tarballs).toHaveLength(1);
    expect(tarballs[0]).toMatch(/^exploration-0000aa06\.container\.\d{8}T\d{6}Z\.tar\.gz$/);

    const second = await reap(options(root, { archiveDir: archive }));
    expect(reapedVolumes(second)).toEqual([]);
  }, 180_000);

  it("reads several volumes in one helper: no file name can forge another volume's record", async () => {
    const repo = makeRepo();
    const root = tempDir('wts-reap-root-');
    cleanup.push(repo.root, root);
    const hostile = await makeVolumeSandbox(repo, prefix, {
      transientName: 'exploration-0000ff01',
      ageDays: 100,
    });
    const victim = await makeVolumeSandbox(repo, prefix, {
      transientName: 'exploration-0000ff02',
      ageDays: 100,
    });
    const clean = await makeVolumeSandbox(repo, prefix, {
      transientName: 'exploration-0000ff03',
      ageDays: 100,
    });
    // File names shaped like the helper's records (any token), with newlines, and a hostile config (the
    // helper's git never reads it).
    inVolumeSandbox(
      hostile,
      `cd "$1" && for i in 0 1 2; do touch "x
deadbeef $i status-count 1
0
deadbeef $i done 2
ok
$(printf '\\000')@@v:v$i:rc=0"; done
printf '[core]\\n\\tfsmonitor = /bin/false\\n' >> .git/config`,
    );
    inVolumeSandbox(victim, 'echo work > "$1/notes.txt"');
    for (const v of [hostile, victim, clean]) ageVolume(v, 100);

    const d = byWhere(await reap(options(root)));
    expect(d[hostile.volume].reason).toBe('holds work: 3 uncommitted file(s)');
    expect(d[victim.volume].reason).toBe('holds work: 1 uncommitted file(s)');
    expect(d[clean.volume].result).toBe('removed');
    expect(volumesWithPrefix(prefix)).toEqual(expect.arrayContaining([hostile.volume, victim.volume]));
  }, 180_000);
});
