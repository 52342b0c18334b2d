import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { tempDir } from '../../test/support/repo.js';
import { ClearedTraps, describeCleared, MAX_CLEARED, TRAP_GUARD } from './git-traps.js';

const TOKEN = 'f00d';

/** The guard as a helper runs it: in the work tree, with its paths; what it said on stderr. */
function guard(wt: string, ...paths: string[]): string[] {
  const result = spawnSync(
    'sh',
    [
      '-c',
      `set -eu\n${TRAP_GUARD}\ncd -- "$1"; shift\nclear_git_traps "$@"\necho done`,
      'guard',
      wt,
      TOKEN,
      ...paths,
    ],
    // A guard that opened a FIFO would block here: the time limit makes that a failure, not a hang.
    { encoding: 'utf8', timeout: 10_000 },
  );
  expect(result.stdout).toBe('done\n');
  return result.stderr.split('\n').filter(Boolean);
}

const kindOf = (p: string) => {
  const st = fs.lstatSync(p, { throwIfNoEntry: false });
  if (!st) return 'absent';
  if (st.isSymbolicLink()) return 'link';
  if (st.isFIFO()) return 'fifo';
  if (st.isSocket()) return 'socket';
  return st.isDirectory() ? 'dir' : 'file';
};

describe('clear_git_traps (the shell guard helpers run before their git writes)', () => {
  const dirs: string[] = [];
  const servers: net.Server[] = [];
  afterAll(() => {
    for (const s of servers) s.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  const sandbox = () => {
    const wt = tempDir('wts-git-traps-');
    dirs.push(wt);
    fs.mkdirSync(path.join(wt, '.git', 'refs', 'remotes', 'origin', 'f'), { recursive: true });
    fs.mkdirSync(path.join(wt, '.git', 'logs', 'refs', 'remotes', 'origin', 'f'), { recursive: true });
    fs.writeFileSync(path.join(wt, 'work.txt'), 'work\n');
    return { wt, g: (rel: string) => path.join(wt, '.git', rel) };
  };
  const mkfifo = (p: string) => execFileSync('mkfifo', ['--', p]);
  const listen = (p: string) =>
    new Promise<void>((resolve) => {
      const server = net.createServer().listen(p, resolve);
      servers.push(server);
    });

  it('removes a FIFO, a socket and a link where git writes, never opening or following them, and names each', async () => {
    const { wt, g } = sandbox();
    const ref = 'refs/remotes/origin/f/x';
    mkfifo(g(`logs/${ref}`));
    fs.symlinkSync('/nonexistent', g(`${ref}.lock`));
    await listen(g('packed-refs'));
    // A link to a FIFO in the work tree: the link goes, the FIFO (the work tree's) stays.
    mkfifo(path.join(wt, 'pipe'));
    fs.symlinkSync('../pipe', g('packed-refs.lock'));
    const said = guard(wt, ref, `${ref}.lock`, `logs/${ref}`, 'packed-refs', 'packed-refs.lock');
    expect(said.sort()).toEqual(
      [
        `${TOKEN} trap fifo logs/${ref}`,
        `${TOKEN} trap link ${ref}.lock`,
        `${TOKEN} trap socket packed-refs`,
        `${TOKEN} trap link packed-refs.lock`,
      ].sort(),
    );
    for (const p of [`logs/${ref}`, `${ref}.lock`, 'packed-refs', 'packed-refs.lock'])
      expect(kindOf(g(p))).toBe('absent');
    expect(kindOf(path.join(wt, 'pipe'))).toBe('fifo');
    expect(fs.readFileSync(path.join(wt, 'work.txt'), 'utf8')).toBe('work\n');
  });

  it('removes a linked folder on the way, never walking through it; keeps regular files and folders', () => {
    const { wt, g } = sandbox();
    // logs/refs/heads is a link into the work tree, where a FIFO waits under the branch's name.
    fs.mkdirSync(path.join(wt, 'elsewhere'));
    mkfifo(path.join(wt, 'elsewhere', 'main'));
    fs.symlinkSync('../../../elsewhere', g('logs/refs/heads'));
    fs.writeFileSync(g('refs/remotes/origin/f/x'), 'a ref\n');
    fs.mkdirSync(g('HEAD.lock'));
    const said = guard(wt, 'logs/refs/heads/main', 'refs/remotes/origin/f/x', 'HEAD.lock', 'absent/path');
    expect(said).toEqual([`${TOKEN} trap link logs/refs/heads`]);
    expect(kindOf(g('logs/refs/heads'))).toBe('absent');
    expect(kindOf(path.join(wt, 'elsewhere', 'main'))).toBe('fifo');
    expect(fs.readFileSync(g('refs/remotes/origin/f/x'), 'utf8')).toBe('a ref\n');
    expect(kindOf(g('HEAD.lock'))).toBe('dir');
  });

  it('leaves a .git that is a link alone (it is not the folder the action made)', () => {
    const { wt } = sandbox();
    const other = tempDir('wts-git-traps-other-');
    dirs.push(other);
    fs.mkdirSync(path.join(other, 'logs'));
    mkfifo(path.join(other, 'logs', 'HEAD'));
    const linked = path.join(wt, 'linked');
    fs.mkdirSync(linked);
    fs.symlinkSync(other, path.join(linked, '.git'));
    expect(guard(linked, 'logs/HEAD')).toEqual([]);
    expect(kindOf(path.join(other, 'logs', 'HEAD'))).toBe('fifo');
  });
});

describe('ClearedTraps', () => {
  it('takes only its own lines, of a known kind, escaped and bounded', () => {
    const traps = new ClearedTraps('offer', TOKEN);
    expect(traps.take(`${TOKEN} head abc`)).toBe(false);
    expect(traps.take(`other trap fifo logs/HEAD`)).toBe(false);
    expect(traps.take(`${TOKEN} trap toString logs/HEAD`)).toBe(true);
    expect(traps.take(`${TOKEN} trap fifo`)).toBe(true);
    expect(traps.take(`${TOKEN} trap fifo logs/refs/remotes/origin/a\u001b[31m`)).toBe(true);
    expect(traps.take(`${TOKEN} trap link ::error::x`)).toBe(true);
    expect(traps.take(`${TOKEN} trap link ${'d/'.repeat(400)}`)).toBe(true);
    expect(traps.list.map((t) => [t.kind, t.path.slice(0, 40), t.helper])).toEqual([
      ['FIFO', 'logs/refs/remotes/origin/a\\u001b[31m', 'offer'],
      ['symbolic link', '\\::error::x', 'offer'],
      ['symbolic link', 'd/'.repeat(20), 'offer'],
    ]);
    expect(traps.list[2].path).toContain('more characters');
    for (let i = 0; i < 2 * MAX_CLEARED; i++) traps.take(`${TOKEN} trap fifo logs/${i}`);
    expect(traps.list).toHaveLength(MAX_CLEARED);
  });

  it('describes what was removed in one line, the count bounded', () => {
    const trap = { kind: 'FIFO', path: 'logs/HEAD', helper: 'capture' };
    expect(describeCleared([trap])).toBe('FIFO .git/logs/HEAD (capture)');
    expect(describeCleared([trap, trap, trap], 2)).toBe(
      'FIFO .git/logs/HEAD (capture); FIFO .git/logs/HEAD (capture); and 1 more',
    );
  });
});
