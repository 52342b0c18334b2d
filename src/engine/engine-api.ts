// Two yes-or-no questions put to Docker's own API over its socket, where the CLI would talk to that same
// socket: is this image there, is this volume there. A CLI start costs 15–40 ms of the reuse path, where
// these two questions are the last thing the command's container waits for; the socket answers in 1–2 ms.
//
// Only a sure "yes" is taken. Anything else (another endpoint than a local socket, a context, Podman, an
// error, a slow or unexpected answer) returns undefined, and the caller asks the CLI as before: its
// answers, errors and time limits stay the one source of every "no". Nothing here comes from a sandbox:
// the names asked are the action's own (an image input already checked, a volume name it made).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EngineName } from './engine-name.js';

/** How long a question may take before the CLI is asked instead. */
export const API_LIMIT_MS = 1_000;
/** The most of an answer read: an image's or a volume's description is a few kilobytes. */
const ANSWER_MAX = 256 * 1024;
/** Where the Docker CLI talks when nothing says otherwise. */
const DEFAULT_SOCKET = '/var/run/docker.sock';

/**
 * The Unix socket the Docker CLI would use with this environment, when that is sure; else undefined.
 * The CLI's order: `DOCKER_HOST`, then `DOCKER_CONTEXT`, then the config's `currentContext`, then the
 * default socket. Any context but `default`, a host that is not `unix://`, or a config it cannot read
 * leaves the question to the CLI.
 */
export function cliSocket(engine: EngineName, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (engine !== 'docker') return undefined;
  if (env.DOCKER_CONTEXT && env.DOCKER_CONTEXT !== 'default') return undefined;
  const host = env.DOCKER_HOST;
  if (host) {
    const socket = host.startsWith('unix://') ? host.slice('unix://'.length) : '';
    return path.isAbsolute(socket) ? socket : undefined;
  }
  const configDir = env.DOCKER_CONFIG || path.join(env.HOME || os.homedir(), '.docker');
  let config: unknown = {};
  try {
    const file = path.join(configDir, 'config.json');
    if (fs.statSync(file).size > ANSWER_MAX) return undefined;
    config = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) return undefined;
  const current = (config as { currentContext?: unknown }).currentContext;
  return current === undefined || current === '' || current === 'default' ? DEFAULT_SOCKET : undefined;
}

/** Names put in an API path: an image reference's characters, a volume name's; no `..` segment. */
const PATH_SAFE = /^[A-Za-z0-9][A-Za-z0-9._/:@+-]*$/;

/**
 * GET `apiPath` on the socket: the JSON answer of a 200, or undefined for anything else (another status,
 * no socket, an error, more than `ANSWER_MAX` bytes, no answer within `limitMs`).
 */
export async function apiGet(socket: string, apiPath: string, limitMs = API_LIMIT_MS): Promise<unknown> {
  const http = await import('node:http');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const request = http.get({ socketPath: socket, path: apiPath, headers: { accept: 'application/json' } });
    const timer = setTimeout(() => request.destroy(), limitMs);
    const done = (value: unknown) => {
      clearTimeout(timer);
      resolve(value);
    };
    request.on('error', () => done(undefined));
    request.on('response', (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        request.destroy();
        return done(undefined);
      }
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > ANSWER_MAX) {
          request.destroy();
          return done(undefined);
        }
        chunks.push(chunk);
      });
      response.on('error', () => done(undefined));
      response.on('end', () => {
        try {
          done(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch {
          done(undefined);
        }
      });
    });
  });
}

/** True when the engine's API says the image is there; undefined when the CLI must be asked. */
export async function imageThere(socket: string | undefined, image: string): Promise<true | undefined> {
  if (!socket || !PATH_SAFE.test(image) || image.split('/').includes('..')) return undefined;
  const answer = await apiGet(socket, `/images/${image}/json`);
  return typeof (answer as { Id?: unknown } | undefined)?.Id === 'string' ? true : undefined;
}

/** True when the engine's API says the volume is there; undefined when the CLI must be asked. */
export async function volumeThere(socket: string | undefined, name: string): Promise<true | undefined> {
  if (!socket || !/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(name)) return undefined;
  const answer = await apiGet(socket, `/volumes/${name}`);
  return (answer as { Name?: unknown } | undefined)?.Name === name ? true : undefined;
}
