// The token, and the parent's work tree, seen from inside the container while the command runs: the token
// (given as the `token` input, in the runner's environment as GITHUB_TOKEN, and persisted in .git/config as
// actions/checkout does) is in no environment variable, no argument, no mounted file and no log line but
// the runner's mask command; the parent's work tree refuses every write.
import { jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runMainAndPost, type StepResult } from '../support/action.js';
import { containersWithLabel, docker } from '../support/docker.js';
import { runnerIds, TEST_IMAGE } from '../support/env.js';
import { chownTree, git, makeRepo, tempDir, type TestRepo } from '../support/repo.js';

// Real Docker runs: the integration project's timeout, whichever way jest is started.
jest.setTimeout(180_000);

const TOKEN = 'ghs_tokenTest9876543210ZYXWVUTSRQ';
const BASIC = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');
const SECRETS = [TOKEN, BASIC];

function filesHolding(dir: string, needles: string[]): string[] {
  const found: string[] = [];
  const walk = (p: string) => {
    const st = fs.lstatSync(p, { throwIfNoEntry: false });
    if (!st || st.isSymbolicLink()) return;
    if (st.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
    else if (st.isFile() && needles.some((n) => fs.readFileSync(p, 'latin1').includes(n))) found.push(p);
  };
  walk(dir);
  return found;
}

/** Lines of a step's output that show a secret, other than the runner's `::add-mask::` commands. */
function leaks(step: StepResult): string[] {
  return `${step.stdout}\n${step.stderr}`
    .split('\n')
    .filter((line) => SECRETS.some((s) => line.includes(s)) && !line.startsWith('::add-mask::'));
}

describe('the token and the parent work tree, from inside the container', () => {
  let repo: TestRepo;
  let root: string;
  const branch = `token-${process.pid}`;

  beforeAll(() => {
    const owner = runnerIds();
    repo = makeRepo({ owner });
    git(
      repo.parent,
      '-c',
      'safe.directory=*',
      'config',
      'http.https://github.com/.extraheader',
      `AUTHORIZATION: basic ${BASIC}`,
    );
    root = tempDir('wts-root-');
    chownTree(root, owner);
  });
  afterAll(() => {
    for (const dir of [repo?.root, root].filter(Boolean)) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('never in the environment, command line, mounted files or logs; writes to the parent fail', async () => {
    const parentBefore = fs.readdirSync(repo.parent).sort();
    const command = `for what in touch append remove mkdir; do
  case $what in
    touch) touch "$SANDBOX_PARENT/new-file" ;;
    append) echo x >> "$SANDBOX_PARENT/README.md" ;;
    remove) rm -f "$SANDBOX_PARENT/README.md" ;;
    mkdir) mkdir "$SANDBOX_PARENT/new-dir" ;;
  esac 2>/dev/null && echo "parent-writable:$what" || echo "parent-read-only:$what"
done
i=0; while [ ! -e go ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done`;
    const running = runMainAndPost({
      asRunner: true,
      inputs: {
        command,
        isolation: 'disk',
        branch,
        'repository-path': repo.parent,
        'worktree-root': root,
        image: TEST_IMAGE,
        token: TOKEN,
        env: 'FROM_STEP\nPLAIN=value',
        cleanup: 'always',
      },
      env: { GITHUB_TOKEN: TOKEN, FROM_STEP: 'from-step' },
    });

    // While the command runs: what the engine was told, and every file the container can see.
    let container = '';
    for (let i = 0; i < 300 && !container; i++) {
      container = containersWithLabel(`worktree-sandbox.sandbox=${branch}`)[0] ?? '';
      if (!container) await new Promise((r) => setTimeout(r, 100));
    }
    expect(container).not.toBe('');
    const inspect = docker('inspect', container);
    const workdir = (JSON.parse(inspect) as Array<{ Config: { WorkingDir: string } }>)[0].Config.WorkingDir;
    const mounts = (JSON.parse(inspect) as Array<{ Mounts: Array<{ Source: string }> }>)[0].Mounts;
    // The sandbox (work tree and home) read-write; the parent read-only, its .git hidden by an empty tmpfs
    // (no source) but for its object store.
    // And the run's reply folder (SANDBOX_REPLY_FILE), a fresh one under the runner's temp, outside both.
    const home = path.join(path.dirname(workdir), '.home', path.basename(workdir));
    const sources = mounts.map((m) => m.Source ?? '');
    const reply = sources.filter((s) => /\/worktree-sandbox\/reply-[0-9a-f]+$/.test(s));
    expect(reply).toHaveLength(1);
    expect(sources.filter((s) => !reply.includes(s)).sort()).toEqual(
      ['', repo.parent, path.join(repo.parent, '.git', 'objects'), home, workdir].sort(),
    );
    const seenWhileRunning = {
      inspect: SECRETS.filter((s) => inspect.includes(s)),
      // what the container can see of the host: the parent (its .git but for the objects is hidden) and
      // its sandbox
      files: [
        ...filesHolding(repo.parent, SECRETS).filter(
          (f) =>
            !f.startsWith(path.join(repo.parent, '.git') + path.sep) ||
            f.includes(`${path.sep}objects${path.sep}`),
        ),
        ...filesHolding(workdir, SECRETS),
      ],
    };
    fs.writeFileSync(path.join(workdir, 'go'), '');
    const { main, post } = await running;

    expect(main.code).toBe(0);
    expect(seenWhileRunning.inspect).toEqual([]);
    expect(seenWhileRunning.files).toEqual([]);
    expect(inspect).toContain('FROM_STEP');
    // Logs: the secrets appear only in the runner's mask commands, and both forms are masked.
    expect(leaks(main)).toEqual([]);
    expect(leaks(post)).toEqual([]);
    expect(main.stdout).toContain(`::add-mask::${TOKEN}`);
    // The parent's work tree refused every write; the persisted credential was never touched.
    for (const what of ['touch', 'append', 'remove', 'mkdir']) {
      expect(main.stdout).toContain(`parent-read-only:${what}`);
      expect(main.stdout).not.toContain(`parent-writable:${what}`);
    }
    expect(fs.readFileSync(path.join(repo.parent, 'README.md'), 'utf8')).toBe('# test\n');
    expect(fs.existsSync(path.join(repo.parent, 'new-file'))).toBe(false);
    expect(fs.readdirSync(repo.parent).sort()).toEqual(parentBefore);
    expect(fs.readFileSync(path.join(repo.parent, '.git', 'config'), 'utf8')).toContain(BASIC);
  });

  test("the container's environment holds the env input and the action's variables only", async () => {
    const { main } = await runMainAndPost({
      asRunner: true,
      inputs: {
        command: 'env | sort | sed "s/^/env: /"',
        isolation: 'disk',
        branch: `${branch}-env`,
        'repository-path': repo.parent,
        'worktree-root': root,
        image: TEST_IMAGE,
        token: TOKEN,
        env: 'FROM_STEP',
        cleanup: 'always',
      },
      env: { GITHUB_TOKEN: TOKEN, FROM_STEP: 'from-step', SECRET_OF_THE_RUNNER: 'runner-only' },
    });
    expect(main.code).toBe(0);
    const names = main.stdout
      .split('\n')
      .filter((l) => l.startsWith('env: '))
      .map((l) => l.slice(5).split('=')[0]);
    expect(names).toContain('FROM_STEP');
    expect(names).not.toContain('GITHUB_TOKEN');
    expect(names).not.toContain('SECRET_OF_THE_RUNNER');
    expect(names.filter((n) => /TOKEN|INPUT_/.test(n))).toEqual([]);
    expect(leaks(main)).toEqual([]);
  });
});
