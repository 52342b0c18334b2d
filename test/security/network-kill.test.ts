// Nothing outlives the action: a run with a `network` allow-list killed (SIGKILL) while its command runs,
// judged by what the engine shows (Docker, and the runner's rootless Podman). Three defences, each
// attacked on its own: the watchdog removes the command's container and the sidecar once the action is
// gone (network/watchdog.ts); with the watchdog killed too (the runner's whole service stopped), the
// forwarder ends by itself once the proxy's socket refuses (network/forwarder.ts); and what stopped is
// removed by the next run on the same engine, whatever its sandbox (network/leftovers.ts).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import { DIST, runStep, type StepResult } from '../support/action.js';
import { availableEngines } from '../support/engines.js';
import { runnerIds, TEST_IMAGE } from '../support/env.js';
import { ALLOWED, loadIntoRootlessPodman } from '../support/network.js';
import { chownTree, makeRepo, tempDir, type TestRepo } from '../support/repo.js';
import { DOCKER, leftVolumes, PODMAN_ROOTLESS, storageCli } from '../support/storage.js';

const ENGINES = availableEngines();
const volumes = leftVolumes('netkill');
const repos: TestRepo[] = [];
const dirs: string[] = [];
const made: Array<{ engine: string; names: string[] }> = [];

beforeAll(() => {
  if (ENGINES.includes('podman')) loadIntoRootlessPodman(TEST_IMAGE);
}, 240_000);

afterAll(async () => {
  for (const { engine, names } of made)
    for (const name of names) await cli(engine, ['rm', '--force', '--', name]);
  await volumes.removeAll();
  for (const r of repos) fs.rmSync(r.root, { recursive: true, force: true });
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function cli(engine: string, args: string[]) {
  return storageCli(engine === 'podman' ? PODMAN_ROOTLESS : DOCKER, args);
}

/** The engine's containers with the command's role label: name and state (`running`, `exited`, ...). */
async function labelled(engine: string): Promise<Map<string, string>> {
  const listed = await cli(engine, [
    'ps',
    '--all',
    '--filter',
    'label=worktree-sandbox.role=command',
    '--format',
    '{{.Names}}',
  ]);
  const states = new Map<string, string>();
  for (const name of listed.stdout.split('\n').filter(Boolean)) {
    const state = await cli(engine, ['container', 'inspect', '--format', '{{.State.Status}}', '--', name]);
    if (state.exitCode === 0) states.set(name, state.stdout.trim());
  }
  return states;
}

/** The states of the killed run's two containers (absent: not there). */
async function statesOf(engine: string, names: string[]): Promise<Record<string, string>> {
  const all = await labelled(engine);
  return Object.fromEntries(names.filter((n) => all.has(n)).map((n) => [n, all.get(n)!]));
}

/** States in which nothing of a container runs (Podman's `stopping` still runs). */
const ENDED = ['exited', 'stopped', 'dead', 'created', 'configured'];
const stillRunning = (states: Record<string, string>) =>
  Object.entries(states).filter(([, state]) => !ENDED.includes(state));

/** Polls until none of `names` runs, up to `ms`; the states seen last and how long it took. */
async function untilNoneRuns(engine: string, names: string[], ms: number) {
  const start = Date.now();
  let states = await statesOf(engine, names);
  while (stillRunning(states).length && Date.now() - start < ms) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    states = await statesOf(engine, names);
  }
  return { states, seconds: Math.round((Date.now() - start) / 1000) };
}

/** A process's children (through every thread's list). */
function childrenOf(pid: number): number[] {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' '))
      .filter((child) => child.trim())
      .map(Number);
  } catch {
    return [];
  }
}

function cmdlineOf(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

/**
 * Kills (SIGKILL) the action that runs with `prefix` (its INPUT_VOLUME-PREFIX) and every process it
 * started, as the end of a runner's whole service (its control group) does: the descendants first, so
 * that none of them sees the action go. Returns the containers its engine CLIs were running (`--name`),
 * and whether a watchdog was among them (its cmdline: node -e <script> <engine> <command> <sidecar>).
 */
function killActionTree(prefix: string): { killed: boolean; names: string[]; watchdog: boolean } {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    try {
      if (!cmdlineOf(pid).includes(DIST)) continue;
      if (
        !fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`INPUT_VOLUME-PREFIX=${prefix}`)
      )
        continue;
    } catch {
      continue;
    }
    const tree: number[] = [];
    for (let queue = childrenOf(pid); queue.length;) {
      const next = queue.shift()!;
      tree.push(next);
      queue.push(...childrenOf(next));
    }
    const cmdlines = tree.map(cmdlineOf);
    const watchdog = cmdlines.some((c) => c[2]?.startsWith('// worktree-sandbox watchdog'));
    const names = cmdlines.flatMap((c) => (c.includes('--name') ? [c[c.indexOf('--name') + 1]] : []));
    for (const p of tree.reverse()) process.kill(p, 'SIGKILL');
    process.kill(pid, 'SIGKILL');
    return { killed: true, names: names.sort(), watchdog };
  }
  return { killed: false, names: [], watchdog: false };
}

function stepOptions(engine: string, repo: TestRepo, inputs: Record<string, string>) {
  return {
    inputs: {
      mode: 'run',
      image: TEST_IMAGE,
      engine,
      'repository-path': repo.parent,
      'volume-prefix': volumes.prefix(engine),
      ...inputs,
    },
    env: { GITHUB_WORKSPACE: repo.parent },
    asRunner: true,
    rootlessPodman: engine === 'podman',
  };
}

function newRepo(): TestRepo {
  const repo = makeRepo();
  repos.push(repo);
  chownTree(repo.root, runnerIds());
  return repo;
}

/** The killed run's command container (saved for the post step before it started) and its sidecar. */
function containersOf(killed: StepResult): string[] {
  const container = (JSON.parse(killed.state.run ?? '{}') as { container?: string }).container ?? '';
  expect(container).toMatch(/^worktree-sandbox-/);
  return [container, `${container}-net`];
}

/** A second run on the same engine, in a sandbox of its own, without an allow-list and without its post step. */
function nextRun(engine: string) {
  return runStep(stepOptions(engine, newRepo(), { command: 'echo NEXT-RAN' }));
}

describe.each(ENGINES)('a run with an allow-list killed (SIGKILL) during its command (%s)', (engine) => {
  it('leaves no running container within a minute (the watchdog), and none at all after the next run', async () => {
    const repo = newRepo();
    const killed = await runStep({
      ...stepOptions(engine, repo, {
        network: `${ALLOWED}:80`,
        command: 'echo COMMAND-RUNNING-$((6*7)); sleep 600',
      }),
      killWhen: /COMMAND-RUNNING-42/,
    });
    expect(killed.signal).toBe('SIGKILL');
    const names = containersOf(killed);
    made.push({ engine, names });
    const { states, seconds } = await untilNoneRuns(engine, names, 60_000);
    process.stdout.write(
      `${engine}: nothing of the killed run runs after ${seconds}s: ${JSON.stringify(states)}\n`,
    );
    expect(stillRunning(states)).toEqual([]);
    const next = await nextRun(engine);
    expect(next.stdout).toContain('NEXT-RAN');
    expect(await statesOf(engine, names)).toEqual({});
  }, 600_000);

  /**
   * A run killed with its watchdog (the runner's whole service stopped): the forwarder ends by itself within
   * seconds, and the command's container stays, stopped. Returns the two containers' names.
   */
  async function killedWithItsWatchdog(): Promise<string[]> {
    const repo = newRepo();
    const options = stepOptions(engine, repo, {
      network: `${ALLOWED}:80`,
      command: 'echo COMMAND-RUNNING-$((6*7)); sleep 20',
    });
    let kill: ReturnType<typeof killActionTree> | undefined;
    let sidecarEnded: ReturnType<typeof untilNoneRuns> | undefined;
    const killed = await runStep({
      ...options,
      onStdout: (out) => {
        if (kill?.killed || !out.includes('COMMAND-RUNNING-42')) return;
        kill = killActionTree(options.inputs['volume-prefix']);
        const sidecar = kill.names.find((n) => n.endsWith('-net'));
        if (sidecar) sidecarEnded = untilNoneRuns(engine, [sidecar], 30_000);
      },
    });
    expect(killed.signal).toBe('SIGKILL');
    const names = containersOf(killed);
    // The engine CLIs of both containers were killed with the action, and so was the watchdog: what is
    // removed below is removed by the forwarder and by the next run or reap.
    expect(kill).toMatchObject({ killed: true, names, watchdog: true });
    made.push({ engine, names });
    // The forwarder ends within seconds of the kill, long before the command (20 s) does.
    const sidecar = await sidecarEnded!;
    process.stdout.write(`${engine}: the sidecar ran ${sidecar.seconds}s after the kill\n`);
    expect(stillRunning(sidecar.states)).toEqual([]);
    expect(sidecar.seconds).toBeLessThan(15);
    const { states } = await untilNoneRuns(engine, names, 60_000);
    expect(stillRunning(states)).toEqual([]);
    // What stopped stays (Docker removed the sidecar itself: --rm) until a later run on the engine removes
    // it: the next one below, or a run of another suite that shares the engine meanwhile (kept: taken).
    if (names[0] in states) expect(states[names[0]]).toMatch(/^(exited|stopped)$/);
    return names;
  }

  /**
   * Any later run on the engine removes what the killed run left: that is the defence, so a run of another
   * suite sharing the engine may take it before this test's own run or reap does. `attempt` kills a run and
   * says whether what this test then did removed the command's container and said so (true), or found it
   * taken by another (false); an attempt that was interfered with proves nothing, and is made again.
   */
  async function untilNotTaken(attempt: () => Promise<boolean>): Promise<void> {
    // Under the whole suite, three workers start runs with allow-lists all the time: three takes in a row
    // were seen; six in a row would mean the runs of this test never get a turn.
    for (let tries = 1; !(await attempt()); tries++)
      if (tries === 6) throw new Error('another run on the engine took what the killed run left, six times');
  }

  /** Whether the command's container was there when looked at (a run of another suite may have taken it). */
  const stillThere = async (names: string[]) => names[0] in (await statesOf(engine, names));

  it('with its watchdog killed too: the forwarder ends by itself, and the next run removes what stopped', async () => {
    await untilNotTaken(async () => {
      const names = await killedWithItsWatchdog();
      if (!(await stillThere(names))) return false;
      // The next run on the engine, in another sandbox, removes it, and says so.
      const next = await nextRun(engine);
      expect(next.stdout).toContain('NEXT-RAN');
      expect(await statesOf(engine, names)).toEqual({});
      const said = new RegExp(`Removed container\\(s\\) left by a run that was killed: .*${names[0]}`);
      return said.test(next.stdout);
    });
  }, 600_000);

  it('with its watchdog killed too: a dry reap leaves what stopped, and the next reap removes it', async () => {
    const root = tempDir('wts-netkill-reap-');
    dirs.push(root);
    chownTree(root, runnerIds());
    const reap = (dryRun: boolean) =>
      runStep({
        inputs: {
          mode: 'reap',
          engine,
          'worktree-root': root,
          'volume-prefix': volumes.prefix(engine),
          'dry-run': String(dryRun),
        },
        asRunner: true,
        rootlessPodman: engine === 'podman',
      });
    await untilNotTaken(async () => {
      const names = await killedWithItsWatchdog();
      if (!(await stillThere(names))) return false;
      const dry = await reap(true);
      expect({ code: dry.code, stderr: dry.stderr }).toEqual({ code: 0, stderr: '' });
      expect(dry.stdout).not.toContain('killed runs with a network allow-list left');
      if (!(await stillThere(names))) return false;
      const real = await reap(false);
      expect({ code: real.code, stderr: real.stderr }).toEqual({ code: 0, stderr: '' });
      expect(await statesOf(engine, names)).toEqual({});
      const said = new RegExp(
        `Removed \\d+ container\\(s\\) that killed runs with a network allow-list left: .*${names[0]}`,
      );
      return said.test(real.stdout);
    });
  }, 600_000);
});
