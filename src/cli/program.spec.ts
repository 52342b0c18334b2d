// The command line's options are made of action.yml's inputs: an input the settings read is an option,
// with its default and its choices, with no line of src/cli written for it; every other input is in
// NOT_OPTIONS, with why.
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CommanderError, type Command } from 'commander';
import { parse } from 'yaml';
import { ACTION_INPUTS } from '../action-defaults.js';
import { optionReader } from './commands.js';
import { ACTION, buildProgram, NOT_OPTIONS, type InputSource } from './program.js';

const subcommand = (program: Command, name: string) => program.commands.find((c) => c.name() === name)!;
const flags = (program: Command, name: string) => subcommand(program, name).options.map((o) => o.long);

/** Parses a command line, the action replaced by one that hands back the options as commander read them. */
async function optionsOf(program: Command, argv: string[]): Promise<Record<string, unknown>> {
  let seen: Record<string, unknown> = {};
  for (const cmd of program.commands)
    cmd.configureOutput({ writeErr: () => undefined, outputError: () => undefined }).action((...args) => {
      seen = args.at(-2) as Record<string, unknown>;
    });
  await program.parseAsync(argv, { from: 'user' });
  return seen;
}

/** action.yml with these inputs added, through the generator `npm run build` runs (scripts/action-defaults.mjs). */
async function inputsOfFixture(extra: string): Promise<InputSource['inputs']> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-cli-inputs-'));
  try {
    const action = path.join(dir, 'action.yml');
    fs.writeFileSync(
      action,
      fs.readFileSync('action.yml', 'utf8').replace(/^inputs:\n/m, `inputs:\n${extra}`),
    );
    const out = path.join(dir, 'action-defaults.ts');
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }'); // an ES module, as in src/
    const made = spawnSync(
      process.execPath,
      ['scripts/action-defaults.mjs', '--action', action, '--out', out],
      {
        encoding: 'utf8',
      },
    );
    expect(made.stderr).toBe('');
    return ((await import(out)) as { ACTION_INPUTS: InputSource['inputs'] }).ACTION_INPUTS;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('the options are action.yml inputs', () => {
  it('an input added to action.yml and read by the settings is an option, with its default and choices', async () => {
    const inputs = await inputsOfFixture(
      [
        '  sandbox-colour:',
        "    description: 'Colour of the sandbox (e.g. `blue`): `blue` or `green`. `green` is calmer.'",
        '    default: blue',
        '  quiet-pull:',
        "    description: '`true`: pull quietly.'",
        "    default: 'false'",
        '  keep-weeks:',
        "    description: 'Reap mode: whole weeks a sandbox is kept (e.g. 2). At least 1.'",
        "    default: '4'",
        '',
      ].join('\n'),
    );
    // What a settings parser that reads them would add: their choices, and the mode that reads each.
    const extra: Record<string, string[]> = { run: ['sandbox-colour', 'quiet-pull'], reap: ['keep-weeks'] };
    const program = buildProgram({
      inputs,
      choices: { ...ACTION.choices, 'sandbox-colour': ['blue', 'green'] },
      reads: (mode) => new Set([...ACTION.reads(mode), ...extra[mode]]),
    });

    const colour = subcommand(program, 'run').options.find((o) => o.long === '--sandbox-colour')!;
    expect(colour.flags).toBe('--sandbox-colour <value>');
    expect(colour.description).toBe('Colour of the sandbox (e.g. `blue`): `blue` or `green`');
    expect(colour.defaultValue).toBe('blue');
    expect(colour.argChoices).toEqual(['blue', 'green']);
    const quiet = subcommand(program, 'run').options.find((o) => o.long === '--quiet-pull')!;
    expect([quiet.flags, quiet.description, quiet.defaultValue]).toEqual([
      '--quiet-pull',
      '`true`: pull quietly',
      undefined,
    ]);
    const weeks = subcommand(program, 'reap').options.find((o) => o.long === '--keep-weeks')!;
    expect([weeks.flags, weeks.description, weeks.defaultValue]).toEqual([
      '--keep-weeks <n>',
      'Reap mode: whole weeks a sandbox is kept (e.g. 2)',
      '4',
    ]);
    // Each is an option of the subcommands whose mode reads it, and of no other.
    expect(flags(program, 'reap')).not.toContain('--sandbox-colour');
    expect(flags(program, 'run')).not.toContain('--keep-weeks');
    for (const other of ['list', 'rm']) expect(flags(program, other)).not.toContain('--keep-weeks');

    // Read as the input of the same name, which the settings then check.
    const given = await optionsOf(program, [
      'run',
      '--command',
      'true',
      '--sandbox-colour',
      'green',
      '--quiet-pull',
    ]);
    expect([optionReader(given)('sandbox-colour'), optionReader(given)('quiet-pull')]).toEqual([
      'green',
      'true',
    ]);
    const fallback = await optionsOf(program, ['reap']);
    expect(optionReader(fallback)('keep-weeks')).toBe('4');
    await expect(optionsOf(program, ['run', '--sandbox-colour', 'red'])).rejects.toThrow(CommanderError);
  });

  it('every input of action.yml is an option of some subcommand, or in NOT_OPTIONS with a reason', () => {
    const names = Object.keys((parse(fs.readFileSync('action.yml', 'utf8')) as { inputs: object }).inputs);
    expect(Object.keys(ACTION_INPUTS)).toEqual(names);
    const program = buildProgram();
    const options = new Set(['run', 'reap', 'list', 'rm'].flatMap((c) => flags(program, c)));
    for (const name of names) {
      const option = options.has(`--${name}`);
      expect({ name, option, excluded: name in NOT_OPTIONS }).toEqual({ name, option, excluded: !option });
    }
    for (const [name, why] of Object.entries(NOT_OPTIONS)) {
      expect(names).toContain(name);
      expect(why.length).toBeGreaterThan(10);
    }
  });

  it("each subcommand's options, in the order --help lists them", () => {
    const program = buildProgram();
    const common = ['--engine', '--worktree-root', '--volume-prefix'];
    const retention = ['--headless-expiry-days', '--branch-expiry-days', '--orphan-expiry-days'];
    const helpers = ['--image', '--json'];
    expect(flags(program, 'run')).toEqual(
      [
        'command image isolation branch base repository-path cleanup env timeout-minutes lock-timeout-minutes',
        'allow-failure push commit-message secret-scan memory cpus pids-limit network credentials',
        'max-model-requests max-model-tokens read-only-rootfs json',
      ]
        .join(' ')
        .split(' ')
        .map((name) => `--${name}`)
        .concat(common),
    );
    expect(flags(program, 'reap')).toEqual([
      '--dry-run',
      '--max-removals',
      '--force',
      '--archive-dir',
      ...helpers,
      ...retention,
      ...common,
    ]);
    expect(flags(program, 'list')).toEqual([...helpers, ...retention, ...common]);
    expect(flags(program, 'rm')).toEqual([
      '--project',
      '--isolation',
      '--dry-run',
      '--force',
      '--archive-dir',
      ...helpers,
      ...common,
    ]);
  });
});
