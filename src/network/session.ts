// One command's network when `network` is an allow-list or audit: the proxy (proxy.ts) on a Unix socket
// in a folder of the runner's temp, the sidecar that forwards to it from a namespace with loopback only,
// and what the command needs to use it. The command's container joins the sidecar's namespace: it has
// `lo` and nothing else, so a program that ignores the proxy variables reaches nothing. ADR 0009.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EngineCommands } from '../engine/engine-commands.js';
import { userArg, type ContainerSpec } from '../engine/container-args.js';
import type { RunCa } from './ca.js';
import {
  ensureForwarderImage,
  FORWARDER_NODE,
  FORWARDER_RUN,
  FORWARDER_SCRIPT,
  PROXY_PORT,
} from './forwarder.js';
import type { ProxiedPolicy } from './policy.js';
import { startProxy, type NetworkReport } from './proxy.js';
import { sidecarName } from './leftovers.js';
import { startWatchdog, type Watchdog } from './watchdog.js';

export interface NetworkSession {
  /** The command's variables: the proxy's address and, with credentials, the trust files. Nothing secret. */
  env: Record<string, string>;
  /** Files the command reads (host path = container path), read-only: the CA bundle, with credentials. */
  readOnlyFiles: string[];
  /** The container whose network namespace the command joins. */
  joinNetworkOf: string;
  /** Stops the sidecar and the proxy; what the command reached and was refused. */
  stop(): Promise<NetworkReport>;
}

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;

/** The standard variables that point clients at a proxy: curl, git, npm, pip, Node (24: NODE_USE_ENV_PROXY). */
export function proxyEnv(): Record<string, string> {
  const url = `http://127.0.0.1:${PROXY_PORT}`;
  const noProxy = 'localhost,127.0.0.1,::1';
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    NO_PROXY: noProxy,
    no_proxy: noProxy,
    npm_config_proxy: url,
    npm_config_https_proxy: url,
    NODE_USE_ENV_PROXY: '1',
  };
}

/** The trust variables, each naming `bundle` (the runner's CAs and the run's). */
export function trustEnv(bundle: string): Record<string, string> {
  return {
    SSL_CERT_FILE: bundle,
    NODE_EXTRA_CA_CERTS: bundle,
    REQUESTS_CA_BUNDLE: bundle,
    CURL_CA_BUNDLE: bundle,
    GIT_SSL_CAINFO: bundle,
    PIP_CERT: bundle,
  };
}

const SYSTEM_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/cert.pem',
];
const MAX_BUNDLE_BYTES = 4 * 1024 * 1024;

/** A bundle file's text, if it is a file of at most MAX_BUNDLE_BYTES; else none. */
async function bundleText(file: string): Promise<string | undefined> {
  try {
    const st = await fs.stat(file);
    if (st.isFile() && st.size <= MAX_BUNDLE_BYTES) return await fs.readFile(file, 'utf8');
  } catch {
    // not this one
  }
  return undefined;
}

/**
 * The CAs the proxy trusts (so that hosts it only tunnels still verify in the container): the runner's
 * bundle, and the step's NODE_EXTRA_CA_CERTS (an internal CA of a self-hosted runner, which the proxy
 * trusts too), or none.
 */
async function runnerBundle(): Promise<string> {
  let system = '';
  for (const file of SYSTEM_BUNDLES) {
    const text = await bundleText(file);
    if (text !== undefined) {
      system = text;
      break;
    }
  }
  const extraFile = process.env.NODE_EXTRA_CA_CERTS;
  const extra = extraFile ? await bundleText(extraFile) : undefined;
  return extra?.includes('-----BEGIN CERTIFICATE-----') ? `${system}\n${extra}` : system;
}

export function sidecarContainer(
  name: string,
  image: string,
  node: string,
  runDir: string,
  labels: Record<string, string>,
): ContainerSpec {
  return {
    name,
    image,
    remove: true,
    user: userArg(),
    mounts: [
      { type: 'bind', source: node, target: FORWARDER_NODE, readonly: true },
      { type: 'bind', source: runDir, target: FORWARDER_RUN, readonly: true },
    ],
    labels,
    limits: { network: 'none', pidsLimit: 64, memory: '256m', readOnlyRootfs: true },
    entrypoint: FORWARDER_NODE,
    args: [
      '--max-old-space-size=96',
      `${FORWARDER_RUN}/forwarder.mjs`,
      String(PROXY_PORT),
      `${FORWARDER_RUN}/proxy.sock`,
    ],
  };
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000}s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The run's CA, with node-forge loaded for it (a chunk of its own, for runs with credentials only). */
export function createRunCaOnDemand(): Promise<RunCa> {
  return import('./ca.js').then((m) => m.createRunCa());
}

export async function startNetwork(
  engine: EngineCommands,
  policy: ProxiedPolicy,
  options: { name: string; labels: Record<string, string>; ca?: Promise<RunCa> },
): Promise<NetworkSession> {
  // The run's CA (with credentials: node-forge, loaded only then, and an RSA key made off the main
  // thread), begun by the caller as the run started, or here: the sidecar does not need it, the command
  // does (its certificate), so it is awaited last.
  const caReady: Promise<RunCa> | undefined =
    options.ca ?? (policy.credentials.length > 0 ? createRunCaOnDemand() : undefined);
  caReady?.catch(() => undefined); // awaited below
  const node = await fs.realpath(process.execPath);
  const imageReady = ensureForwarderImage(engine, node);
  imageReady.catch(() => undefined); // awaited below
  const temp = process.env.RUNNER_TEMP || os.tmpdir();
  const runDir = await fs.mkdtemp(path.join(temp, 'worktree-sandbox-net-'));
  let trustDir: string | undefined;
  let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
  let sidecarExited: Promise<unknown> | undefined;
  let watchdog: Watchdog | undefined;
  const sidecar = sidecarName(options.name);
  const cleanUp = async () => {
    if (sidecarExited) {
      await engine.removeContainer(sidecar).catch(() => undefined);
      await within(sidecarExited, STOP_TIMEOUT_MS, 'stopping the network forwarder').catch(() => undefined);
    }
    await proxy?.close();
    await fs.rm(runDir, { recursive: true, force: true });
    if (trustDir) await fs.rm(trustDir, { recursive: true, force: true });
    // Last: until here, a kill of the action still leaves the watchdog to remove both containers.
    watchdog?.dismiss();
  };
  try {
    await fs.writeFile(path.join(runDir, 'forwarder.mjs'), FORWARDER_SCRIPT, { mode: 0o644 });
    const env = proxyEnv();
    const readOnlyFiles: string[] = [];
    proxy = await startProxy({ policy, socketPath: path.join(runDir, 'proxy.sock'), ca: caReady });
    const image = await imageReady;
    let ready!: () => void;
    const listening = new Promise<void>((resolve) => (ready = resolve));
    const said: string[] = [];
    const args = await engine.runArgs(sidecarContainer(sidecar, image, node, runDir, options.labels));
    // Before either container exists: the command's (which joins the sidecar) goes first.
    watchdog = startWatchdog(engine, [options.name, sidecar]);
    sidecarExited = engine.stream(args, {
      onLine: (line) => {
        if (line.trim() === 'ready') ready();
        else if (said.length < 5) said.push(line.slice(0, 300));
      },
    });
    const exited = sidecarExited.then((r) => {
      throw new Error(
        `the network forwarder exited (${engine.name} exit ${(r as { exitCode: number }).exitCode}): ${said.join(' ')}`,
      );
    });
    await within(Promise.race([listening, exited]), READY_TIMEOUT_MS, 'starting the network forwarder');
    exited.catch(() => undefined); // it exits when stopped
    if (caReady) {
      const ca = await caReady;
      trustDir = await fs.mkdtemp(path.join(temp, 'worktree-sandbox-trust-'));
      await fs.chmod(trustDir, 0o755);
      const bundle = path.join(trustDir, 'ca-bundle.pem');
      await fs.writeFile(bundle, `${await runnerBundle()}\n${ca.certificate}`, { mode: 0o644 });
      readOnlyFiles.push(bundle);
      Object.assign(env, trustEnv(bundle));
    }
    const running = proxy;
    let stopped: Promise<NetworkReport> | undefined;
    return {
      env,
      readOnlyFiles,
      joinNetworkOf: sidecar,
      // Once: the command's end stops it, and the run's own clean-up again if the command never ran.
      stop: () => (stopped ??= cleanUp().then(() => running.report())),
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
