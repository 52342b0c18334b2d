// Live attacks on the reaper (docs/security-model.md, "The reaper"), through the bundle as the runner user:
//  - traps in one stale sandbox's .git (a folder of mode 0444 with a file in it, a chain of folders deeper
//    than PATH_MAX) among innocent stale sandboxes of other parents: the reap ends normally, the trap is
//    kept with a reason, every innocent decision stands;
//  - a refs bomb (450,000 packed tags) in one volume among innocent volumes of the same helper batch: the
//    innocents get their real verdict;
//  - a lying image (its `git status` prints nothing) given as `image` to a reap: a victim volume with
//    uncommitted work is kept, on Docker and on the runner's rootless Podman.
// Each test states its time bound, and the action's peak memory where the attack is about size.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ContainerEngine } from '../../src/engine/engine.js';
import { inspectInHelpers } from '../../src/reap/helper-inspection.js';
import { persistentSandboxName, projectName, volumeName } from '../../src/sandbox/naming.js';
import { runMainAndPost, runStep, type StepResult } from '../support/action.js';
import { docker, removeVolumes, uniquePrefix, volumesWithPrefix } from '../support/docker.js';
import { TEST_IMAGE, runnerIds } from '../support/env.js';
import { chownTree, makeRepo, tempDir, type TestRepo } from '../support/repo.js';
import { requireRootlessPodman, rootlessPodman } from '../support/rootless.js';
import {
  DAY,
  SIGNAL_FILES,
  gitInVolume,
  inVolumeSandbox,
  makeDiskSandbox,
  makeVolumeSandbox,
} from '../support/sandboxes.js';
import {
  PODMAN_ROOTLESS,
  createStorageVolume,
  inStorageVolume,
  removeStorageVolumes,
  storageVolumes,
} from '../support/storage.js';

const cleanup: Array<() => unknown> = [];
afterAll(async () => {
  for (const clean of cleanup.reverse()) await clean();
});

/** `rm -rf`: Node's recursive removal gives up on paths longer than PATH_MAX, which these tests make. */
function removeDir(dir: string): void {
  execFileSync('rm', ['-rf', '--', dir]);
}

function repo(): TestRepo {
  const made = makeRepo();
  cleanup.push(() => removeDir(made.root));
  return made;
}

interface Record {
  sandbox: string;
  isolation: string;
  reason: string;
}

function verdicts(step: StepResult): Map<string, { reaped: boolean; reason: string }> {
  const out = new Map<string, { reaped: boolean; reason: string }>();
  for (const name of ['reaped', 'kept'] as const)
    for (const r of JSON.parse(step.outputs[name]) as Record[])
      out.set(r.sandbox, { reaped: name === 'reaped', reason: r.reason });
  return out;
}

/** In `dir` (made if missing): a folder of mode 0444 with a file in it, and a chain deeper than PATH_MAX. */
function plantTraps(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const locked = path.join(dir, 'locked');
  fs.mkdirSync(locked);
  fs.writeFileSync(path.join(locked, 'inside'), 'x');
  fs.chmodSync(locked, 0o444);
  // 24 folders of 200 characters: about 4,800 bytes below `dir`, past PATH_MAX (4,096). Made in two
  // halves, each by mkdir -p with a relative path from a working folder still short enough to enter.
  const half = Array.from({ length: 12 }, () => 'd'.repeat(200)).join('/');
  execFileSync('mkdir', ['-p', half], { cwd: dir });
  execFileSync('mkdir', ['-p', half], { cwd: path.join(dir, half) });
  execFileSync('sh', ['-c', 'echo x > "$1/bottom"', 'sh', half], { cwd: path.join(dir, half) });
}

const exists = (p: string) => fs.existsSync(p);

describe('the reaper against traps, bombs and a lying image (bundle, as the runner)', () => {
  it('traps in one sandbox’s .git: the reap ends normally, the trap is kept with a reason, innocents stand', async () => {
    const owner = runnerIds();
    const root = tempDir('wts-traps-root-');
    cleanup.push(() => removeDir(root));
    const [a, b, c] = [repo(), repo(), repo()];
    // Parent A: the trap (stale, uncommitted work, traps in .git), a clean trap (stale, no work, traps in
    // .git), and an innocent stale clean one.
    const trap = await makeDiskSandbox(a, root, 'feature-trap', { branch: 'feature/trap' });
    fs.writeFileSync(path.join(trap, 'draft.txt'), 'uncommitted work of the trap sandbox\n');
    plantTraps(path.join(trap, '.git', 'trap'));
    const cleanTrap = await makeDiskSandbox(a, root, 'exploration-0000c001');
    plantTraps(path.join(cleanTrap, '.git', 'trap'));
    const aClean = await makeDiskSandbox(a, root, 'exploration-0000a001');
    // Parent B: stale clean (removed), stale with work (kept), fresh (kept). Parent C: stale clean.
    const bClean = await makeDiskSandbox(b, root, 'exploration-0000b001');
    const bWork = await makeDiskSandbox(b, root, 'exploration-0000b002');
    fs.writeFileSync(path.join(bWork, 'notes.txt'), 'work\n');
    const bFresh = await makeDiskSandbox(b, root, 'exploration-0000b003');
    const cClean = await makeDiskSandbox(c, root, 'exploration-0000d001');
    for (const dir of [a.root, b.root, c.root, root]) chownTree(dir, owner);
    const stale = [trap, cleanTrap, aClean, bClean, bWork, cClean];
    ageAll(stale, 100);
    ageAll([bFresh], 2);

    const inputs = {
      mode: 'reap',
      engine: 'docker',
      'worktree-root': root,
      'volume-prefix': uniquePrefix('traps'),
    };
    // A dry run first: it measures what it would remove (the clean trap among them).
    const started = Date.now();
    const dry = await runStep({ inputs: { ...inputs, 'dry-run': 'true' }, asRunner: true });
    expect({ code: dry.code, stderr: dry.stderr }).toEqual({ code: 0, stderr: '' });
    const real = await runStep({ inputs, asRunner: true });
    const seconds = (Date.now() - started) / 1000;
    expect({ code: real.code, stderr: real.stderr }).toEqual({ code: 0, stderr: '' });
    expect(real.stdout).not.toMatch(/::error::/);

    const v = verdicts(real);
    // The trap holds work: kept, with the reason, and every byte of it still there.
    expect(v.get('feature-trap')).toMatchObject({ reaped: false });
    expect(v.get('feature-trap')!.reason).toMatch(/work|uncommitted/);
    expect(fs.readFileSync(path.join(trap, 'draft.txt'), 'utf8')).toContain('uncommitted work');
    expect(exists(path.join(trap, '.git', 'trap', 'locked'))).toBe(true);
    // The innocents: removed ones removed, kept ones kept.
    for (const [dir, name] of [
      [aClean, 'exploration-0000a001'],
      [bClean, 'exploration-0000b001'],
      [cClean, 'exploration-0000d001'],
    ]) {
      expect({ name, verdict: v.get(name)?.reaped }).toEqual({ name, verdict: true });
      expect({ name, exists: exists(dir) }).toEqual({ name, exists: false });
    }
    expect(v.get('exploration-0000b002')).toMatchObject({ reaped: false });
    expect(fs.readFileSync(path.join(bWork, 'notes.txt'), 'utf8')).toBe('work\n');
    expect(v.get('exploration-0000b003')).toMatchObject({ reaped: false });
    expect(exists(bFresh)).toBe(true);
    // The clean trap holds no work: it goes, whole or in part (what could not be deleted is reported).
    expect(v.get('exploration-0000c001')?.reaped).toBe(true);
    expect(exists(path.join(cleanTrap, '.git'))).toBe(false);
    // Bound: both reaps of these seven sandboxes in under 60 s on this shared 2-core machine.
    expect(seconds).toBeLessThan(60);
  }, 180_000);

  it('a refs bomb in one volume: the innocents of the same helper batch get their real verdict', async () => {
    const prefix = uniquePrefix('refsbomb');
    cleanup.push(() => removeVolumes(prefix));
    const parent = repo();
    const bomb = await makeVolumeSandbox(parent, prefix, {
      transientName: 'exploration-0000e001',
      ageDays: 100,
    });
    const clean = await makeVolumeSandbox(parent, prefix, {
      transientName: 'exploration-0000e002',
      ageDays: 100,
    });
    const dirty = await makeVolumeSandbox(parent, prefix, {
      transientName: 'exploration-0000e003',
      ageDays: 100,
    });
    const unsaved = await makeVolumeSandbox(parent, prefix, {
      transientName: 'exploration-0000e004',
      ageDays: 100,
    });
    // A bigger bomb: 700,000 tags, a packed-refs file past what the helper copies (32 MiB).
    const big = await makeVolumeSandbox(parent, prefix, {
      transientName: 'exploration-0000e005',
      ageDays: 100,
    });
    inVolumeSandbox(dirty, 'echo draft > "$1/draft.txt"');
    gitInVolume(unsaved, 'commit --quiet --allow-empty -m "a commit on no remote"');
    // 450,000 tags, written straight into packed-refs (sorted names, one commit).
    inVolumeSandbox(
      bomb,
      `cd "$1" && sha=$(git -c safe.directory='*' rev-parse HEAD) && { echo '# pack-refs with: peeled fully-peeled sorted '; seq -f "$sha refs/tags/t%07.0f" 1 450000; } > .git/packed-refs && wc -l < .git/packed-refs`,
    );
    inVolumeSandbox(
      big,
      `cd "$1" && sha=$(git -c safe.directory='*' rev-parse HEAD) && { echo '# pack-refs with: peeled fully-peeled sorted '; seq -f "$sha refs/tags/t%07.0f" 1 700000; } > .git/packed-refs`,
    );
    // The writes above were activity: age them all again.
    for (const made of [bomb, clean, dirty, unsaved, big])
      inVolumeSandbox(
        made,
        `for p in "$1" ${SIGNAL_FILES.map((f) => `"$1/.git/${f}"`).join(' ')}; do touch -c -h -d @${Math.floor((Date.now() - 100 * DAY) / 1000)} "$p"; done`,
      );
    chownTree(parent.root, runnerIds());

    const started = Date.now();
    const step = await runStep({
      inputs: {
        mode: 'reap',
        engine: 'docker',
        'worktree-root': tempDir('wts-bomb-root-'),
        'volume-prefix': prefix,
      },
      asRunner: true,
    });
    const seconds = (Date.now() - started) / 1000;
    expect({ code: step.code, stderr: step.stderr }).toEqual({ code: 0, stderr: '' });
    const v = verdicts(step);
    // The innocents first: their real verdicts.
    expect(v.get('exploration-0000e002')).toMatchObject({ reaped: true });
    expect(v.get('exploration-0000e003')).toMatchObject({ reaped: false });
    expect(v.get('exploration-0000e003')!.reason).toMatch(/uncommitted/);
    expect(v.get('exploration-0000e004')).toMatchObject({ reaped: false });
    expect(v.get('exploration-0000e004')!.reason).toMatch(
      /\d+ commit\(s\) on .* on no (remote|branch or tag of the parent)/,
    );
    // The bomb: kept, and why.
    expect(v.get('exploration-0000e001')).toMatchObject({ reaped: false });
    expect(v.get('exploration-0000e001')!.reason).toMatch(/more than 20000 refs/);
    expect(v.get('exploration-0000e005')).toMatchObject({ reaped: false });
    expect(v.get('exploration-0000e005')!.reason).toMatch(/packed-refs is larger than/);
    expect(volumesWithPrefix(prefix).sort()).toEqual(
      [bomb.volume, dirty.volume, unsaved.volume, big.volume].sort(),
    );
    // Bounds: under 120 s, and the action itself under 200 MB resident (the bomb's 18 MB of object names
    // never reach it).
    expect(seconds).toBeLessThan(120);
    expect(step.peakRssKb).toBeLessThan(200 * 1024);
  }, 300_000);
});

describe('a lying image given to a reap', () => {
  const LIAR = `wts-lying-git:${process.pid}`;
  // git for everything, but `git status` prints nothing and succeeds: "no uncommitted changes".
  const LYING_GIT = '#!/bin/sh\ncase "$1" in status) exit 0 ;; esac\nexec /usr/bin/git "$@"\n';
  let context = '';
  beforeAll(() => {
    context = tempDir('wts-lying-image-');
    cleanup.push(() => removeDir(context));
    fs.writeFileSync(path.join(context, 'git'), LYING_GIT, { mode: 0o755 });
    fs.writeFileSync(
      path.join(context, 'Dockerfile'),
      `FROM ${TEST_IMAGE}\nCOPY git /usr/local/bin/git\nENV PATH=/usr/local/bin:/usr/bin:/bin\n`,
    );
    fs.chmodSync(context, 0o755);
  });

  it('docker: the image does lie, and the victim’s uncommitted work is kept all the same', async () => {
    docker('build', '--quiet', '--network', 'none', '-t', LIAR, context);
    cleanup.push(() => docker('image', 'rm', '--force', LIAR));
    const prefix = uniquePrefix('liar');
    cleanup.push(() => removeVolumes(prefix));
    const parent = repo();
    const victim = await makeVolumeSandbox(parent, prefix, {
      transientName: 'exploration-0000f001',
      ageDays: 100,
    });
    const innocent = await makeVolumeSandbox(parent, prefix, {
      transientName: 'exploration-0000f002',
      ageDays: 100,
    });
    inVolumeSandbox(victim, 'echo "the victim’s uncommitted work" > "$1/work.txt"');
    inVolumeSandbox(
      victim,
      `for p in "$1" ${SIGNAL_FILES.map((f) => `"$1/.git/${f}"`).join(' ')}; do touch -c -h -d @${Math.floor((Date.now() - 100 * DAY) / 1000)} "$p"; done`,
    );
    // The attack is live: the reaper's own inspection script, run in the lying image, finds nothing.
    const lied = await inspectInHelpers(
      new ContainerEngine('docker'),
      async () => LIAR,
      victim.location.parent,
      [{ key: 'v', target: { volume: victim.volume, name: victim.location.name }, work: true }],
    );
    expect(lied.get('v')?.work).toMatchObject({ uncommitted: { value: 0 } });
    chownTree(parent.root, runnerIds());

    const started = Date.now();
    const step = await runStep({
      inputs: {
        mode: 'reap',
        engine: 'docker',
        image: LIAR,
        'worktree-root': tempDir('wts-liar-root-'),
        'volume-prefix': prefix,
      },
      asRunner: true,
    });
    expect({ code: step.code, stderr: step.stderr }).toEqual({ code: 0, stderr: '' });
    const v = verdicts(step);
    expect(v.get('exploration-0000f001')).toMatchObject({ reaped: false });
    expect(v.get('exploration-0000f001')!.reason).toMatch(/uncommitted/);
    expect(inVolumeSandbox(victim, 'cat "$1/work.txt"')).toContain('uncommitted work');
    expect(v.get('exploration-0000f002')).toMatchObject({ reaped: true });
    expect(volumesWithPrefix(prefix)).toEqual([victim.volume]);
    expect(volumesWithPrefix(prefix)).not.toContain(innocent.volume);
    expect((Date.now() - started) / 1000).toBeLessThan(60);
  }, 240_000);

  it('rootless podman as uid 1001: the victim’s uncommitted work is kept', async () => {
    requireRootlessPodman();
    const built = await rootlessPodman(['build', '--quiet', '--network', 'none', '-t', LIAR, context]);
    expect(built.stderr.includes('Error')).toBe(false);
    cleanup.push(() => rootlessPodman(['image', 'rm', '--force', LIAR]));
    const owner = runnerIds();
    const made = makeRepo({ owner });
    cleanup.push(() => removeDir(made.root));
    const root = tempDir('wts-liar-rl-root-');
    chownTree(root, owner);
    cleanup.push(() => removeDir(root));
    const prefix = uniquePrefix('liarrl');
    cleanup.push(() => removeStorageVolumes(PODMAN_ROOTLESS, prefix));
    const parentPath = fs.realpathSync(made.parent);
    const project = projectName(parentPath);
    const branch = 'bot/victim';
    const sandbox = persistentSandboxName(branch);
    const volume = volumeName(prefix, project, sandbox);
    const created = new Date(Date.now() - 100 * DAY).toISOString().replace(/\.\d{3}Z$/, 'Z');
    // The volume made beforehand with an old `created` label; run mode (as the runner, on its rootless
    // Podman) then makes the sandbox in it, and the command leaves uncommitted work.
    await createStorageVolume(
      PODMAN_ROOTLESS,
      volume,
      Object.fromEntries(
        Object.entries({
          managed: 'true',
          project,
          sandbox,
          kind: 'persistent',
          branch,
          parent: parentPath,
          created,
        }).map(([k, val]) => [`worktree-sandbox.${k}`, val]),
      ),
    );
    const common = {
      engine: 'podman',
      'repository-path': parentPath,
      'worktree-root': root,
      'volume-prefix': prefix,
    };
    const run = await runMainAndPost({
      inputs: {
        ...common,
        mode: 'run',
        image: TEST_IMAGE,
        command: 'true',
        branch,
        cleanup: 'never',
      },
      asRunner: true,
      rootlessPodman: true,
    });
    expect({ code: run.main.code, stderr: run.main.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.main.outputs.volume).toBe(volume);
    // The victim's work, left uncommitted in its work tree (as the container's root: the runner).
    const when = Math.floor((Date.now() - 100 * DAY) / 1000);
    await inStorageVolume(
      PODMAN_ROOTLESS,
      volume,
      `echo "the victim’s uncommitted work" > "$1/work.txt" && for p in "$1" ${SIGNAL_FILES.map((f) => `"$1/.git/${f}"`).join(' ')}; do touch -c -h -d @${when} "$p"; done`,
      [`/sandbox/${sandbox}`],
    );

    const started = Date.now();
    const step = await runStep({
      inputs: { ...common, mode: 'reap', image: LIAR },
      asRunner: true,
      rootlessPodman: true,
    });
    expect({ code: step.code, stderr: step.stderr }).toEqual({ code: 0, stderr: '' });
    const v = verdicts(step);
    expect(v.get(sandbox)).toMatchObject({ reaped: false });
    expect(v.get(sandbox)!.reason).toMatch(/uncommitted/);
    expect(await storageVolumes(PODMAN_ROOTLESS, prefix)).toEqual([volume]);
    expect(
      await inStorageVolume(PODMAN_ROOTLESS, volume, 'cat "$1/work.txt"', [`/sandbox/${sandbox}`]),
    ).toContain('uncommitted work');
    expect((Date.now() - started) / 1000).toBeLessThan(90);
  }, 300_000);
});

/** Moves every activity signal of these disk sandboxes `days` back (as root: they belong to the runner). */
function ageAll(dirs: readonly string[], days: number): void {
  const when = new Date(Date.now() - days * DAY);
  for (const dir of dirs)
    for (const p of [dir, ...SIGNAL_FILES.map((f) => path.join(dir, '.git', f))])
      if (fs.existsSync(p)) fs.utimesSync(p, when, when);
}
