// The `worktree-sandbox` command: the action's core from a terminal or a cron job.
// Options carry the action's input names (`--worktree-root` is the input `worktree-root`), so one
// validation serves both.
import { Command, CommanderError, Option } from 'commander';
import { runCli } from './commands.js';

export const EXIT = { ok: 0, error: 1, usage: 2, commandFailed: 3, refused: 4 } as const;

const common = (cmd: Command) =>
  cmd
    .addOption(
      new Option('--engine <engine>', 'container engine').choices(['docker', 'podman']).default('docker'),
    )
    .option(
      '--worktree-root <dir>',
      'root of disk sandboxes (default: $XDG_CACHE_HOME/worktree-sandbox/worktrees)',
    )
    .option('--volume-prefix <prefix>', 'prefix of sandbox volume names', 'worktree-sandbox');

export function buildProgram(): Command {
  const program = new Command('worktree-sandbox')
    .description(
      'A git worktree sandbox per job, the command run in a container; stale sandboxes reaped without losing work.',
    )
    .option('--debug', 'print stack traces of errors')
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text) })
    .addHelpText(
      'after',
      `
Exit codes:
  0  success
  1  error (engine unreachable, git failure, ...)
  2  usage: an unknown option or an invalid value
  3  run: the sandboxed command exited non-zero (its code is printed)
  4  rm: the sandbox was kept by a safety gate (holds work, in use)`,
    );

  common(
    program
      .command('run')
      .description("run a command in a sandbox worktree (the action's run mode), then clean up by --cleanup")
      .requiredOption('--command <command>', 'command to run with sh -c in the worktree')
      .option('--image <image>', 'image with sh and git', 'buildpack-deps:bookworm-scm')
      .addOption(
        new Option('--isolation <isolation>', 'where the worktree lives')
          .choices(['container', 'disk'])
          .default('container'),
      )
      .option('--branch <branch>', 'branch to check out or create (default: a transient sandbox)')
      .option('--base <rev>', 'start point of a new branch or transient sandbox (default: HEAD)')
      .option('--repository-path <dir>', 'parent repository (default: the current folder)', process.cwd())
      .addOption(
        new Option('--cleanup <policy>', 'after the run')
          .choices(['auto', 'always', 'never'])
          .default('auto'),
      )
      .option(
        '--env <line>',
        'NAME or NAME=value for the container (repeatable)',
        (v: string, acc: string[]) => [...acc, v],
        [] as string[],
      )
      .option('--timeout-minutes <n>', 'stop the command after this long (0: no limit)', '0')
      .option('--lock-timeout-minutes <n>', 'wait this long for another run on the same sandbox', '10')
      .option('--allow-failure', 'exit 0 even when the command fails')
      .option('--push', 'commit what is left and push the branch to origin (never forced)')
      .option('--commit-message <message>', 'message of that commit')
      .option('--memory <size>', 'memory limit, e.g. 2g')
      .option('--cpus <n>', 'CPU limit, e.g. 1.5')
      .option('--pids-limit <n>', 'process limit', '4096')
      .addOption(
        new Option('--network <mode>', 'container network').choices(['bridge', 'none']).default('bridge'),
      )
      .option('--read-only-rootfs', 'read-only root filesystem (tmpfs /tmp)')
      .option('--json', 'print the outcome as JSON on stdout'),
  ).action((opts) => runCli('run', opts));

  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  const debug = argv.includes('--debug');
  try {
    await program.parseAsync(argv, { from: 'user' });
    return process.exitCode === undefined ? EXIT.ok : Number(process.exitCode);
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const err = error as Error & { exitCode?: number };
    process.stderr.write(`worktree-sandbox: ${err.message}\n`);
    if (debug && err.stack) process.stderr.write(`${err.stack}\n`);
    return err.exitCode ?? EXIT.error;
  }
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
