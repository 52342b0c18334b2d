// A demo of the action as the Actions runner runs it (node dist/index.js, INPUT_* variables, file
// commands), as the unprivileged `runner` user when we are root (like GitHub-hosted runners):
//  1. a repository with a bare origin, and a "lint bot" command that strips trailing whitespace;
//  2. run mode in a Docker volume sandbox on branch demo/tidy, with push: true;
//  3. the outputs, the job summary, what reached origin; then the post step.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/index.js');
const image = process.env.WORKTREE_SANDBOX_TEST_IMAGE ?? 'worktree-sandbox-test:bookworm';
const asRunner = process.getuid() === 0;
const user = process.env.WORKTREE_SANDBOX_TEST_USER ?? 'runner';
const say = (text) => console.log(`\n\x1b[1m== ${text}\x1b[0m`);
const git = (cwd, ...args) =>
  execFileSync('git', ['-c', 'safe.directory=*', ...args], { cwd, encoding: 'utf8' }).trim();

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'worktree-sandbox-demo-'));
fs.chmodSync(root, 0o755);
const origin = path.join(root, 'origin.git');
const repo = path.join(root, 'workspace', 'app');
git(root, 'init', '-q', '--bare', '--initial-branch=main', origin);
git(root, 'clone', '-q', origin, repo);
fs.mkdirSync(path.join(repo, 'src'));
fs.writeFileSync(path.join(repo, 'src', 'app.js'), 'const a = 1;   \nconsole.log(a);\t\n');
fs.writeFileSync(path.join(repo, 'README.md'), '# app  \n');
git(repo, '-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'add', '-A');
git(repo, '-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'commit', '-qm', 'initial');
git(repo, 'push', '-q', 'origin', 'main');
if (asRunner) execFileSync('chown', ['-R', `${user}:${user}`, root]);

function step(inputs, state = {}) {
  const files = fs.mkdtempSync(path.join(root, 'step-'));
  const f = (n) => path.join(files, n);
  for (const n of ['output', 'state', 'summary']) fs.writeFileSync(f(n), '');
  if (asRunner) execFileSync('chown', ['-R', `${user}:${user}`, files]);
  const env = {
    // the runner user cannot read root's own tool folders: give it the standard system PATH
    PATH: asRunner
      ? `${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin`
      : process.env.PATH,
    HOME: asRunner ? `/home/${user}` : os.homedir(),
    GITHUB_WORKSPACE: repo,
    GITHUB_OUTPUT: f('output'),
    GITHUB_STATE: f('state'),
    GITHUB_STEP_SUMMARY: f('summary'),
    RUNNER_TEMP: files,
    XDG_CACHE_HOME: path.join(root, 'cache'),
  };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  for (const [k, v] of Object.entries(state)) env[`STATE_${k}`] = v;
  const cmd = asRunner
    ? ['setpriv', ['--reuid', user, '--regid', user, '--init-groups', '--', process.execPath, dist]]
    : [process.execPath, [dist]];
  const r = spawnSync(cmd[0], cmd[1], { cwd: repo, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const read = (n) => {
    const out = {};
    const lines = fs.readFileSync(f(n), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const m = /^([^<]+)<<(.+)$/.exec(lines[i]);
      if (!m) continue;
      const v = [];
      for (i++; lines[i] !== m[2]; i++) v.push(lines[i]);
      out[m[1]] = v.join('\n');
    }
    return out;
  };
  return {
    status: r.status,
    outputs: read('output'),
    state: read('state'),
    summary: fs.readFileSync(f('summary'), 'utf8'),
  };
}

const inputs = {
  mode: 'run',
  image,
  branch: 'demo/tidy',
  push: 'true',
  'commit-message': 'style: strip trailing whitespace',
  command:
    'echo "lint bot in $(pwd) as uid $(id -u)"; git ls-files -z | xargs -0 sed -i \'s/[[:space:]]*$//\'; git status --short',
};
say(`main step (isolation: container, image ${image}${asRunner ? `, as user ${user}` : ''})`);
const main = step(inputs);
say('outputs');
for (const [k, v] of Object.entries(main.outputs))
  console.log(`${k.padEnd(14)} ${v.replace(/\n/g, '\n' + ' '.repeat(15))}`);
say('job summary (Markdown)');
console.log(main.summary.trim());
say('origin/demo/tidy now');
console.log(git(origin, 'log', '--format=%h %an: %s', 'demo/tidy'));
say('post step (cleanup: auto keeps a persistent sandbox for the next run)');
const post = step(inputs, main.state);
execFileSync('docker', ['volume', 'rm', '-f', main.outputs.volume], { stdio: 'ignore' });
fs.rmSync(root, { recursive: true, force: true });
say(`done: main exit ${main.status}, post exit ${post.status}; demo volume and folders removed`);
process.exit(main.status || post.status ? 1 : 0);
