// The reaper on real git worktrees on disk: the retention matrix, the work gate, the in-use gate, dry run,
// max-removals, force with archive-dir, and a second run that finds nothing to do.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lockSandbox } from '../../src/sandbox/lock.js';
import { reap, type ReapOptions, type ReapResult } from '../../src/reap/index.js';
import { DEFAULT_RETENTION } from '../../src/reap/retention.js';
import { uniquePrefix, docker } from '../support/docker.js';
import { TEST_IMAGE } from '../support/env.js';
import { git, makeRepo, tempDir, worktreeList, type TestRepo } from '../support/repo.js';
import { adminDirOf, age, makeDiskSandbox, projectDir, signalTimes } from '../support/sandboxes.js';

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
  return {
    worktreeRoot: root,
    volumePrefix: uniquePrefix('reapdisk'),
    engine: 'docker',
    image: TEST_IMAGE,
    retention: DEFAULT_RETENTION,
    dryRun: false,
    maxRemovals: 0,
    force: false,
    archiveDir: '',
    ...extra,
  };
}

function byName(result: ReapResult) {
  return Object.fromEntries(result.sandboxes.map((s) => [s.sandbox, s]));
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
    makeDiskSandbox(repo, root, 'exploration-0000f001', { ageDays: 10 });
    makeDiskSandbox(repo, root, 'exploration-0000s001', { ageDays: 40 });
    makeDiskSandbox(repo, root, 'feature-fresh', { branch: 'feature/fresh', ageDays: 60 });
    makeDiskSandbox(repo, root, 'feature-stale', { branch: 'feature/stale', ageDays: 100 });
    // Orphans: their parent is deleted. A transient name does not shorten an orphan's expiry.
    makeDiskSandbox(gone, root, 'exploration-0000f002', { ageDays: 60 });
    makeDiskSandbox(gone, root, 'feature-orphan', { branch: 'feature/orphan', ageDays: 100 });
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
    expect(fs.readdirSync(project).sort()).toEqual(['exploration-0000f001', 'feature-fresh']);
    // Exactly the removed sandboxes were unregistered; the others stay.
    expect(
      worktreeList(repo.parent)
        .map((p) => path.basename(p))
        .sort(),
    ).toEqual(['exploration-0000f001', 'feature-fresh', 'repo']);
    // Branches are never deleted: only worktrees are.
    expect(git(repo.parent, 'branch', '--list', 'feature/stale')).toContain('feature/stale');

    const second = await reap(options(root));
    expect(reaped(second)).toEqual([]);
    expect(second.freedBytes).toBe(0);
  }, 120_000);

  it('keeps stale sandboxes that hold work, and says what work', async () => {
    const root = newRoot();
    const repo = newRepo();
    fs.appendFileSync(path.join(repo.parent, '.git', 'info', 'exclude'), '*.log\n');
    const make = (name: string, branch?: string) => makeDiskSandbox(repo, root, name, { branch });
    const dirty = make('exploration-0000d001');
    fs.appendFileSync(path.join(dirty, 'README.md'), 'edited\n');
    const untracked = make('exploration-0000u001');
    fs.writeFileSync(path.join(untracked, 'notes.txt'), 'draft\n');
    const staged = make('exploration-0000a001');
    fs.writeFileSync(path.join(staged, 'new.txt'), 'new\n');
    git(staged, 'add', 'new.txt');
    const ignored = make('exploration-0000i001');
    fs.writeFileSync(path.join(ignored, 'build.log'), 'noise\n');
    const unpushed = make('exploration-0000c001');
    commitIn(unpushed, 'local.txt', 'local\n');
    const noUpstream = make('feature-no-upstream', 'feature/no-upstream');
    commitIn(noUpstream, 'feature.txt', 'feature\n');
    const noUpstreamNoCommits = make('feature-nothing-new', 'feature/nothing-new');
    const merging = make('exploration-0000m001');
    fs.writeFileSync(path.join(adminDirOf(merging), 'MERGE_HEAD'), `${git(merging, 'rev-parse', 'HEAD')}\n`);
    const clean = make('exploration-0000e001');
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
    const before = new Map([dirty, clean, staged].map((d) => [d, signalTimes(adminDirOf(d))]));

    // A dry run first: the checks must not move the activity signals (git status would rewrite the index).
    const dry = await reap(options(root, { dryRun: true }));
    for (const [dir, times] of before) expect(signalTimes(adminDirOf(dir))).toEqual(times);
    expect(reaped(dry)).toEqual(['exploration-0000e001', 'exploration-0000i001', 'feature-nothing-new']);

    const result = await reap(options(root));
    const d = byName(result);
    expect(d['exploration-0000d001'].reason).toBe('holds work: 1 uncommitted file(s)');
    expect(d['exploration-0000u001'].reason).toBe('holds work: 1 uncommitted file(s)');
    expect(d['exploration-0000a001'].reason).toBe('holds work: 1 uncommitted file(s)');
    expect(d['exploration-0000c001'].reason).toBe('holds work: commits on no remote');
    expect(d['feature-no-upstream'].reason).toBe('holds work: commits on no remote');
    expect(d['exploration-0000m001'].reason).toBe('holds work: a merge is in progress');
    expect(reaped(result)).toEqual(['exploration-0000e001', 'exploration-0000i001', 'feature-nothing-new']);
    for (const kept of [dirty, untracked, staged, unpushed, noUpstream, merging]) {
      expect(fs.existsSync(path.join(kept, '.git'))).toBe(true);
      expect(worktreeList(repo.parent)).toContain(kept);
    }
    // The clean one was proved clean from the filesystem alone; the ignored file needed git.
    expect(result.stats.provedByFilesystem).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it('keeps a sandbox in use: a process working in it, a run holding its lock, a container mounting it', async () => {
    const root = newRoot();
    const repo = newRepo();
    const busyCwd = makeDiskSandbox(repo, root, 'exploration-0000b001', { ageDays: 100 });
    makeDiskSandbox(repo, root, 'exploration-0000b002', { ageDays: 100 });
    const busyMount = makeDiskSandbox(repo, root, 'exploration-0000b003', { ageDays: 100 });
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
      expect(fs.readdirSync(projectDir(root, repo.parent))).toHaveLength(3);
    } finally {
      sleeper.kill();
      await release();
      docker('rm', '--force', container);
    }
    const after = await reap(options(root));
    expect(reaped(after)).toHaveLength(3);
  }, 120_000);

  it('bounds one run with max-removals (oldest first) and removes nothing in a dry run', async () => {
    const root = newRoot();
    const repo = newRepo();
    makeDiskSandbox(repo, root, 'exploration-0000a100', { ageDays: 100 });
    makeDiskSandbox(repo, root, 'exploration-0000a200', { ageDays: 200 });
    makeDiskSandbox(repo, root, 'exploration-0000a300', { ageDays: 300 });
    makeDiskSandbox(repo, root, 'exploration-0000a001', { ageDays: 1 });

    const dry = await reap(options(root, { dryRun: true, maxRemovals: 2 }));
    expect(reaped(dry)).toEqual(['exploration-0000a200', 'exploration-0000a300']);
    expect(dry.freedBytes).toBeGreaterThan(0);
    expect(fs.readdirSync(projectDir(root, repo.parent))).toHaveLength(4);

    const first = await reap(options(root, { maxRemovals: 2 }));
    expect(reaped(first)).toEqual(['exploration-0000a200', 'exploration-0000a300']);
    expect(byName(first)['exploration-0000a100'].reason).toContain('max-removals (2) is reached');
    const second = await reap(options(root, { maxRemovals: 2 }));
    expect(reaped(second)).toEqual(['exploration-0000a100']);
    expect(reaped(await reap(options(root, { maxRemovals: 2 })))).toEqual([]);
  }, 120_000);

  it('with force and archive-dir, saves the work (patch, bundle) or the orphan files, then removes', async () => {
    const root = newRoot();
    const archive = newRoot();
    const repo = newRepo();
    const gone = newRepo();
    const dirty = makeDiskSandbox(repo, root, 'exploration-0000f0rc');
    fs.appendFileSync(path.join(dirty, 'README.md'), 'unsaved edit\n');
    fs.writeFileSync(path.join(dirty, 'untracked.txt'), 'unsaved file\n');
    commitIn(dirty, 'committed.txt', 'a commit no remote has\n');
    age(dirty, 100);
    const orphan = makeDiskSandbox(gone, root, 'feature-orphan', { branch: 'feature/orphan' });
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
    const patch = files.find((f) => f.endsWith('.patch'))!;
    const bundle = files.find((f) => f.endsWith('.bundle'))!;
    const patchText = fs.readFileSync(path.join(archive, project, patch), 'utf8');
    expect(patchText).toContain('+unsaved edit');
    expect(patchText).toContain('+unsaved file');
    // The bundle holds the commit no remote had: it can be fetched back.
    const bundlePath = path.join(archive, project, bundle);
    git(repo.parent, 'fetch', '--quiet', bundlePath, 'HEAD');
    expect(git(repo.parent, 'show', 'FETCH_HEAD:committed.txt')).toBe('a commit no remote has');
    const tarball = fs.readdirSync(path.join(archive, orphanProject)).find((f) => f.endsWith('.tar.gz'))!;
    const listing = execFileSync('tar', ['-tzf', path.join(archive, orphanProject, tarball)], {
      encoding: 'utf8',
    });
    expect(listing).toContain('feature-orphan/orphan-notes.txt');
  }, 120_000);
});
