// The rules that keep work safe, proved with fakes for git and the engine (no Docker, no git process) on
// folders made here: a sandbox whose lock a run holds is skipped; one with activity since the scan is
// kept; one whose `.git` cannot be moved away is left intact; a check for work that git fails is kept
// with the reason; a dry run removes nothing, and is bounded by `max-removals` as a real run is, which
// takes the oldest first, the rest in later runs.
import { jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { HelperImage } from '../engine/helper-image.js';
import { lockSandbox } from '../sandbox/lock.js';
import type { ParentRepository } from '../sandbox/repository.js';
import { decide, type Decision } from './decide.js';
import { reap } from './reap.js';
import { DEFAULT_RETENTION } from './retention.js';
import { carryOut, type ExecuteDeps, type Removal } from './execute.js';
import type { ScannedSandbox } from './scanned-sandbox.js';
import { checkWork } from './work.js';
import { fakeEngine, fakeGit } from '../../test/support/fakes.js';
import { facts, NOW, policy } from '../../test/support/reap-facts.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/** Fakes that fail the test if the reaper asks them anything. */
const noImage: HelperImage = () => Promise.reject(new Error('no helper image may be made'));

/** A disk sandbox `<root>/p/<name>` with a `.git` folder, files, and activity `ageMs` ago. */
function diskSandbox(root: string, name: string, extra: Partial<ScannedSandbox> = {}): ScannedSandbox {
  const hostPath = path.join(root, 'p', name);
  fs.mkdirSync(path.join(hostPath, '.git'), { recursive: true });
  fs.writeFileSync(path.join(hostPath, '.git', 'HEAD'), `${'a'.repeat(40)}\n`);
  fs.writeFileSync(path.join(hostPath, 'work.txt'), 'work\n');
  return {
    key: `disk:${hostPath}`,
    sandbox: name,
    project: 'p',
    isolation: 'disk',
    where: hostPath,
    hostPath,
    lastActivityMs: fs.lstatSync(hostPath).mtimeMs,
    ...extra,
  };
}

function fakes() {
  return { git: fakeGit(), engine: fakeEngine() };
}

function removal(sandbox: ScannedSandbox, lastActivityMs = sandbox.lastActivityMs): Removal {
  const decision: Decision = {
    key: sandbox.key,
    sandbox: sandbox.sandbox,
    project: sandbox.project,
    isolation: sandbox.isolation,
    where: sandbox.where,
    class: 'transient',
    lastActivityMs,
    action: 'remove',
    reason: 'stale',
  };
  return { decision, sandbox };
}

function deps(root: string, log: string[] = []): ExecuteDeps & ReturnType<typeof fakes> {
  return {
    ...fakes(),
    image: noImage,
    root,
    archiveDir: '',
    now: new Date(NOW),
    log: (line) => log.push(line),
  };
}

describe('carrying out a removal', () => {
  it('removes an orphan disk sandbox that nothing changed since the scan (the fakes are never asked)', async () => {
    const root = tempDir('wts-invariants-');
    const s = diskSandbox(root, 'exploration-00000001', { orphan: 'its parent is gone' });

    const tools = deps(root);
    const outcomes = await carryOut([removal(s)], tools);

    expect(outcomes.get(s.key)).toMatchObject({ status: 'removed' });
    expect(fs.existsSync(s.hostPath!)).toBe(false);
    for (const fake of [tools.git, tools.engine])
      for (const method of Object.values(fake))
        if (jest.isMockFunction(method)) expect(method).not.toHaveBeenCalled();
  });

  it('skips a sandbox whose lock a run holds, and touches nothing of it', async () => {
    const root = tempDir('wts-invariants-');
    const gitDir = path.join(tempDir('wts-invariants-parent-'), '.git');
    fs.mkdirSync(gitDir);
    const parent = { path: path.dirname(gitDir), gitDir } as ParentRepository;
    const s = diskSandbox(root, 'exploration-00000002', { parent });
    const release = await lockSandbox(gitDir, s.sandbox, 0);
    try {
      const outcomes = await carryOut([removal(s)], deps(root));

      expect(outcomes.get(s.key)).toMatchObject({ status: 'skipped' });
      expect(outcomes.get(s.key)!.detail).toMatch(/^in use: a run holds its lock/);
      expect(fs.readFileSync(path.join(s.hostPath!, 'work.txt'), 'utf8')).toBe('work\n');
    } finally {
      await release();
    }
  });

  it('keeps a sandbox with activity since the scan', async () => {
    const root = tempDir('wts-invariants-');
    const s = diskSandbox(root, 'exploration-00000003', { orphan: 'its parent is gone' });

    // The scan saw it a minute before what its files say now.
    const outcomes = await carryOut([removal(s, s.lastActivityMs! - 60_000)], deps(root));

    expect(outcomes.get(s.key)).toMatchObject({ status: 'skipped', detail: 'activity since the scan' });
    expect(fs.readFileSync(path.join(s.hostPath!, 'work.txt'), 'utf8')).toBe('work\n');
  });

  const isRoot = process.getuid?.() === 0;
  (isRoot ? it : it.skip)('leaves a sandbox intact when its .git cannot be moved away', async () => {
    const root = tempDir('wts-invariants-');
    const s = diskSandbox(root, 'exploration-00000004', { orphan: 'its parent is gone' });
    execFileSync('chattr', ['+i', s.hostPath!]);
    try {
      const outcomes = await carryOut([removal(s)], deps(root));

      expect(outcomes.get(s.key)).toMatchObject({ status: 'not removed' });
      expect(outcomes.get(s.key)!.detail).toMatch(/its \.git folder could not be moved away .*: left intact/);
      expect(fs.readdirSync(s.hostPath!).sort()).toEqual(['.git', 'work.txt']);
    } finally {
      execFileSync('chattr', ['-i', s.hostPath!]);
    }
  });
});

describe('checking for work', () => {
  it('keeps a sandbox whose check git fails, with the reason', async () => {
    const root = tempDir('wts-invariants-');
    const gitDir = path.join(tempDir('wts-invariants-parent-'), '.git');
    fs.mkdirSync(gitDir);
    const parent = { path: path.dirname(gitDir), gitDir } as ParentRepository;
    const s = diskSandbox(root, 'exploration-00000005', { parent, recorded: 'head' });

    const git = fakeGit();
    for (const method of [git.exec, git.run, git.readSmallObjects, git.objectReader, git.stream])
      method.mockRejectedValue(new Error('git broke'));
    const reports = await checkWork([s], { git, engine: fakeEngine(), image: noImage });

    const work = reports.get(s.key)!.work;
    expect(work).toMatchObject({ state: 'unknown' });
    expect('detail' in work && work.detail).toMatch(/git broke/);
    const [decision] = decide([{ ...facts(s.sandbox, 400), key: s.key, work }], policy, NOW);
    expect(decision).toMatchObject({ action: 'keep' });
    expect(decision.reason).toMatch(/git broke/);
  });
});

describe('deciding', () => {
  it('takes the oldest first under max-removals', () => {
    const all = [
      facts('exploration-0000000a', 40),
      facts('exploration-0000000b', 400),
      facts('exploration-0000000c', 100),
    ];

    const decided = decide(all, { ...policy, maxRemovals: 1 }, NOW);

    expect(decided.filter((d) => d.action === 'remove').map((d) => d.sandbox)).toEqual([
      'exploration-0000000b',
    ]);
  });
});

/** Orphan disk sandboxes under a new root, each last active `days` days ago (none needs git to decide). */
function orphans(ages: Record<string, number>): { root: string; stale: ScannedSandbox[] } {
  const root = tempDir('wts-invariants-');
  const stale = Object.entries(ages).map(([name, days]) => {
    const s = diskSandbox(root, name);
    const then = new Date(NOW - days * 24 * 3600 * 1000);
    for (const p of [path.join(s.hostPath!, 'work.txt'), path.join(s.hostPath!, '.git', 'HEAD')])
      fs.utimesSync(p, then, then);
    for (const p of [path.join(s.hostPath!, '.git'), s.hostPath!]) fs.utimesSync(p, then, then);
    return s;
  });
  return { root, stale };
}

/** An engine that knows no container and no volume, and git that is never asked. */
function emptyEngine() {
  const engine = fakeEngine();
  engine.run.mockResolvedValue('');
  engine.exec.mockResolvedValue({ exitCode: 0, stdout: '', stderr: '' });
  engine.hostView.mockResolvedValue({ kind: 'same', containerized: false });
  engine.listContainers.mockResolvedValue([]);
  return { engine, git: fakeGit('an orphan needs no git: git') };
}

function reapIn(
  root: string,
  tools: ReturnType<typeof emptyEngine>,
  run: { dryRun: boolean; maxRemovals: number },
) {
  return reap(
    {
      worktreeRoot: root,
      volumePrefix: 'wts-invariants',
      engine: 'docker',
      image: 'unused',
      retention: DEFAULT_RETENTION,
      force: false,
      archiveDir: '',
      now: NOW,
      ...run,
    },
    undefined,
    tools,
  );
}

describe('a dry run', () => {
  it('removes nothing, and asks the engine nothing that changes anything', async () => {
    const { root, stale } = orphans({ 'exploration-0000000d': 400, 'feature-old': 400 });
    const { engine, git } = emptyEngine();

    const result = await reapIn(root, { engine, git }, { dryRun: true, maxRemovals: 0 });

    expect(result.sandboxes.map((s) => [s.sandbox, s.result]).sort()).toEqual([
      ['exploration-0000000d', 'would remove'],
      ['feature-old', 'would remove'],
    ]);
    expect(result.freedBytes).toBeGreaterThan(0);
    for (const s of stale) expect(fs.readdirSync(s.hostPath!).sort()).toEqual(['.git', 'work.txt']);
    const asked = [...engine.run.mock.calls, ...engine.exec.mock.calls].map(([args]) => args);
    const changing = asked.filter(
      (args) => ['rm', 'volume', 'kill', 'stop', 'run'].includes(args[0]) && args[1] !== 'ls',
    );
    expect(changing).toEqual([]);
    for (const method of [
      engine.removeContainer,
      engine.removeContainersLabelled,
      engine.removeVolume,
      engine.killContainer,
      engine.stopContainer,
      engine.runHelper,
    ])
      expect(method).not.toHaveBeenCalled();
  });

  it('is bounded by max-removals as a real run is; each real run then takes the oldest that are left', async () => {
    const { root } = orphans({
      'exploration-0000a100': 100,
      'exploration-0000a200': 200,
      'exploration-0000a300': 300,
      'exploration-0000a001': 1,
    });
    const tools = emptyEngine();
    const removed = (r: Awaited<ReturnType<typeof reap>>, as: string) =>
      r.sandboxes
        .filter((s) => s.result === as)
        .map((s) => s.sandbox)
        .sort();

    const dry = await reapIn(root, tools, { dryRun: true, maxRemovals: 2 });
    expect(removed(dry, 'would remove')).toEqual(['exploration-0000a200', 'exploration-0000a300']);
    expect(fs.readdirSync(path.join(root, 'p'))).toHaveLength(4);

    const first = await reapIn(root, tools, { dryRun: false, maxRemovals: 2 });
    expect(removed(first, 'removed')).toEqual(['exploration-0000a200', 'exploration-0000a300']);
    expect(first.sandboxes.find((s) => s.sandbox === 'exploration-0000a100')!.reason).toContain(
      'max-removals (2) is reached',
    );
    const second = await reapIn(root, tools, { dryRun: false, maxRemovals: 2 });
    expect(removed(second, 'removed')).toEqual(['exploration-0000a100']);
    const third = await reapIn(root, tools, { dryRun: false, maxRemovals: 2 });
    expect(removed(third, 'removed')).toEqual([]);
    expect(fs.readdirSync(path.join(root, 'p'))).toEqual(['exploration-0000a001']);
  });
});
