// The real binary's help, usage errors and progress display for `reap`, `list` and `rm`, and the README's
// exit-code table checked against what `--help` prints.
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const BIN = path.resolve('bin/worktree-sandbox.js');

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: os.tmpdir(),
    encoding: 'utf8',
    env: { ...process.env, CI: '' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `| 4 | text |` rows of the README's exit-code table (in the Command line section). */
function readmeExitCodes(): Array<[number, string]> {
  const readme = fs.readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('## Command line'));
  const table = section.slice(section.indexOf('### Exit codes'), section.indexOf('\n## '));
  return [...table.matchAll(/^\| +(\d) +\| (.+?) +\|$/gm)].map((m) => [Number(m[1]), m[2]]);
}

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
      list: ['--json', '--engine', '--worktree-root', '--volume-prefix', '--headless-expiry-days', 'States:'],
      rm: ['<name>', '--project', '--isolation', '--force', '--archive-dir', '--json', 'Exit code 4'],
    };
    for (const [command, options] of Object.entries(expected)) {
      const help = cli([command, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: worktree-sandbox ${command}`);
      for (const option of options) expect(help.stdout).toContain(option);
    }
  });

  it("the README's exit codes are the ones --help prints", () => {
    const help = cli(['--help']).stdout;
    const printed = [...help.slice(help.indexOf('Exit codes:')).matchAll(/^ {2}(\d) {2}(.+)$/gm)].map((m) => [
      Number(m[1]),
      m[2],
    ]);
    expect(printed.map(([code]) => code)).toEqual([0, 1, 2, 3, 4]);
    expect(readmeExitCodes()).toEqual(printed);
  });

  it('usage errors exit 2 with one line', () => {
    for (const args of [
      ['reap', '--max-removals', '-1'],
      ['reap', '--branch-expiry-days', '100', '--orphan-expiry-days', '30'],
      ['list', '--engine', 'lxc'],
      ['rm'],
      ['rm', 'x', '--isolation', 'vm'],
    ]) {
      const r = cli(args);
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(cli(['reap', '--max-removals', '-1']).stderr).toBe(
      'worktree-sandbox: Invalid option \'--max-removals\': "-1". Accepted: a whole number ≥ 0.\n',
    );
  });

  it('shows progress on a terminal, and nothing but the result when piped', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-cli-tty-'));
    const args = ['list', '--worktree-root', root, '--volume-prefix', 'wts-cli-tty-none'];
    const piped = cli(args);
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
    expect(piped.stdout).toBe(
      `No sandboxes under ${fs.realpathSync(root)} or in volumes wts-cli-tty-none-*.\n`,
    );
    // `script` gives the command a pseudo-terminal: the spinner draws and finishes each long step.
    const command = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
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
