import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { processRunning } from '../../test/support/processes.js';
import { ContainerEngine } from './engine.js';
import { ProcTimeLimitError } from './proc.js';

describe('the engine CLI under its time limit', () => {
  const savedPath = process.env.PATH;
  let bin: string;
  beforeEach(() => {
    bin = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-engine-'));
  });
  afterEach(() => {
    process.env.PATH = savedPath;
    fs.rmSync(bin, { recursive: true, force: true });
  });

  it('a CLI that never answers is killed at the shorter limit asked for (`limitMs`), and the error says so', async () => {
    // A `docker` that hangs, as a CLI whose daemon accepted the request and never answered.
    const pidFile = path.join(bin, 'pid');
    fs.writeFileSync(path.join(bin, 'docker'), `#!/bin/sh\necho $$ > "${pidFile}"\nexec sleep 60\n`, {
      mode: 0o755,
    });
    process.env.PATH = `${bin}:${savedPath}`;
    const started = Date.now();
    const error = await new ContainerEngine('docker')
      .exec(['container', 'inspect', '--', 'x'], { limitMs: 300 })
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(ProcTimeLimitError);
    expect((error as Error).message).toBe(
      "docker container (the container engine's query) ran out of its time limit (0.3 s) and was killed, with every program it started.",
    );
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(processRunning(pid)).toBe(false);
  });
});
