// The engine CLI's own environment is the runner's, whatever the container's variables are (rootless
// Podman keeps its storage under the runner's HOME: docs/podman.md), and
// the `env` input's values never appear on a command line. A shim `docker`/`podman` first on PATH records
// the arguments and the environment of every engine call, then execs the real CLI (so its arguments are
// exactly that process's /proc/<pid>/cmdline); meanwhile every process's command line on the host is
// watched for the values. The bundle runs as the runner user, on Docker and on its rootless Podman.
import { afterAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runMainAndPost } from '../support/action.js';
import { uniquePrefix } from '../support/docker.js';
import { TEST_IMAGE, runnerIds } from '../support/env.js';
import { makeRepo, tempDir } from '../support/repo.js';
import { runnerHome, runnerRuntimeDir } from '../support/rootless.js';
import { DOCKER, PODMAN_ROOTLESS, removeStorageVolumes, type Storage } from '../support/storage.js';

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean();
});

interface Call {
  args: string[];
  env: Record<string, string>;
  /** `mode uid` of the --env-file while the call ran. */
  envFile?: string;
}

/** A folder with shims for both engines that log each call into `log`, then exec the real CLI. */
function shimDir(log: string): string {
  const bin = tempDir('wts-shim-');
  cleanups.push(() => fs.rmSync(bin, { recursive: true, force: true }));
  for (const engine of ['docker', 'podman']) {
    const real = execFileSync('sh', ['-c', `command -v ${engine}`], { encoding: 'utf8' }).trim();
    const script = `#!/bin/sh
n="$(date +%s%N)-$$"
printf '%s\\0' "$@" > "${log}/$n.args"
env -0 > "${log}/$n.env"
prev=
for a in "$@"; do
  if [ "$prev" = --env-file ]; then stat -c '%a %u' "$a" > "${log}/$n.envfile"; fi
  prev="$a"
done
exec ${real} "$@"
`;
    fs.writeFileSync(path.join(bin, engine), script, { mode: 0o755 });
  }
  return bin;
}

function readCalls(log: string): Call[] {
  return fs
    .readdirSync(log)
    .filter((f) => f.endsWith('.args'))
    .sort()
    .map((f) => {
      const base = path.join(log, f.slice(0, -'.args'.length));
      const split = (file: string) => fs.readFileSync(file, 'utf8').split('\0').slice(0, -1);
      const env = Object.fromEntries(
        split(`${base}.env`).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
      );
      const envFile = fs.existsSync(`${base}.envfile`)
        ? fs.readFileSync(`${base}.envfile`, 'utf8').trim()
        : undefined;
      return { args: split(`${base}.args`), env, envFile };
    });
}

/** Every process command line on the host that contains one of the needles, polled until stopped. */
function watchCommandLines(needles: string[]): { stop: () => string[] } {
  const seen = new Set<string>();
  const timer = setInterval(() => {
    for (const pid of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let cmdline: string;
      try {
        cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        continue;
      }
      if (needles.some((n) => cmdline.includes(n))) seen.add(cmdline.replace(/\0/g, ' '));
    }
  }, 20);
  return {
    stop: () => {
      clearInterval(timer);
      return [...seen];
    },
  };
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe.each([DOCKER, PODMAN_ROOTLESS])('the engine CLI’s environment: $label', (storage: Storage) => {
  it('is the runner’s (HOME, DOCKER_CONFIG, XDG_RUNTIME_DIR); env values reach the container, never a command line', async () => {
    const ids = runnerIds();
    const repo = makeRepo({ owner: ids });
    const prefix = uniquePrefix('engenv');
    cleanups.push(
      () => fs.rmSync(repo.root, { recursive: true, force: true }),
      () => removeStorageVolumes(storage, prefix),
    );
    const log = tempDir('wts-shim-log-');
    fs.chmodSync(log, 0o1777);
    cleanups.push(() => fs.rmSync(log, { recursive: true, force: true }));
    const bin = shimDir(log);
    // The step's own engine settings: a DOCKER_CONFIG of the runner's, and RUNNER_TEMP kept to look at.
    const dockerConfig = tempDir('wts-docker-config-');
    const runnerTemp = tempDir('wts-runner-temp-');
    // Podman 4.3 reads DOCKER_CONFIG too (for registry logins), and fails `run` when it names a folder
    // without config.json (`stat …/config.json: no such file or directory`): a real one has the file.
    fs.writeFileSync(path.join(dockerConfig, 'config.json'), '{}\n');
    for (const dir of [dockerConfig, runnerTemp]) execFileSync('chown', ['-R', `${ids.uid}:${ids.gid}`, dir]);
    cleanups.push(
      () => fs.rmSync(dockerConfig, { recursive: true, force: true }),
      () => fs.rmSync(runnerTemp, { recursive: true, force: true }),
    );
    const oneLine = `one-${randomBytes(12).toString('hex')}`;
    const fromStep = `step-${randomBytes(12).toString('hex')}`;
    const multi = `multi-${randomBytes(12).toString('hex')}\nsecond-${randomBytes(12).toString('hex')}`;
    const secrets = [oneLine, fromStep, ...multi.split('\n')];
    const watcher = watchCommandLines(secrets);
    // The control: the watcher does see the engine calls (their volume names carry the prefix).
    const control = watchCommandLines([prefix]);
    const { main, post } = await runMainAndPost({
      inputs: {
        mode: 'run',
        engine: storage.engine,
        image: TEST_IMAGE,
        isolation: 'container',
        network: 'none',
        'repository-path': repo.parent,
        'volume-prefix': prefix,
        // The container's variables, some named like the engine CLI's own.
        env: [
          'HOME=/elsewhere',
          'DOCKER_CONFIG=/elsewhere/docker',
          'XDG_RUNTIME_DIR=/elsewhere/run',
          `WTS_ONE=${oneLine}`,
          'WTS_STEP',
          'WTS_MULTI',
        ].join('\n'),
        command: [
          'printf %s "$WTS_ONE" | sha256sum',
          'printf %s "$WTS_STEP" | sha256sum',
          'printf %s "$WTS_MULTI" | sha256sum',
          'echo "home=$HOME dc=$DOCKER_CONFIG xdg=$XDG_RUNTIME_DIR"',
          // time for the watcher to see every process of the run
          'sleep 2',
        ].join('; '),
      },
      asRunner: true,
      rootlessPodman: storage.rootless,
      env: {
        PATH: `${bin}:${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin`,
        DOCKER_CONFIG: dockerConfig,
        XDG_RUNTIME_DIR: runnerRuntimeDir(),
        RUNNER_TEMP: runnerTemp,
        WTS_STEP: fromStep,
        WTS_MULTI: multi,
        GITHUB_WORKSPACE: repo.parent,
      },
    });
    const seen = watcher.stop();
    expect(control.stop().length).toBeGreaterThan(0);
    expect(main.stderr).toBe('');
    expect(main.code).toBe(0);
    expect(post.code).toBe(0);

    // The container got every value, and the action's HOME rather than the entry's.
    const out = main.stdout;
    for (const value of [oneLine, fromStep, multi]) expect(out).toContain(`${sha256(value)}  -`);
    const home = /^home=(\S*) dc=(\S*) xdg=(\S*)$/m.exec(out);
    expect(home?.slice(2)).toEqual(['/elsewhere/docker', '/elsewhere/run']);
    expect(home?.[1]).toMatch(/\/\.home$|^\/sandbox\/\.home/);

    // Every engine call had the runner's own variables, whatever the container's were.
    const calls = readCalls(log);
    expect(calls.length).toBeGreaterThan(3);
    for (const call of calls) {
      expect({ args: call.args.slice(0, 2), HOME: call.env.HOME }).toEqual({
        args: call.args.slice(0, 2),
        HOME: runnerHome(),
      });
      expect(call.env.DOCKER_CONFIG).toBe(dockerConfig);
      expect(call.env.XDG_RUNTIME_DIR).toBe(runnerRuntimeDir());
      expect(call.env.WTS_ONE).toBeUndefined();
      expect(call.env.WTS_STEP).toBeUndefined();
      for (const secret of secrets) expect(call.args.join('\0')).not.toContain(secret);
    }
    // The command's container: one-line values through a file only the runner reads, several lines by name.
    const runs = calls.filter((c) => c.args[0] === 'run' && c.args.includes('--env-file'));
    expect(runs).toHaveLength(1);
    const [run] = runs;
    expect(run.envFile).toBe(`600 ${ids.uid}`);
    const envFile = run.args[run.args.indexOf('--env-file') + 1];
    expect(envFile.startsWith(`${runnerTemp}/`)).toBe(true);
    expect(run.args).toContain('WTS_MULTI');
    expect(run.env.WTS_MULTI).toBe(multi);
    for (const call of calls.filter((c) => c !== run)) expect(call.env.WTS_MULTI).toBeUndefined();
    if (storage.rootless) expect(run.args).toContain(`--userns=keep-id:uid=${ids.uid},gid=${ids.gid}`);

    // No process on the host ever had a value on its command line; the env file and its folder are gone.
    expect(seen).toEqual([]);
    expect(fs.existsSync(envFile)).toBe(false);
    expect(fs.existsSync(path.dirname(envFile))).toBe(false);
    expect(fs.readdirSync(runnerTemp).filter((f) => f.startsWith('worktree-sandbox-env-'))).toEqual([]);
  }, 240_000);
});
