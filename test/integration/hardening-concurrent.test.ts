// The git guard when the commands of several sandboxes of one parent run at the same time (separate
// processes: the bundle, as the runner runs it; real git, real Docker). The guards of a parent share one
// ledger: the credentials stay out of .git/config until the last command has ended, whichever ends first;
// a ref moved by one command is undone and reported to that run only, while what another run legitimately
// did meanwhile (a branch created, commits, a push) is kept and not reported.
import { jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runStep, type StepResult } from '../support/action.js';
import { projectName } from '../../src/sandbox/naming.js';
import { containersWithLabel, docker, removeVolumes, uniquePrefix } from '../support/docker.js';
import { TEST_IMAGE } from '../support/env.js';
import { git, makeRepo, type TestRepo } from '../support/repo.js';

// Real Docker runs: the integration project's timeout, whichever way jest is started.
jest.setTimeout(180_000);

const TOKEN = 'ghs_concurrentGuardToken0123456789ab';
const BASIC = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');
const HEADER = `AUTHORIZATION: basic ${BASIC}`;

let repo: TestRepo;
let prefix: string;
let root: string;

beforeEach(() => {
  repo = makeRepo();
  prefix = uniquePrefix('gconc');
  root = path.join(repo.root, 'sandboxes');
});
afterEach(() => {
  // A failed expectation can leave a command waiting for its go-on: its container goes, so its run ends.
  for (const container of containersWithLabel(`worktree-sandbox.project=${projectName(repo.parent)}`))
    docker('rm', '--force', container);
  removeVolumes(prefix);
  fs.rmSync(repo.root, { recursive: true, force: true });
});

function inputs(extra: Record<string, string>): Record<string, string> {
  return {
    image: TEST_IMAGE,
    'repository-path': repo.parent,
    'volume-prefix': prefix,
    'worktree-root': root,
    ...extra,
  };
}

/** A run of the bundle, and a promise that resolves once its stdout matched `line`. */
function start(
  stepInputs: Record<string, string>,
  line: RegExp,
): { done: Promise<StepResult>; reached: Promise<void> } {
  let reach: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const done = runStep({
    inputs: stepInputs,
    onStdout: (out) => {
      if (line.test(out)) reach();
    },
  });
  // A run that ends without ever printing the line must not leave the test waiting.
  void done.then(() => reach());
  return { done, reached };
}

/** Lets the command of `sandbox` go on: it waits for /tmp/go-on inside its container. */
function release(sandbox: string): void {
  const containers = docker(
    'ps',
    '--filter',
    'label=worktree-sandbox.role=command',
    '--filter',
    `label=worktree-sandbox.project=${projectName(repo.parent)}`,
    '--filter',
    `label=worktree-sandbox.sandbox=${sandbox}`,
    '--format',
    '{{.Names}}',
  )
    .split('\n')
    .filter(Boolean);
  expect(containers).toHaveLength(1);
  docker('exec', containers[0], 'touch', '/tmp/go-on');
}

/** Waits for /tmp/go-on, then a little longer, checking .git/config for the credential all along. */
const WATCH_CREDENTIALS = `seen=0; checks=0
check() {
  checks=$((checks+1))
  if grep -q -i -e extraheader -e '${TOKEN.slice(0, 12)}' -e '${BASIC.slice(0, 12)}' "$SANDBOX_PARENT/.git/config"; then seen=$((seen+1)); fi
}
echo "$SANDBOX_NAME is running"
while [ ! -e /tmp/go-on ]; do check; sleep 0.05; done
i=0; while [ $i -lt 10 ]; do check; sleep 0.05; i=$((i+1)); done
grep -r -l -e '${TOKEN}' -e '${BASIC}' "$SANDBOX_PARENT/.git" "$SANDBOX_WORKTREE" 2>/dev/null | sed 's/^/file holding the token: /'
echo "$SANDBOX_NAME checked $checks times, saw the credential $seen times"`;

test('two overlapping runs: the credential stays out until the last command ends, then is back byte for byte', async () => {
  git(repo.parent, 'config', 'http.https://github.com/.extraheader', HEADER);
  const configPath = path.join(repo.parent, '.git', 'config');
  const before = fs.readFileSync(configPath);

  // A opens first (it takes the credential out); B opens while A runs; A ends first, B last.
  const a = start(inputs({ isolation: 'disk', branch: 'cred-a', command: WATCH_CREDENTIALS }), /is running/);
  await a.reached;
  const b = start(
    inputs({ isolation: 'container', branch: 'cred-b', command: WATCH_CREDENTIALS }),
    /is running/,
  );
  await b.reached;
  expect(fs.readFileSync(configPath, 'utf8')).not.toContain('extraheader');

  release('cred-a');
  const first = await a.done;
  expect(first.code).toBe(0);
  // A's guard closed while B's command runs: the credential must still be out.
  expect(fs.readFileSync(configPath, 'utf8')).not.toContain('extraheader');
  expect(first.stdout).toContain(
    'The credentials stay out of .git/config while the command of sandbox cred-b runs',
  );

  release('cred-b');
  const last = await b.done;
  expect(last.code).toBe(0);
  expect(last.stdout).toContain('Credentials are out of .git/config already');
  expect(last.stdout).toContain('Put back the credentials taken out of .git/config');

  for (const [step, name] of [
    [first, 'cred-a'],
    [last, 'cred-b'],
  ] as const) {
    const checked = new RegExp(`${name} checked (\\d+) times, saw the credential (\\d+) times`).exec(
      step.stdout,
    );
    expect(checked).not.toBeNull();
    expect(Number(checked![1])).toBeGreaterThan(10);
    expect(Number(checked![2])).toBe(0);
    expect(step.stdout).not.toContain('file holding the token');
    expect(step.outputs.violations).toBe('0');
    // the secret appears in no log line but the runner's mask commands
    const leaks = step.stdout.split('\n').filter((l) => l.includes(TOKEN) && !l.startsWith('::add-mask::'));
    expect(leaks).toEqual([]);
  }
  expect(fs.readFileSync(configPath).equals(before)).toBe(true);
});

test("one command moves main while another run creates a branch, commits and pushes: only the mover's run reports it", async () => {
  const mainBefore = git(repo.parent, 'rev-parse', 'refs/heads/main');
  // A moves main; it also fakes a worktree registration on main and keeps a sandbox lock of that name
  // fresh, as if a live run owned main: that must legitimise nothing.
  const mover = `G="$SANDBOX_PARENT/.git"
evil="$(git commit-tree -m evil "HEAD^{tree}")"
git update-ref refs/heads/main "$evil"
mkdir -p "$G/worktrees/fake"
echo 'ref: refs/heads/main' > "$G/worktrees/fake/HEAD"
echo /sandbox/fake/.git > "$G/worktrees/fake/gitdir"
echo ../.. > "$G/worktrees/fake/commondir"
mkdir -p "$G/worktree-sandbox/locks/sandbox-fake.lock"
echo "main moved"
while [ ! -e /tmp/go-on ]; do touch "$G/worktree-sandbox/locks/sandbox-fake.lock"; sleep 0.2; done`;
  const a = start(
    inputs({ isolation: 'disk', branch: 'mover', command: mover, strict: 'true' }),
    /main moved/,
  );
  await a.reached;
  // B starts after main was moved, creates its branch from main (the parent's HEAD), commits, leaves an
  // uncommitted file for the action to commit, and pushes; all while A's guard is open.
  const pusher = await runStep({
    inputs: inputs({
      isolation: 'container',
      branch: 'pusher',
      command:
        'echo work > work.txt && git add work.txt && git commit -qm "pusher work" && echo more > more.txt',
      push: 'true',
      strict: 'true',
    }),
  });
  expect({ code: pusher.code, out: pusher.code ? pusher.stdout : '' }).toEqual({ code: 0, out: '' });
  expect(pusher.stdout).not.toContain('Sandbox boundary');
  expect(pusher.outputs.violations).toBe('0');
  expect(pusher.outputs.pushed).toBe('true');
  // B built on the trusted main, not on the commit A moved it to.
  expect(git(repo.parent, 'rev-parse', 'pusher~2')).toBe(mainBefore);

  release('mover');
  const moved = await a.done;
  expect(moved.code).toBe(1);
  expect(moved.stdout).toMatch(/::error::strict: the command changed \d+ thing\(s\) outside its sandbox/);
  expect(moved.stdout).toMatch(
    /ref refs\/heads\/main was moved from [0-9a-f]{12} to [0-9a-f]{12}: restored; what it pointed at is kept as refs\/worktree-sandbox\/displaced\/.*\/refs\/heads\/main \(found when another run on this repository began\)/,
  );

  // main is back; B's branch, its commits and its remote-tracking ref are kept, undisplaced.
  const refs = git(repo.parent, 'for-each-ref', '--format=%(refname) %(objectname)')
    .split('\n')
    .map((l) => l.split(' '));
  const ref = (name: string) => refs.find(([n]) => n === name)?.[1];
  expect(ref('refs/heads/main')).toBe(mainBefore);
  const pushed = git(repo.origin, 'rev-parse', 'refs/heads/pusher');
  expect(ref('refs/heads/pusher')).toBe(pushed);
  expect(ref('refs/remotes/origin/pusher')).toBe(pushed);
  expect(git(repo.origin, 'log', '--format=%s', 'pusher')).toMatch(/pusher work/);
  expect(git(repo.origin, 'show', '--name-only', '--format=', 'pusher')).toContain('more.txt');
  const displaced = refs.map(([n]) => n).filter((n) => n.startsWith('refs/worktree-sandbox/displaced/'));
  expect(displaced).toHaveLength(1);
  expect(displaced[0]).toMatch(/\/refs\/heads\/main$/);
});

test('a run killed during its command, with no post step and no rerun: a run of another sandbox closes its guard', async () => {
  git(repo.parent, 'config', 'http.https://github.com/.extraheader', HEADER);
  const configPath = path.join(repo.parent, '.git', 'config');
  const before = fs.readFileSync(configPath);
  const hook = path.join(repo.parent, '.git', 'hooks', 'pre-commit');
  const killed = await runStep({
    inputs: inputs({
      isolation: 'disk',
      branch: 'killed',
      command: `printf '#!/bin/sh\\n' > "$SANDBOX_PARENT/.git/hooks/pre-commit"; echo READY-$((1+1)); sleep 120`,
    }),
    killWhen: /READY-2/,
  });
  expect(killed.signal).toBe('SIGKILL');
  expect(fs.existsSync(hook)).toBe(true);
  expect(fs.readFileSync(configPath, 'utf8')).not.toContain('extraheader');
  // Its sandbox lock is left to go stale (the dead run refreshes it no more): age it rather than wait.
  const lock = path.join(repo.parent, '.git', 'worktree-sandbox', 'locks', 'sandbox-killed.lock');
  const old = new Date(Date.now() - 60_000);
  fs.utimesSync(lock, old, old);

  const other = await runStep({
    inputs: inputs({ isolation: 'container', branch: 'other', command: 'true' }),
  });
  expect(other.code).toBe(0);
  expect(other.stdout).toContain(
    'The run on sandbox killed was interrupted while its command ran: its git guard is closed here.',
  );
  expect(other.stdout).toContain(
    '::warning::Sandbox boundary (interrupted run on sandbox killed): .git/hooks/pre-commit was added by the command: removed.',
  );
  // not the other run's own violation
  expect(other.outputs.violations).toBe('0');
  expect(containersWithLabel(`worktree-sandbox.project=${projectName(repo.parent)}`)).toEqual([]);
  expect(fs.existsSync(hook)).toBe(false);
  expect(fs.readFileSync(configPath).equals(before)).toBe(true);

  // The killed run's post step, later, finds nothing left to finish and keeps its sandbox.
  const post = await runStep({
    inputs: inputs({ isolation: 'disk', branch: 'killed', command: 'true' }),
    state: killed.state,
  });
  expect(post.code).toBe(0);
  expect(post.stdout).not.toContain('Sandbox boundary');
  expect(fs.readFileSync(configPath).equals(before)).toBe(true);
});
