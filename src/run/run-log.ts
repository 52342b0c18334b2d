// What a run says in the log about its sandbox and its command, in words a person reads.
import { whereIs, type PreparedSandbox } from '../sandbox/layout.js';
import type { Ui } from '../ui/ui.js';
import type { CommandResult } from './command.js';

export function describeSandbox(ui: Ui, sandbox: PreparedSandbox, source: string, offered?: string): void {
  const what = sandbox.branch
    ? `branch ${sandbox.branch} (${sandbox.reused ? 'reused' : source})`
    : `detached at ${sandbox.startSha.slice(0, 12)}`;
  ui.info(`${sandbox.reused ? 'Reusing' : 'Created'} ${sandbox.name}: ${what}; ${whereIs(sandbox)}.`);
  if (offered)
    ui.info(
      `origin/${sandbox.branch} moved to ${offered.slice(0, 12)}: offered inside as origin/${sandbox.branch} (the work tree is left as it is).`,
    );
}

export function reportCommand(ui: Ui, command: CommandResult): void {
  const seconds = (command.durationMs / 1000).toFixed(1);
  if (command.timedOut)
    ui.warning(
      `The command was stopped by timeout-minutes after ${seconds}s (exit code ${command.exitCode}).`,
    );
  else if (command.oomKilled)
    ui.warning(`The command was killed by the memory limit (exit code ${command.exitCode}).`);
  else ui.info(`The command exited with code ${command.exitCode} after ${seconds}s.`);
}

/** A command's first line, at most 80 characters: the title of its log group. */
export function firstLine(text: string): string {
  const line = text.trim().split('\n')[0];
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}
