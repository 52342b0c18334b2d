// What a failed engine CLI call means, in words a user can act on: not installed, unreachable, or the
// call's own failure.
import type { EngineName } from './engine-name.js';
import type { ProcResult } from './proc.js';

export class EngineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineError';
  }
}

/** A non-zero exit of `<engine> args...`, told as unreachable when the engine's words say so. */
export function engineFailure(engine: EngineName, args: readonly string[], result: ProcResult): EngineError {
  const detail = (result.stderr || result.stdout).trim();
  if (
    /Cannot connect to the Docker daemon|Is the docker daemon running|connect: (no such file|connection refused|permission denied)|unable to connect to Podman|cannot connect to Podman/i.test(
      detail,
    )
  ) {
    return new EngineError(`The ${engine} engine is unreachable: ${firstLine(detail)}`);
  }
  return new EngineError(`${engine} ${args[0]} ${args[1] ?? ''} failed (exit ${result.exitCode}): ${detail}`);
}

export function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}
