// What a run takes (its dependencies, from the action, the pull-request bot or the CLI) and what it gives
// back: the types of run.ts's one entry, runSandbox.
import type { PreparedSandbox } from '../sandbox/layout.js';
import type { ClearedTrap } from '../sandbox/git-traps.js';
import type { Ui } from '../ui/ui.js';
import type { CommandResult } from './command.js';
import type { PushDestination, PushResult } from './push.js';
import type { WorktreeReport } from './report.js';
import type { RunState } from './run-state.js';

export interface RunOutcome {
  sandbox: PreparedSandbox;
  command: CommandResult;
  report: WorktreeReport;
  push?: PushResult;
  /** What helpers removed from the sandbox's `.git` before their git wrote there (git-traps.ts). */
  trapsCleared?: ClearedTrap[];
}

export interface RunDeps {
  ui: Ui;
  /** Persist progress for the post step (or nothing, from the CLI). */
  save: (state: Partial<RunState>) => void;
  /** Extra wiring from the PR bot: files to mount, variables to set. */
  command?: { readOnlyFiles?: string[]; extraEnv?: Record<string, string> };
  /**
   * PR bot, with `push: true`: where the sandbox's HEAD goes instead of its own branch on origin (a fork),
   * or why nothing is pushed (the changes are still committed, for a patch).
   */
  pushTo?: PushDestination | { withheld: string };
  /**
   * Told when the run takes the sandbox's lock (true) and when it lets it go (false): the CLI's Ctrl-C
   * cleans up in the same process while the run may still hold it.
   */
  onSandboxLock?: (held: boolean) => void;
  /** The command's last lines are wanted in `RunOutcome.command.tail` (the bot's comment shows them). */
  tail?: boolean;
}
