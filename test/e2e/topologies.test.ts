// The bundle where GitHub runs it, with real engines (test/support/topologies.ts): in a job container
// (the work folder at /__w, another path on each side), in an Actions Runner Controller runner beside a
// Docker-in-Docker engine (TCP with TLS, and a shared socket), and against a remote engine that sees none
// of the runner's files. Main with `push: true`, post with `cleanup: always`, and a reap run in the same
// layout; nothing left behind.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runStep } from '../support/action.js';
import { runCli } from '../support/cli.js';
import { docker, removeVolumes, uniquePrefix } from '../support/docker.js';
import { TEST_IMAGE } from '../support/env.js';
import { runnerIds } from '../support/env.js';
import { git, makeRepo, tempDir, type TestRepo } from '../support/repo.js';
import { age } from '../support/sandboxes.js';
import { requireRootlessPodman } from '../support/rootless.js';
import { NODE24_PATH } from '../support/runtimes.js';
import {
  ActionContainer,
  DIND_IMAGE,
  podmanClientKit,
  engineCli,
  imageExists,
  NODE_IMAGE,
  PodmanService,
  readableCopy,
  runnerPodman,
  SecondEngine,
  type ContainerStep,
} from '../support/topologies.js';

const repos: TestRepo[] = [];
/** Volume prefixes used on the host's engines (a failed test may leave a sandbox volume there). */
const prefixes: string[] = [];
afterAll(() => {
  for (const r of repos) fs.rmSync(r.root, { recursive: true, force: true });
  for (const p of prefixes) removeVolumes(p);
});

/** Files the probe leaves behind, anywhere under `dir`: there must be none. */
function probeFiles(dir: string): string[] {
  return execFileSync('find', [dir, '-name', '.worktree-sandbox-probe-*'])
    .toString()
    .split('\n')
    .filter(Boolean);
}

/** A repository under `work` on the host, its origin given as the path the action's container sees. */
function repoIn(container: ActionContainer, repo: TestRepo): { parent: string; origin: string } {
  const parent = container.inside(repo.parent);
  const origin = container.inside(repo.origin);
  git(repo.parent, 'remote', 'set-url', 'origin', origin);
  return { parent, origin };
}

interface Layout {
  container: ActionContainer;
  repo: TestRepo;
  /** The engine the sandboxes live in: volumes and containers are looked for there. */
  engine: (...args: string[]) => string;
  /** The work folder as that engine sees it. */
  engineWork: string;
  /** Inputs and variables every step gets besides the defaults (`engine: podman` and its CONTAINER_HOST). */
  extra?: { inputs?: Record<string, string>; env?: Record<string, string> };
}

/**
 * Main (push: true) and post (cleanup: always) in both isolations with the defaults, then a reap run: the
 * sandboxes live where the engine sees them, the work reaches origin, the post step removes them, the
 * reaper finds and removes what run mode made in the same layout, and nothing is left behind.
 */
async function runBothIsolationsAndReap(layout: Layout, defaultRoot: string): Promise<void> {
  const { container, repo, engine } = layout;
  const { parent } = repoIn(container, repo);
  const prefix = uniquePrefix('topo');
  prefixes.push(prefix);
  const common = {
    image: TEST_IMAGE,
    'volume-prefix': prefix,
    'repository-path': parent,
    ...layout.extra?.inputs,
  };
  const env = layout.extra?.env;
  const steps: ContainerStep[] = [];
  for (const isolation of ['container', 'disk']) {
    const branch = `bot/${isolation}`;
    const main = await container.step({
      cwd: parent,
      env,
      inputs: {
        ...common,
        isolation,
        branch,
        push: 'true',
        cleanup: 'always',
        command: `test -r README.md && echo "$PWD" > where.txt && echo ${isolation} > from-${isolation}.txt`,
      },
    });
    steps.push(main);
    expect(main.stdout).not.toMatch(/::error::/);
    expect(main.code).toBe(0);
    expect(main.outputs['exit-code']).toBe('0');
    // The work reached origin, pushed from inside the container.
    expect(git(repo.origin, 'show', `refs/heads/${branch}:from-${isolation}.txt`)).toBe(isolation);
    if (isolation === 'disk') {
      // The default root: beside the workspaces, in the work folder the engine is given.
      const worktree = main.outputs['worktree-path'];
      expect(worktree.startsWith(`${defaultRoot}/`)).toBe(true);
      expect(git(repo.origin, 'show', `refs/heads/${branch}:where.txt`)).toBe(worktree);
      expect(
        fs.existsSync(path.join(container.hostWork, path.relative(container.work, worktree), '.git')),
      ).toBe(true);
    } else {
      expect(engine('volume', 'ls', '--format', '{{.Name}}').split('\n')).toContain(main.outputs.volume);
    }
    const post = await container.step({
      cwd: parent,
      env,
      inputs: { ...common, isolation },
      state: main.state,
    });
    expect(post.code).toBe(0);
    if (isolation === 'disk')
      expect(
        fs.existsSync(
          path.join(container.hostWork, path.relative(container.work, main.outputs['worktree-path'])),
        ),
      ).toBe(false);
    else
      expect(engine('volume', 'ls', '--format', '{{.Name}}').split('\n')).not.toContain(main.outputs.volume);
  }

  // Reap, in the same layout: a transient disk sandbox aged past its expiry goes, a fresh volume sandbox
  // is found and kept.
  const disk = await container.step({
    cwd: parent,
    env,
    inputs: { ...common, isolation: 'disk', command: 'true', cleanup: 'never' },
  });
  expect(disk.code).toBe(0);
  const volume = await container.step({
    cwd: parent,
    env,
    inputs: { ...common, branch: 'bot/kept', command: 'true', cleanup: 'never' },
  });
  expect(volume.code).toBe(0);
  const diskOnHost = path.join(
    container.hostWork,
    path.relative(container.work, disk.outputs['worktree-path']),
  );
  age(diskOnHost, 100);
  const reap = await container.step({ cwd: parent, env, inputs: { ...common, mode: 'reap' } });
  expect(reap.stdout).not.toMatch(/::error::/);
  expect(reap.code).toBe(0);
  const reaped = JSON.parse(reap.outputs.reaped) as { sandbox: string }[];
  const kept = JSON.parse(reap.outputs.kept) as { sandbox: string }[];
  expect(reaped.map((r) => r.sandbox)).toEqual([disk.outputs.sandbox]);
  expect(kept.map((r) => r.sandbox)).toContain(volume.outputs.sandbox);
  expect(fs.existsSync(diskOnHost)).toBe(false);
  expect(engine('volume', 'ls', '--format', '{{.Name}}').split('\n')).toContain(volume.outputs.volume);
  engine('volume', 'rm', volume.outputs.volume);

  // Nothing left behind: no probe file, no helper or probe container.
  expect(probeFiles(container.hostWork)).toEqual([]);
  expect(leftContainers(engine, layout.engineWork)).toEqual([]);
}

/**
 * The action's containers (labelled as managed) that mount anything under `work` on the engine's side:
 * what this test's runs left. (Other suites share the engines: their containers are not counted.)
 */
function leftContainers(engine: (...args: string[]) => string, work: string): string[] {
  const ids = engine('ps', '--all', '--quiet', '--filter', 'label=worktree-sandbox.managed')
    .split('\n')
    .filter(Boolean);
  return ids.filter((id) => {
    try {
      const sources = engine('inspect', '--format', '{{range .Mounts}}{{.Source}}\n{{end}}', id).split('\n');
      return sources.some((s) => s === work || s.startsWith(`${work}/`));
    } catch {
      return false; // removed meanwhile
    }
  });
}

const ready = imageExists(NODE_IMAGE) && imageExists(DIND_IMAGE);
const maybe = ready ? describe : describe.skip;
if (!ready) console.warn(`topologies: ${NODE_IMAGE} or ${DIND_IMAGE} missing (npm run setup builds them)`);

maybe('a job container (`container:`): the work folder at /__w, the host engine through its socket', () => {
  let container: ActionContainer;
  let repo: TestRepo;
  beforeAll(() => {
    repo = makeRepo();
    repos.push(repo);
    container = ActionContainer.start({
      hostWork: repo.root,
      work: '/__w',
      mounts: ['/var/run/docker.sock:/var/run/docker.sock'],
    });
  });
  afterAll(() => container?.stop());

  it('both isolations with push and cleanup: always, then reap; every bind source is the host’s path', async () => {
    await runBothIsolationsAndReap(
      { container, repo, engine: docker, engineWork: repo.root },
      '/__w/_worktree-sandbox/worktrees',
    );
  }, 600_000);

  it('refuses a worktree-root the engine cannot see before anything is created, naming it and the fix', async () => {
    const { parent } = repoIn(container, repo);
    const refsBefore = git(repo.parent, 'for-each-ref');
    const step = await container.step({
      cwd: parent,
      inputs: {
        image: TEST_IMAGE,
        isolation: 'disk',
        'worktree-root': '/root/.cache/sandboxes',
        command: 'true',
      },
    });
    expect(step.code).toBe(1);
    expect(step.stdout).toContain(
      "::error::The worktree-root /root/.cache/sandboxes is inside the action's own container",
    );
    expect(step.stdout).toMatch(/Nothing was created\. Use isolation: container, or a worktree-root inside/);
    expect(() => container.exec('test', '-e', '/root/.cache/sandboxes')).toThrow();
    expect(git(repo.parent, 'for-each-ref')).toBe(refsBefore);
    expect(probeFiles(repo.root)).toEqual([]);
  }, 120_000);

  it('reap with a worktree-root in the job container’s own layer: one warning naming it and the fix, what is there kept', async () => {
    const { parent } = repoIn(container, repo);
    // Something there, as a killed older action might have left it: the engine cannot see it.
    container.exec('mkdir', '-p', '/root/.cache/wt/project/left/.git');
    try {
      const reap = await container.step({
        cwd: parent,
        inputs: { mode: 'reap', 'worktree-root': '/root/.cache/wt', image: TEST_IMAGE },
      });
      expect(reap.code).toBe(0);
      const warnings = reap.stdout.split('\n').filter((l) => l.startsWith('::warning::'));
      expect(warnings.filter((l) => l.includes('/root/.cache/wt'))).toEqual([
        expect.stringMatching(
          /^::warning::The worktree-root \/root\/\.cache\/wt is inside the action's own container \([0-9a-f]{12}\), under none of its mounts, .*Run the reap job where the runs that made the sandboxes ran, with the same worktree-root/,
        ),
      ]);
      expect(reap.outputs.reaped).toBe('[]');
      expect(() => container.exec('test', '-d', '/root/.cache/wt/project/left/.git')).not.toThrow();
    } finally {
      container.exec('rm', '-rf', '/root/.cache/wt');
    }
  }, 120_000);
});

maybe('a job container on rootless Podman (its Docker-compatible socket, uid 1001)', () => {
  let service: PodmanService;
  let container: ActionContainer;
  let repo: TestRepo;
  beforeAll(async () => {
    requireRootlessPodman();
    service = await PodmanService.start();
    repo = makeRepo({ owner: runnerIds() });
    repos.push(repo);
    const tools = tempDir('wts-tools-');
    repos.push({ root: tools, parent: '', origin: '' });
    fs.chmodSync(tools, 0o755);
    container = ActionContainer.start({
      hostWork: repo.root,
      work: '/__w',
      engine: runnerPodman,
      image: TEST_IMAGE,
      rootless: true,
      mounts: [
        `${service.socket}:/var/run/docker.sock`,
        `${readableCopy(NODE24_PATH, tools)}:/usr/local/bin/node:ro`,
        // The podman CLI too, for `engine: podman` (a client of the same service).
        ...podmanClientKit(path.join(tools, 'podman')),
      ],
    });
  }, 120_000);
  afterAll(() => {
    container?.stop();
    service?.stop();
  });

  it('both isolations with push and cleanup: always, then reap', async () => {
    await runBothIsolationsAndReap(
      {
        container,
        repo,
        engine: (...args) => engineCli(runnerPodman, ...args).trim(),
        engineWork: repo.root,
      },
      '/__w/_worktree-sandbox/worktrees',
    );
  }, 600_000);

  it('engine: podman, its CLI a client of the same service (CONTAINER_HOST): both isolations with push and cleanup: always, then reap', async () => {
    await runBothIsolationsAndReap(
      {
        container,
        repo,
        engine: (...args) => engineCli(runnerPodman, ...args).trim(),
        engineWork: repo.root,
        extra: { inputs: { engine: 'podman' }, env: { CONTAINER_HOST: 'unix:///var/run/docker.sock' } },
      },
      '/__w/_worktree-sandbox/worktrees',
    );
  }, 600_000);

  it('engine: podman without a service to reach (no CONTAINER_HOST): Podman’s own error, nothing made', async () => {
    const { parent } = repoIn(container, repo);
    const refsBefore = git(repo.parent, 'for-each-ref');
    const step = await container.step({
      cwd: parent,
      inputs: { image: TEST_IMAGE, engine: 'podman', isolation: 'disk', command: 'true' },
    });
    // A local Podman inside the job container, which cannot run containers there: its own words.
    expect(step.code).toBe(1);
    expect(step.stdout).toMatch(/::error::Image "[^"]+" is not present and could not be pulled: .*conmon/);
    expect(git(repo.parent, 'for-each-ref')).toBe(refsBefore);
    expect(probeFiles(repo.root)).toEqual([]);
  }, 120_000);
});

maybe('Actions Runner Controller, Docker-in-Docker: a runner container beside a second engine', () => {
  let dind: SecondEngine;
  const work = '/home/runner/_work';
  /** The work folder on this machine, shared by the runner container and the second engine at `work`. */
  let shared: string;
  beforeAll(async () => {
    const root = fs.mkdtempSync('/tmp/wts-arc-');
    repos.push({ root, parent: '', origin: '' });
    shared = path.join(root, 'work');
    fs.mkdirSync(shared);
    dind = await SecondEngine.start({ hostWork: shared, work });
  }, 180_000);
  afterAll(() => dind?.stop());

  const variants = [
    {
      name: 'DOCKER_HOST over TCP with TLS (DOCKER_TLS_VERIFY, DOCKER_CERT_PATH)',
      mounts: (d: SecondEngine) => [`${d.certs}:/certs/client:ro`],
      env: (d: SecondEngine) => d.tcpEnv('localhost', '/certs/client'),
    },
    {
      name: 'a shared socket (DOCKER_HOST=unix:///var/run/docker.sock)',
      mounts: (d: SecondEngine) => [`${path.join(d.dir, 'sock')}:/var/run`],
      env: () => ({ DOCKER_HOST: 'unix:///var/run/docker.sock' }),
    },
  ];
  it.each(variants)(
    '$name: both isolations with the defaults, post, reap',
    async (variant) => {
      const repo = makeRepo();
      const moved = path.join(shared, path.basename(repo.root));
      fs.renameSync(repo.root, moved);
      const arcRepo = {
        root: moved,
        parent: path.join(moved, 'work', 'repo'),
        origin: path.join(moved, 'origin.git'),
      };
      repos.push(arcRepo);
      const container = ActionContainer.start({
        hostWork: shared,
        work,
        network: `container:${dind.name}`,
        mounts: variant.mounts(dind),
        env: variant.env(dind),
      });
      try {
        // The runner's container is not one of the second engine's: paths are shared as they are.
        await runBothIsolationsAndReap(
          { container, repo: arcRepo, engine: (...args) => dind.cli(...args).trim(), engineWork: work },
          `${work}/_worktree-sandbox/worktrees`,
        );
        // The host's own engine got nothing of it.
        expect(leftContainers(docker, shared)).toEqual([]);
      } finally {
        container.stop();
      }
    },
    600_000,
  );
  it('disk isolation with a worktree-root the second engine does not share (the runner’s ~/.cache): the probe refuses it, nothing is left', async () => {
    const repo = makeRepo();
    const moved = path.join(shared, path.basename(repo.root));
    fs.renameSync(repo.root, moved);
    const arcRepo = {
      root: moved,
      parent: path.join(moved, 'work', 'repo'),
      origin: path.join(moved, 'origin.git'),
    };
    repos.push(arcRepo);
    const container = ActionContainer.start({
      hostWork: shared,
      work,
      network: `container:${dind.name}`,
      mounts: [`${dind.certs}:/certs/client:ro`],
      env: dind.tcpEnv('localhost', '/certs/client'),
    });
    try {
      const { parent } = repoIn(container, arcRepo);
      const refsBefore = git(arcRepo.parent, 'for-each-ref');
      const step = await container.step({
        cwd: parent,
        inputs: { image: TEST_IMAGE, isolation: 'disk', 'worktree-root': '/root/.cache/wt', command: 'true' },
      });
      expect(step.code).toBe(1);
      expect(step.stdout).toContain(
        '::error::The docker engine does not see the worktree-root /root/.cache/wt where the action sees it. The action runs in a container, and the engine does not share this folder with it. Nothing was created. Use isolation: container, or a worktree-root inside a folder the engine shares',
      );
      expect(() => container.exec('test', '-e', '/root/.cache')).toThrow();
      expect(git(arcRepo.parent, 'for-each-ref')).toBe(refsBefore);
      expect(probeFiles(arcRepo.root)).toEqual([]);
      expect(dind.cli('ps', '--all', '--format', '{{.Names}}').trim()).toBe('');
    } finally {
      container.stop();
    }
  }, 120_000);
});

maybe('a remote engine (DOCKER_HOST over TCP, sharing none of the runner’s files)', () => {
  let dind: SecondEngine;
  beforeAll(async () => {
    dind = await SecondEngine.start({});
  }, 180_000);
  afterAll(() => dind?.stop());

  it.each(['container', 'disk'])(
    '%s isolation: the probe fails clearly, and nothing is left behind',
    async (isolation) => {
      const repo = makeRepo();
      repos.push(repo);
      const root = path.join(repo.root, 'sandboxes', 'deeper');
      const prefix = uniquePrefix('remote');
      const refsBefore = git(repo.parent, 'for-each-ref');
      const step = await runStep({
        inputs: {
          image: TEST_IMAGE,
          isolation,
          'worktree-root': root,
          'repository-path': repo.parent,
          'volume-prefix': prefix,
          branch: 'bot/remote',
          command: 'touch /tmp/ran',
        },
        env: dind.tcpEnv(dind.ip, dind.certs),
      });
      expect(step.code).toBe(1);
      expect(step.stdout).toMatch(
        new RegExp(
          `::error::The docker engine does not see the parent repository ${repo.parent.replace(/[/.]/g, '\\$&')}/\\.git where the action sees it: it is a remote engine \\(tcp://${dind.ip.replace(/\./g, '\\.')}:2376\\)`,
        ),
      );
      // Nothing made: no sandbox, no records, no root, no probe file, nothing in the remote engine.
      expect(git(repo.parent, 'for-each-ref')).toBe(refsBefore);
      expect(fs.existsSync(path.join(repo.root, 'sandboxes'))).toBe(false);
      expect(probeFiles(repo.root)).toEqual([]);
      expect(dind.cli('ps', '--all', '--format', '{{.Names}}').trim()).toBe('');
      expect(dind.cli('volume', 'ls', '--format', '{{.Name}}').trim()).toBe('');
      // The post step has nothing to do.
      const post = await runStep({
        inputs: { image: TEST_IMAGE, isolation, 'repository-path': repo.parent },
        state: step.state,
        env: dind.tcpEnv(dind.ip, dind.certs),
      });
      expect(post.code).toBe(0);
    },
    180_000,
  );
  it('a sandbox the host’s engine made, run again against the remote engine that has folders of the same names: its command’s container is refused on the probe, the command does not run, the post step touches nothing', async () => {
    const repo = makeRepo();
    repos.push(repo);
    const root = path.join(repo.root, 'sandboxes');
    const inputs = {
      image: TEST_IMAGE,
      isolation: 'disk',
      'worktree-root': root,
      'repository-path': repo.parent,
      branch: 'bot/reused',
      cleanup: 'always',
    };
    const made = await runStep({ inputs: { ...inputs, command: 'echo work > work.txt', cleanup: 'never' } });
    expect(made.code).toBe(0);
    const worktree = made.outputs['worktree-path'];
    // The remote engine has every folder the command's container binds, under the same names, empty: only
    // the probe's random files tell them from the runner's.
    const home = path.join(path.dirname(worktree), '.home', made.outputs.sandbox);
    docker('exec', dind.name, 'mkdir', '-p', path.join(repo.parent, '.git', 'objects'), worktree, home);
    const refsBefore = git(repo.parent, 'for-each-ref');
    const step = await runStep({
      inputs: { ...inputs, command: 'echo RAN-$((40 + 2)); rm -f work.txt' },
      env: dind.tcpEnv(dind.ip, dind.certs),
    });
    expect(step.code).toBe(1);
    expect(step.stdout).toMatch(
      new RegExp(
        `::error::The docker engine does not see the parent repository ${repo.parent.replace(/[/.]/g, '\\$&')}/\\.git where the action sees it: it is a remote engine`,
      ),
    );
    expect(step.stdout).not.toContain('RAN-42');
    expect(dind.cli('ps', '--all', '--format', '{{.Names}}').trim()).toBe('');
    // cleanup: always, and yet nothing of the sandbox is touched: the engine never showed it sees it.
    const post = await runStep({ inputs, state: step.state, env: dind.tcpEnv(dind.ip, dind.certs) });
    expect(post.code).toBe(0);
    expect(post.stdout).toContain('before the engine was shown to see its folders');
    expect(fs.readFileSync(path.join(worktree, 'work.txt'), 'utf8')).toBe('work\n');
    expect(git(repo.parent, 'for-each-ref')).toBe(refsBefore);
    expect(probeFiles(repo.root)).toEqual([]);
    expect(dind.cli('ps', '--all', '--format', '{{.Names}}').trim()).toBe('');
  }, 180_000);

  it('reap against the remote engine: one warning naming the root and the fix; what the filesystem proves clean goes, what only a helper could judge is kept, nothing lost', async () => {
    const repo = makeRepo();
    repos.push(repo);
    const root = path.join(repo.root, 'sandboxes');
    const common = {
      image: TEST_IMAGE,
      isolation: 'disk',
      'worktree-root': root,
      'repository-path': repo.parent,
    };
    const clean = await runStep({ inputs: { ...common, command: 'true', cleanup: 'never' } });
    const dirty = await runStep({ inputs: { ...common, command: 'true', cleanup: 'never' } });
    expect([clean.code, dirty.code]).toEqual([0, 0]);
    const [cleanDir, dirtyDir] = [clean.outputs['worktree-path'], dirty.outputs['worktree-path']];
    // Changed after the run: only git (in a helper) can tell what it is.
    fs.appendFileSync(path.join(dirtyDir, 'README.md'), 'changed outside the run\n');
    age(cleanDir, 100);
    age(dirtyDir, 100);
    // The CLI's `list` checks the root as reap does: the same warning, and the dirty one not inspected.
    const listed = await runCli(
      NODE24_PATH,
      ['list', '--json', '--worktree-root', root, '--image', TEST_IMAGE],
      { env: dind.tcpEnv(dind.ip, dind.certs) },
    );
    expect(listed.code).toBe(0);
    expect(listed.stderr).toContain(
      `The docker engine does not see the worktree-root ${fs.realpathSync(root)} where the action sees it: it is a remote engine (tcp://${dind.ip}:2376)`,
    );
    const states = JSON.parse(listed.stdout) as { sandbox: string; state: string; detail?: string }[];
    const stateOf = (name: string) => states.find((e) => e.sandbox === name);
    expect(stateOf(clean.outputs.sandbox)).toMatchObject({ state: 'clean' });
    expect(JSON.stringify(stateOf(dirty.outputs.sandbox))).toContain(
      'not inspected: the docker engine does not see the worktree-root',
    );
    const reap = await runStep({
      inputs: { mode: 'reap', 'worktree-root': root, image: TEST_IMAGE },
      env: dind.tcpEnv(dind.ip, dind.certs),
    });
    expect(reap.code).toBe(0);
    const warnings = reap.stdout.split('\n').filter((l) => l.startsWith('::warning::'));
    const rootWarnings = warnings.filter((l) => l.includes('does not see the worktree-root'));
    expect(rootWarnings).toHaveLength(1);
    expect(rootWarnings[0]).toContain(
      `The docker engine does not see the worktree-root ${fs.realpathSync(root)} where the action sees it: it is a remote engine (tcp://${dind.ip}:2376)`,
    );
    const reaped = JSON.parse(reap.outputs.reaped) as { sandbox: string }[];
    const kept = JSON.parse(reap.outputs.kept) as { sandbox: string; reason: string }[];
    expect(reaped.map((r) => r.sandbox)).toEqual([clean.outputs.sandbox]);
    expect(kept.map((k) => k.sandbox)).toEqual([dirty.outputs.sandbox]);
    expect(JSON.stringify(kept[0])).toContain(
      'not inspected: the docker engine does not see the worktree-root',
    );
    expect(fs.existsSync(cleanDir)).toBe(false);
    expect(fs.readFileSync(path.join(dirtyDir, 'README.md'), 'utf8')).toContain('changed outside the run');
    expect(probeFiles(repo.root)).toEqual([]);
    // Nothing ran in the remote engine but the probe's helper (created, never started, removed).
    expect(dind.cli('ps', '--all', '--format', '{{.Names}}').trim()).toBe('');
  }, 300_000);
});
