// The sandbox boundary, through the bundle as the runner runs it (unprivileged runner user): a hostile
// command plants every known way to run a program on the host (hooks, core.fsmonitor, core.hooksPath,
// core.sshCommand, filter and textconv drivers with attributes, credential helpers, includeIf,
// config.worktree, a submodule, a redirected .git file), moves `main` and its remote-tracking ref, adds a
// tag. Afterwards nothing ran on the host (not during the action's own git commands, not in a later job),
// .git is byte for byte as before (the persisted credential back, nothing planted left), refs are back,
// every change is reported, and the command's real work is pushed.
import { jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runMainAndPost, runStep } from '../support/action.js';
import { removeVolumes, uniquePrefix, volumesWithPrefix } from '../support/docker.js';
import { runnerIds, TEST_IMAGE } from '../support/env.js';
import { everydayGit, PLANT_MARKERS, PLANT_SCRIPT, plantsAreLive } from '../support/plants.js';
import { chownTree, git, makeRepo, tempDir, type TestRepo } from '../support/repo.js';

// Real Docker runs: the integration project's timeout, whichever way jest is started.
jest.setTimeout(180_000);

const TOKEN = 'ghs_boundaryTestToken0123456789abcdef';
const HEADER = `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`;

/** Everything under .git the guard must leave as it found it: path → content (or a link's target). */
function gitState(parent: string): Record<string, string> {
  const state: Record<string, string> = {};
  const walk = (p: string) => {
    const st = fs.lstatSync(p, { throwIfNoEntry: false });
    if (!st) return;
    const rel = path.relative(parent, p);
    if (st.isSymbolicLink()) state[rel] = `-> ${fs.readlinkSync(p)}`;
    else if (st.isFile()) state[rel] = `${(st.mode & 0o777).toString(8)} ${fs.readFileSync(p, 'latin1')}`;
    else if (st.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  for (const f of ['config', 'HEAD', 'index', 'hooks', 'info', 'objects/info/alternates'])
    walk(path.join(parent, '.git', f));
  return state;
}

/** git as root in a repository the runner user owns. */
const rgit = (cwd: string, ...args: string[]) => git(cwd, '-c', 'safe.directory=*', ...args);

function refs(parent: string): Record<string, string> {
  const out = rgit(parent, 'for-each-ref', '--format=%(refname) %(objectname)');
  return Object.fromEntries(out.split('\n').map((l) => l.split(' ') as [string, string]));
}

test('every plant is live on a plain clone (the control)', () => {
  const repo = makeRepo({ files: { 'README.md': '# test\n', 'src/app.js': 'x\n' } });
  const control = tempDir('wts-control-');
  const controlMarkers = tempDir('wts-control-markers-');
  try {
    expect(plantsAreLive(repo.origin, control, controlMarkers)).toEqual([...PLANT_MARKERS].sort());
  } finally {
    for (const dir of [repo.root, control, controlMarkers]) fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe.each(['disk', 'container'] as const)('the sandbox boundary (isolation %s)', (isolation) => {
  let repo: TestRepo;
  let markers: string;
  let prefix: string;
  let root: string;

  beforeAll(() => {
    const owner = runnerIds();
    repo = makeRepo({
      files: { 'README.md': '# test\n', 'src/app.js': 'x\n', 'plant.sh': PLANT_SCRIPT },
      owner,
    });
    // What actions/checkout v4 leaves behind with persist-credentials (the default).
    rgit(repo.parent, 'config', 'http.https://github.com/.extraheader', HEADER);
    markers = tempDir('wts-markers-');
    fs.chmodSync(markers, 0o777);
    root = tempDir('wts-root-');
    chownTree(root, owner);
    prefix = uniquePrefix('bound');
  });

  afterAll(() => {
    removeVolumes(prefix);
    for (const dir of [repo?.root, markers, root].filter(Boolean))
      fs.rmSync(dir, { recursive: true, force: true });
  });

  test('nothing planted runs on the host or remains; refs restored; violations reported; work pushed', async () => {
    const before = gitState(repo.parent);
    const refsBefore = refs(repo.parent);
    const { main, post } = await runMainAndPost({
      asRunner: true,
      inputs: {
        command: `echo "credentials seen: $(grep -c -i -e extraheader -e '${TOKEN.slice(0, 8)}' "$SANDBOX_PARENT/.git/config")"
P="$SANDBOX_PARENT" sh ./plant.sh "${markers}"`,
        isolation,
        branch: 'feature',
        'repository-path': repo.parent,
        'worktree-root': root,
        'volume-prefix': prefix,
        image: TEST_IMAGE,
        push: 'true',
        cleanup: 'always',
        token: TOKEN,
      },
    });
    const log = main.stdout + main.stderr;
    expect(main.code).toBe(0);
    expect(log).toContain('credentials seen: 0');
    expect(log).toContain('planted');

    // Nothing ran on the host: not the action's own git commands (report, commit, push, post's patch).
    expect(fs.readdirSync(markers)).toEqual([]);
    // .git is as it was: the persisted credential back, every plant gone.
    expect(gitState(repo.parent)).toEqual(before);
    // Refs outside the sandbox's branch are back; what they were moved to is kept aside.
    const refsAfter = refs(repo.parent);
    expect(refsAfter['refs/heads/main']).toBe(refsBefore['refs/heads/main']);
    expect(refsAfter['refs/tags/planted']).toBeUndefined();
    const displaced = Object.keys(refsAfter).filter((r) => r.startsWith('refs/worktree-sandbox/displaced/'));
    expect(displaced.some((r) => r.endsWith('/refs/heads/main'))).toBe(true);
    expect(displaced.some((r) => r.endsWith('/refs/tags/planted'))).toBe(true);

    // Every change reported.
    for (const expected of [
      '.git/config was changed by the command (',
      'core.fsmonitor added',
      'core.hookspath added',
      'core.sshcommand added',
      'filter.evil.clean added',
      'diff.evil.textconv added',
      'credential.helper added',
      'includeif.gitdir:/.path added',
      '.git/hooks/pre-commit was added',
      '.git/info/attributes was added',
      '.git/info/exclude was changed',
      '.git/info/evil.config was added',
      'config.worktree was added',
      'ref refs/heads/main was moved',
      'ref refs/tags/planted was created',
      'ref refs/remotes/origin/feature was created',
    ])
      expect(log).toContain(expected);
    if (isolation === 'disk') expect(log).toContain("the worktree's .git was changed");
    expect(Number(main.outputs.violations)).toBeGreaterThanOrEqual(8);
    expect(main.summary).toContain('Sandbox boundary');

    // The command's real work reached origin.
    expect(main.outputs.pushed).toBe('true');
    expect(rgit(repo.origin, 'log', '--format=%s', 'feature')).toContain('work committed by the command');
    expect(rgit(repo.origin, 'show', 'feature:src/app.js')).toContain('uncommitted work');
    expect(post.code).toBe(0);

    // The runner's next job runs plain git in the parent: still nothing runs.
    everydayGit(repo.parent);
    expect(fs.readdirSync(markers)).toEqual([]);
    expect(volumesWithPrefix(prefix)).toEqual([]);
  });

  test('strict: true fails the step on a violation, after undoing it, and pushes nothing', async () => {
    const before = gitState(repo.parent);
    const step = await runStep({
      asRunner: true,
      inputs: {
        command: `printf '#!/bin/sh\\ntouch "${markers}/strict-hook"\\n' > "$SANDBOX_PARENT/.git/hooks/post-checkout"; chmod +x "$SANDBOX_PARENT/.git/hooks/post-checkout"; echo work > strict.txt; git add strict.txt; git commit -qm strict`,
        isolation,
        branch: 'strict-branch',
        'repository-path': repo.parent,
        'worktree-root': root,
        'volume-prefix': prefix,
        image: TEST_IMAGE,
        push: 'true',
        strict: 'true',
      },
    });
    expect(step.code).toBe(1);
    expect(step.stdout).toMatch(/::error::strict: the command changed 1 thing\(s\) outside its sandbox/);
    expect(step.stdout).toContain('.git/hooks/post-checkout was added by the command: removed');
    expect(gitState(repo.parent)).toEqual(before);
    expect(rgit(repo.origin, 'branch', '--list', 'strict-branch')).toBe('');
    expect(fs.readdirSync(markers)).toEqual([]);
  });
});
