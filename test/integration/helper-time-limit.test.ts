// The engine side of a helper's time limit, on each engine under test: a helper container that never
// returns is killed and removed by its name when its limit runs out (a PID 1 that ignores SIGTERM
// included), and the caller gets a TimeLimitError naming the helper and the sandbox.
import { randomBytes } from 'node:crypto';
import { userArg } from '../../src/engine/container-args.js';
import { ContainerEngine } from '../../src/engine/engine.js';
import { label } from '../../src/engine/labels.js';
import { TIME_LIMITS_OVERRIDE, TimeLimitError } from '../../src/engine/time-limits.js';
import { engineCli } from '../support/docker.js';
import { availableEngines } from '../support/engines.js';
import { TEST_IMAGE } from '../support/env.js';

const saved = process.env[TIME_LIMITS_OVERRIDE];
afterAll(() => {
  if (saved === undefined) delete process.env[TIME_LIMITS_OVERRIDE];
  else process.env[TIME_LIMITS_OVERRIDE] = saved;
});

/** A helper that never returns, labelled with `mark` (PID 1 has no default handlers: SIGTERM alone would never stop it). */
function foreverHelper(engine: ContainerEngine, mark: string) {
  return engine.runHelper(
    {
      remove: true,
      image: TEST_IMAGE,
      user: userArg(),
      mounts: [],
      labels: { [label('test')]: mark },
      entrypoint: 'sh',
      args: ['-c', 'trap "" TERM; while :; do sleep 1; done'],
    },
    { work: 'offer', where: 'test-sandbox (nowhere)', consequence: 'nothing happened' },
  );
}

function containersMarked(engineName: 'docker' | 'podman', mark: string): string {
  return engineCli(
    engineName,
    'ps',
    '--all',
    '--filter',
    `label=${label('test')}=${mark}`,
    '--format',
    '{{.Names}}',
  );
}

describe.each(availableEngines())('%s', (engineName) => {
  it('a limit that runs out before the engine has made the container: the container made afterwards is removed too', async () => {
    // 50 ms: the engine CLI is still creating the container when the limit runs out; the CLI is killed
    // 5 s later, and the name is removed once more after it.
    const BOUND_MS = 25_000;
    process.env[TIME_LIMITS_OVERRIDE] = 'offer=0.05';
    const engine = new ContainerEngine(engineName);
    const mark = randomBytes(6).toString('hex');
    const started = Date.now();
    await expect(foreverHelper(engine, mark)).rejects.toThrow(TimeLimitError);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(BOUND_MS);
    expect(containersMarked(engineName, mark)).toBe('');
    // And none appears later (an engine finishing a creation the killed CLI had asked for).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(containersMarked(engineName, mark)).toBe('');
    process.stdout.write(`${engineName}: early limit, all gone after ${elapsed} ms (bound ${BOUND_MS} ms)\n`);
  }, 60_000);

  it('a helper that never returns is removed when its limit runs out, with an error naming it', async () => {
    const LIMIT_S = 2;
    // The limit, the kill and the removal; rootful Podman's start is the slow part.
    const BOUND_MS = 20_000;
    process.env[TIME_LIMITS_OVERRIDE] = `offer=${LIMIT_S}`;
    const engine = new ContainerEngine(engineName);
    const mark = randomBytes(6).toString('hex');
    const started = Date.now();
    const run = foreverHelper(engine, mark);
    await expect(run).rejects.toThrow(TimeLimitError);
    await expect(run).rejects.toThrow(
      `The offer helper container on test-sandbox (nowhere) ran out of its time limit (${LIMIT_S} s) and was removed: nothing happened`,
    );
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(LIMIT_S * 1000);
    expect(elapsed).toBeLessThan(BOUND_MS);
    const left = engineCli(
      engineName,
      'ps',
      '--all',
      '--filter',
      `label=${label('test')}=${mark}`,
      '--format',
      '{{.Names}}',
    );
    expect(left).toBe('');
    process.stdout.write(
      `${engineName}: helper stopped after ${elapsed} ms (limit ${LIMIT_S} s, bound ${BOUND_MS} ms)\n`,
    );
  }, 60_000);
});
