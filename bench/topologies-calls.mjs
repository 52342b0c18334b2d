// The engine CLI calls a run makes before its command's container (`run`), per case of
// topologies.bench.mjs: what the engine-view checks add on the way to the command, counted rather than
// timed (a count does not depend on the machine's load). A `docker` first on PATH logs each call and
// runs the real one.
//
//   node bench/topologies-calls.mjs            BENCH_BASE=<rev>[,<rev>...] (default dadfe48,a08106f)
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DIST, IMAGE, ROOT, runActionStep, ACTION_DEFAULTS } from './lib.mjs';

const COMMAND = 'true # the command';
const BASES = (process.env.BENCH_BASE ?? 'dadfe48,a08106f').split(',').filter(Boolean);
const sh = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] }).toString();

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-bench-calls-'));
const dists = {};
for (const base of BASES) {
  const dir = path.join(scratch, `base-${base}`);
  fs.mkdirSync(dir);
  execFileSync('sh', ['-c', `git -C "$1" archive "$2" dist | tar -x -C "$3"`, 'x', ROOT, base, dir]);
  dists[base] = path.join(dir, 'dist', 'index.js');
}
dists.new = DIST;

// The logging `docker`, first on PATH for the action's steps (and so for the engine CLI it starts).
const realDocker = sh('sh', ['-c', 'command -v docker']).trim();
const shim = path.join(scratch, 'bin');
const log = path.join(scratch, 'calls.log');
fs.mkdirSync(shim);
fs.writeFileSync(
  path.join(shim, 'docker'),
  // The command's own container is the `run` whose last argument is the command.
  `#!/bin/sh\neval "last=\\\${$#}"\n[ "$1" = run ] && [ "$last" = '${COMMAND}' ] && set -- command "$@"\nprintf '%s\\n' "$1" >> '${log}'\n[ "$1" = command ] && shift\nexec '${realDocker}' "$@"\n`,
  { mode: 0o755 },
);
process.env.PATH = `${shim}:${process.env.PATH}`;

const repo = path.join(scratch, 'repo');
sh('git', ['init', '--quiet', '--initial-branch=main', repo]);
fs.writeFileSync(path.join(repo, 'README.md'), 'bench\n');
sh('git', ['add', '-A'], repo);
sh('git', ['-c', 'user.name=b', '-c', 'user.email=b@e', 'commit', '--quiet', '-m', 'seed'], repo);

const prefix = `wtsbench-calls-${process.pid}`;
const inputs = (isolation, extra) => ({
  ...ACTION_DEFAULTS,
  command: COMMAND,
  image: IMAGE,
  isolation,
  'repository-path': repo,
  'worktree-root': path.join(scratch, 'worktrees'),
  'volume-prefix': prefix,
  ...extra,
});

/** The calls of one main step up to and with the command's `run` (`command`); the post step is not counted. */
async function callsBeforeCommand(dist, isolation, extra) {
  fs.writeFileSync(log, '');
  const step = await runActionStep({ inputs: inputs(isolation, extra), cwd: repo, dist });
  const calls = fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);
  if (extra.cleanup === 'always')
    await runActionStep({ inputs: inputs(isolation, extra), state: step.state, cwd: repo, dist });
  return calls.slice(0, calls.indexOf('command') + 1);
}

const rows = [];
for (const isolation of ['disk', 'container'])
  for (const [which, dist] of Object.entries(dists)) {
    const reuse = { branch: `calls-${isolation}-${which}`, cleanup: 'never' };
    await callsBeforeCommand(dist, isolation, reuse); // made once
    for (const [kind, extra] of [
      ['new', { cleanup: 'always' }],
      ['reuse', reuse],
    ]) {
      const calls = await callsBeforeCommand(dist, isolation, extra);
      rows.push(`| ${isolation}, ${kind} sandbox | ${which} | ${calls.length} | ${calls.join(', ')} |`);
    }
  }
console.log(
  ['| case | dist | engine calls up to the command | which |', '|---|---|---|---|', ...rows].join('\n'),
);

for (const v of sh('docker', ['volume', 'ls', '--format', '{{.Name}}']).split('\n'))
  if (v.startsWith(`${prefix}-`)) sh('docker', ['volume', 'rm', v]);
fs.rmSync(scratch, { recursive: true, force: true });
