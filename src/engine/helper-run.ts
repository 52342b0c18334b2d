// A helper container under its time limit: when the limit runs out, the container itself is stopped and
// removed by its name, since killing the engine CLI alone would leave it running.
import { randomBytes } from 'node:crypto';
import { containerRunArgs, type ContainerSpec } from './container-args.js';
import type { EngineCommands, HelperRun } from './engine-commands.js';
import type { StreamOptions, StreamResult } from './proc.js';
import { TimeLimitError, timeLimitMs } from './time-limits.js';

/** How long the engine CLI may take to return once its container was removed, before it is killed. */
const CLI_GRACE_MS = 5_000;

type HelperEngine = Pick<
  EngineCommands,
  'name' | 'bindSource' | 'runArgs' | 'stream' | 'stopContainer' | 'containerExists'
>;

/**
 * Runs a helper container under its time limit (time-limits.ts). When the limit runs out, the container
 * itself is killed and removed by its name: killing the CLI alone would leave it running. The CLI is
 * killed too if it has not returned a few seconds later, and the name is removed once more after the
 * CLI is gone (the engine may have created the container only then). Throws a TimeLimitError. A
 * container whose output went over `stdoutFile.maxBytes` is removed the same way.
 */
export async function runHelperContainer(
  engine: HelperEngine,
  spec: ContainerSpec,
  run: HelperRun,
  options: Omit<StreamOptions, 'env' | 'cwd' | 'signal'> = {},
): Promise<StreamResult> {
  const name = spec.name ?? `worktree-sandbox-${run.work}-${randomBytes(6).toString('hex')}`;
  const args = run.unmapped
    ? containerRunArgs(engine.name, { ...spec, name }, await engine.bindSource())
    : await engine.runArgs({ ...spec, name });
  const limitMs = timeLimitMs(run.work);
  const cli = new AbortController();
  let expired = false;
  let grace: NodeJS.Timeout | undefined;
  const timer = setTimeout(() => {
    expired = true;
    grace = setTimeout(() => cli.abort(), CLI_GRACE_MS);
    void engine.stopContainer(name);
  }, limitMs);
  try {
    const result = await engine.stream(args, { ...options, signal: cli.signal });
    if (expired) throw new TimeLimitError(run.work, run.where, limitMs, run.consequence);
    // Output over its cap killed the CLI, not the container: it goes too.
    if (result.overLimit) await engine.stopContainer(name);
    return result;
  } finally {
    clearTimeout(timer);
    clearTimeout(grace);
    if (expired) await removeLateContainer(engine, name);
  }
}

/** After a timeout: the container is removed until the engine no longer knows it (a few tries). */
async function removeLateContainer(engine: HelperEngine, name: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    await engine.stopContainer(name);
    if ((await engine.containerExists(name)) === false) return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
