import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { whyNotArchivable } from './archive.js';

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
