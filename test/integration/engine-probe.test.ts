// The probe against the real engine on the plain host layout: it proves what the engine sees and leaves
// nothing; a reused sandbox proved by its command's container instead (and refused when the engine does
// not find the probe's files); the reaper's clean-up of probe helpers that killed runs left unstarted; the
// lookup of the action's own container killing an engine CLI that does not answer.
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { probeEngineView, removeStaleProbes } from '../../src/engine/engine-probe.js';
import { ContainerEngine } from '../../src/engine/engine.js';
import { discoverHostView } from '../../src/engine/host-paths.js';
import { cleanupRun } from '../../src/run/cleanup.js';
import { runSandbox } from '../../src/run/run.js';
import type { RunState } from '../../src/run/run-state.js';
import { parseSettings, type RunSettings } from '../../src/settings/settings.js';
import { silentUi } from '../../src/ui/ui.js';
import { docker } from '../support/docker.js';
import { TEST_IMAGE } from '../support/env.js';
import { git, makeRepo, tempDir } from '../support/repo.js';

const dirs: string[] = [];
const containers: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  for (const c of containers) docker('rm', '--force', c);
});

/** Whether container `name` mounts `dir` or anything under it (false once it is gone). */
function mountsUnder(name: string, dir: string): boolean {
  try {
    return docker('container', 'inspect', '--format', '{{range .Mounts}}{{.Source}}\n{{end}}', name)
      .split('\n')
      .some((source) => source === dir || source.startsWith(`${dir}/`));
  } catch {
    return false;
  }
}

const exists = (name: string) => {
  try {
    docker('container', 'inspect', '--format', '{{.Id}}', name);
    return true;
  } catch {
    return false;
  }
};

describe('probeEngineView on the plain host', () => {
  it('succeeds for folders the engine sees, makes a missing one, and leaves no file or helper', async () => {
    const dir = tempDir('wts-probe-');
    dirs.push(dir);
    const root = path.join(dir, 'not', 'yet');
    const engine = new ContainerEngine('docker');
    // Probe helpers that mount this test's folder: other suites' runs on the engine make their own.
    const probes = () =>
      docker('ps', '--all', '--filter', 'name=worktree-sandbox-probe-', '--format', '{{.Names}}')
        .split('\n')
        .filter(Boolean)
        .filter((name) => mountsUnder(name, dir));
    const before = new Set(probes());
    const probe = await probeEngineView(engine, TEST_IMAGE, [
      { path: dir, what: 'parent repository' },
      { path: root, what: 'worktree-root' },
    ]);
    expect(fs.readdirSync(dir)).toEqual(['not']);
    expect(fs.readdirSync(root)).toEqual([]);
    // Its helper, created and never started, stays until the run ends.
    const mine = probes().filter((name) => !before.has(name));
    expect(mine).toHaveLength(1);
    expect(docker('container', 'inspect', '--format', '{{.State.Status}}', mine[0])).toBe('created');
    await probe.remove();
    expect(exists(mine[0])).toBe(false);
  });

  it('fails with the engine’s words for an image it does not have, creating nothing', async () => {
    const dir = tempDir('wts-probe-');
    dirs.push(dir);
    const engine = new ContainerEngine('docker');
    await expect(
      probeEngineView(
        engine,
        `wts-no-such-image-${randomBytes(4).toString('hex')}:x`,
        [{ path: path.join(dir, 'made'), what: 'worktree-root' }],
        () => Promise.reject(new Error('image could not be pulled')),
      ),
    ).rejects.toThrow('image could not be pulled');
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('removeStaleProbes', () => {
  it('removes unstarted probe helpers older than the limit, and nothing else', async () => {
    const probe = `worktree-sandbox-probe-${randomBytes(4).toString('hex')}`;
    const other = `wts-not-a-probe-${randomBytes(4).toString('hex')}`;
    containers.push(probe, other);
    for (const name of [probe, other])
      docker(
        'create',
        '--name',
        name,
        '--label',
        'worktree-sandbox.managed=true',
        '--label',
        'worktree-sandbox.role=helper',
        '--entrypoint',
        'true',
        TEST_IMAGE,
      );
    const real = new ContainerEngine('docker');
    // Other suites' runs may have probe helpers on this engine (a live run's, or a killed run's that its post
    // step is to remove): this test removes only the two it made, and judges by them.
    const engine: ContainerEngine = Object.assign(Object.create(real) as ContainerEngine, {
      removeContainer: (name: string) =>
        [probe, other].includes(name) ? real.removeContainer(name) : Promise.resolve(false),
    });
    // Not old enough yet.
    expect(await removeStaleProbes(engine)).not.toContain(probe);
    expect(exists(probe)).toBe(true);
    const removed = await removeStaleProbes(engine, Date.now() + 2 * 60 * 60_000);
    expect(removed).toContain(probe);
    expect(exists(probe)).toBe(false);
    expect(exists(other)).toBe(true);
  });
});

/**
 * The `create` calls the engine CLI gets while `work` runs (the probe's helper is the only one), and its
 * `image` calls (the image check).
 */
async function createsDuring<T>(
  work: () => Promise<T>,
): Promise<{ result: T; creates: string[][]; images: string[][] }> {
  const creates: string[][] = [];
  const images: string[][] = [];
  const exec = ContainerEngine.prototype.exec;
  const spy = jest.spyOn(ContainerEngine.prototype, 'exec').mockImplementation(function (
    this: ContainerEngine,
    args,
    options,
  ) {
    if (args[0] === 'create') creates.push([...args]);
    if (args[0] === 'image') images.push([...args]);
    return exec.call(this, args, options);
  });
  try {
    return { result: await work(), creates, images };
  } finally {
    spy.mockRestore();
  }
}

/** Files a probe planted, anywhere under `dir`. */
function probeFilesUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.name.startsWith('.worktree-sandbox-probe-')) found.push(p);
      else if (e.isDirectory() && !e.isSymbolicLink()) walk(p);
    }
  };
  walk(dir);
  return found;
}

describe('a sandbox taken as it is, proved by its command’s container', () => {
  const settings = (inputs: Record<string, string>): RunSettings =>
    parseSettings((name) => inputs[name] ?? '', process.env) as RunSettings;

  function setup() {
    const repo = makeRepo();
    dirs.push(repo.root);
    const inputs = {
      image: TEST_IMAGE,
      isolation: 'disk',
      branch: 'bot/proof',
      'repository-path': repo.parent,
      'worktree-root': path.join(repo.root, 'sandboxes'),
      cleanup: 'always',
    };
    return { repo, inputs };
  }

  it('needs no probe helper: the command’s container binds the probe’s files read-only, and nothing is left', async () => {
    const { repo, inputs } = setup();
    const first = await createsDuring(() =>
      runSandbox(settings({ ...inputs, command: 'echo made > made.txt' }), {
        ui: silentUi,
        save: () => undefined,
      }),
    );
    // A new sandbox: proved by a helper the engine created (and never started) from the image, with
    // `--pull never`: that proved the image there too, and the image check was not asked.
    expect(
      first.creates.map((args) => args.find((a) => a.startsWith('worktree-sandbox-probe-'))),
    ).toHaveLength(1);
    expect(first.creates[0].slice(0, 3)).toEqual(['create', '--pull', 'never']);
    expect(first.creates[0]).toContain(TEST_IMAGE);
    expect(first.images).toEqual([]);
    const lines: string[] = [];
    const ui = {
      ...silentUi,
      untrusted: <T>(fn: (w: (l: string) => void) => Promise<T>) => fn((l) => lines.push(l)),
    };
    let state: Partial<RunState> = {};
    const saved: Partial<RunState>[] = [];
    const {
      result: outcome,
      creates,
      images,
    } = await createsDuring(() =>
      runSandbox(
        settings({
          ...inputs,
          command: 'grep -c " /.worktree-sandbox-probe/[0-9] ro," /proc/self/mountinfo; cat made.txt',
        }),
        { ui, save: (s) => (saved.push(s), (state = { ...state, ...s })) },
      ),
    );
    expect(outcome.sandbox.reused).toBe(true);
    expect(outcome.command.exitCode).toBe(0);
    // Two files, read-only: the parent's .git and the sandbox's project folder; the work is the sandbox's own.
    expect(lines).toEqual(['2', 'made']);
    // No probe helper: the command's container was the proof; the image check was asked, once.
    expect(creates).toEqual([]);
    expect(images.map((args) => args.slice(0, 2))).toEqual([['image', 'inspect']]);
    // The post step was told the view was unproven until the engine created the container, then proven.
    expect(saved.some((s) => s.viewProof?.files.length === 2)).toBe(true);
    expect(state.viewProof).toBeUndefined();
    expect(probeFilesUnder(repo.root)).toEqual([]);
  }, 120_000);

  it('is refused, the command not run, when the engine does not find the probe’s files; the post step touches nothing', async () => {
    const { repo, inputs } = setup();
    const first = await runSandbox(settings({ ...inputs, command: 'echo work > work.txt' }), {
      ui: silentUi,
      save: () => undefined,
    });
    const sandboxDir = first.sandbox.worktreePath;
    let state: Partial<RunState> = {};
    const lines: string[] = [];
    const ui = {
      ...silentUi,
      untrusted: <T>(fn: (w: (l: string) => void) => Promise<T>) => fn((l) => lines.push(l)),
    };
    // The files are gone before the engine looks for them: what an engine that does not see the folders
    // (a remote one, one with other folders of the same names) finds.
    const save = (s: Partial<RunState>) => {
      for (const file of s.viewProof?.files ?? []) fs.rmSync(file);
      state = { ...state, ...s };
    };
    await expect(
      runSandbox(settings({ ...inputs, command: 'echo ran; rm -f work.txt' }), { ui, save }),
    ).rejects.toThrow(
      `The docker engine does not see the parent repository ${fs.realpathSync(repo.parent)}/.git where the action sees it.`,
    );
    // The engine's refusal, and nothing of the command.
    expect(lines.join('\n')).toMatch(/bind source path does not exist: .*\.worktree-sandbox-probe-/);
    expect(lines).not.toContain('ran');
    expect(fs.readFileSync(path.join(sandboxDir, 'work.txt'), 'utf8')).toBe('work\n');
    expect(state.viewProof?.files).toHaveLength(2);
    // cleanup: always, yet the post step keeps the sandbox: the engine never showed it sees its folders.
    const post = await cleanupRun(state as RunState, silentUi, tempDir('wts-post-'));
    expect(post.removed).toBe(false);
    expect(post.kept).toMatch(/before the engine was shown to see its folders/);
    expect(fs.readFileSync(path.join(sandboxDir, 'work.txt'), 'utf8')).toBe('work\n');
    expect(git(repo.parent, 'for-each-ref', '--format=%(refname)', 'refs/worktree-sandbox/')).toMatch(/head/);
    expect(probeFilesUnder(repo.root)).toEqual([]);
    expect(
      docker(
        'ps',
        '--all',
        '--filter',
        `label=worktree-sandbox.sandbox=${first.sandbox.name}`,
        '--format',
        '{{.Names}}',
      ),
    ).toBe('');
  }, 120_000);
});

describe('the lookup of the action’s own container', () => {
  it('kills the engine CLI that does not answer within the time limit', async () => {
    const dir = tempDir('wts-hang-');
    dirs.push(dir);
    const pidFile = path.join(dir, 'pid');
    fs.writeFileSync(path.join(dir, 'docker'), `#!/bin/sh\necho $$ > '${pidFile}'\nexec sleep 60\n`, {
      mode: 0o755,
    });
    const id = 'c'.repeat(64);
    const mountinfo = `700 600 8:1 /var/lib/docker/containers/${id}/hostname /etc/hostname rw,relatime - ext4 /dev/sda1 rw`;
    const saved = process.env.PATH;
    process.env.PATH = `${dir}:${saved ?? ''}`;
    try {
      const engine = new ContainerEngine('docker');
      const started = Date.now();
      await expect(
        discoverHostView((args, options) => engine.stream(args, options), { mountinfo, cgroup: '' }, 500),
      ).rejects.toThrow('The container engine did not say within 0.5 s');
      expect(Date.now() - started).toBeLessThan(10_000);
      const pid = Number(fs.readFileSync(pidFile, 'utf8'));
      expect(() => process.kill(pid, 0)).toThrow();
    } finally {
      process.env.PATH = saved;
    }
  }, 30_000);
});
