// The reaper on linked worktrees made by real `git worktree add`, in the layout of the seed tool's
// worktree cache (`<root>/<project>/<name>`, `.git` a file naming the parent's `.git/worktrees/<id>`):
// the clean stale ones go with exactly their registration, everything holding work (or that cannot be
// vouched for) is kept with its reason, the parent's `git worktree list` stays sane, and nothing a
// worktree's registration configured runs on the host.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { reap, type ReapOptions } from '../../src/reap/reap.js';
import { listSandboxes } from '../../src/cli/listing.js';
import type { ReapResult } from '../../src/reap/reap-report.js';
import { removeByName } from '../../src/cli/remove-by-name.js';
import { DEFAULT_RETENTION } from '../../src/reap/retention.js';
import { lockSandbox, withRepositoryLock } from '../../src/sandbox/lock.js';
import { uniquePrefix } from '../support/docker.js';
import { TEST_IMAGE } from '../support/env.js';
import { addLinkedWorktree, ageLinked, linkedSignalTimes, registrationOf } from '../support/linked.js';
import { git, makeRepo, tempDir, type TestRepo, worktreeList } from '../support/repo.js';
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
  const root = tempDir('wts-reap-linked-');
  cleanup.push(root);
  return root;
}

function options(root: string, extra: Partial<ReapOptions> = {}): ReapOptions {
  return reapOptions(root, uniquePrefix('reaplinked'), extra);
}

const byName = (result: ReapResult) => Object.fromEntries(result.sandboxes.map((s) => [s.sandbox, s]));
const reaped = (result: ReapResult) =>
  result.sandboxes
    .filter((s) => s.result === 'removed' || s.result === 'would remove')
    .map((s) => s.sandbox)
    .sort();

/** Every file under `dir` with its content: to show that a registration was not touched. */
function contents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const file = path.join(entry.parentPath, entry.name);
      out[path.relative(dir, file)] = fs.readFileSync(file, 'latin1');
    }
  return out;
}

async function waitUntil(done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not done within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The registrations (`.git/worktrees/<id>`) a parent holds. */
function registrations(parent: string): string[] {
  const dir = path.join(parent, '.git', 'worktrees');
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}

describe('reap mode on linked worktrees (git worktree add)', () => {
  it('removes the clean stale ones with exactly their registration, keeps the rest with a reason', async () => {
    const root = newRoot();
    const repo = newRepo();
    const gone = newRepo();
    const parent = fs.realpathSync(repo.parent);
    const add = (name: string, opts: { branch?: string; ageDays?: number } = {}) =>
      addLinkedWorktree(parent, root, 'cache', name, opts);

    const clean = add('exploration-0000c001');
    const cleanBranch = add('feature-clean', { branch: 'feature/clean' });
    const fresh = add('exploration-0000f001');
    const dirty = add('exploration-0000d001');
    fs.appendFileSync(path.join(dirty, 'README.md'), 'edited\n');
    const untracked = add('exploration-0000u001');
    fs.writeFileSync(path.join(untracked, 'notes.txt'), 'draft\n');
    const unpushed = add('exploration-0000p001');
    fs.writeFileSync(path.join(unpushed, 'local.txt'), 'local\n');
    git(unpushed, 'add', 'local.txt');
    git(unpushed, 'commit', '--quiet', '-m', 'a commit no remote has');
    const locked = add('exploration-0000k001');
    git(parent, 'worktree', 'lock', '--reason', 'in use elsewhere', locked);
    // Its registration pruned from the parent (by `git worktree prune` elsewhere): an orphan.
    const pruned = add('exploration-0000r001');
    fs.rmSync(registrationOf(pruned), { recursive: true });
    // A folder whose .git file names another worktree's registration (copied, or planted): not its own.
    const elsewhere = path.join(fs.realpathSync(root), 'cache', 'exploration-0000e001');
    fs.cpSync(fresh, elsewhere, { recursive: true });
    // Orphans: their parent is deleted. One within the orphan expiry, one past it.
    const orphanYoung = addLinkedWorktree(gone.parent, root, 'gone', 'exploration-0000o060');
    const orphanOld = addLinkedWorktree(gone.parent, root, 'gone', 'exploration-0000o100');
    fs.writeFileSync(path.join(orphanOld, 'notes.txt'), 'untracked\n');
    for (const dir of [clean, cleanBranch, dirty, untracked, unpushed, locked]) ageLinked(dir, 100);
    ageLinked(fresh, 5);
    for (const dir of [pruned, elsewhere, orphanOld])
      fs.utimesSync(dir, new Date(Date.now() - 100 * 86_400_000), new Date(Date.now() - 100 * 86_400_000));
    ageLinked(orphanYoung, 60);
    fs.rmSync(gone.root, { recursive: true, force: true });
    const registeredBefore = registrations(parent);
    expect(registeredBefore).toHaveLength(7);
    const before = new Map([clean, dirty, untracked].map((d) => [d, linkedSignalTimes(d)]));

    // A dry run first: nothing moves, not even an activity signal (no index is rewritten).
    const dry = await reap(options(root, { dryRun: true }));
    for (const [dir, times] of before) expect(linkedSignalTimes(dir)).toEqual(times);
    expect(reaped(dry)).toEqual([
      'exploration-0000c001',
      'exploration-0000o100',
      'exploration-0000r001',
      'feature-clean',
    ]);
    expect(registrations(parent)).toEqual(registeredBefore);

    const result = await reap(options(root));
    const d = byName(result);
    expect(d['exploration-0000c001']).toMatchObject({
      isolation: 'disk',
      class: 'transient',
      result: 'removed',
      reason: 'stale and holds no work',
    });
    expect(d['feature-clean']).toMatchObject({ class: 'persistent', result: 'removed' });
    expect(d['exploration-0000f001']).toMatchObject({ result: 'kept', reason: 'fresh: 5 of 30 days' });
    expect(d['exploration-0000d001']).toMatchObject({
      result: 'kept',
      reason: 'holds work: 1 uncommitted file(s)',
    });
    expect(d['exploration-0000u001']).toMatchObject({
      result: 'kept',
      reason: 'holds work: 1 uncommitted file(s)',
    });
    expect(d['exploration-0000p001']).toMatchObject({ result: 'kept' });
    expect(d['exploration-0000p001'].reason).toMatch(
      /^holds work: \d+ commit\(s\) on .* on no (remote|branch or tag of the parent)$/,
    );
    expect(d['exploration-0000k001']).toMatchObject({
      result: 'kept',
      reason: 'in use: its registration is locked (git worktree lock)',
    });
    expect(d['exploration-0000e001'].result).toBe('kept');
    expect(d['exploration-0000e001'].reason).toMatch(
      /^the check for work could not run \(unregistered: its registration exploration-0000f001 in .* belongs to another worktree\)$/,
    );
    expect(d['exploration-0000r001']).toMatchObject({ class: 'orphan', result: 'removed' });
    expect(d['exploration-0000r001'].reason).toMatch(
      /^orphan \(its registration exploration-0000r001 is gone from /,
    );
    expect(d['exploration-0000o060']).toMatchObject({
      class: 'orphan',
      result: 'kept',
      reason: 'fresh: 60 of 90 days',
    });
    expect(d['exploration-0000o100']).toMatchObject({ class: 'orphan', result: 'removed' });
    expect(d['exploration-0000o100'].reason).toContain('is gone');
    // The clean ones were proved clean from their registration's index; the dirty and untracked ones
    // needed a helper's git status.
    expect(result.stats.provedByFilesystem).toBe(2);

    // Exactly the removed worktrees' registrations went; the others are untouched.
    for (const gone of [clean, cleanBranch, pruned, orphanOld]) expect(fs.existsSync(gone)).toBe(false);
    expect(registrations(parent)).toEqual(
      registeredBefore.filter((id) => id !== 'exploration-0000c001' && id !== 'feature-clean').sort(),
    );
    for (const kept of [fresh, dirty, untracked, unpushed, locked, elsewhere, orphanYoung])
      expect(fs.existsSync(path.join(kept, '.git'))).toBe(true);
    expect(fs.readFileSync(path.join(dirty, 'README.md'), 'utf8')).toContain('edited');
    // git itself still sees a sane list: the main worktree and the kept ones, nothing prunable but the
    // pruned-by-hand one (already gone), the branch of the removed one still in the parent.
    expect(worktreeList(parent).sort()).toEqual([parent, fresh, dirty, untracked, unpushed, locked].sort());
    expect(git(parent, 'worktree', 'list', '--porcelain')).not.toContain('prunable');
    expect(git(parent, 'branch', '--list', 'feature/clean')).toContain('feature/clean');
    expect(git(parent, 'status', '--porcelain')).toBe('');
    expect(git(dirty, 'status', '--porcelain')).toBe('M README.md');

    const again = await reap(options(root));
    expect(reaped(again)).toEqual([]);
    expect(byName(again)['exploration-0000e001'].result).toBe('kept');
  }, 180_000);

  it("removes a parent's registrations together: the one that cannot go is left and reported, the kept worktrees' are never touched", async () => {
    const root = newRoot();
    const repo = newRepo();
    const parent = fs.realpathSync(repo.parent);
    const gitDir = path.join(parent, '.git');
    const add = (name: string) => addLinkedWorktree(parent, root, 'cache', name);
    const clean = [
      'exploration-0000b001',
      'exploration-0000b002',
      'exploration-0000b003',
      'exploration-0000b004',
      'exploration-0000b005',
    ];
    const cleanDirs = clean.map(add);
    const busy = add('exploration-0000b006');
    const dirty = add('exploration-0000d001');
    fs.appendFileSync(path.join(dirty, 'README.md'), 'edited\n');
    const fresh = add('exploration-0000f001');
    for (const dir of [...cleanDirs, busy, dirty]) ageLinked(dir, 100);
    ageLinked(fresh, 5);
    // One registration holds a file nobody may delete (immutable, as root too): its removal fails.
    const stuck = registrationOf(cleanDirs[2]);
    execFileSync('chattr', ['+i', path.join(stuck, 'commondir')]);
    // A run holds the lock of a stale, clean one: it is in use.
    const releaseBusy = await lockSandbox(gitDir, 'exploration-0000b006', 0);
    const keptBefore = [busy, dirty, fresh].map((dir) => contents(registrationOf(dir)));
    const stuckBefore = contents(stuck);
    try {
      const d = byName(await reap(options(root)));

      for (const name of [...clean.slice(0, 2), ...clean.slice(3)]) expect(d[name].result).toBe('removed');
      expect(d['exploration-0000b003']).toMatchObject({
        result: 'partly removed',
        detail: 'its registration was left: EPERM',
        problems: [{ path: path.join(stuck, 'commondir'), error: 'EPERM' }],
      });
      expect(d['exploration-0000b006']).toMatchObject({
        result: 'kept',
        reason: 'in use: a run holds its lock',
      });
      expect(d['exploration-0000d001']).toMatchObject({
        result: 'kept',
        reason: 'holds work: 1 uncommitted file(s)',
      });
      expect(d['exploration-0000f001'].result).toBe('kept');
      for (const dir of cleanDirs) expect(fs.existsSync(dir)).toBe(false);
      // Left: the registration that could not go (its gitdir still names the worktree), and those of the
      // kept worktrees, byte for byte.
      expect(registrations(parent)).toEqual([
        'exploration-0000b003',
        'exploration-0000b006',
        'exploration-0000d001',
        'exploration-0000f001',
      ]);
      // Of the stuck one, only what could not be deleted is left (the walk deletes all else, as for folders).
      expect(Object.keys(stuckBefore)).toContain('gitdir');
      expect(fs.readdirSync(stuck)).toEqual(['commondir']);
      expect([busy, dirty, fresh].map((dir) => contents(registrationOf(dir)))).toEqual(keptBefore);
      expect(fs.readFileSync(path.join(dirty, 'README.md'), 'utf8')).toContain('edited');
      expect(git(dirty, 'status', '--porcelain')).toBe('M README.md');
    } finally {
      await releaseBusy();
      execFileSync('chattr', ['-i', path.join(stuck, 'commondir')]);
    }
    // git still lists the main worktree and the kept ones (what is left of the stuck one names none).
    expect(worktreeList(parent).sort()).toEqual([parent, busy, dirty, fresh].sort());
  }, 180_000);

  it("removes registrations only under their parent's repository lock; another parent's go meanwhile", async () => {
    const root = newRoot();
    const parent = fs.realpathSync(newRepo().parent);
    const other = fs.realpathSync(newRepo().parent);
    const gitDir = path.join(parent, '.git');
    // The held parent's worktrees come first in the cache, the other parent's after them.
    const dirs = ['exploration-0000a001', 'exploration-0000a002', 'exploration-0000a003'].map((name) =>
      addLinkedWorktree(parent, root, 'a-cache', name, { ageDays: 100 }),
    );
    const otherDirs = ['exploration-0000b001', 'exploration-0000b002'].map((name) =>
      addLinkedWorktree(other, root, 'b-cache', name, { ageDays: 100 }),
    );
    const before = registrations(parent);
    let letGo!: () => void;
    let taken!: () => void;
    const isTaken = new Promise<void>((resolve) => (taken = resolve));
    // Another run holds the parent's lock (as run mode does while it changes the parent's metadata).
    const holding = withRepositoryLock(gitDir, async () => {
      taken();
      await new Promise<void>((resolve) => (letGo = resolve));
    });
    await isTaken;
    const reaping = reap(options(root));
    try {
      // The other parent's registrations do not wait behind the held one's.
      await waitUntil(
        () =>
          [...dirs, ...otherDirs].every((dir) => !fs.existsSync(dir)) && registrations(other).length === 0,
        60_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // The folders went; the held parent's registrations wait for its lock.
      expect(registrations(parent)).toEqual(before);
    } finally {
      letGo();
      await holding;
    }
    const d = byName(await reaping);
    for (const dir of [...dirs, ...otherDirs]) expect(d[path.basename(dir)].result).toBe('removed');
    expect(registrations(parent)).toEqual([]);
    expect(worktreeList(parent)).toEqual([parent]);
    expect(worktreeList(other)).toEqual([other]);
  }, 180_000);

  it('list sees linked worktrees with their branch; rm NAME removes one with its registration', async () => {
    const root = newRoot();
    const archive = newRoot();
    const repo = newRepo();
    const parent = fs.realpathSync(repo.parent);
    const one = addLinkedWorktree(parent, root, 'cache', 'feature-one', {
      branch: 'feature/one',
      ageDays: 3,
    });
    const two = addLinkedWorktree(parent, root, 'cache', 'feature-two', {
      branch: 'feature/two',
      ageDays: 3,
    });

    const listed = await listSandboxes({
      worktreeRoot: root,
      volumePrefix: uniquePrefix('reaplinked'),
      engine: 'docker',
      image: TEST_IMAGE,
      retention: DEFAULT_RETENTION,
    });
    const rows = Object.fromEntries(listed.sandboxes.map((s) => [s.scanned.sandbox, s]));
    expect(rows['feature-one'].branch).toBe('feature/one');
    expect(rows['feature-one'].facts.work).toEqual({ state: 'clean' });
    expect(rows['feature-one'].decision.reason).toBe('fresh: 3 of 90 days');

    const removed = await removeByName({
      name: 'feature-one',
      worktreeRoot: root,
      volumePrefix: uniquePrefix('reaplinked'),
      engine: 'docker',
      image: TEST_IMAGE,
      retention: DEFAULT_RETENTION,
      force: false,
      archiveDir: archive,
    });
    expect(removed.status).toBe('removed');
    expect(fs.existsSync(one)).toBe(false);
    expect(registrations(parent)).toEqual(['feature-two']);
    expect(worktreeList(parent).sort()).toEqual([parent, two].sort());
  }, 120_000);

  it('never runs what a worktree or its registration configured, and keeps it with its work', async () => {
    const root = newRoot();
    const markers = newRoot();
    const repo = newRepo();
    const parent = fs.realpathSync(repo.parent);
    const hostile = addLinkedWorktree(parent, root, 'cache', 'exploration-0000h001');
    const admin = registrationOf(hostile);
    const marker = path.join(markers, 'payload-ran');
    const payload = path.join(admin, 'payload.sh');
    fs.writeFileSync(payload, `#!/bin/sh\necho ran >> ${marker}\ncat\n`, { mode: 0o755 });
    // Per-worktree configuration (read by git in the worktree once the parent enables it) naming programs.
    git(parent, 'config', 'extensions.worktreeConfig', 'true');
    fs.writeFileSync(
      path.join(admin, 'config.worktree'),
      `[core]\n\tfsmonitor = ${payload}\n[filter "x"]\n\tclean = ${payload}\n`,
    );
    fs.writeFileSync(path.join(hostile, '.gitattributes'), '* filter=x\n');
    fs.appendFileSync(path.join(hostile, 'README.md'), 'edited\n');
    // The control: git used in the worktree runs the payload.
    git(hostile, 'status', '--porcelain');
    expect(fs.existsSync(marker)).toBe(true);
    fs.rmSync(marker);
    const clean = addLinkedWorktree(parent, root, 'cache', 'exploration-0000h002');
    for (const dir of [hostile, clean]) ageLinked(dir, 100);

    const d = byName(await reap(options(root)));
    expect(fs.existsSync(marker)).toBe(false);
    expect(d['exploration-0000h001']).toMatchObject({ result: 'kept' });
    expect(d['exploration-0000h001'].reason).toMatch(/^holds work: [12] uncommitted file\(s\)$/);
    expect(d['exploration-0000h002'].result).toBe('removed');
    expect(registrations(parent)).toEqual(['exploration-0000h001']);
  }, 120_000);
});
