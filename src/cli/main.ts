// The `worktree-sandbox` command: the action's core from a terminal or a cron job.
// Options carry the action's input names (`--worktree-root` is the input `worktree-root`), so one
// validation serves both.
import '../engine/memory.js';
import { Command, CommanderError, Option } from 'commander';
import { ACTION_DEFAULTS } from '../action-defaults.js';
import packageJson from '../../package.json' with { type: 'json' };
import { DEFAULT_RETENTION } from '../reap/retention.js';
import { runCli } from './commands.js';
import { EXIT, exitCodesHelp } from './exit-codes.js';

export { EXIT } from './exit-codes.js';

/** The inputs' defaults, from action.yml (written once, there). */
const D = ACTION_DEFAULTS;
const DEFAULT_IMAGE = D.image;
/** `--image` of list, rm and reap: their helpers run the runner's own programs, never an image's. */
const IGNORED_IMAGE =
  "ignored: the helpers run the runner's own programs (kept so that scripts that pass it still run)";

const common = (cmd: Command) =>
  cmd
    .addOption(
      new Option('--engine <engine>', 'container engine').choices(['docker', 'podman']).default(D.engine),
    )
    .option(
      '--worktree-root <dir>',
      'root of disk sandboxes (default: $XDG_CACHE_HOME/worktree-sandbox/worktrees)',
    )
    .option('--volume-prefix <prefix>', 'prefix of sandbox volume names', D['volume-prefix']);

export function buildProgram(): Command {
  const program = new Command('worktree-sandbox')
    .description(
      'A git worktree sandbox per job, the command run in a container; stale sandboxes reaped without losing work.',
    )
    .version(packageJson.version, '-V, --version', 'print the version')
    .option('--debug', 'print stack traces of errors')
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text) })
    .addHelpText('after', `\n${exitCodesHelp()}`);

  common(
    program
      .command('run')
      .description("run a command in a sandbox worktree (the action's run mode), then clean up by --cleanup")
      // Checked with the other settings (a required option would hide an unknown one: commander
      // reports a missing mandatory option first).
      .option('--command <command>', 'command to run with sh -c in the worktree (required)')
      .option('--image <image>', 'image with sh and git', DEFAULT_IMAGE)
      .addOption(
        new Option('--isolation <isolation>', 'where the worktree lives')
          .choices(['container', 'disk'])
          .default(D.isolation),
      )
      .option('--branch <branch>', 'branch to check out or create (default: a transient sandbox)')
      .option('--base <rev>', 'start point of a new branch or transient sandbox (default: HEAD)')
      .option('--repository-path <dir>', 'parent repository (default: the current folder)', process.cwd())
      .addOption(
        new Option('--cleanup <policy>', 'after the run')
          .choices(['auto', 'always', 'never'])
          .default(D.cleanup),
      )
      .option(
        '--env <line>',
        'NAME or NAME=value for the container (repeatable)',
        (v: string, acc: string[]) => [...acc, v],
        [] as string[],
      )
      .option('--timeout-minutes <n>', 'stop the command after this long (0: no limit)', D['timeout-minutes'])
      .option(
        '--lock-timeout-minutes <n>',
        'wait this long for another run on the same sandbox',
        D['lock-timeout-minutes'],
      )
      .option('--allow-failure', 'exit 0 even when the command fails')
      .option('--push', 'commit what is left and push the branch to origin (never forced)')
      .option('--commit-message <message>', 'message of that commit')
      .addOption(
        new Option(
          '--secret-scan <mode>',
          'before the push: scan the added lines, the commits as stored and the path names for known secrets and credential formats; block stops the push (docs/secret-scan.md)',
        )
          .choices(['block', 'warn', 'off'])
          .default(D['secret-scan']),
      )
      .option('--memory <size>', 'memory limit, e.g. 2g')
      .option('--cpus <n>', 'CPU limit, e.g. 1.5')
      .option('--pids-limit <n>', 'process limit', D['pids-limit'])
      .option(
        '--network <mode>',
        'bridge, none, audit, or an allow-list: hosts, *.domains, :ports, @presets, separated by commas (docs/network.md)',
        D.network,
      )
      .option(
        '--credentials <file or lines>',
        'headers the proxy sets, one `<host> <Header-Name>: <value>` a line (needs an allow-list or audit): a file that holds them (keeps the values off the command line), or the lines themselves',
      )
      .option(
        '--max-model-requests <n>',
        'with an allow-list or audit: model API requests the proxy lets through, then 429 (0: no limit)',
        D['max-model-requests'],
      )
      .option(
        '--max-model-tokens <n>',
        'with an allow-list or audit: input plus output tokens, then 429 (0: no limit; docs/agents.md)',
        D['max-model-tokens'],
      )
      .option('--read-only-rootfs', 'read-only root filesystem (tmpfs /tmp)')
      .option('--json', 'print the outcome as JSON on stdout'),
  ).action((opts) => runCli('run', opts));

  common(
    retention(
      program
        .command('reap')
        .description(
          'remove stale sandboxes (disk and volume) by the retention matrix, keeping any that hold work or are in use',
        )
        .option('--dry-run', 'decide and report, remove nothing')
        .option(
          '--max-removals <n>',
          'remove at most this many, the oldest first (0: no limit)',
          D['max-removals'],
        )
        .option('--force', 'remove stale sandboxes that hold work too (never those in use)')
        .option('--archive-dir <dir>', "save the work (with --force) and orphans' files here before removal")
        .option('--image <image>', IGNORED_IMAGE, DEFAULT_IMAGE)
        .option('--json', 'print the result as JSON on stdout'),
    ),
  )
    .addHelpText(
      'after',
      `
For a cron job on a self-hosted runner, as the runner's user:
  17 3 * * *  npx --prefix /opt/worktree-sandbox worktree-sandbox reap --archive-dir /var/lib/wts-archive`,
    )
    .action((opts) => runCli('reap', opts));

  common(
    retention(
      program
        .command('list')
        .description(
          'every sandbox on this machine (disk and volume): class, branch, age, size, state, and when reap would remove it',
        )
        .option('--image <image>', IGNORED_IMAGE, DEFAULT_IMAGE)
        .option('--json', 'print the list as JSON on stdout'),
    ),
  )
    .addHelpText(
      'after',
      `
States: clean; holds work (uncommitted changes, commits no remote-tracking ref or tag of the parent
reaches (its local branches count only when it has no remote), a merge or rebase in progress, or the
check could not run); in use (a running container, a
process working in it, a run holding its lock); orphan (its parent repository is
gone). Give the expiry options of your reap job: the REMOVAL column assumes them.`,
    )
    .action((opts) => runCli('list', opts));

  common(
    program
      .command('rm')
      .description("remove one sandbox, with the reaper's safety gates (whatever its age)")
      .argument('<name>', 'sandbox name (as in `list`), volume name, or path of a disk sandbox')
      .option('--project <project>', 'the project of the sandbox, when NAME is in several')
      .addOption(
        new Option('--isolation <isolation>', 'disk or volume (container), when NAME is both').choices([
          'container',
          'disk',
        ]),
      )
      .option('--dry-run', 'say what would be removed (and saved first), remove nothing')
      .option('--force', 'remove it even if it holds work (the work saved first); never when it is in use')
      .option(
        '--archive-dir <dir>',
        "where the work (or an orphan's files) is saved first (default: <tmp>/worktree-sandbox-archive-<uid>)",
      )
      .option('--image <image>', IGNORED_IMAGE, DEFAULT_IMAGE)
      .option('--json', 'print the result as JSON on stdout'),
  )
    .addHelpText('after', '\nExit code 4 when a safety gate keeps the sandbox (the reason is printed).')
    .action((name: string, opts) => runCli('rm', opts, [name]));

  return program;
}

const retention = (cmd: Command) =>
  cmd
    .option(
      '--headless-expiry-days <n>',
      'days unused before an exploration-* sandbox is stale',
      String(DEFAULT_RETENTION.headlessExpiryDays),
    )
    .option(
      '--branch-expiry-days <n>',
      'days unused before a branch sandbox is stale',
      String(DEFAULT_RETENTION.branchExpiryDays),
    )
    .option(
      '--orphan-expiry-days <n>',
      'days unused before an orphan (parent repository gone) is stale; at least --branch-expiry-days',
      String(DEFAULT_RETENTION.orphanExpiryDays),
    );

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
