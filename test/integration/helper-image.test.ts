// The reaper's helper image, made from the host's own programs: it is imported once per engine, found
// again by its layer's digest, runs the helpers' programs, and an image put under its tag by anyone else
// is replaced rather than used.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TIME_LIMITS_OVERRIDE } from '../../src/engine/time-limits.js';
import { processRunning } from '../support/processes.js';
import { tempDir } from '../support/repo.js';
import { ContainerEngine } from '../../src/engine/engine.js';
import {
  controlledHelperImage,
  helperLayerEntries,
  HELPER_PROGRAMS,
  tarLayer,
} from '../../src/engine/helper-image.js';
import { engineCli } from '../support/docker.js';
import { availableEngines } from '../support/engines.js';
import { TEST_IMAGE } from '../support/env.js';

describe('the helper image made from the host’s programs', () => {
  it('is the same archive, byte for byte, every time', async () => {
    const a = tarLayer(await helperLayerEntries());
    const b = tarLayer(await helperLayerEntries());
    expect(a.equals(b)).toBe(true);
    // A plain tar lists it: every program the helpers call, at /usr/bin.
    const listed = execFileSync('tar', ['-t'], { input: a, maxBuffer: 1 << 26 }).toString();
    for (const program of HELPER_PROGRAMS) expect(listed).toContain(`usr/bin/${program}\n`);
  });

  it('an ldd that hangs is killed, with what it started, at its time limit, and the error says so', async () => {
    const dir = tempDir('wts-ldd-');
    const pids = path.join(dir, 'pids');
    fs.writeFileSync(path.join(dir, 'ldd'), `#!/bin/sh\nsleep 60 &\necho $$ $! > "${pids}"\nwait\n`, {
      mode: 0o755,
    });
    const saved = { PATH: process.env.PATH, override: process.env[TIME_LIMITS_OVERRIDE] };
    process.env.PATH = `${dir}:${saved.PATH}`;
    process.env[TIME_LIMITS_OVERRIDE] = 'ldd=1';
    try {
      const started = Date.now();
      await expect(helperLayerEntries()).rejects.toThrow(
        'ldd (listing the libraries the helper image needs) ran out of its time limit (1 s) and was killed, with every program it started.',
      );
      expect(Date.now() - started).toBeLessThan(6_000);
      for (const pid of fs.readFileSync(pids, 'utf8').trim().split(' ').map(Number))
        expect(processRunning(pid)).toBe(false);
    } finally {
      process.env.PATH = saved.PATH;
      if (saved.override === undefined) delete process.env[TIME_LIMITS_OVERRIDE];
      else process.env[TIME_LIMITS_OVERRIDE] = saved.override;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const engine of availableEngines()) {
    it(`${engine}: is made once, runs git and the script's tools, and replaces an impostor under its tag`, async () => {
      const started = Date.now();
      const image = await controlledHelperImage(new ContainerEngine(engine));
      const out = engineCli(
        engine,
        'run',
        '--rm',
        '--network',
        'none',
        '--entrypoint',
        'sh',
        image,
        '-c',
        'git --version && printf x | wc -c && mktemp -d && du -sk /usr/bin | cut -f1 >/dev/null && echo ok',
      );
      expect(out).toMatch(/^git version \d+\.\d+/);
      expect(out.trim().endsWith('ok')).toBe(true);
      // Found again without an import (a fresh process would do the same: the tag names the digest).
      expect(await controlledHelperImage(new ContainerEngine(engine))).toBe(image);

      // Someone tags another image (the test image: sh and git of its own) with our name: not used.
      engineCli(engine, 'tag', TEST_IMAGE, image);
      const { controlledHelperImage: fresh } = await import(
        `../../src/engine/helper-image.js?again=${engine}` as string
      );
      expect(await fresh(new ContainerEngine(engine))).toBe(image);
      const layers = engineCli(engine, 'image', 'inspect', '--format', '{{json .RootFS.Layers}}', image);
      expect(JSON.parse(layers)).toHaveLength(1);
      expect(engineCli(engine, 'image', 'inspect', '--format', '{{.Id}}', image)).not.toBe(
        engineCli(engine, 'image', 'inspect', '--format', '{{.Id}}', TEST_IMAGE),
      );
      // Bound: made (or found) and checked well within a minute on this 2-core machine.
      expect(Date.now() - started).toBeLessThan(60_000);
    });
  }
});
