// Servers on this machine for clients that nobody here wrote (git, npm, the model SDKs), each behind an
// HTTPS server of test/support/network.ts (a test-CA certificate, every TCP connection counted):
//   - git's own smart-HTTP server (`git http-backend`, run as a CGI program per request);
//   - verdaccio (an npm registry, from npm) on 127.0.0.1, fronted by the counting HTTPS server;
//   - fakes of the Anthropic and OpenAI APIs that answer only to the right key.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Handler } from './network.js';
import { tempDir } from './repo.js';

export const GIT_HOST = 'git.ws-net.test';
export const REGISTRY_HOST = 'registry.ws-net.test';
export const ANTHROPIC_HOST = 'anthropic.ws-net.test';
export const OPENAI_HOST = 'openai.ws-net.test';

const CGI_TIMEOUT_MS = 60_000;

/**
 * `git http-backend` for the bare repositories under `projectRoot`, as a web server runs it (RFC 3875):
 * the request's body on its stdin, its answer (CGI headers, then the body) on its stdout. `authorization`,
 * when given, is the one Authorization header it serves; any other request gets 401, as a private host.
 */
export function gitHttpBackend(projectRoot: string, authorization?: string): Handler {
  return (req, res) => {
    if (authorization !== undefined && req.headers.authorization !== authorization) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="test"' });
      res.end('authorization required\n');
      return;
    }
    const url = new URL(req.url ?? '/', 'https://x');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        REQUEST_METHOD: req.method,
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        // Without CONTENT_LENGTH (a chunked body) it reads its stdin to the end.
        ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
        ...(req.headers['content-encoding']
          ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] }
          : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
        REMOTE_ADDR: req.socket.remoteAddress ?? '',
        REMOTE_USER: 'tester',
      },
      stdio: ['pipe', 'pipe', 'ignore'],
      timeout: CGI_TIMEOUT_MS,
    });
    req.pipe(cgi.stdin);
    cgi.stdin.on('error', () => undefined);
    let head = Buffer.alloc(0);
    let inBody = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (inBody) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      inBody = true;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      res.write(head.subarray(end + 4));
    });
    cgi.on('close', () => {
      if (!inBody && !res.headersSent) res.writeHead(502);
      res.end();
    });
  };
}

/** A bare repository `<root>/<name>.git` holding `source`'s `main`, served by `gitHttpBackend(root)`. */
export function bareRepoFrom(source: string, name: string): { root: string; url: (base: string) => string } {
  const root = tempDir('wts-git-http-');
  execFileSync('git', ['clone', '--quiet', '--bare', source, path.join(root, `${name}.git`)], {
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  });
  return { root, url: (base) => `${base}/${name}.git` };
}

/** Sends each request on to a server on 127.0.0.1 (verdaccio), saying that the client asked over HTTPS. */
export function frontFor(port: number): Handler {
  return (req, res) => {
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'x-forwarded-proto': 'https' },
        agent: false,
      },
      (response) => {
        res.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** One request to a server on 127.0.0.1, on a connection of its own (none is kept alive after the test). */
function plainRequest(
  port: number,
  method: string,
  urlPath: string,
  json?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: urlPath,
        agent: false,
        headers: json ? { 'content-type': 'application/json' } : {},
        timeout: 10_000,
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0, body: '' }));
    req.end(json);
  });
}

export interface Verdaccio {
  port: number;
  dir: string;
  /** The token of the one user, made at the start (it publishes, and reads the private scope). */
  token: string;
  close(): Promise<void>;
}

/**
 * verdaccio (node_modules) on 127.0.0.1 with its own storage and no uplink: it serves what is published
 * to it and asks no other registry for anything.
 */
export async function startVerdaccio(): Promise<Verdaccio> {
  const dir = tempDir('wts-verdaccio-');
  const port = await freePort();
  const config = path.join(dir, 'config.yaml');
  fs.writeFileSync(
    config,
    [
      `storage: ${path.join(dir, 'storage')}`,
      'auth:',
      '  htpasswd:',
      `    file: ${path.join(dir, 'htpasswd')}`,
      'uplinks: {}',
      'packages:',
      // A private scope: only a user's token reads it.
      "  '@private/*':",
      '    access: $authenticated',
      '    publish: $authenticated',
      "  '**':",
      '    access: $all',
      '    publish: $authenticated',
      'logs: { type: stdout, format: json, level: warn }',
      'publish:',
      '  allow_offline: true',
      '',
    ].join('\n'),
  );
  const bin = path.resolve('node_modules/verdaccio/bin/verdaccio');
  const child: ChildProcess = spawn(
    process.execPath,
    [bin, '--config', config, '--listen', `127.0.0.1:${port}`],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let said = '';
  child.stdout!.on('data', (d: Buffer) => (said = (said + d.toString()).slice(-4000)));
  child.stderr!.on('data', (d: Buffer) => (said = (said + d.toString()).slice(-4000)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    // (status 0 while it is not listening yet)
    if ((await plainRequest(port, 'GET', '/-/ping')).status === 200) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`verdaccio did not start: ${said}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const made = await plainRequest(
    port,
    'PUT',
    '/-/user/org.couchdb.user:tester',
    JSON.stringify({ name: 'tester', password: 'tester-password', email: 't@example.com' }),
  );
  const { token } = JSON.parse(made.body || '{}') as { token?: string };
  if (!token) {
    child.kill('SIGKILL');
    throw new Error(`verdaccio made no user (${made.status})`);
  }
  return {
    port,
    dir,
    token,
    close: async () => {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([gone, new Promise((r) => (timer = setTimeout(r, 5000)))]);
        clearTimeout(timer); // not left to keep the test process waiting
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Publishes a small package with the host's npm, through `registry` (the HTTPS front), as verdaccio's
 * user: `name@1.0.0`, whose main module exports `says`.
 */
export async function publishPackage(
  verdaccio: Verdaccio,
  registry: string,
  caFile: string,
  name: string,
  says: string,
): Promise<void> {
  const dir = tempDir('wts-npm-publish-');
  const env = { ...process.env, NODE_EXTRA_CA_CERTS: caFile };
  const pkg = path.join(dir, 'pkg');
  fs.mkdirSync(pkg);
  fs.writeFileSync(
    path.join(pkg, 'package.json'),
    JSON.stringify({ name, version: '1.0.0', main: 'index.js', license: 'MIT' }),
  );
  fs.writeFileSync(path.join(pkg, 'index.js'), `module.exports = ${JSON.stringify(says)};\n`);
  const npmrc = path.join(dir, 'npmrc');
  fs.writeFileSync(npmrc, `//${new URL(registry).host}/:_authToken=${verdaccio.token}\n`);
  // Not a synchronous child: the HTTPS front it talks to runs in this process.
  const published = await new Promise<{ code: number | null; said: string }>((resolve) => {
    const npm = spawn(
      'npm',
      [
        'publish',
        '--registry',
        registry,
        '--userconfig',
        npmrc,
        '--cafile',
        caFile,
        '--cache',
        path.join(dir, 'cache'),
      ],
      { cwd: pkg, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 },
    );
    let said = '';
    for (const s of [npm.stdout, npm.stderr])
      s.on('data', (d: Buffer) => (said = (said + d.toString()).slice(-4000)));
    npm.on('close', (code) => resolve({ code, said }));
  });
  if (published.code !== 0) throw new Error(`npm publish failed: ${published.said}`);
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Reads a request's body (bounded) as JSON. */
function jsonBody(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (d: Buffer) => {
      if (text.length < 1_000_000) text += d.toString();
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(text) as Record<string, unknown>);
      } catch {
        resolve({});
      }
    });
  });
}

/** The usage each fake reports for one answer (the same streamed or not), for tests of the metering. */
export const FAKE_USAGE = {
  anthropic: {
    input_tokens: 11,
    output_tokens: 13,
    cache_read_input_tokens: 5,
    cache_creation_input_tokens: 0,
  },
  openai: { prompt_tokens: 17, completion_tokens: 19, total_tokens: 36 },
};

/** Writes server-sent events, a few at a time, as an API streams them. */
function streamEvents(
  res: http.ServerResponse,
  events: Array<[string | undefined, unknown]>,
  done = '',
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const lines = events.map(
    ([event, data]) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`,
  );
  let i = 0;
  const next = () => {
    if (i < lines.length) {
      res.write(lines[i++]);
      setTimeout(next, 5);
    } else res.end(done);
  };
  next();
}

/**
 * A fake of the Anthropic Messages API (`POST /v1/messages`): answers with a message only when
 * `x-api-key` is `key`, streamed when the request asks (`"stream": true`), with FAKE_USAGE; records every
 * key it was sent.
 */
export function fakeAnthropic(key: string, seen: string[]): Handler {
  return (req, res) => {
    void jsonBody(req).then((body) => {
      seen.push(String(req.headers['x-api-key']));
      res.setHeader('content-type', 'application/json');
      if (req.headers['x-api-key'] !== key) {
        res.writeHead(401);
        res.end(
          JSON.stringify({
            type: 'error',
            error: { type: 'authentication_error', message: 'invalid x-api-key' },
          }),
        );
        return;
      }
      if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/messages') {
        res.writeHead(404);
        res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: req.url } }));
        return;
      }
      const usage = FAKE_USAGE.anthropic;
      if (body.stream === true) {
        const text = 'hello from the fake Anthropic API, streamed';
        streamEvents(res, [
          [
            'message_start',
            {
              type: 'message_start',
              message: {
                id: 'msg_test',
                type: 'message',
                role: 'assistant',
                model: body.model,
                content: [],
                stop_reason: null,
                stop_sequence: null,
                usage: { ...usage, output_tokens: 1 },
              },
            },
          ],
          [
            'content_block_start',
            { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          ],
          ...text.split(' ').map((word, i): [string, unknown] => [
            'content_block_delta',
            {
              type: 'content_block_delta',
              index: 0,
              delta: { type: 'text_delta', text: i ? ` ${word}` : word },
            },
          ]),
          ['content_block_stop', { type: 'content_block_stop', index: 0 }],
          [
            'message_delta',
            {
              type: 'message_delta',
              delta: { stop_reason: 'end_turn', stop_sequence: null },
              usage: { output_tokens: usage.output_tokens },
            },
          ],
          ['message_stop', { type: 'message_stop' }],
        ]);
        return;
      }
      res.end(
        JSON.stringify({
          id: 'msg_test',
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: [{ type: 'text', text: 'hello from the fake Anthropic API' }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage,
        }),
      );
    });
  };
}

/**
 * A fake of the OpenAI Chat Completions API (`POST /v1/chat/completions`): answers only when the
 * `Authorization` header is `Bearer <key>`, streamed when the request asks (with the usage in a last chunk
 * when it asks for that too, as the API does), with FAKE_USAGE; records every header it was sent.
 */
export function fakeOpenAi(key: string, seen: string[]): Handler {
  return (req, res) => {
    void jsonBody(req).then((body) => {
      seen.push(String(req.headers.authorization));
      res.setHeader('content-type', 'application/json');
      if (req.headers.authorization !== `Bearer ${key}`) {
        res.writeHead(401);
        res.end(
          JSON.stringify({
            error: {
              message: 'Incorrect API key provided',
              type: 'invalid_request_error',
              code: 'invalid_api_key',
            },
          }),
        );
        return;
      }
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404);
        res.end(JSON.stringify({ error: { message: `no ${req.url}` } }));
        return;
      }
      if (body.stream === true) {
        const withUsage =
          (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
        const chunk = (delta: unknown, usage: unknown = null) => ({
          id: 'chatcmpl-test',
          object: 'chat.completion.chunk',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: delta ? [{ index: 0, delta, finish_reason: null }] : [],
          ...(withUsage ? { usage } : {}),
        });
        streamEvents(
          res,
          [
            [undefined, chunk({ role: 'assistant', content: '' })],
            ...'hello from the fake OpenAI API, streamed'
              .split(' ')
              .map((word, i): [undefined, unknown] => [undefined, chunk({ content: i ? ` ${word}` : word })]),
            ...(withUsage ? [[undefined, chunk(undefined, FAKE_USAGE.openai)] as [undefined, unknown]] : []),
          ],
          'data: [DONE]\n\n',
        );
        return;
      }
      res.end(
        JSON.stringify({
          id: 'chatcmpl-test',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: 'hello from the fake OpenAI API' },
              finish_reason: 'stop',
            },
          ],
          usage: FAKE_USAGE.openai,
        }),
      );
    });
  };
}

/**
 * Copies packages from this project's node_modules, with every package they need at run time, into
 * `into`/node_modules (what a project that commits its node_modules has): their code only, without type
 * declarations, source maps and TypeScript sources.
 */
export function copyPackages(names: string[], into: string): number {
  const from = path.resolve('node_modules');
  const done = new Set<string>();
  let files = 0;
  const copyTree = (src: string, dst: string, top: boolean) => {
    fs.mkdirSync(dst, { recursive: true });
    for (const entry of fs.readdirSync(src, { withFileTypes: true })) {
      const s = path.join(src, entry.name);
      const d = path.join(dst, entry.name);
      if (entry.isDirectory()) {
        if (!(top && (entry.name === 'src' || entry.name === 'node_modules'))) copyTree(s, d, false);
      } else if (entry.isFile() && !/\.d\.[cm]?ts$|\.map$/.test(entry.name)) {
        fs.copyFileSync(s, d);
        files++;
      }
    }
  };
  const queue = [...names];
  while (queue.length) {
    const name = queue.shift()!;
    if (done.has(name)) continue;
    done.add(name);
    const dir = path.join(from, name);
    copyTree(dir, path.join(into, 'node_modules', name), true);
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    queue.push(...Object.keys(pkg.dependencies ?? {}));
  }
  return files;
}

export const PYPI_HOST = 'pypi.ws-net.test';
export const FILES_HOST = 'files.ws-net.test';
export const PIP_IMAGE = 'worktree-sandbox-pip-test:bookworm';

/**
 * The net test image with Debian's python3-pip (from the Debian mirror apt uses here), built once per
 * net image.
 */
export function ensurePipImage(netImage: string): string {
  const base = execFileSync('docker', ['image', 'inspect', '--format', '{{.Id}}', netImage], {
    encoding: 'utf8',
  }).trim();
  try {
    const have = execFileSync(
      'docker',
      ['image', 'inspect', '--format', '{{index .Config.Labels "base-image"}}', PIP_IMAGE],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    ).trim();
    if (have === base) return PIP_IMAGE;
  } catch {
    // not built yet
  }
  const sources = fs
    .readdirSync('/etc/apt/sources.list.d')
    .filter((f) => f.endsWith('.sources'))
    .map((f) => fs.readFileSync(path.join('/etc/apt/sources.list.d', f), 'utf8'))
    .join('\n');
  const mirror =
    /^URIs:\s*(\S+)/m.exec(sources.split('\n\n').find((s) => !s.includes('security')) ?? '')?.[1] ??
    'http://deb.debian.org/debian';
  const ctx = tempDir('wts-pip-image-');
  fs.writeFileSync(
    path.join(ctx, 'Dockerfile'),
    [
      `FROM ${netImage}`,
      `RUN printf 'deb ${mirror} bookworm main\\n' >/etc/apt/sources.list && rm -f /etc/apt/sources.list.d/* && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-pip >/dev/null && rm -rf /var/lib/apt/lists/*`,
      `LABEL base-image="${base}"`,
      '',
    ].join('\n'),
  );
  execFileSync('docker', ['build', '-q', '-t', PIP_IMAGE, ctx], { stdio: 'ignore', timeout: 600_000 });
  fs.rmSync(ctx, { recursive: true, force: true });
  return PIP_IMAGE;
}

/** A pure-Python wheel `<name>-1.0.0-py3-none-any.whl` whose module `<name>` has `SAYS = says` (made by the host's python3). */
export function makeWheel(name: string, says: string): { file: string; bytes: Buffer; sha256: string } {
  const dir = tempDir('wts-wheel-');
  const file = path.join(dir, `${name}-1.0.0-py3-none-any.whl`);
  const script = `
import base64, hashlib, sys, zipfile
name, says, out = sys.argv[1], sys.argv[2], sys.argv[3]
info = f"{name}-1.0.0.dist-info"
files = {
    f"{name}/__init__.py": f"SAYS = {says!r}\\n",
    f"{info}/METADATA": f"Metadata-Version: 2.1\\nName: {name}\\nVersion: 1.0.0\\n",
    f"{info}/WHEEL": "Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
}
record = []
with zipfile.ZipFile(out, "w") as z:
    for path, text in files.items():
        data = text.encode()
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
        z.writestr(path, data)
    record.append(f"{info}/RECORD,,")
    z.writestr(f"{info}/RECORD", "\\n".join(record) + "\\n")
`;
  execFileSync('python3', ['-c', script, name, says, file]);
  const bytes = fs.readFileSync(file);
  fs.rmSync(dir, { recursive: true, force: true });
  return { file: path.basename(file), bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * A PEP 503 simple index for one project, answering only to `authorization` (a private index), whose
 * links point at `filesUrl` (another host, as PyPI's point at files.pythonhosted.org).
 */
export function simpleIndex(
  project: string,
  wheel: { file: string; sha256: string },
  filesUrl: () => string,
  authorization: string,
  seen: string[],
): Handler {
  return (req, res) => {
    seen.push(String(req.headers.authorization));
    if (req.headers.authorization !== authorization) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="index"' });
      res.end('authorization required\n');
      return;
    }
    if (req.url !== `/simple/${project}/`) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      `<!DOCTYPE html><html><body><a href="${filesUrl()}/packages/${wheel.file}#sha256=${wheel.sha256}">${wheel.file}</a></body></html>\n`,
    );
  };
}

/** Serves one file under /packages/. */
export function packageFiles(wheel: { file: string; bytes: Buffer }): Handler {
  return (req, res) => {
    if (req.url !== `/packages/${wheel.file}`) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': wheel.bytes.length });
    res.end(wheel.bytes);
  };
}
