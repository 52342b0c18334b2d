// The engine's API answers "is it there?" for the image and the volume where the CLI would talk to the same
// socket, with the CLI's own answer everywhere else. A shim `docker` first on PATH logs every CLI call and
// runs the real one.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ContainerEngine } from '../../src/engine/engine.js';
import { uniquePrefix } from '../support/docker.js';
import { TEST_IMAGE } from '../support/env.js';
import { tempDir } from '../support/repo.js';

const realDocker = execFileSync('sh', ['-c', 'command -v docker'], { encoding: 'utf8' }).trim();
const dirs: string[] = [];
const volume = `${uniquePrefix('engapi')}-there`;
const saved = { ...process.env };

beforeAll(() => {
  execFileSync(realDocker, ['volume', 'create', '--', volume]);
});
afterEach(() => {
  for (const name of ['PATH', 'DOCKER_CONFIG', 'DOCKER_HOST', 'DOCKER_CONTEXT'])
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
});
afterAll(() => {
  execFileSync(realDocker, ['volume', 'rm', '--force', '--', volume]);
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** The CLI calls made while `ask` runs, with a fresh engine (the socket is found once per engine). */
async function cliCalls<T>(
  ask: (engine: ContainerEngine) => Promise<T>,
): Promise<{ answer: T; calls: string[] }> {
  const bin = tempDir('wts-engine-api-shim-');
  dirs.push(bin);
  const log = path.join(bin, 'calls.log');
  fs.writeFileSync(log, '');
  fs.writeFileSync(
    path.join(bin, 'docker'),
    `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${realDocker}' "$@"\n`,
    {
      mode: 0o755,
    },
  );
  process.env.PATH = `${bin}:${saved.PATH ?? ''}`;
  const answer = await ask(new ContainerEngine('docker'));
  return { answer, calls: fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

/** A DOCKER_CONFIG of its own (no context: the default socket). */
function ownConfig(): string {
  const dir = tempDir('wts-engine-api-config-');
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, 'config.json'), '{}\n');
  return dir;
}

describe("the engine's API for presence, where the CLI would use the same socket", () => {
  it('a volume and an image that are there: no CLI start', async () => {
    process.env.DOCKER_CONFIG = ownConfig();
    expect(await cliCalls((e) => e.volumeExists(volume))).toEqual({ answer: true, calls: [] });
    expect(await cliCalls((e) => e.ensureImage(TEST_IMAGE))).toEqual({ answer: undefined, calls: [] });
    process.env.DOCKER_HOST = 'unix:///var/run/docker.sock';
    expect(await cliCalls((e) => e.volumeExists(volume))).toEqual({ answer: true, calls: [] });
  });

  it('a volume that is not there: the CLI says so, as before', async () => {
    process.env.DOCKER_CONFIG = ownConfig();
    const missing = `${volume}-missing`;
    expect(await cliCalls((e) => e.volumeExists(missing))).toEqual({
      answer: false,
      calls: [`volume inspect --format {{.Name}} -- ${missing}`],
    });
  });

  it('a context the CLI would follow: the CLI answers, the same', async () => {
    // A context that names the same engine: the CLI's answers, which the API gave above.
    const config = ownConfig();
    process.env.DOCKER_CONFIG = config;
    // (Jest's process.env does not reach a child process by itself.)
    execFileSync(realDocker, ['context', 'create', 'same', '--docker', 'host=unix:///var/run/docker.sock'], {
      stdio: 'pipe',
      env: { ...process.env },
    });
    fs.writeFileSync(path.join(config, 'config.json'), '{"currentContext":"same"}\n');
    expect(await cliCalls((e) => e.volumeExists(volume))).toEqual({
      answer: true,
      calls: [`volume inspect --format {{.Name}} -- ${volume}`],
    });
    const image = await cliCalls((e) => e.ensureImage(TEST_IMAGE));
    expect(image.calls).toEqual([`image inspect --format {{.Id}} -- ${TEST_IMAGE}`]);
  });
});
