// The topologies GitHub runs the action in, simulated on this machine with real engines:
// - a job container (`container:` jobs): the bundle runs in a container of the host's Docker, the engine's
//   socket mounted, the runner's work folder mounted at /__w (another path on each side);
// - Actions Runner Controller in Docker-in-Docker mode: a second Docker daemon (Debian's docker.io, image
//   built by scripts/setup.sh) in its own container, sharing a work folder at the same path with a
//   runner container, which reaches it through DOCKER_HOST (TCP with TLS, or a shared socket);
// - a remote engine: that second daemon reached over TCP from the host, sharing nothing.
// Steps run as the runner runs steps in a job container: `docker exec` with the step's environment and
// file-command files under the shared temp folder.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DIST, parseFileCommands } from './action.js';
import { docker } from './docker.js';
import { PODMAN_CONF } from './engines.js';
import { runnerIds, TEST_IMAGE } from './env.js';
import { asRunner, runnerEnv } from './rootless.js';

export const NODE_IMAGE = process.env.WORKTREE_SANDBOX_NODE_IMAGE ?? 'worktree-sandbox-node:24';
export const DIND_IMAGE = process.env.WORKTREE_SANDBOX_DIND_IMAGE ?? 'worktree-sandbox-dind:bookworm';
/** The host's Docker CLI (a static binary), given to the job container as the runner's tool cache would. */
export const DOCKER_CLI = execFileSync('sh', ['-c', 'command -v docker']).toString().trim();

/** How the test reaches the engine that runs the action's container: a command line and its environment. */
export type EngineCli = (args: readonly string[]) => [string, string[], NodeJS.ProcessEnv];

export const hostDocker: EngineCli = (args) => ['docker', [...args], process.env];

/** The runner user's rootless Podman (uid 1001), as support/rootless.ts runs it. */
export const runnerPodman: EngineCli = (args) => {
  const [cmd, cmdArgs] = asRunner('podman', args);
  return [cmd, cmdArgs, runnerEnv({ rootlessPodman: true, extra: { CONTAINERS_CONF: PODMAN_CONF } })];
};

function cli(engine: EngineCli, ...args: string[]): string {
  const [cmd, cmdArgs, env] = engine(args);
  return execFileSync(cmd, cmdArgs, { env, cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] }).toString();
}

export function imageExists(image: string): boolean {
  try {
    docker('image', 'inspect', '--format', '{{.Id}}', image);
    return true;
  } catch {
    return false;
  }
}

export interface ContainerStep {
  code: number;
  stdout: string;
  outputs: Record<string, string>;
  state: Record<string, string>;
}

export interface StepInput {
  inputs: Record<string, string>;
  state?: Record<string, string>;
  env?: Record<string, string>;
  /** The working folder inside the container (the workspace). */
  cwd: string;
}

/**
 * A long-lived container the action's steps run in (`docker exec`), as the runner's container support
 * starts a job container (`tail -f /dev/null`). `work` is the runner's work folder as the container sees
 * it; `hostWork` the same folder on this machine. The bundle is copied to `<work>/_actions/dist`.
 */
export class ActionContainer {
  private constructor(
    readonly name: string,
    readonly hostWork: string,
    readonly work: string,
    private readonly env: Record<string, string>,
    private readonly engine: EngineCli,
    /** Files the test writes for a step belong to this user (the container's root, outside it). */
    private readonly owner?: { uid: number; gid: number },
  ) {}

  static start(options: {
    hostWork: string;
    work: string;
    mounts: string[];
    env?: Record<string, string>;
    network?: string;
    /** Default: the host's Docker, the node image. */
    engine?: EngineCli;
    image?: string;
    /** The container's root is the runner user outside (rootless Podman). */
    rootless?: boolean;
  }): ActionContainer {
    const engine = options.engine ?? hostDocker;
    const name = `wts-topology-${randomBytes(4).toString('hex')}`;
    fs.mkdirSync(path.join(options.hostWork, '_temp'), { recursive: true });
    fs.mkdirSync(path.join(options.hostWork, '_actions'), { recursive: true });
    fs.cpSync(path.dirname(DIST), path.join(options.hostWork, '_actions', 'dist'), { recursive: true });
    const volumes = [
      `${options.hostWork}:${options.work}`,
      `${DOCKER_CLI}:/usr/local/bin/docker:ro`,
      ...options.mounts,
    ].flatMap((v) => ['-v', v]);
    const owner = options.rootless ? runnerIds() : undefined;
    if (owner) execFileSync('chown', ['-R', `${owner.uid}:${owner.gid}`, options.hostWork]);
    cli(
      engine,
      'run',
      '-d',
      '--name',
      name,
      ...(options.network ? ['--network', options.network] : []),
      ...volumes,
      '--entrypoint',
      'tail',
      options.image ?? NODE_IMAGE,
      '-f',
      '/dev/null',
    );
    return new ActionContainer(name, options.hostWork, options.work, options.env ?? {}, engine, owner);
  }

  /** The path inside the container of a path under the host's work folder. */
  inside(hostPath: string): string {
    return path.join(this.work, path.relative(this.hostWork, hostPath));
  }

  /** One step of the bundle (main, or post when `state` is given), as the runner runs it in the container. */
  async step(input: StepInput): Promise<ContainerStep> {
    const id = randomBytes(4).toString('hex');
    const files = path.join(this.hostWork, '_temp', '_runner_file_commands');
    fs.mkdirSync(files, { recursive: true });
    const names = ['output', 'state', 'summary'].map((n) => `${n}_${id}`);
    for (const n of names) fs.writeFileSync(path.join(files, n), '');
    if (this.owner) execFileSync('chown', ['-R', `${this.owner.uid}:${this.owner.gid}`, files]);
    const [output, state, summary] = names.map((n) => this.inside(path.join(files, n)));
    const env: Record<string, string> = {
      GITHUB_ACTIONS: 'true',
      RUNNER_OS: 'Linux',
      RUNNER_TEMP: path.join(this.work, '_temp'),
      GITHUB_WORKSPACE: input.cwd,
      GITHUB_OUTPUT: output,
      GITHUB_STATE: state,
      GITHUB_STEP_SUMMARY: summary,
      ...this.env,
      ...input.env,
    };
    for (const [k, v] of Object.entries(input.inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
    for (const [k, v] of Object.entries(input.state ?? {})) env[`STATE_${k}`] = v;
    const args = ['exec', '--workdir', input.cwd];
    for (const [k, v] of Object.entries(env)) args.push('-e', `${k}=${v}`);
    args.push(this.name, 'node', path.join(this.work, '_actions', 'dist', 'index.js'));
    const [cmd, cmdArgs, cmdEnv] = this.engine(args);
    const child = spawn(cmd, cmdArgs, { env: cmdEnv, cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stdout += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
    clearTimeout(timer);
    const read = (n: string) => parseFileCommands(fs.readFileSync(path.join(files, n), 'utf8'));
    return { code, stdout, outputs: read(names[0]), state: read(names[1]) };
  }

  /** Runs a command in the container (not a step): for the test's own looks around. */
  exec(...command: string[]): string {
    return cli(this.engine, 'exec', this.name, ...command);
  }

  stop(): void {
    try {
      cli(this.engine, 'rm', '--force', this.name);
    } catch {
      /* gone already */
    }
  }
}

/** A CA, a server certificate for localhost and `ip`, and a client certificate, as Docker's TLS wants them. */
export function makeCertificates(dir: string, ip: string): void {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  ssl(
    ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=wts-test-ca'],
    '-keyout',
    'ca-key.pem',
    '-out',
    'ca.pem',
  );
  ssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=localhost',
    '-keyout',
    'server-key.pem',
    '-out',
    'server.csr',
  );
  fs.writeFileSync(
    path.join(dir, 'server.ext'),
    `subjectAltName=DNS:localhost,IP:127.0.0.1,IP:${ip}\nextendedKeyUsage=serverAuth\n`,
  );
  ssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca-key.pem',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'server.ext',
    '-out',
    'server-cert.pem',
  );
  ssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=runner',
    '-keyout',
    'key.pem',
    '-out',
    'client.csr',
  );
  fs.writeFileSync(path.join(dir, 'client.ext'), 'extendedKeyUsage=clientAuth\n');
  ssl(
    'x509',
    '-req',
    '-in',
    'client.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca-key.pem',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'client.ext',
    '-out',
    'cert.pem',
  );
  for (const f of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, f), 0o644);
}

/**
 * A second Docker daemon in its own container, as ARC's `dind` sidecar: its socket in `sockDir` (mounted at
 * /var/run, as ARC shares it), TCP with TLS on 2376, `hostWork` shared at `work` when given, its storage
 * in an anonymous volume, the test image loaded. ARC runs it privileged; this machine's engine lacks
 * CAP_SYS_RESOURCE in its bounding set, and `--privileged` asks for it, so the container gets every other
 * capability, no seccomp/AppArmor profile, unmasked /proc and /sys, and the host's cgroups read-write.
 */
export class SecondEngine {
  private constructor(
    readonly name: string,
    readonly ip: string,
    readonly dir: string,
  ) {}

  get socket(): string {
    return path.join(this.dir, 'sock', 'docker.sock');
  }

  get certs(): string {
    return path.join(this.dir, 'certs');
  }

  static async start(options: { hostWork?: string; work?: string }): Promise<SecondEngine> {
    const dir = fs.mkdtempSync('/tmp/wts-dind-');
    fs.chmodSync(dir, 0o755);
    for (const d of ['sock', 'certs']) fs.mkdirSync(path.join(dir, d));
    const name = `wts-dind-${randomBytes(4).toString('hex')}`;
    const shared = options.hostWork ? ['-v', `${options.hostWork}:${options.work ?? options.hostWork}`] : [];
    docker(
      'run',
      '-d',
      '--name',
      name,
      '--cap-add',
      'ALL',
      '--cap-drop',
      'SYS_RESOURCE',
      '--security-opt',
      'seccomp=unconfined',
      '--security-opt',
      'apparmor=unconfined',
      '--security-opt',
      'systempaths=unconfined',
      '--mount',
      'type=volume,target=/var/lib/docker',
      '-v',
      '/sys/fs/cgroup:/sys/fs/cgroup',
      '-v',
      `${path.join(dir, 'sock')}:/var/run`,
      '-v',
      `${path.join(dir, 'certs')}:/certs:ro`,
      ...shared,
      '--entrypoint',
      'sleep',
      DIND_IMAGE,
      'infinity',
    );
    const ip = docker('inspect', '--format', '{{.NetworkSettings.IPAddress}}', name).trim();
    const engine = new SecondEngine(name, ip, dir);
    makeCertificates(engine.certs, ip);
    docker(
      'exec',
      '-d',
      name,
      'dockerd',
      '--host=unix:///var/run/docker.sock',
      '--host=tcp://0.0.0.0:2376',
      '--tlsverify',
      '--tlscacert=/certs/ca.pem',
      '--tlscert=/certs/server-cert.pem',
      '--tlskey=/certs/server-key.pem',
    );
    for (let i = 0; i < 60 && !engine.answers(); i++) await new Promise((r) => setTimeout(r, 500));
    if (!engine.answers()) throw new Error(`the second engine did not start: ${docker('logs', name)}`);
    execFileSync('sh', [
      '-c',
      'docker save "$1" | docker -H "unix://$2" load -q',
      'load',
      TEST_IMAGE,
      engine.socket,
    ]);
    return engine;
  }

  answers(): boolean {
    try {
      this.cli('version', '--format', '{{.Server.Version}}');
      return true;
    } catch {
      return false;
    }
  }

  /** The second engine's CLI, through its socket. */
  cli(...args: string[]): string {
    return execFileSync('docker', ['-H', `unix://${this.socket}`, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    }).toString();
  }

  /** DOCKER_HOST and TLS variables as a runner has them for this engine over TCP. */
  tcpEnv(host: string, certPath: string): Record<string, string> {
    return { DOCKER_HOST: `tcp://${host}:2376`, DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: certPath };
  }

  stop(): void {
    try {
      docker('rm', '--force', '--volumes', this.name);
    } catch {
      /* gone already */
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * The runner user's rootless Podman serving its Docker-compatible API on a socket of its own (what a
 * runner gives a job container as `/var/run/docker.sock` when Podman is its engine).
 */
export class PodmanService {
  private constructor(
    readonly socket: string,
    private readonly child: ReturnType<typeof spawn>,
  ) {}

  static async start(): Promise<PodmanService> {
    const { uid } = runnerIds();
    const socket = `/run/user/${uid}/wts-podman-${randomBytes(4).toString('hex')}.sock`;
    const [cmd, args, env] = runnerPodman(['system', 'service', '--time=0', `unix://${socket}`]);
    const child = spawn(cmd, args, { env, cwd: '/', stdio: 'ignore' });
    for (let i = 0; i < 40 && !fs.existsSync(socket); i++) await new Promise((r) => setTimeout(r, 250));
    if (!fs.existsSync(socket)) throw new Error('rootless podman system service did not start');
    return new PodmanService(socket, child);
  }

  stop(): void {
    this.child.kill('SIGTERM');
    fs.rmSync(this.socket, { force: true });
  }
}

/**
 * The podman CLI for a job container built from the test image (Debian, as this machine): this machine's
 * binary and the libraries it needs beyond the C library, copied to `dir` where every user can read them,
 * and a `podman` that runs it with them. Mounted at /opt/podman, the script on PATH. In a job container it
 * is a client of the Podman service the runner gives it (CONTAINER_HOST, which makes it remote).
 */
export function podmanClientKit(dir: string): string[] {
  const binary = execFileSync('sh', ['-c', 'command -v podman']).toString().trim();
  const libs = execFileSync('ldd', [binary])
    .toString()
    .split('\n')
    .map((line) => /=>\s*(\/\S+)/.exec(line)?.[1])
    .filter((lib): lib is string => !!lib && !/\/(libc|libm|ld-linux[^/]*)\.so/.test(lib));
  fs.mkdirSync(dir, { recursive: true });
  for (const file of [binary, ...libs]) readableCopy(fs.realpathSync(file), dir, path.basename(file));
  const wrapper = path.join(dir, 'podman-wrapper');
  fs.writeFileSync(wrapper, '#!/bin/sh\nLD_LIBRARY_PATH=/opt/podman exec /opt/podman/podman "$@"\n', {
    mode: 0o755,
  });
  fs.chmodSync(dir, 0o755);
  return [`${dir}:/opt/podman:ro`, `${wrapper}:/usr/local/bin/podman:ro`];
}

/** A copy of a binary every user can read (the runner cannot enter this checkout). */
export function readableCopy(file: string, dir: string, name = path.basename(file)): string {
  const copy = path.join(dir, name);
  fs.copyFileSync(file, copy);
  fs.chmodSync(copy, 0o755);
  return copy;
}

export { cli as engineCli };
