// The `worktree-sandbox` command: the action's core from a terminal or a cron job.
// Options carry the action's input names (`--worktree-root` is the input `worktree-root`), so one
// validation serves both; their defaults come from action.yml and their choices from the settings, so
// this file holds only what the command line adds: which options each command has, and their help.
import '../engine/memory.js';
import { Command, CommanderError, Option } from 'commander';
import { ACTION_DEFAULTS } from '../action-defaults.js';
import packageJson from '../../package.json' with { type: 'json' };
import { CHOICES } from '../settings/settings.js';
import { runCli } from './commands.js';
import { EXIT, exitCodesHelp } from './exit-codes.js';

export { EXIT } from './exit-codes.js';

/**
 * An option: its flags as commander writes them (`--name <value>`, or `--name` for a true/false input),
 * its help, and what differs from the input: a default the action does not have (or `false`: none shown).
 */
type Spec = [flags: string, help: string, fallback?: string | string[] | false];

function option([flags, help, fallback]: Spec): Option {
  const option = new Option(flags, help);
  const name = option.name() as keyof typeof CHOICES;
  if (CHOICES[name]) option.choices(CHOICES[name]);
  if (Array.isArray(fallback)) option.argParser((v: string, acc: string[]) => [...acc, v]);
  const value = fallback ?? (option.required ? ACTION_DEFAULTS[name] : undefined);
  if (value) option.default(value);
  return option;
}

/** `--image` of list, rm and reap: their helpers run the runner's own programs, never an image's. */
const IGNORED_IMAGE: Spec = [
  '--image <image>',
  "ignored: the helpers run the runner's own programs (kept so that scripts that pass it still run)",
];

const COMMON: Spec[] = [
  ['--engine <engine>', 'container engine'],
  ['--worktree-root <dir>', 'root of disk sandboxes (default: $XDG_CACHE_HOME/worktree-sandbox/worktrees)'],
  ['--volume-prefix <prefix>', 'prefix of sandbox volume names'],
];

const RETENTION: Spec[] = [
  ['--headless-expiry-days <n>', 'days unused before an exploration-* sandbox is stale'],
  ['--branch-expiry-days <n>', 'days unused before a branch sandbox is stale'],
  [
    '--orphan-expiry-days <n>',
    'days unused before an orphan (parent repository gone) is stale; at least --branch-expiry-days',
  ],
];

const RUN: Spec[] = [
  // Checked with the other settings (a required option would hide an unknown one: commander reports a
  // missing mandatory option first).
  ['--command <command>', 'command to run with sh -c in the worktree (required)'],
  ['--image <image>', 'image with sh and git'],
  ['--isolation <isolation>', 'where the worktree lives'],
  ['--branch <branch>', 'branch to check out or create (default: a transient sandbox)'],
  ['--base <rev>', 'start point of a new branch or transient sandbox (default: HEAD)'],
  ['--repository-path <dir>', 'parent repository (default: the current folder)', process.cwd()],
  ['--cleanup <policy>', 'after the run'],
  ['--env <line>', 'NAME or NAME=value for the container (repeatable)', []],
  ['--timeout-minutes <n>', 'stop the command after this long (0: no limit)'],
  ['--lock-timeout-minutes <n>', 'wait this long for another run on the same sandbox'],
  ['--allow-failure', 'exit 0 even when the command fails'],
  ['--push', 'commit what is left and push the branch to origin (never forced)'],
  ['--commit-message <message>', 'message of that commit', false],
  [
    '--secret-scan <mode>',
    'before the push: scan the added lines, the commits as stored and the path names for known secrets and credential formats; block stops the push (docs/secret-scan.md)',
  ],
  ['--memory <size>', 'memory limit, e.g. 2g'],
  ['--cpus <n>', 'CPU limit, e.g. 1.5'],
  ['--pids-limit <n>', 'process limit'],
  [
    '--network <mode>',
    'bridge, none, audit, or an allow-list: hosts, *.domains, :ports, @presets, separated by commas (docs/network.md)',
  ],
  [
    '--credentials <file or lines>',
    'headers the proxy sets, one `<host> <Header-Name>: <value>` a line (needs an allow-list or audit): a file that holds them (keeps the values off the command line), or the lines themselves',
  ],
  [
    '--max-model-requests <n>',
    'with an allow-list or audit: model API requests the proxy lets through, then 429 (0: no limit)',
  ],
  [
    '--max-model-tokens <n>',
    'with an allow-list or audit: input plus output tokens, then 429 (0: no limit; docs/agents.md)',
  ],
  ['--read-only-rootfs', 'read-only root filesystem (tmpfs /tmp)'],
  ['--json', 'print the outcome as JSON on stdout'],
];

const REAP: Spec[] = [
  ['--dry-run', 'decide and report, remove nothing'],
  ['--max-removals <n>', 'remove at most this many, the oldest first (0: no limit)'],
  ['--force', 'remove stale sandboxes that hold work too (never those in use)'],
  ['--archive-dir <dir>', "save the work (with --force) and orphans' files here before removal"],
  IGNORED_IMAGE,
  ['--json', 'print the result as JSON on stdout'],
  ...RETENTION,
];

const LIST: Spec[] = [IGNORED_IMAGE, ['--json', 'print the list as JSON on stdout'], ...RETENTION];

const RM: Spec[] = [
  ['--project <project>', 'the project of the sandbox, when NAME is in several'],
  ['--isolation <isolation>', 'disk or volume (container), when NAME is both', false],
  ['--dry-run', 'say what would be removed (and saved first), remove nothing'],
  ['--force', 'remove it even if it holds work (the work saved first); never when it is in use'],
  [
    '--archive-dir <dir>',
    "where the work (or an orphan's files) is saved first (default: <tmp>/worktree-sandbox-archive-<uid>)",
  ],
  IGNORED_IMAGE,
  ['--json', 'print the result as JSON on stdout'],
];

const REAP_HELP = `
For a cron job on a self-hosted runner, as the runner's user:
  17 3 * * *  npx --prefix /opt/worktree-sandbox worktree-sandbox reap --archive-dir /var/lib/wts-archive`;

const LIST_HELP = `
States: clean; holds work (uncommitted changes, commits no remote-tracking ref or tag of the parent
reaches (its local branches count only when it has no remote), a merge or rebase in progress, or the
check could not run); in use (a running container, a
process working in it, a run holding its lock); orphan (its parent repository is
gone). Give the expiry options of your reap job: the REMOVAL column assumes them.`;

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
  const command = (name: string, description: string, specs: Spec[], after: string) => {
    const cmd = program.command(name).description(description);
    for (const spec of [...specs, ...COMMON]) cmd.addOption(option(spec));
    return after ? cmd.addHelpText('after', after) : cmd;
  };

  command(
    'run',
    "run a command in a sandbox worktree (the action's run mode), then clean up by --cleanup",
    RUN,
    '',
  ).action((opts) => runCli('run', opts));
  command(
    'reap',
    'remove stale sandboxes (disk and volume) by the retention matrix, keeping any that hold work or are in use',
    REAP,
    REAP_HELP,
  ).action((opts) => runCli('reap', opts));
  command(
    'list',
    'every sandbox on this machine (disk and volume): class, branch, age, size, state, and when reap would remove it',
    LIST,
    LIST_HELP,
  ).action((opts) => runCli('list', opts));
  command(
    'rm',
    "remove one sandbox, with the reaper's safety gates (whatever its age)",
    RM,
    '\nExit code 4 when a safety gate keeps the sandbox (the reason is printed).',
  )
    .argument('<name>', 'sandbox name (as in `list`), volume name, or path of a disk sandbox')
    .action((name: string, opts) => runCli('rm', opts, [name]));

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
