import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TIME_LIMITS_OVERRIDE } from '../engine/time-limits.js';
import { archiveSandbox, whyNotArchivable, type ArchiveDeps } from './archive.js';
import type { ScannedSandbox } from './scan.js';

describe('whyNotArchivable', () => {
  let top: string;
  beforeEach(() => {
    top = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-archive-'));
    fs.mkdirSync(path.join(top, 'src'));
    fs.writeFileSync(path.join(top, 'src', 'a.txt'), 'x'.repeat(100));
  });
  afterEach(() => fs.rmSync(top, { recursive: true, force: true }));

  it('lets a folder within the caps through, FIFOs, links and all, opening none of them', async () => {
    execFileSync('mkfifo', [path.join(top, 'src', 'pipe')]);
    fs.symlinkSync('/dev/zero', path.join(top, 'zero'));
    fs.symlinkSync('/', path.join(top, 'root'));
    expect(await whyNotArchivable(top, 1_000)).toBeUndefined();
  });

  it('refuses a sparse file whose apparent size is over the cap, at once, without reading it', async () => {
    const huge = path.join(top, 'src', 'huge\rname');
    fs.writeFileSync(huge, '');
    fs.truncateSync(huge, 4 * 1024 ** 4);
    const started = Date.now();
    const why = await whyNotArchivable(top, 8 * 1024 ** 3);
    expect(Date.now() - started).toBeLessThan(2_000);
    // The name came from the sandbox: quoted, its carriage return escaped.
    expect(why).toBe(
      `"src/huge\\rname" is ${4 * 1024 ** 4} bytes long (apparent size), more than the archive's cap of ${8 * 1024 ** 3} bytes`,
    );
  });

  it('refuses files that add up to more than the cap, and more entries than allowed', async () => {
    fs.writeFileSync(path.join(top, 'b.txt'), 'y'.repeat(100));
    expect(await whyNotArchivable(top, 150)).toBe(
      "its files add up to more than the archive's cap of 150 bytes",
    );
    expect(await whyNotArchivable(top, 1_000, 2)).toBe('it holds more than 2 entries');
  });
});

describe('archiveSandbox of a disk orphan: tar on the host is bounded', () => {
  const savedPath = process.env.PATH;
  const savedLimits = process.env[TIME_LIMITS_OVERRIDE];
  let work: string;
  let bin: string;
  beforeEach(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-archive-'));
    bin = path.join(work, 'bin');
    fs.mkdirSync(bin);
    fs.mkdirSync(path.join(work, 'root', 'project', 'orphan'), { recursive: true });
    fs.writeFileSync(path.join(work, 'root', 'project', 'orphan', 'notes.txt'), 'notes\n');
    process.env.PATH = `${bin}:${savedPath}`;
  });
  afterEach(() => {
    process.env.PATH = savedPath;
    if (savedLimits === undefined) delete process.env[TIME_LIMITS_OVERRIDE];
    else process.env[TIME_LIMITS_OVERRIDE] = savedLimits;
    fs.rmSync(work, { recursive: true, force: true });
  });

  /** A `tar` that does what `script` says, found first on PATH. */
  function fakeTar(script: string): void {
    fs.writeFileSync(path.join(bin, 'tar'), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  }

  const archive = (maxBytes?: number) =>
    archiveSandbox(
      {
        key: 'disk:orphan',
        sandbox: 'orphan',
        project: 'project',
        isolation: 'disk',
        where: path.join(work, 'root', 'project', 'orphan'),
        hostPath: path.join(work, 'root', 'project', 'orphan'),
      } as ScannedSandbox,
      'files',
      {
        archiveDir: path.join(work, 'archive'),
        now: new Date('2026-01-02T03:04:05Z'),
        image: () => Promise.reject(new Error('no helper in this test')),
        maxBytes,
      } as ArchiveDeps,
    );
  const written = () => fs.readdirSync(path.join(work, 'archive', 'project'));

  it('a tar that hangs (its gzip too) is killed at its limit, and no partial archive is left', async () => {
    process.env[TIME_LIMITS_OVERRIDE] = 'archive-files=0.3';
    fakeTar('printf partial; sleep 60 | cat');
    const started = Date.now();
    await expect(archive()).rejects.toThrow(
      `The archive-files program on ${path.join(work, 'root', 'project', 'orphan')} ran out of its time limit (0.3 s) and was killed: nothing was archived; the orphan is kept`,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(written()).toEqual([]);
  });

  it('a tar that writes more than the cap is stopped there, and no partial archive is left', async () => {
    fakeTar('head -c 100000 /dev/zero; sleep 60');
    await expect(archive(10_000)).rejects.toThrow('its archive grew over the cap of 10000 bytes');
    expect(written()).toEqual([]);
  });

  it('the real tar archives the folder (mode 0600, the name as documented)', async () => {
    fs.rmSync(path.join(bin, 'tar'), { force: true });
    const [file] = await archive();
    expect(path.basename(file)).toBe('orphan.disk.20260102T030405Z.tar.gz');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(execFileSync('tar', ['-tzf', file], { encoding: 'utf8' })).toContain('orphan/notes.txt');
  });
});
