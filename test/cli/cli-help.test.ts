// The real binary's help, usage errors and progress display for `reap`, `list` and `rm`, and the command
// line's documentation (docs/cli.md) checked against what `--help` prints: its exit-code table and every
// option it names.
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { nodeRuntimes } from '../support/runtimes.js';

const BIN = path.resolve('bin/worktree-sandbox.js');

function cli(node: string, args: string[]) {
  const r = spawnSync(node, [BIN, ...args], {
    cwd: os.tmpdir(),
    encoding: 'utf8',
    env: { ...process.env, CI: '' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const CLI_DOC = 'docs/cli.md';

/** `| 4 | text |` rows of the exit-code table in docs/cli.md. */
function documentedExitCodes(): Array<[number, string]> {
  const doc = fs.readFileSync(CLI_DOC, 'utf8');
  const section = doc.slice(doc.indexOf('\n## Exit codes'));
  const next = section.indexOf('\n## ', 1);
  const table = next < 0 ? section : section.slice(0, next);
  return [...table.matchAll(/^\| +(\d) +\| (.+?) +\|$/gm)].map((m) => [Number(m[1]), m[2]]);
}

// Each suite once per Node.js runtime (test/support/runtimes.ts): the name says which ran.
describe.each(nodeRuntimes())('$name', ({ execPath }) => {
  describe('worktree-sandbox reap, list and rm: help and usage', () => {
    it('help for each subcommand names its options', () => {
      const expected: Record<string, string[]> = {
        reap: [
          '--dry-run',
          '--headless-expiry-days',
          '--branch-expiry-days',
          '--orphan-expiry-days',
          '--max-removals',
          '--force',
          '--archive-dir',
          '--worktree-root',
          '--volume-prefix',
          '--engine',
          '--json',
          'cron',
        ],
        list: [
          '--json',
          '--engine',
          '--worktree-root',
          '--volume-prefix',
          '--headless-expiry-days',
          'States:',
        ],
        rm: [
          '<name>',
          '--project',
          '--isolation',
          '--dry-run',
          '--force',
          '--archive-dir',
          '--json',
          'Exit code 4',
        ],
      };
      for (const [command, options] of Object.entries(expected)) {
        const help = cli(execPath, [command, '--help']);
        expect(help.code).toBe(0);
        expect(help.stdout).toContain(`Usage: worktree-sandbox ${command}`);
        for (const option of options) expect(help.stdout).toContain(option);
      }
    });

    it('the exit codes docs/cli.md lists are the ones --help prints', () => {
      const help = cli(execPath, ['--help']).stdout;
      const printed = [...help.slice(help.indexOf('Exit codes:')).matchAll(/^ {2}(\d) {2}(.+)$/gm)].map(
        (m) => [Number(m[1]), m[2]],
      );
      expect(printed.map(([code]) => code)).toEqual([0, 1, 2, 3, 4]);
      expect(documentedExitCodes()).toEqual(printed);
    });

    it('usage errors exit 2 with one line', () => {
      for (const args of [
        ['reap', '--max-removals', '-1'],
        ['reap', '--branch-expiry-days', '100', '--orphan-expiry-days', '30'],
        ['list', '--engine', 'lxc'],
        ['rm'],
        ['rm', 'x', '--isolation', 'vm'],
      ]) {
        const r = cli(execPath, args);
        expect({ args, code: r.code }).toEqual({ args, code: 2 });
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
      }
      expect(cli(execPath, ['reap', '--max-removals', '-1']).stderr).toBe(
        'worktree-sandbox: Invalid option \'--max-removals\': "-1". Accepted: a whole number ≥ 0.\n',
      );
    });

    it('--version and -V print the version of package.json', () => {
      const { version } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };
      expect(version).toMatch(/^\d+\.\d+\.\d+/);
      for (const flag of ['--version', '-V']) {
        const r = cli(execPath, [flag]);
        expect({ flag, ...r }).toEqual({ flag, code: 0, stdout: `${version}\n`, stderr: '' });
      }
      expect(cli(execPath, ['--help']).stdout).toMatch(/^ +-V, --version +print the version$/m);
    });

    it('an unknown option is reported as unknown by the program and by every subcommand (exit 2)', () => {
      const help = cli(execPath, ['--help']).stdout;
      const commands = [...help.slice(help.indexOf('Commands:')).matchAll(/^ {2}([a-z]+)\b/gm)]
        .map((m) => m[1])
        .filter((c) => c !== 'help');
      expect(commands.sort()).toEqual(['list', 'reap', 'rm', 'run']);
      for (const command of [[], ...commands.map((c) => [c])]) {
        // `run` without its required --command, `rm` without NAME: the unknown option is still what is reported.
        const r = cli(execPath, [...command, '--no-such-option']);
        expect({ command, ...r }).toEqual({
          command,
          code: 2,
          stdout: '',
          stderr: "error: unknown option '--no-such-option'\n",
        });
      }
      const typo = cli(execPath, ['reap', '--dry-rn']);
      expect(typo.code).toBe(2);
      expect(typo.stderr).toBe("error: unknown option '--dry-rn'\n(Did you mean --dry-run?)\n");
      const command = cli(execPath, ['frob']);
      expect(command.code).toBe(2);
      expect(command.stderr).toBe("error: unknown command 'frob'\n");
    });

    it('every option docs/cli.md names is one that --help lists', () => {
      const section = fs.readFileSync(CLI_DOC, 'utf8');
      const help = (command?: string) => cli(execPath, command ? [command, '--help'] : ['--help']).stdout;
      const helps = Object.fromEntries(['run', 'reap', 'list', 'rm'].map((c) => [c, help(c)]));
      const top = help();
      const optionsIn = (text: string) => [...text.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]);
      const checked: string[] = [];
      for (const part of section.split(/^## /m)) {
        // `## \`rm NAME\`: ...` is about one subcommand; the rest about the program or any subcommand.
        const command = /^`([a-z]+)[^`]*`:/.exec(part)?.[1];
        const prose = part.replace(/```[\s\S]*?```/g, '');
        const examples = [...part.matchAll(/worktree-sandbox (run|reap|list|rm)\b(.*)$/gm)];
        const named: Array<[string | undefined, string]> = [
          ...optionsIn(prose).map((o): [string | undefined, string] => [command, o]),
          ...examples.flatMap(([, cmd, rest]) =>
            // a quoted value (`--command 'npx prettier --write .'`) is not the CLI's
            optionsIn(rest.replace(/'[^']*'|"[^"]*"/g, '')).map((o): [string, string] => [cmd, o]),
          ),
        ];
        for (const [cmd, option] of named) {
          const listed = cmd
            ? helps[cmd].includes(option)
            : top.includes(option) || Object.values(helps).some((h) => h.includes(option));
          expect({ command: cmd ?? '(any)', option, listed }).toEqual({
            command: cmd ?? '(any)',
            option,
            listed: true,
          });
          checked.push(option);
        }
      }
      expect(checked).toEqual(expect.arrayContaining(['--version', '--dry-run', '--force', '--debug']));
    });

    it('shows progress on a terminal, and nothing but the result when piped', () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-cli-tty-'));
      const args = ['list', '--worktree-root', root, '--volume-prefix', 'wts-cli-tty-none'];
      const piped = cli(execPath, args);
      expect(piped.code).toBe(0);
      expect(piped.stderr).toBe('');
      expect(piped.stdout).toBe(
        `No sandboxes under ${fs.realpathSync(root)} or in volumes wts-cli-tty-none-*.\n`,
      );
      // `script` gives the command a pseudo-terminal: the spinner draws and finishes each long step.
      const command = [execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
      const env: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm' };
      delete env.CI;
      const onTerminal = (shell: string) =>
        stripVTControlCharacters(
          spawnSync('script', ['-qec', shell, '/dev/null'], { encoding: 'utf8', env, timeout: 60_000 })
            .stdout ?? '',
        );
      const tty = onTerminal(`stty cols 100 rows 30 && ${command} && echo exit-0`);
      expect(tty).toMatch(/✔ Scan/);
      expect(tty).toMatch(/✔ Look at 0 sandbox\(es\)/);
      expect(tty).toMatch(/No sandboxes under .*\r?\nexit-0/);
      // A terminal nobody gave a size (0 columns): no spinner, which would redraw forever there.
      const unsized = onTerminal(`stty cols 0 rows 0 && ${command} && echo exit-0`);
      expect(unsized).not.toContain('Scan');
      expect(unsized).toMatch(/No sandboxes under .*\r?\nexit-0/);
      fs.rmSync(root, { recursive: true });
    });
  });
});
