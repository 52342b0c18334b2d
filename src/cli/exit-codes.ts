// The CLI's exit codes: one table for the code, `--help` and docs/cli.md (a test keeps docs/cli.md in step).
export const EXIT = { ok: 0, error: 1, usage: 2, commandFailed: 3, refused: 4 } as const;

export const EXIT_CODES: ReadonlyArray<readonly [number, string]> = [
  [EXIT.ok, 'success (reap: it ran, whatever it kept; list: whatever it found)'],
  [EXIT.error, 'error: engine unreachable, git failure, rm: no such sandbox or the removal failed'],
  [EXIT.usage, 'usage: an unknown option, an invalid value, rm: a NAME that needs --project'],
  [EXIT.commandFailed, 'run: the sandboxed command exited non-zero (its code is printed)'],
  [EXIT.refused, 'rm: a safety gate kept the sandbox (holds work, in use, not a sandbox)'],
];

export function exitCodesHelp(): string {
  return `Exit codes:\n${EXIT_CODES.map(([code, text]) => `  ${code}  ${text}`).join('\n')}`;
}

/** An error that ends the CLI with a given exit code and one line on stderr. */
export class CliExit extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
