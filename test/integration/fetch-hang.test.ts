// An origin that accepts the connection and never answers (a real HTTP listener on 127.0.0.1 that reads
// and stays silent), asked for a branch the parent does not know (branch resolution) and for a pull
// request's head (the fork fetch). The wait holds no repository lock: another branch's run of the same
// parent goes from start to end while the fetch hangs; the hanging step ends within its time limit (shortened
// through the tests-only override), killed with git's remote helper, and its error names the fetch, what
// it was for and the limit; nothing of the parent is lost or changed.
import { afterAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { Git, FETCH_REF_ROOT } from '../../src/engine/git.js';
import { TIME_LIMITS_OVERRIDE } from '../../src/engine/time-limits.js';
import { fetchPullHead } from '../../src/github/pr-git.js';
import { runSandbox } from '../../src/run/run.js';
import { parseSettings, type RunSettings } from '../../src/settings/settings.js';
import { silentUi } from '../../src/ui/ui.js';
import { removeVolumes, uniquePrefix } from '../support/docker.js';
import { TEST_IMAGE } from '../support/env.js';
import { git, makeRepo, type TestRepo } from '../support/repo.js';

const prefix = uniquePrefix('fetch-hang');
const repos: TestRepo[] = [];
/** Each listener's close: its connections ended first (a fetch never stopped would hold one open). */
const closers: Array<() => void> = [];
const savedOverride = process.env[TIME_LIMITS_OVERRIDE];

afterAll(() => {
  removeVolumes(prefix);
  for (const r of repos) fs.rmSync(r.root, { recursive: true, force: true });
  for (const close of closers) close();
  if (savedOverride === undefined) delete process.env[TIME_LIMITS_OVERRIDE];
  else process.env[TIME_LIMITS_OVERRIDE] = savedOverride;
});

/** A listener that accepts every connection, reads the request and never answers. */
async function silentListener(): Promise<{ port: number; open: () => number; requests: () => number }> {
  const sockets = new Set<net.Socket>();
  let requests = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('data', () => requests++);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  closers.push(() => {
    sockets.forEach((s) => s.destroy());
    server.close();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { port, open: () => sockets.size, requests: () => requests };
}

/** Every ref of the parent with its commit: what must be the same before and after. */
const refsOf = (parent: string) => git(parent, 'for-each-ref', '--format=%(objectname) %(refname)');

async function hungParent() {
  const repo = makeRepo();
  repos.push(repo);
  // A branch the parent has: its run asks origin nothing.
  git(repo.parent, 'branch', 'feature/innocent', 'main');
  const listener = await silentListener();
  git(repo.parent, 'remote', 'set-url', 'origin', `http://127.0.0.1:${listener.port}/x.git`);
  return { repo, listener };
}

function settings(inputs: Record<string, string>): RunSettings {
  const all: Record<string, string> = {
    engine: 'docker',
    image: TEST_IMAGE,
    'volume-prefix': prefix,
    ...inputs,
  };
  return parseSettings((name) => all[name] ?? '', process.env) as RunSettings;
}

async function waitFor(what: string, ready: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > until) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a fetch from an origin that never answers', () => {
  // Long enough for the other run to go from start to end while the fetch still waits.
  const FETCH_LIMIT_S = 25;
  // The limit, the kill, and the run's start before it.
  const HANG_BOUND_MS = FETCH_LIMIT_S * 1000 + 10_000;

  it('holds no repository lock: another branch of the parent runs to its end meanwhile; the hanging run fails within its limit, naming the fetch; nothing is lost', async () => {
    process.env[TIME_LIMITS_OVERRIDE] = `git-fetch=${FETCH_LIMIT_S}`;
    const { repo, listener } = await hungParent();
    const before = refsOf(repo.parent);

    const started = Date.now();
    const hanging = runSandbox(
      settings({ 'repository-path': repo.parent, branch: 'feature/hang', command: 'true' }),
      {
        ui: silentUi,
        save: () => undefined,
      },
    ).then(
      () => ({ error: undefined, elapsed: Date.now() - started }),
      (error: unknown) => ({ error: error as Error, elapsed: Date.now() - started }),
    );
    // The fetch is waiting on the listener: from here on, a lock held while it waits would stop the other run.
    await waitFor('the fetch reached origin', () => listener.requests() > 0, 20_000);

    const otherStarted = Date.now();
    const other = await runSandbox(
      settings({
        'repository-path': repo.parent,
        branch: 'feature/innocent',
        command: 'echo innocent > innocent.txt',
      }),
      { ui: silentUi, save: () => undefined },
    );
    const otherElapsed = Date.now() - otherStarted;
    expect(other.command.exitCode).toBe(0);
    // It ended while the fetch still waited: the connection is still open, the hanging run not over.
    expect(listener.open()).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(FETCH_LIMIT_S * 1000);
    // Its work was seen and reported: the run was whole.
    expect(other.report.changedFiles).toEqual(['innocent.txt']);

    const { error, elapsed } = await hanging;
    expect(error?.message).toBe(
      `git fetch (asking origin for branch "feature/hang") ran out of its time limit (${FETCH_LIMIT_S} s) and was killed, with every program it started.`,
    );
    expect(elapsed).toBeGreaterThanOrEqual(FETCH_LIMIT_S * 1000);
    expect(elapsed).toBeLessThan(HANG_BOUND_MS);
    // git and its remote helper are gone: the listener's connection was closed by the kill.
    await waitFor('the connection closed', () => listener.open() === 0, 5_000);

    // Nothing lost or changed but the innocent run's own work and records; no fetch ref left behind; no
    // sandbox of the hanging branch.
    const after = refsOf(repo.parent);
    const unchanged = (refs: string) =>
      refs
        .split('\n')
        .filter((line) => !/ refs\/(heads\/feature\/innocent|worktree-sandbox\/)/.test(line))
        .join('\n');
    expect(unchanged(after)).toBe(unchanged(before));
    expect(after).not.toContain(`${FETCH_REF_ROOT}/`);
    expect(after).not.toContain('feature/hang');
    expect(after).not.toContain('hang');
    process.stdout.write(
      `fetch from a silent origin: failed after ${elapsed} ms (limit ${FETCH_LIMIT_S} s, bound ${HANG_BOUND_MS} ms); another branch's run took ${otherElapsed} ms meanwhile\n`,
    );
  }, 120_000);

  it("a pull request's head from a silent origin: the fetch ends at its limit, named, and changes no ref", async () => {
    const LIMIT_S = 3;
    process.env[TIME_LIMITS_OVERRIDE] = `git-fetch=${LIMIT_S}`;
    const { repo, listener } = await hungParent();
    const before = refsOf(repo.parent);
    const started = Date.now();
    const error = await fetchPullHead(await Git.create(), repo.parent, 'refs/pull/7/head').catch(
      (e: unknown) => e as Error,
    );
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(
      `git fetch (fetching the pull request's head refs/pull/7/head from origin) ran out of its time limit (${LIMIT_S} s) and was killed, with every program it started.`,
    );
    expect(elapsed).toBeLessThan(LIMIT_S * 1000 + 5_000);
    expect(listener.requests()).toBeGreaterThan(0);
    expect(refsOf(repo.parent)).toBe(before);
    expect(fs.existsSync(path.join(repo.parent, '.git', 'FETCH_HEAD'))).toBe(false);
  }, 60_000);
});

describe('a fetch from an origin that answers', () => {
  it('changes no ref but its own, which it removes: the caller points origin/<branch> at the commit', async () => {
    const repo = makeRepo();
    repos.push(repo);
    git(repo.parent, 'push', '--quiet', 'origin', 'main~1:refs/heads/feature/there');
    const before = refsOf(repo.parent);
    const commit = await (
      await Git.create()
    ).fetchCommit(repo.parent, 'origin', 'refs/heads/feature/there', 'p');
    expect(commit).toBe(git(repo.parent, 'rev-parse', 'main~1'));
    // Not even origin/feature/there, which the remote's configured refspec would have updated on the side.
    expect(refsOf(repo.parent)).toBe(before);
    expect(fs.existsSync(path.join(repo.parent, '.git', 'FETCH_HEAD'))).toBe(false);
  });
});
