// The reaper's archive of orphans, attacked with what a sandbox can leave behind for the host to read: a
// sparse file of 4 TB apparent size (no room on disk, hours of zeros for tar), in a disk orphan and in a
// volume orphan, beside a FIFO and an innocent orphan. The reap ends within a stated time; each poisoned
// orphan is kept with the reason; the innocent one is archived and removed; no large archive is written.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { reap, type ReapOptions } from '../../src/reap/reap.js';
import type { ReapResult } from '../../src/reap/reap-report.js';
import { removeVolumes, uniquePrefix, volumesWithPrefix } from '../support/docker.js';
import { makeRepo, tempDir } from '../support/repo.js';
import { age, ageVolume, inVolumeSandbox, makeDiskSandbox, makeVolumeSandbox } from '../support/sandboxes.js';
import { reapOptions } from '../support/reap-options.js';

const prefix = uniquePrefix('reapbound');
const cleanup: string[] = [];
afterAll(() => {
  removeVolumes(prefix);
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
});

const TB4 = 4 * 1024 ** 4;
/** The whole reap, scan to report, on a loaded 2-core machine; tar reading 4 TB of zeros would take hours. */
const REAP_BOUND_MS = 60_000;

function options(root: string, archiveDir: string): ReapOptions {
  return reapOptions(root, prefix, { archiveDir });
}

const byWhere = (result: ReapResult) => Object.fromEntries(result.sandboxes.map((s) => [s.where, s]));

/** Every file under `dir` with its allocated and apparent size. */
function archiveFiles(dir: string): Array<{ file: string; bytes: number; allocated: number }> {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .map((f) => path.join(dir, f))
    .filter((f) => fs.lstatSync(f).isFile())
    .map((file) => {
      const st = fs.lstatSync(file);
      return { file, bytes: st.size, allocated: st.blocks * 512 };
    });
}

describe('the archive of orphans is bounded', () => {
  it('a 4 TB sparse file keeps its orphan (disk and volume) with the reason; the other orphans are archived and removed', async () => {
    const gone = makeRepo();
    const root = tempDir('wts-reapbound-root-');
    const archive = tempDir('wts-reapbound-archive-');
    cleanup.push(gone.root, root, archive);
    const sparseDisk = await makeDiskSandbox(gone, root, 'exploration-0000sp01', { ageDays: 100 });
    const innocentDisk = await makeDiskSandbox(gone, root, 'exploration-0000sp02', { ageDays: 100 });
    const sparseVolume = await makeVolumeSandbox(gone, prefix, {
      transientName: 'exploration-0000sp03',
      ageDays: 100,
    });
    const innocentVolume = await makeVolumeSandbox(gone, prefix, {
      transientName: 'exploration-0000sp04',
      ageDays: 100,
    });
    // What a command could leave: a sparse file of 4 TB (a few KB on disk), and a FIFO nobody writes to.
    fs.writeFileSync(path.join(sparseDisk, 'huge.img'), '');
    fs.truncateSync(path.join(sparseDisk, 'huge.img'), TB4);
    execFileSync('mkfifo', [path.join(sparseDisk, 'pipe')]);
    execFileSync('mkfifo', [path.join(innocentDisk, 'pipe')]);
    fs.writeFileSync(path.join(innocentDisk, 'notes.txt'), 'innocent notes\n');
    inVolumeSandbox(sparseVolume, 'truncate -s 4T "$1/huge.img" && mkfifo "$1/pipe"');
    inVolumeSandbox(innocentVolume, 'echo innocent > "$1/notes.txt" && mkfifo "$1/pipe"');
    for (const dir of [sparseDisk, innocentDisk]) age(dir, 100);
    for (const v of [sparseVolume, innocentVolume]) ageVolume(v, 100);
    // The parent goes: all four are orphans, archived before they are removed.
    fs.rmSync(gone.root, { recursive: true, force: true });

    const started = Date.now();
    const result = await reap(options(root, archive));
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(REAP_BOUND_MS);

    const d = byWhere(result);
    const sparseDiskReport = d[sparseDisk];
    const sparseVolumeReport = d[sparseVolume.volume];
    // Kept, with the reason; nothing of them removed.
    expect(sparseDiskReport).toMatchObject({ class: 'orphan', result: 'kept' });
    expect(sparseDiskReport.detail).toBe(
      `archiving failed ("huge.img" is ${TB4} bytes long (apparent size), more than the archive's cap of ${8 * 1024 ** 3} bytes)`,
    );
    expect(sparseVolumeReport).toMatchObject({ class: 'orphan', result: 'kept' });
    expect(sparseVolumeReport.detail).toMatch(
      /^archiving failed \(tar failed in the helper container \(exit 3\): .*archive's cap/,
    );
    expect(fs.statSync(path.join(sparseDisk, 'huge.img')).size).toBe(TB4);
    expect(volumesWithPrefix(prefix)).toContain(sparseVolume.volume);
    // The innocent ones are archived (their FIFOs stored as FIFOs, never opened) and removed.
    expect(d[innocentDisk]).toMatchObject({ result: 'removed', archive: 'files' });
    expect(d[innocentVolume.volume]).toMatchObject({ result: 'removed', archive: 'files' });
    expect(fs.existsSync(innocentDisk)).toBe(false);
    expect(volumesWithPrefix(prefix)).not.toContain(innocentVolume.volume);
    const written = archiveFiles(archive);
    expect(written).toHaveLength(2);
    for (const { file, bytes } of written) {
      expect(bytes).toBeLessThan(1024 * 1024);
      const listing = execFileSync('tar', ['-tvzf', file], { encoding: 'utf8' });
      expect(listing).toContain('notes.txt');
      expect(listing).toMatch(/^p.* \S*pipe$/m);
    }
    process.stdout.write(
      `reap of 4 orphans (2 poisoned with a 4 TB sparse file): ${elapsed} ms (bound ${REAP_BOUND_MS} ms)\n`,
    );
  }, 180_000);
});
