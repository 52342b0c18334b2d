// Run mode with real git and a real Docker engine, through the core (in-process, as root). What depends on
// the engine runs on each engine under test; what git and the host's files decide runs once, on Docker.
// (A parent with no remote, whose branches save a transient sandbox's commits for auto cleanup, is end to
// end in test/integration/post-step.test.ts and proved in src/sandbox/saved.spec.ts.)
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanupRun } from '../../src/run/cleanup.js';
import { runSandbox, type RunOutcome } from '../../src/run/run.js';
import { parseSettings, type RunSettings } from '../../src/settings/settings.js';
import type { RunState } from '../../src/run/run-state.js';
import { silentUi } from '../../src/ui/ui.js';
import type { Sandbox } from '../../src/sandbox/layout.js';
import { projectName } from '../../src/sandbox/naming.js';
import {
  inVolume,
  removeVolumes,
  uniquePrefix,
  volumeLabels,
  volumesWithPrefix,
  type Engine,
} from '../support/docker.js';
import { availableEngines } from '../support/engines.js';
import { TEST_IMAGE } from '../support/env.js';
import { git, makeRepo, tempDir, tryGit, worktreeList, type TestRepo } from '../support/repo.js';

const ENGINES = availableEngines();
const volumeOf = (s: Sandbox) => (s.isolation === 'container' ? s.volume : '');
const hostPathOf = (s: Sandbox) => (s.isolation === 'disk' ? s.hostPath : '');
/** The parent's records of its sandboxes (refs/worktree-sandbox/...). */
const records = (parent: string) =>
  git(parent, 'for-each-ref', '--format=%(refname)', 'refs/worktree-sandbox/').split('\n').filter(Boolean);
const prefixes: Array<[string, Engine]> = [];
const repos: TestRepo[] = [];
let engine: Engine = 'docker';

afterAll(() => {
  for (const [p, e] of prefixes) removeVolumes(p, e);
  for (const r of repos) fs.rmSync(r.root, { recursive: true, force: true });
});

function setup(files?: Record<string, string>) {
  const repo = makeRepo({ files });
  repos.push(repo);
  const prefix = uniquePrefix('run');
  prefixes.push([prefix, engine]);
  const root = path.join(repo.root, 'sandboxes');
  return { repo, prefix, root };
}

function settings(inputs: Record<string, string>): RunSettings {
  const all: Record<string, string> = { engine, ...inputs };
  return parseSettings((name) => all[name] ?? '', process.env) as RunSettings;
}

async function run(inputs: Record<string, string>, lines?: string[]) {
  let state: Partial<RunState> = {};
  const ui = {
    ...silentUi,
    untrusted: <T>(fn: (w: (l: string) => void) => Promise<T>) => fn((l) => lines?.push(l)),
  };
  const outcome = await runSandbox(settings({ image: TEST_IMAGE, ...inputs }), {
    ui,
    save: (s) => (state = { ...state, ...s }),
  });
  return { outcome, state: state as RunState };
}

describe.each(ENGINES)('engine %s', (name) => {
  beforeAll(() => {
    engine = name;
  });
  afterAll(() => {
    engine = 'docker';
  });

  describe('container isolation (a named volume)', () => {
    it('creates a labelled volume sandbox, runs the command with git working inside, reports', async () => {
      const { repo, prefix } = setup();
      const lines: string[] = [];
      const { outcome, state } = await run(
        {
          'repository-path': repo.parent,
          'volume-prefix': prefix,
          command:
            'pwd; git status --short --branch; git log --oneline | wc -l; echo changed >> README.md; echo new > added.txt',
        },
        lines,
      );
      const { sandbox } = outcome;
      expect(sandbox.kind).toBe('transient');
      expect(sandbox.name).toMatch(/^exploration-[0-9a-f]{8}$/);
      expect(volumeOf(sandbox)).toBe(`${prefix}-${sandbox.project}-${sandbox.name}`);
      expect(lines[0]).toBe(`/sandbox/${sandbox.name}`);
      expect(lines[1]).toMatch(/^## HEAD \(no branch\)/);
      expect(lines[2]).toBe('2');
      expect(outcome.command.exitCode).toBe(0);
      expect(outcome.report.changedFiles).toEqual(['README.md', 'added.txt']);
      expect(outcome.report.commits).toBe(0);

      const labels = volumeLabels(volumeOf(sandbox), engine);
      expect(labels).toMatchObject({
        'worktree-sandbox.managed': 'true',
        'worktree-sandbox.project': sandbox.project,
        'worktree-sandbox.sandbox': sandbox.name,
        'worktree-sandbox.kind': 'transient',
        'worktree-sandbox.branch': '',
        'worktree-sandbox.parent': repo.parent,
      });
      expect(labels['worktree-sandbox.created']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      // A repository of its own: the parent registers no worktree, and records the sandbox in its refs.
      expect(worktreeList(repo.parent)).toEqual([repo.parent]);
      expect(records(repo.parent)).toEqual([`refs/worktree-sandbox/volume/${sandbox.name}/head`]);
      expect(
        inVolume(
          TEST_IMAGE,
          volumeOf(sandbox),
          `test -d /sandbox/${sandbox.name}/.git && cat /sandbox/${sandbox.name}/.git/objects/info/alternates`,
          engine,
        ),
      ).toBe(path.join(repo.parent, '.git', 'objects'));
      // The parent's own work tree is untouched.
      expect(git(repo.parent, 'status', '--porcelain')).toBe('');

      // auto cleanup keeps a transient sandbox that holds work...
      const kept = await cleanupRun(state, silentUi, tempDir());
      expect(kept.removed).toBe(false);
      expect(volumesWithPrefix(prefix, engine)).toEqual([volumeOf(sandbox)]);
      // ...and `always` saves the work as a patch before removing it.
      const temp = tempDir();
      const removed = await cleanupRun({ ...state, cleanup: 'always' }, silentUi, temp);
      expect(removed.removed).toBe(true);
      const patch = fs.readFileSync(removed.patch!, 'utf8');
      expect(patch).toContain('+changed');
      expect(patch).toContain('added.txt');
      expect(volumesWithPrefix(prefix, engine)).toEqual([]);
      expect(records(repo.parent)).toEqual([]);
      expect(
        fs.existsSync(
          path.join(repo.parent, '.git', 'worktree-sandbox', 'stores', 'volume', `${sandbox.name}.git`),
        ),
      ).toBe(false);
    });

    it('auto cleanup removes a transient sandbox that holds no work', async () => {
      const { repo, prefix } = setup();
      const { state } = await run({
        'repository-path': repo.parent,
        'volume-prefix': prefix,
        command: 'git status',
      });
      expect(volumesWithPrefix(prefix, engine)).toHaveLength(1);
      expect((await cleanupRun(state, silentUi, tempDir())).removed).toBe(true);
      expect(volumesWithPrefix(prefix, engine)).toEqual([]);
      expect(records(repo.parent)).toEqual([]);
    });

    it('reuses the same branch sandbox as it is on the next run, uncommitted files and all', async () => {
      const { repo, prefix } = setup();
      const first = await run({
        'repository-path': repo.parent,
        'volume-prefix': prefix,
        branch: 'feat/ui',
        command: 'echo draft > notes.txt; git commit -qam wip --allow-empty',
      });
      expect(first.outcome.sandbox.reused).toBe(false);
      expect(first.outcome.sandbox.name).toMatch(/^feat-ui\.\.[0-9a-f]{8}$/);
      expect(first.outcome.report.commits).toBe(1);
      const lines: string[] = [];
      const second = await run(
        {
          'repository-path': repo.parent,
          'volume-prefix': prefix,
          branch: 'feat/ui',
          command: 'cat notes.txt; git rev-parse --abbrev-ref HEAD',
        },
        lines,
      );
      expect(second.outcome.sandbox.reused).toBe(true);
      expect(volumeOf(second.outcome.sandbox)).toBe(volumeOf(first.outcome.sandbox));
      expect(lines).toEqual(['draft', 'feat/ui']);
      // a branch that slugs alike gets its own sandbox
      const other = await run({
        'repository-path': repo.parent,
        'volume-prefix': prefix,
        branch: 'feat-ui',
        command: 'test ! -e notes.txt',
      });
      expect(other.outcome.sandbox.name).toBe('feat-ui');
      expect(other.outcome.command.exitCode).toBe(0);
      expect(volumesWithPrefix(prefix, engine)).toHaveLength(2);
      // persistent sandboxes are kept by auto cleanup
      expect((await cleanupRun(second.state, silentUi, tempDir())).removed).toBe(false);
      expect(
        inVolume(
          TEST_IMAGE,
          volumeOf(first.outcome.sandbox),
          `cat /sandbox/${first.outcome.sandbox.name}/notes.txt`,
          engine,
        ),
      ).toBe('draft');
    });
  });

  it.each(['container', 'disk'])(
    '%s: gives the command a writable HOME outside the work tree, kept across reuse, never a change',
    async (isolation) => {
      const { repo, prefix, root } = setup();
      const inputs = {
        'repository-path': repo.parent,
        'volume-prefix': prefix,
        'worktree-root': root,
        isolation,
      };
      const lines: string[] = [];
      const first = await run(
        {
          ...inputs,
          branch: 'home-test',
          command:
            'echo "$HOME"; mkdir -p "$HOME/.cache/tool" && echo cached > "$HOME/.cache/tool/data" && touch "$HOME/.npmrc"',
        },
        lines,
      );
      const { sandbox } = first.outcome;
      expect(lines[0]).toBe(
        isolation === 'disk' ? path.join(root, sandbox.project, '.home', 'home-test') : '/sandbox/.home',
      );
      expect(first.outcome.command.exitCode).toBe(0);
      expect(first.outcome.report.changedFiles).toEqual([]);
      const again: string[] = [];
      const second = await run(
        { ...inputs, branch: 'home-test', command: 'cat "$HOME/.cache/tool/data"' },
        again,
      );
      expect(second.outcome.sandbox.reused).toBe(true);
      expect(again[0]).toBe('cached');
    },
  );

  describe('disk isolation', () => {
    it('creates the worktree under <root>/<project>/<sandbox> and bind-mounts it at the same path', async () => {
      const { repo, prefix, root } = setup();
      const lines: string[] = [];
      const { outcome } = await run(
        {
          'repository-path': repo.parent,
          'volume-prefix': prefix,
          isolation: 'disk',
          'worktree-root': root,
          branch: 'fix-lint',
          command: 'pwd; echo fixed > src/app.js; git add -A; git commit -qm fix',
        },
        lines,
      );
      const { sandbox } = outcome;
      expect(hostPathOf(sandbox)).toBe(path.join(root, sandbox.project, 'fix-lint'));
      expect(sandbox.worktreePath).toBe(hostPathOf(sandbox));
      expect(lines[0]).toBe(hostPathOf(sandbox));
      expect(outcome.report).toMatchObject({
        commits: 1,
        changedFiles: ['src/app.js'],
        currentBranch: 'fix-lint',
      });
      expect(git(repo.parent, 'log', '-1', '--format=%s', 'fix-lint')).toBe('fix');
      expect(git(repo.parent, 'log', '-1', '--format=%an', 'fix-lint')).toBe('github-actions[bot]');
      expect(volumesWithPrefix(prefix, engine)).toEqual([]);
      // the commit came back into the parent: under the sandbox's record, and its branch fast-forwarded
      expect(git(repo.parent, 'rev-parse', 'refs/worktree-sandbox/disk/fix-lint/head')).toBe(
        outcome.report.headSha,
      );
      expect(outcome.report.branchUpdate).toBe('created');
      expect(fs.statSync(path.join(hostPathOf(sandbox), '.git')).isDirectory()).toBe(true);
      expect(worktreeList(repo.parent)).toEqual([repo.parent]);
    });

    it('checks out a branch that exists only on origin as a branch tracking origin/<branch> inside', async () => {
      const { repo, root } = setup();
      const other = path.join(repo.root, 'other');
      git(repo.root, 'clone', '--quiet', repo.origin, other);
      git(other, 'switch', '--quiet', '-c', 'remote-only');
      fs.writeFileSync(path.join(other, 'r.txt'), 'r\n');
      git(other, 'add', '-A');
      git(other, 'commit', '--quiet', '-m', 'remote work');
      git(other, 'push', '--quiet', 'origin', 'remote-only');
      // the parent has never fetched it: the action asks origin
      const lines: string[] = [];
      const { outcome } = await run(
        {
          'repository-path': repo.parent,
          isolation: 'disk',
          'worktree-root': root,
          branch: 'remote-only',
          command: 'cat r.txt && git rev-parse --abbrev-ref "remote-only@{upstream}"',
        },
        lines,
      );
      expect(outcome.command.exitCode).toBe(0);
      expect(lines).toEqual(['r', 'origin/remote-only']);
    });

    it('passes only the variables named in env into the container', async () => {
      const { repo, root } = setup();
      process.env.WTS_PASSED = 'from runner';
      process.env.WTS_SECRET_NOT_PASSED = 'hunter2';
      const lines: string[] = [];
      try {
        await run(
          {
            'repository-path': repo.parent,
            isolation: 'disk',
            'worktree-root': root,
            env: 'WTS_PASSED\nLITERAL=a $(b) "c"',
            command: 'env | sort',
          },
          lines,
        );
      } finally {
        delete process.env.WTS_PASSED;
        delete process.env.WTS_SECRET_NOT_PASSED;
      }
      expect(lines).toContain('WTS_PASSED=from runner');
      expect(lines).toContain('LITERAL=a $(b) "c"');
      expect(lines.join('\n')).not.toContain('hunter2');
      expect(lines.filter((l) => /^(GITHUB_|RUNNER_|INPUT_|ACTIONS_)/.test(l))).toEqual([]);
    });

    it('reports a failing command and a timeout', async () => {
      const { repo, root } = setup();
      const failed = await run({
        'repository-path': repo.parent,
        isolation: 'disk',
        'worktree-root': root,
        command: 'exit 3',
      });
      expect(failed.outcome.command).toMatchObject({ exitCode: 3, timedOut: false });
      const slow = await run({
        'repository-path': repo.parent,
        isolation: 'disk',
        'worktree-root': root,
        'timeout-minutes': '0.02',
        command: 'sleep 30',
      });
      expect(slow.outcome.command).toMatchObject({ exitCode: 124, timedOut: true });
      expect(slow.outcome.command.durationMs).toBeLessThan(15_000);
    });
  });
});

describe('on Docker only: what does not depend on the engine', () => {
  // Git and the host's files decide these (their rules: sandbox/branch.spec.ts, sandbox/repository.spec.ts,
  // sandbox/create.ts's refusal, the parent's records); one engine runs each end to end.
  it('refuses a folder holding files where a disk sandbox goes, nobody having recorded it, and never touches it', async () => {
    const { repo, root } = setup();
    const folder = path.join(root, projectName(fs.realpathSync(repo.parent)), 'someones-work');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'precious.txt'), 'keep me\n');
    await expect(
      run({
        'repository-path': repo.parent,
        isolation: 'disk',
        'worktree-root': root,
        branch: 'someones-work',
        command: 'true',
      }),
    ).rejects.toThrow(/exists and holds files.*it is not touched/);
    expect(fs.readFileSync(path.join(folder, 'precious.txt'), 'utf8')).toBe('keep me\n');
    expect(records(repo.parent)).toEqual([]);
    // The post step of such a run leaves it alone too.
    const state = {
      engine,
      image: TEST_IMAGE,
      cleanup: 'always',
      location: {
        isolation: 'disk',
        hostPath: folder,
        worktreePath: folder,
        homePath: path.join(path.dirname(folder), '.home', 'someones-work'),
        name: 'someones-work',
        kind: 'persistent',
        branch: 'someones-work',
        project: projectName(fs.realpathSync(repo.parent)),
        parent: {
          path: fs.realpathSync(repo.parent),
          gitDir: path.join(fs.realpathSync(repo.parent), '.git'),
          objectStores: [],
        },
      },
      collect: {
        author: { name: 'a', email: 'a@b' },
        committer: { name: 'a', email: 'a@b' },
        maxImportBytes: 1 << 20,
      },
    } as unknown as RunState;
    expect((await cleanupRun(state, silentUi, tempDir())).removed).toBe(false);
    expect(fs.existsSync(path.join(folder, 'precious.txt'))).toBe(true);
  });

  it('counts a run that changes nothing as activity (the reaper reads the work tree folder time)', async () => {
    const { repo, root } = setup();
    const inputs = {
      'repository-path': repo.parent,
      isolation: 'disk',
      'worktree-root': root,
      branch: 'idle',
    };
    const first = await run({ ...inputs, command: 'true' });
    const folder = first.outcome.sandbox.worktreePath;
    const longAgo = new Date(Date.now() - 200 * 86_400_000);
    fs.utimesSync(folder, longAgo, longAgo);
    await run({ ...inputs, command: 'true' });
    expect(Date.now() - fs.statSync(folder).mtimeMs).toBeLessThan(3_600_000);
  });

  it('keeps every object a sandbox borrows alive across git gc --prune=now in the parent; removal drops its records', async () => {
    const { repo, root } = setup();
    // The sandbox starts from a commit only a temporary branch of the parent has.
    git(repo.parent, 'switch', '--quiet', '-c', 'tmp');
    fs.writeFileSync(path.join(repo.parent, 'only-here.txt'), 'only\n');
    git(repo.parent, 'add', '-A');
    git(repo.parent, 'commit', '--quiet', '-m', 'tmp commit');
    git(repo.parent, 'switch', '--quiet', 'main');
    const inputs = {
      'repository-path': repo.parent,
      isolation: 'disk',
      'worktree-root': root,
      branch: 'gc-test',
    };
    const first = await run({
      ...inputs,
      base: 'tmp',
      command:
        'echo inside > inside.txt && git add -A && git commit -qm inside && echo left > uncommitted.txt',
    });
    expect(first.outcome.report.commits).toBe(1);
    // Nothing of the parent names those commits any more but the sandbox's records.
    git(repo.parent, 'branch', '--quiet', '-D', 'tmp', 'gc-test');
    git(repo.parent, 'reflog', 'expire', '--expire=now', '--all');
    git(repo.parent, 'gc', '--quiet', '--prune=now');
    const lines: string[] = [];
    const second = await run(
      {
        ...inputs,
        command:
          'git fsck --full --no-dangling 2>&1 && cat only-here.txt inside.txt uncommitted.txt && git log --format=%s -2',
      },
      lines,
    );
    expect(second.outcome.command.exitCode).toBe(0);
    expect(lines.slice(0, 5)).toEqual(['only', 'inside', 'left', 'inside', 'tmp commit']);
    expect(records(repo.parent).length).toBeGreaterThan(0);
    const removed = await cleanupRun({ ...second.state, cleanup: 'always' }, silentUi, tempDir());
    expect(removed.removed).toBe(true);
    expect(records(repo.parent)).toEqual([]);
    expect(
      fs.existsSync(path.join(repo.parent, '.git', 'worktree-sandbox', 'stores', 'disk', 'gc-test.git')),
    ).toBe(false);
  });

  it('creates a new branch from base', async () => {
    const { repo, root } = setup();
    const first = git(repo.parent, 'rev-parse', 'HEAD~1');
    const { outcome } = await run({
      'repository-path': repo.parent,
      isolation: 'disk',
      'worktree-root': root,
      branch: 'from-base',
      base: 'HEAD~1',
      command: 'true',
    });
    expect(outcome.sandbox.startSha).toBe(first);
    expect(git(repo.parent, 'rev-parse', 'from-base')).toBe(first);
  });

  it('works from a linked worktree given as repository-path, detecting its parent', async () => {
    const { repo, root } = setup();
    const linked = path.join(repo.root, 'linked');
    git(repo.parent, 'worktree', 'add', '--quiet', '--detach', linked);
    const { outcome } = await run({
      'repository-path': linked,
      isolation: 'disk',
      'worktree-root': root,
      command: 'git log --oneline -1',
    });
    expect(outcome.sandbox.parent.path).toBe(repo.parent);
  });
});

describe('push', () => {
  it('commits what is left and pushes only the sandbox branch, never forced', async () => {
    const { repo, root } = setup();
    const mainBefore = git(repo.origin, 'rev-parse', 'main');
    const { outcome } = await run({
      'repository-path': repo.parent,
      isolation: 'disk',
      'worktree-root': root,
      branch: 'bot/fix',
      push: 'true',
      'commit-message': 'bot: tidy',
      command: 'echo tidy >> README.md',
    });
    expect(outcome.push).toEqual({ pushed: true });
    expect(outcome.report.committed).toBe(true);
    expect(git(repo.origin, 'log', '-1', '--format=%s %an', 'bot/fix')).toBe('bot: tidy github-actions[bot]');
    expect(git(repo.origin, 'rev-parse', 'main')).toBe(mainBefore);

    // someone else moves the branch on origin: the next push is rejected and reported, not forced
    const other = path.join(repo.root, 'other');
    git(repo.root, 'clone', '--quiet', '--branch', 'bot/fix', repo.origin, other);
    fs.writeFileSync(path.join(other, 'x.txt'), 'x\n');
    git(other, 'add', '-A');
    git(other, 'commit', '--quiet', '-m', 'human');
    git(other, 'push', '--quiet', 'origin', 'bot/fix');
    const theirs = git(repo.origin, 'rev-parse', 'bot/fix');
    const second = await run({
      'repository-path': repo.parent,
      isolation: 'disk',
      'worktree-root': root,
      branch: 'bot/fix',
      push: 'true',
      command: 'echo more >> README.md',
    });
    expect(second.outcome.push).toMatchObject({ pushed: false, rejected: true });
    expect(git(repo.origin, 'rev-parse', 'bot/fix')).toBe(theirs);
  });
});

describe('faults and bad input leave nothing behind', () => {
  function snapshot(repo: TestRepo, prefix: string, root: string) {
    return {
      volumes: volumesWithPrefix(prefix),
      worktrees: worktreeList(repo.parent),
      branches: git(
        repo.parent,
        'for-each-ref',
        '--format=%(refname)',
        'refs/heads/',
        'refs/worktree-sandbox/',
      ),
      root: fs.existsSync(root) ? fs.readdirSync(root) : [],
    };
  }

  it.each([
    ['a branch name git rejects', { branch: 'a..b' }, /Invalid input 'branch'/],
    ['a base that names no commit', { branch: 'x', base: 'no-such-ref' }, /Invalid input 'base'/],
    ['a missing image', { image: 'worktree-sandbox-test:no-such-tag' }, /could not be pulled/],
  ])('%s', async (_name, inputs, message) => {
    const { repo, prefix, root } = setup();
    const before = snapshot(repo, prefix, root);
    for (const isolation of ['container', 'disk']) {
      await expect(
        run({
          'repository-path': repo.parent,
          'volume-prefix': prefix,
          'worktree-root': root,
          isolation,
          command: 'touch /tmp/x',
          ...inputs,
        }),
      ).rejects.toThrow(message);
    }
    expect(snapshot(repo, prefix, root)).toEqual(before);
  });

  it('an unreachable Docker engine', async () => {
    const { repo, prefix, root } = setup();
    const before = snapshot(repo, prefix, root);
    process.env.DOCKER_HOST = 'unix:///nonexistent/docker.sock';
    try {
      await expect(
        run({ 'repository-path': repo.parent, 'volume-prefix': prefix, command: 'true' }),
      ).rejects.toThrow(/docker engine is unreachable/);
    } finally {
      delete process.env.DOCKER_HOST;
    }
    expect(snapshot(repo, prefix, root)).toEqual(before);
  });

  it('a path that is not a git repository, and a repository with no commits', async () => {
    const dir = tempDir();
    await expect(run({ 'repository-path': dir, command: 'true' })).rejects.toThrow(/is not a git work tree/);
    git(dir, 'init', '--quiet');
    await expect(run({ 'repository-path': dir, command: 'true' })).rejects.toThrow(/has no commits yet/);
    await expect(run({ 'repository-path': path.join(dir, 'missing'), command: 'true' })).rejects.toThrow(
      /does not exist/,
    );
    expect(tryGit(dir, 'worktree', 'list').out).not.toContain('sandbox');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

export type { RunOutcome };
