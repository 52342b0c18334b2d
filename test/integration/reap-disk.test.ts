// The reaper on real disk sandboxes made by run mode's own code: the retention matrix, the work gate, the
// in-use gate, dry run, force with archive-dir, a second run that finds nothing to do, and a hostile
// sandbox config that never runs on the host; what counts as saved, end to end once (a remote-tracking
// ref). Rules of the decision alone are proved without Docker: max-removals with fakes in
// src/reap/removal-invariants.spec.ts; a tag that saves, and a parent with no remote whose branches save,
// in src/reap/parent-check.spec.ts (the reaper's own check, on a real parent); a volume sandbox's history
// through that same check in src/reap/work-volume.spec.ts.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sandboxRefs } from '../../src/sandbox/bookkeeping.js';
import { lockSandbox } from '../../src/sandbox/lock.js';
import { runSandbox } from '../../src/run/run.js';
import { silentUi } from '../../src/ui/ui.js';
import { parseSettings, type RunSettings } from '../../src/settings/settings.js';
import { reap, type ReapOptions } from '../../src/reap/reap.js';
import type { ReapResult } from '../../src/reap/reap-report.js';
import { docker, uniquePrefix } from '../support/docker.js';
import { TEST_IMAGE } from '../support/env.js';
import { git, makeRepo, tempDir, type TestRepo } from '../support/repo.js';
import { age, makeDiskSandbox, projectDir, signalTimes } from '../support/sandboxes.js';
import { reapOptions } from '../support/reap-options.js';

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
});

function newRepo(): TestRepo {
  const repo = makeRepo();
  cleanup.push(repo.root);
  return repo;
}

function newRoot(): string {
  const root = tempDir('wts-reap-root-');
  cleanup.push(root);
  return root;
}

function options(root: string, extra: Partial<ReapOptions> = {}): ReapOptions {
  return reapOptions(root, uniquePrefix('reapdisk'), extra);
}

function byName(result: ReapResult) {
  return Object.fromEntries(result.sandboxes.map((s) => [s.sandbox, s]));
}

/** The sandboxes the parent keeps records of (`refs/worktree-sandbox/disk/<name>/head`). */
function recorded(parent: string): string[] {
  return git(parent, 'for-each-ref', '--format=%(refname)', 'refs/worktree-sandbox/')
    .split('\n')
    .filter((r) => r.endsWith('/head'))
    .map((r) => r.split('/')[3])
    .sort();
}

const reaped = (result: ReapResult) =>
  result.sandboxes
    .filter((s) => s.result === 'removed' || s.result === 'would remove')
    .map((s) => s.sandbox)
    .sort();

function commitIn(worktree: string, file: string, content: string): void {
  fs.writeFileSync(path.join(worktree, file), content);
  git(worktree, 'add', '--', file);
  git(worktree, 'commit', '--quiet', '-m', `change ${file}`);
}

describe('reap mode on disk sandboxes', () => {
  it('applies the retention matrix: fresh and stale × transient, persistent and orphan', async () => {
    const root = newRoot();
    const repo = newRepo();
    const gone = newRepo();
    await makeDiskSandbox(repo, root, 'exploration-0000f001', { ageDays: 10 });
    await makeDiskSandbox(repo, root, 'exploration-0000s001', { ageDays: 40 });
    await makeDiskSandbox(repo, root, 'feature-fresh', { branch: 'feature/fresh', ageDays: 60 });
    await makeDiskSandbox(repo, root, 'feature-stale', { branch: 'feature/stale', ageDays: 100 });
    // Orphans: their parent is deleted. A transient name does not shorten an orphan's expiry.
    await makeDiskSandbox(gone, root, 'exploration-0000f002', { ageDays: 60 });
    await makeDiskSandbox(gone, root, 'feature-orphan', { branch: 'feature/orphan', ageDays: 100 });
    const goneProject = projectDir(root, gone.parent);
    fs.rmSync(gone.root, { recursive: true, force: true });

    const first = await reap(options(root));
    const d = byName(first);
    expect(d['exploration-0000f001']).toMatchObject({ class: 'transient', ageDays: 10, result: 'kept' });
    expect(d['exploration-0000s001']).toMatchObject({ class: 'transient', ageDays: 40, result: 'removed' });
    expect(d['feature-fresh']).toMatchObject({ class: 'persistent', ageDays: 60, result: 'kept' });
    expect(d['feature-stale']).toMatchObject({ class: 'persistent', ageDays: 100, result: 'removed' });
    expect(d['exploration-0000f002']).toMatchObject({ class: 'orphan', expiryDays: 90, result: 'kept' });
    expect(d['feature-orphan']).toMatchObject({ class: 'orphan', result: 'removed' });
    expect(d['feature-orphan'].reason).toContain('is gone');
    expect(first.freedBytes).toBeGreaterThan(0);

    const project = projectDir(root, repo.parent);
    expect(fs.readdirSync(project).sort()).toEqual([
      '.home',
      '.parent',
      'exploration-0000f001',
      'feature-fresh',
    ]);
    expect(fs.readdirSync(path.join(project, '.home')).sort()).toEqual([
      'exploration-0000f001',
      'feature-fresh',
    ]);
    // Exactly the removed sandboxes left the parent's records; the others stay.
    expect(recorded(repo.parent)).toEqual(['exploration-0000f001', 'feature-fresh']);
    // The parent's own branches are never touched.
    expect(git(repo.parent, 'branch', '--list')).toBe('* main');
    // The removed orphan's folder and home went; its project folder stays for the orphan kept.
    expect(fs.readdirSync(goneProject).sort()).toEqual(['.home', '.parent', 'exploration-0000f002']);
    expect(fs.readdirSync(path.join(goneProject, '.home'))).toEqual(['exploration-0000f002']);

    const second = await reap(options(root));
    expect(reaped(second)).toEqual([]);
    expect(second.freedBytes).toBe(0);
  }, 120_000);

  it('keeps stale sandboxes that hold work, and says what work', async () => {
    const root = newRoot();
    const repo = newRepo();
    const make = (name: string, branch?: string) => makeDiskSandbox(repo, root, name, { branch });
    const dirty = await make('exploration-0000d001');
    fs.appendFileSync(path.join(dirty, 'README.md'), 'edited\n');
    const untracked = await make('exploration-0000u001');
    fs.writeFileSync(path.join(untracked, 'notes.txt'), 'draft\n');
    const staged = await make('exploration-0000a001');
    fs.writeFileSync(path.join(staged, 'new.txt'), 'new\n');
    git(staged, 'add', 'new.txt');
    const ignored = await make('exploration-0000i001');
    fs.mkdirSync(path.join(ignored, '.git', 'info'), { recursive: true });
    fs.writeFileSync(path.join(ignored, '.git', 'info', 'exclude'), '*.log\n');
    fs.writeFileSync(path.join(ignored, 'build.log'), 'noise\n');
    const unpushed = await make('exploration-0000c001');
    commitIn(unpushed, 'local.txt', 'local\n');
    const noUpstream = await make('feature-no-upstream', 'feature/no-upstream');
    commitIn(noUpstream, 'feature.txt', 'feature\n');
    const noUpstreamNoCommits = await make('feature-nothing-new', 'feature/nothing-new');
    const merging = await make('exploration-0000m001');
    fs.writeFileSync(path.join(merging, '.git', 'MERGE_HEAD'), `${git(merging, 'rev-parse', 'HEAD')}\n`);
    const clean = await make('exploration-0000e001');
    for (const dir of [
      dirty,
      untracked,
      staged,
      ignored,
      unpushed,
      noUpstream,
      noUpstreamNoCommits,
      merging,
      clean,
    ])
      age(dir, 100);
    const before = new Map([dirty, clean, staged, ignored].map((d) => [d, signalTimes(d)]));

    // A dry run first: the checks must not move the activity signals (git status would rewrite the index).
    const dry = await reap(options(root, { dryRun: true }));
    for (const [dir, times] of before) expect(signalTimes(dir)).toEqual(times);
    expect(reaped(dry)).toEqual(['exploration-0000e001', 'exploration-0000i001', 'feature-nothing-new']);

    const result = await reap(options(root));
    const d = byName(result);
    expect(d['exploration-0000d001'].reason).toBe('holds work: 1 uncommitted file(s)');
    expect(d['exploration-0000u001'].reason).toBe('holds work: 1 uncommitted file(s)');
    expect(d['exploration-0000a001'].reason).toBe('holds work: 1 uncommitted file(s)');
    // Committed in the sandbox and never brought back: the parent lacks the commit, so what it reaches
    // cannot be counted there (a lower bound).
    expect(d['exploration-0000c001'].reason).toBe(
      'holds work: at least 1 commit(s) on a detached HEAD on no remote',
    );
    expect(d['feature-no-upstream'].reason).toBe(
      'holds work: at least 1 commit(s) on branch "feature/no-upstream" on no remote',
    );
    expect(d['feature-no-upstream'].held?.unsaved).toEqual({
      count: 1,
      atLeast: true,
      branch: 'feature/no-upstream',
      hasRemote: true,
    });
    expect(d['exploration-0000m001'].reason).toBe('holds work: a merge is in progress');
    expect(reaped(result)).toEqual(['exploration-0000e001', 'exploration-0000i001', 'feature-nothing-new']);
    for (const kept of [dirty, untracked, staged, unpushed, noUpstream, merging]) {
      expect(fs.existsSync(path.join(kept, '.git'))).toBe(true);
      expect(recorded(repo.parent)).toContain(path.basename(kept));
    }
    // The clean one was proved clean from the filesystem alone; the ignored file needed a helper's git.
    expect(result.stats.provedByFilesystem).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it('keeps a sandbox in use: a process working in it, a run holding its lock, a container mounting it', async () => {
    const root = newRoot();
    const repo = newRepo();
    const busyCwd = await makeDiskSandbox(repo, root, 'exploration-0000b001', { ageDays: 100 });
    await makeDiskSandbox(repo, root, 'exploration-0000b002', { ageDays: 100 });
    const busyMount = await makeDiskSandbox(repo, root, 'exploration-0000b003', { ageDays: 100 });
    const sleeper = spawn('sleep', ['120'], { cwd: path.join(busyCwd, 'src'), stdio: 'ignore' });
    const release = await lockSandbox(
      path.join(fs.realpathSync(repo.parent), '.git'),
      'exploration-0000b002',
      1000,
    );
    const container = `${uniquePrefix('reapmount')}-c`;
    docker(
      'run',
      '-d',
      '--rm',
      '--name',
      container,
      '--mount',
      `type=bind,source=${busyMount},target=/w`,
      TEST_IMAGE,
      'sleep',
      '120',
    );
    try {
      const d = byName(await reap(options(root)));
      expect(d['exploration-0000b001'].reason).toBe(
        `in use: process ${sleeper.pid} has its working directory in it`,
      );
      expect(d['exploration-0000b002'].reason).toBe('in use: a run holds its lock');
      expect(d['exploration-0000b003'].reason).toBe(`in use: running container ${container} mounts it`);
      expect(fs.readdirSync(projectDir(root, repo.parent))).toHaveLength(5);
    } finally {
      sleeper.kill();
      await release();
      docker('rm', '--force', container);
    }
    const after = await reap(options(root));
    expect(reaped(after)).toHaveLength(3);
  }, 120_000);

  it('with force and archive-dir, saves the work (patch, bundle) or the orphan files, then removes', async () => {
    const root = newRoot();
    const archive = newRoot();
    const repo = newRepo();
    const gone = newRepo();
    const dirty = await makeDiskSandbox(repo, root, 'exploration-0000f0rc');
    fs.appendFileSync(path.join(dirty, 'README.md'), 'unsaved edit\n');
    fs.writeFileSync(path.join(dirty, 'untracked.txt'), 'unsaved file\n');
    commitIn(dirty, 'committed.txt', 'a commit no remote has\n');
    age(dirty, 100);
    const orphan = await makeDiskSandbox(gone, root, 'feature-orphan', { branch: 'feature/orphan' });
    fs.writeFileSync(path.join(orphan, 'orphan-notes.txt'), 'kept in the archive\n');
    age(orphan, 100);
    const orphanProject = path.basename(projectDir(root, gone.parent));
    const project = path.basename(projectDir(root, repo.parent));
    fs.rmSync(gone.root, { recursive: true, force: true });

    const result = await reap(options(root, { force: true, archiveDir: archive }));
    const d = byName(result);
    expect(d['exploration-0000f0rc']).toMatchObject({ result: 'removed', archive: 'work' });
    expect(d['feature-orphan']).toMatchObject({ result: 'removed', archive: 'files' });
    expect(fs.existsSync(dirty)).toBe(false);
    const files = fs.readdirSync(path.join(archive, project));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^exploration-0000f0rc\.disk\.\d{8}T\d{6}Z\.bundle$/);
    // The bundle holds the commit no remote had, and a snapshot of the uncommitted files: both can be
    // fetched back.
    const bundlePath = path.join(archive, project, files[0]);
    git(repo.parent, 'fetch', '--quiet', bundlePath, 'HEAD');
    expect(git(repo.parent, 'show', 'FETCH_HEAD:committed.txt')).toBe('a commit no remote has');
    git(repo.parent, 'fetch', '--quiet', bundlePath, 'refs/worktree-sandbox/snapshot');
    expect(git(repo.parent, 'show', 'FETCH_HEAD:README.md')).toContain('unsaved edit');
    expect(git(repo.parent, 'show', 'FETCH_HEAD:untracked.txt')).toBe('unsaved file');
    expect(recorded(repo.parent)).toEqual([]);
    const tarball = fs.readdirSync(path.join(archive, orphanProject)).find((f) => f.endsWith('.tar.gz'))!;
    const listing = execFileSync('tar', ['-tzf', path.join(archive, orphanProject, tarball)], {
      encoding: 'utf8',
    });
    expect(listing).toContain('feature-orphan/orphan-notes.txt');
  }, 120_000);

  it('keeps what it cannot vouch for, and never runs what a sandbox configured', async () => {
    const root = newRoot();
    const repo = newRepo();
    const markers = newRoot();
    const unregistered = await makeDiskSandbox(repo, root, 'exploration-0000r001');
    git(repo.parent, 'update-ref', '-d', 'refs/worktree-sandbox/disk/exploration-0000r001/head');
    const linked = await makeDiskSandbox(repo, root, 'exploration-0000r002');
    const index = path.join(linked, '.git', 'index');
    fs.renameSync(index, `${index}.real`);
    fs.symlinkSync(`${index}.real`, index);
    // A hostile sandbox: its own config names programs (fsmonitor, a clean filter) that git would run
    // wherever it looks at the sandbox with that config; an untracked file makes the reaper's git look.
    const hostile = await makeDiskSandbox(repo, root, 'exploration-0000r003');
    const marker = path.join(markers, 'payload-ran');
    const payload = path.join(hostile, '.git', 'payload.sh');
    fs.writeFileSync(payload, `#!/bin/sh\necho ran >> ${marker}\ncat\n`, { mode: 0o755 });
    fs.appendFileSync(
      path.join(hostile, '.git', 'config'),
      `[core]\n\tfsmonitor = ${payload}\n[filter "x"]\n\tclean = ${payload}\n`,
    );
    fs.mkdirSync(path.join(hostile, '.git', 'info'), { recursive: true });
    fs.writeFileSync(path.join(hostile, '.git', 'info', 'attributes'), '* filter=x\n');
    fs.writeFileSync(path.join(hostile, 'notes.txt'), 'untracked\n');
    // The control: git used on the sandbox directly runs the payload.
    git(hostile, 'status', '--porcelain');
    expect(fs.existsSync(marker)).toBe(true);
    fs.rmSync(marker);
    const clean = await makeDiskSandbox(repo, root, 'exploration-0000r004');
    for (const dir of [unregistered, linked, hostile, clean]) age(dir, 100);

    const d = byName(await reap(options(root)));
    expect(fs.existsSync(marker)).toBe(false);
    expect(d['exploration-0000r001'].reason).toMatch(
      /^the check for work could not run \(unregistered: .* holds no record of it\)$/,
    );
    expect(d['exploration-0000r002'].reason).toBe(
      'the check for work could not run (suspicious: .git/index is not a regular file (a symbolic link?))',
    );
    expect(d['exploration-0000r003'].reason).toBe('holds work: 1 uncommitted file(s)');
    expect(d['exploration-0000r004'].result).toBe('removed');
    for (const kept of [unregistered, linked, hostile])
      expect(fs.existsSync(path.join(kept, '.git'))).toBe(true);
  }, 120_000);
});

/** A real run on `branch` whose command makes three commits; the import puts them on the parent's branch. */
async function runCommittingThree(repo: TestRepo, inputs: Record<string, string>) {
  const all: Record<string, string> = {
    engine: 'docker',
    image: TEST_IMAGE,
    'repository-path': repo.parent,
    command: 'for i in 1 2 3; do echo $i > f$i.txt; git add f$i.txt; git commit -qm "c $i"; done',
    ...inputs,
  };
  const settings = parseSettings((name) => all[name] ?? '', process.env) as RunSettings;
  const outcome = await runSandbox(settings, { ui: silentUi, save: () => undefined });
  expect(outcome.command.exitCode).toBe(0);
  expect(outcome.report.commits).toBe(3);
  // The import put them on the parent's branch.
  expect(git(repo.parent, 'rev-parse', `refs/heads/${inputs.branch}`)).toBe(outcome.report.tip);
  return outcome;
}

describe('what counts as saved: a remote-tracking ref, never a local branch of a parent with a remote', () => {
  const THREE_UNPUSHED = 'holds work: 3 commit(s) on branch "feature/x" on no remote';

  it('keeps a stale sandbox whose commits are on a local branch of the parent only, and removes it once origin has them', async () => {
    const root = newRoot();
    const repo = newRepo();
    const { sandbox, report } = await runCommittingThree(repo, {
      isolation: 'disk',
      'worktree-root': root,
      branch: 'feature/x',
    });
    const hostPath = path.join(projectDir(root, repo.parent), sandbox.name);
    // The import put the commits on the parent's branch: that alone does not save them.
    age(hostPath, 100);

    const kept = byName(await reap(options(root)));
    expect(kept[sandbox.name]).toMatchObject({ result: 'kept', reason: THREE_UNPUSHED });
    expect(kept[sandbox.name].held?.unsaved).toEqual({ count: 3, branch: 'feature/x', hasRemote: true });
    expect(fs.existsSync(path.join(hostPath, 'f3.txt'))).toBe(true);

    // What actions/checkout does to a reused workspace: every local branch deleted. Still kept, and the
    // commits are still there (the parent's record of the sandbox holds them).
    git(repo.parent, 'branch', '-D', 'feature/x');
    const still = byName(await reap(options(root)));
    expect(still[sandbox.name]).toMatchObject({ result: 'kept', reason: THREE_UNPUSHED });
    expect(git(repo.parent, 'cat-file', '-t', report.tip)).toBe('commit');

    // Pushed to origin and fetched back: origin/feature/x reaches them, and the sandbox may go.
    git(repo.parent, 'push', '--quiet', 'origin', `${report.tip}:refs/heads/feature/x`);
    git(repo.parent, 'fetch', '--quiet', 'origin');
    expect(git(repo.parent, 'rev-parse', 'refs/remotes/origin/feature/x')).toBe(report.tip);
    age(hostPath, 100);
    const removed = byName(await reap(options(root)));
    expect(removed[sandbox.name]).toMatchObject({ result: 'removed', reason: 'stale and holds no work' });
    expect(fs.existsSync(hostPath)).toBe(false);
    expect(recorded(repo.parent)).toEqual([]);
    // Nothing lost: origin has every commit.
    expect(git(repo.origin, 'rev-list', '--count', 'feature/x', '^main')).toBe('3');
  }, 180_000);

  it('with force and archive-dir, also bundles the commits only its record held, from the parent', async () => {
    const root = newRoot();
    const archive = newRoot();
    const repo = newRepo();
    const { sandbox, report } = await runCommittingThree(repo, {
      isolation: 'disk',
      'worktree-root': root,
      branch: 'feature/x',
    });
    // The checkout of the next job deletes the branch: the parent's record is all that holds the commits.
    git(repo.parent, 'branch', '-D', 'feature/x');
    age(path.join(projectDir(root, repo.parent), sandbox.name), 100);
    const d = byName(await reap(options(root, { force: true, archiveDir: archive })));
    expect(d[sandbox.name]).toMatchObject({ result: 'removed', archive: 'work' });
    expect(d[sandbox.name].held?.unsaved).toMatchObject({ count: 3, branch: 'feature/x' });
    expect(recorded(repo.parent)).toEqual([]);
    const files = fs.readdirSync(path.join(archive, path.basename(projectDir(root, repo.parent)))).sort();
    expect(files).toHaveLength(2);
    expect(files[1]).toMatch(/\.disk\.\d{8}T\d{6}Z\.recorded\.bundle$/);
    // Nothing lost: a fresh clone of origin gets the three commits back from the archive.
    const clone = path.join(newRoot(), 'clone');
    git(repo.root, 'clone', '--quiet', repo.origin, clone);
    const bundle = path.join(archive, path.basename(projectDir(root, repo.parent)), files[1]);
    git(clone, 'fetch', '--quiet', bundle, `${sandboxRefs(sandbox).head}:refs/heads/back`);
    expect(git(clone, 'rev-parse', 'back')).toBe(report.tip);
    expect(git(clone, 'rev-list', '--count', 'back', '^origin/main')).toBe('3');
  }, 180_000);
});
