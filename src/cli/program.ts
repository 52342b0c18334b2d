// The `worktree-sandbox` program. Its options are action.yml's inputs (`--worktree-root` is `worktree-root`),
// validated by the same settings: each input is an option of the subcommands whose settings read it, with
// action.yml's default, the settings' choices and the first sentence of its description (or WORDS, worded
// for a terminal), unless NOT_OPTIONS says why not. A new input needs no line here.
import { Command, CommanderError, Option } from 'commander';
import { ACTION_INPUTS, type ActionInput } from '../action-defaults.js';
import packageJson from '../../package.json' with { type: 'json' };
import { DEFAULT_RETENTION } from '../reap/retention.js';
import { CHOICES, parseSettings } from '../settings/settings.js';
import { runCli } from './commands.js';
import { EXIT, exitCodesHelp } from './exit-codes.js';

/** The inputs a mode's settings read, all at their defaults: the settings parser says which mode uses what. */
function settingsRead(mode: 'run' | 'reap'): ReadonlySet<string> {
  const names = new Set<string>();
  parseSettings((name) => (names.add(name), name === 'mode' ? mode : name === 'command' ? 'true' : ''), {});
  return names;
}

/** Where the options come from: action.yml's inputs, the settings' choices, which inputs each mode reads. */
export const ACTION = {
  inputs: ACTION_INPUTS,
  choices: CHOICES as Readonly<Record<string, readonly string[]>>,
  reads: settingsRead,
};
export type InputSource = typeof ACTION;

/** The inputs that are no option (space-separated names: why). */
export const NOT_OPTIONS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries({
    mode: 'the subcommand is the mode',
    token: "a secret on a command line is every local user's to read (ps); a push uses git's own credentials",
    'trigger label-trigger assignee-trigger issue-branch-prefix allowed-associations allowed-bots pr-number pull-request-bot':
      "the pull-request bot's: a GitHub event starts it, and a terminal has none",
    'pull-request pull-request-title pull-request-body pull-request-draft pull-request-labels':
      'opening a pull request takes the GitHub API and `token`',
    'author committer max-import-size':
      "not offered on the command line so far (the action's default applies): off this list, it is an option",
  }).flatMap(([names, why]) => names.split(' ').map((name) => [name, why])),
);

/** An option's value name (`<dir> `; none: a switch) and help; a default of its own, or `false`: none shown. */
type Spec = [name: string, words: string, fallback?: string | string[] | false];

/** What a terminal is told of an input, where action.yml's first sentence would say too much or too little. */
const WORDS: Record<string, string | [string, string | string[] | false]> = {
  command: '<command> command to run with sh -c in the worktree (required)',
  image: '<image> image with sh and git',
  isolation: '<isolation> where the worktree lives',
  branch: '<branch> branch to check out or create (default: a transient sandbox)',
  base: '<rev> start point of a new branch or transient sandbox (default: HEAD)',
  'repository-path': ['<dir> parent repository (default: the current folder)', process.cwd()],
  cleanup: '<policy> after the run',
  env: ['<line> NAME or NAME=value for the container (repeatable)', []],
  'timeout-minutes': '<n> stop the command after this long (0: no limit)',
  'lock-timeout-minutes': '<n> wait this long for another run on the same sandbox',
  'allow-failure': 'exit 0 even when the command fails',
  push: 'commit what is left and push the branch to origin (never forced)',
  'commit-message': ['<message> message of that commit', false],
  'secret-scan':
    '<mode> before the push: scan the added lines, the commits as stored and the path names for known secrets and credential formats; block stops the push (docs/secret-scan.md)',
  memory: '<size> memory limit, e.g. 2g',
  cpus: '<n> CPU limit, e.g. 1.5',
  'pids-limit': '<n> process limit',
  network:
    '<mode> bridge, none, audit, or an allow-list: hosts, *.domains, :ports, @presets, separated by commas (docs/network.md)',
  // Read as a file unless it holds a space (commands.ts): the values need not be on the command line.
  credentials:
    '<file or lines> headers the proxy sets, one `<host> <Header-Name>: <value>` a line (needs an allow-list or audit): a file that holds them (keeps the values off the command line), or the lines themselves',
  'max-model-requests':
    '<n> with an allow-list or audit: model API requests the proxy lets through, then 429 (0: no limit)',
  'max-model-tokens':
    '<n> with an allow-list or audit: input plus output tokens, then 429 (0: no limit; docs/agents.md)',
  'read-only-rootfs': 'read-only root filesystem (tmpfs /tmp)',
  'dry-run': 'decide and report, remove nothing',
  'max-removals': '<n> remove at most this many, the oldest first (0: no limit)',
  force: 'remove stale sandboxes that hold work too (never those in use)',
  'archive-dir': "<dir> save the work (with --force) and orphans' files here before removal",
  'headless-expiry-days': '<n> days unused before an exploration-* sandbox is stale',
  'branch-expiry-days': '<n> days unused before a branch sandbox is stale',
  'orphan-expiry-days':
    '<n> days unused before an orphan (parent repository gone) is stale; at least --branch-expiry-days',
  engine: '<engine> container engine',
  'worktree-root': '<dir> root of disk sandboxes (default: $XDG_CACHE_HOME/worktree-sandbox/worktrees)',
  'volume-prefix': '<prefix> prefix of sandbox volume names',
};

/** Up to the full stop that ends the first sentence (the next starts with a capital or code; `e.g.` ends none). */
const FIRST_SENTENCE = /^.*?(?<!\b(?:e\.g|i\.e))(?=[.!?](?:\s+[A-Z`$]|$))/s;

/** An input WORDS does not word: the first sentence of its description; a value unless it defaults to false. */
function inputSpec(name: string, { description, default: fallback }: ActionInput): Spec {
  const words = WORDS[name];
  if (words !== undefined) return typeof words === 'string' ? [name, words] : [name, ...words];
  const help = FIRST_SENTENCE.exec(description.trim())?.[0] ?? description;
  if (fallback === 'false') return [name, help];
  return [name, `${/^\d+$/.test(fallback ?? '') ? '<n>' : '<value>'} ${help}`];
}

function option([name, words, fallback]: Spec, source: InputSource): Option {
  const [, value, help] = /^(?:(<[^>]+>) )?(.*)$/s.exec(words)!;
  const option = new Option(value ? `--${name} ${value}` : `--${name}`, help);
  if (source.choices[name]) option.choices(source.choices[name]);
  if (Array.isArray(fallback)) option.argParser((v: string, acc: string[]) => [...acc, v]);
  const shown = fallback ?? (option.required ? source.inputs[name]?.default : undefined);
  if (shown) option.default(shown);
  return option;
}

/**
 * The inputs as each subcommand's options, in action.yml's order: each mode's own (`run`, `reap`);
 * `retention`, which `list` shares with `reap` (its REMOVAL column is the reaper's decision); `common`,
 * where sandboxes are, for every subcommand. `image` is run's alone: the others' helpers ignore it.
 */
function inputOptions({ inputs, reads }: InputSource) {
  const [run, reap] = [reads('run'), reads('reap')];
  const retention = Object.keys(DEFAULT_RETENTION).map((key) => key.replace(/[A-Z]/g, '-$&').toLowerCase());
  const common = (name: string) => run.has(name) && reap.has(name) && name !== 'image';
  const reapOnly = (name: string) => reap.has(name) && !run.has(name);
  const specs = (keep: (name: string) => boolean) =>
    Object.keys(inputs)
      .filter((name) => keep(name) && !(name in NOT_OPTIONS))
      .map((name) => inputSpec(name, inputs[name]));
  return {
    run: specs((name) => run.has(name) && !common(name)),
    reap: specs((name) => reapOnly(name) && !retention.includes(name)),
    retention: specs((name) => reapOnly(name) && retention.includes(name)),
    common: specs(common),
  };
}

const json = (what: string): Spec => ['json', `print the ${what} as JSON on stdout`];

/** `--image` of list, rm and reap: their helpers run the runner's own programs, never an image's. */
const IGNORED_IMAGE: Spec = [
  'image',
  "<image> ignored: the helpers run the runner's own programs (kept so that scripts that pass it still run)",
];

const RM: Spec[] = [
  ['project', '<project> the project of the sandbox, when NAME is in several'],
  ['isolation', '<isolation> disk or volume (container), when NAME is both', false],
  ['dry-run', 'say what would be removed (and saved first), remove nothing'],
  ['force', 'remove it even if it holds work (the work saved first); never when it is in use'],
  [
    'archive-dir',
    "<dir> where the work (or an orphan's files) is saved first (default: <tmp>/worktree-sandbox-archive-<uid>)",
  ],
  IGNORED_IMAGE,
  json('result'),
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

export function buildProgram(source: InputSource = ACTION): Command {
  const inputs = inputOptions(source);
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
    for (const spec of [...specs, ...inputs.common]) cmd.addOption(option(spec, source));
    return after ? cmd.addHelpText('after', after) : cmd;
  };

  command(
    'run',
    "run a command in a sandbox worktree (the action's run mode), then clean up by --cleanup",
    [...inputs.run, json('outcome')],
    '',
  ).action((opts) => runCli('run', opts));
  command(
    'reap',
    'remove stale sandboxes (disk and volume) by the retention matrix, keeping any that hold work or are in use',
    [...inputs.reap, IGNORED_IMAGE, json('result'), ...inputs.retention],
    REAP_HELP,
  ).action((opts) => runCli('reap', opts));
  command(
    'list',
    'every sandbox on this machine (disk and volume): class, branch, age, size, state, and when reap would remove it',
    [IGNORED_IMAGE, json('list'), ...inputs.retention],
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
