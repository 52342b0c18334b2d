// Clients that nobody here wrote, in the command's container, through the allow-list's proxy, against
// servers on this machine (names in /etc/hosts, certificates from a test CA, every TCP connection
// counted): git over HTTPS from git's own http-backend, npm from verdaccio, and the official Anthropic and
// OpenAI SDKs against fakes of their APIs. The bundle as the runner runs it (uid 1001): Docker, and
// rootless Podman. Each client gets nothing but what the action sets (and, for the SDKs, a placeholder key
// and a base URL); the keys come from `credentials` only, reach their servers, and are not in the container.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RunCa } from '../../src/network/ca.js';
import { runStep, type StepResult } from '../support/action.js';
import { availableEngines } from '../support/engines.js';
import { runnerIds } from '../support/env.js';
import {
  ANTHROPIC_HOST,
  bareRepoFrom,
  copyPackages,
  ensurePipImage,
  fakeAnthropic,
  FILES_HOST,
  fakeOpenAi,
  frontFor,
  GIT_HOST,
  gitHttpBackend,
  makeWheel,
  OPENAI_HOST,
  packageFiles,
  publishPackage,
  PYPI_HOST,
  REGISTRY_HOST,
  simpleIndex,
  startVerdaccio,
  type Verdaccio,
} from '../support/net-servers.js';
import {
  addTestHosts,
  bridgeAddress,
  ensureNetImage,
  httpsServer,
  keyNotFound,
  keySearchLines,
  loadIntoRootlessPodman,
  loadNetImageIntoRootlessPodman,
  testCa,
  type Recorder,
} from '../support/network.js';
import { chownTree, git, makeRepo, type TestRepo } from '../support/repo.js';
import { leftVolumes } from '../support/storage.js';

const ENGINES = availableEngines();
const GIT_TOKEN = `ghs_wsnet${randomBytes(12).toString('hex')}`;
// What a git host's token looks like on the wire: HTTP Basic, the token as the password.
const GIT_AUTH = `Basic ${Buffer.from(`x-access-token:${GIT_TOKEN}`).toString('base64')}`;
const ANTHROPIC_KEY = `sk-ant-wsnet-${randomBytes(12).toString('hex')}`;
const OPENAI_KEY = `sk-proj-wsnet-${randomBytes(12).toString('hex')}`;
const PACKAGE = 'ws-net-demo';
const PRIVATE_PACKAGE = '@private/ws-net-secret';

let image = '';
let caFile = '';
let authority: RunCa;
let gitServer: Recorder;
let registry: Recorder;
let verdaccio: Verdaccio;
let anthropic: Recorder;
let openai: Recorder;
let served: { root: string; url: (base: string) => string };
const anthropicKeys: string[] = [];
const openaiKeys: string[] = [];
const cleanup: string[] = [];

beforeAll(async () => {
  image = ensureNetImage();
  if (ENGINES.includes('podman')) loadNetImageIntoRootlessPodman();
  addTestHosts(bridgeAddress(), [GIT_HOST, REGISTRY_HOST, ANTHROPIC_HOST, OPENAI_HOST]);
  const test = await testCa();
  caFile = test.file;
  authority = test.ca;
  cleanup.push(path.dirname(caFile));
  // A private git host: the repository to clone, served only to the token's Authorization header.
  const source = makeRepo({ files: { 'README.md': '# served over HTTPS by git http-backend\n' } });
  cleanup.push(source.root);
  served = bareRepoFrom(source.parent, 'project');
  cleanup.push(served.root);
  gitServer = await httpsServer(test.ca, GIT_HOST, gitHttpBackend(served.root, GIT_AUTH));
  // A registry: verdaccio on 127.0.0.1 behind the counting HTTPS front, with one package published.
  verdaccio = await startVerdaccio();
  registry = await httpsServer(test.ca, REGISTRY_HOST, frontFor(verdaccio.port));
  await publishPackage(
    verdaccio,
    `https://${REGISTRY_HOST}:${registry.port}`,
    caFile,
    PACKAGE,
    'demo package loaded',
  );
  await publishPackage(
    verdaccio,
    `https://${REGISTRY_HOST}:${registry.port}`,
    caFile,
    PRIVATE_PACKAGE,
    'private package loaded',
  );
  anthropic = await httpsServer(test.ca, ANTHROPIC_HOST, fakeAnthropic(ANTHROPIC_KEY, anthropicKeys));
  openai = await httpsServer(test.ca, OPENAI_HOST, fakeOpenAi(OPENAI_KEY, openaiKeys));
}, 240_000);

afterAll(async () => {
  for (const r of [gitServer, registry, anthropic, openai]) await r?.close();
  await volumes.removeAll();
  await verdaccio?.close();
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
});

/** A repository owned by the runner, with `files` committed on top (and the test CA, see npm's test). */
function runnerRepo(extra?: (work: string) => void): TestRepo {
  const repo = makeRepo();
  cleanup.push(repo.root);
  fs.copyFileSync(caFile, path.join(repo.parent, 'test-ca.pem'));
  extra?.(repo.parent);
  git(repo.parent, 'add', '-A');
  git(repo.parent, 'commit', '--quiet', '-m', 'test files');
  chownTree(repo.root, runnerIds());
  return repo;
}

const bash = (lines: string[]) => `bash <<'WS_NET_EOF'\n${lines.join('\n')}\nWS_NET_EOF`;

/** Each step runs without its post step, so the run's sandbox volume is left: removed at the end. */
const volumes = leftVolumes('netcli');

async function step(
  engine: string,
  repo: TestRepo,
  inputs: Record<string, string>,
): Promise<StepResult & { out: string }> {
  const result = await runStep({
    inputs: {
      mode: 'run',
      image,
      engine,
      'repository-path': repo.parent,
      'volume-prefix': volumes.prefix(engine),
      ...inputs,
    },
    // The proxy checks the test servers' certificates as the runner would an internal CA's.
    env: { GITHUB_WORKSPACE: repo.parent, NODE_EXTRA_CA_CERTS: caFile },
    asRunner: true,
    rootlessPodman: engine === 'podman',
    timeoutMs: 400_000,
  });
  return { ...result, out: result.stdout };
}

const npmInstall = (port: number, name = PACKAGE) =>
  `npm install --no-audit --no-fund --fetch-retries=0 --registry https://${REGISTRY_HOST}:${port} ${name}`;
const gitClone = (port: number) => `git clone --quiet https://${GIT_HOST}:${port}/project.git cloned`;

function hostsOf(result: StepResult, output: 'network-allowed' | 'network-denied'): string[] {
  return (JSON.parse(result.outputs[output] || '[]') as Array<{ host: string; port: number }>)
    .map((r) => `${r.host}:${r.port}`)
    .sort();
}

describe.each(ENGINES)('real clients through the allow-list, as the runner (%s)', (engine) => {
  it('git clones over HTTPS from a private git host with its token in credentials only; npm is refused its registry', async () => {
    const repo = runnerRepo();
    const before = { git: gitServer.connections, registry: registry.connections };
    const { code, out, outputs, summary, stderr, ...result } = await step(engine, repo, {
      // Nothing listed but an unrelated host: the git host is allowed by its credential line.
      network: 'unrelated.ws-net.test',
      credentials: `${GIT_HOST}:${gitServer.port} Authorization: ${GIT_AUTH}`,
      command: bash([
        // git with nothing but what the action set: HTTPS_PROXY, GIT_SSL_CAINFO (the run's CA).
        'echo "git-config-lines $(git config --global --list 2>/dev/null | wc -l)"',
        `${gitClone(gitServer.port)} && git -C cloned log --format='cloned %s' -1 && cat cloned/README.md`,
        // The registry is not on this run's list.
        `${npmInstall(registry.port)} >npm.log 2>&1 && echo NPM-INSTALLED || { echo npm-refused; grep -o 'ERR[A-Z_]*\\|403[^"]*' npm.log | head -3; }`,
        ...keySearchLines(GIT_AUTH.slice('Basic '.length), 'git-token'),
        ...keySearchLines(GIT_TOKEN, 'raw-token'),
      ]),
    });
    expect(code).toBe(0);
    expect(out).toContain('git-config-lines 0'); // no git configuration of the command's own
    expect(out).toContain('cloned second');
    expect(out).toContain('# served over HTTPS by git http-backend');
    expect(out).toContain('npm-refused');
    expect(out).not.toContain('NPM-INSTALLED');
    expect(keyNotFound(out, GIT_AUTH.slice('Basic '.length), 'git-token')).toBe(true);
    expect(keyNotFound(out, GIT_TOKEN, 'raw-token')).toBe(true);
    // The clone reached the git host (over the proxy's upstream connections); the registry saw nothing.
    expect(gitServer.connections).toBeGreaterThan(before.git);
    expect(registry.connections).toBe(before.registry);
    expect(hostsOf({ outputs } as StepResult, 'network-allowed')).toEqual([`${GIT_HOST}:${gitServer.port}`]);
    expect(hostsOf({ outputs } as StepResult, 'network-denied')).toEqual([
      `${REGISTRY_HOST}:${registry.port}`,
    ]);
    for (const text of [stderr, summary, JSON.stringify(outputs), JSON.stringify(result.state)])
      expect(text).not.toContain(GIT_TOKEN);
    // Only the runner's mask commands hold it: the whole value, and (for the secret scan) its token part.
    expect(
      out
        .split('\n')
        .filter((l) => l.includes(GIT_AUTH.slice('Basic '.length)))
        .sort(),
    ).toEqual([`::add-mask::${GIT_AUTH}`, `::add-mask::${GIT_AUTH.slice('Basic '.length)}`].sort());
  }, 600_000);

  it('npm installs a package from a registry allowed by a pattern; git is refused a host the pattern does not cover', async () => {
    const repo = runnerRepo((work) =>
      fs.writeFileSync(
        path.join(work, 'package.json'),
        JSON.stringify({ name: 'consumer', version: '0.0.0', private: true }),
      ),
    );
    const before = { git: gitServer.connections, registry: registry.connections };
    const { code, out, outputs } = await step(engine, repo, {
      network: `*.ws-net.test:${registry.port}`,
      command: bash([
        // The registry's certificate is from the test CA, which stands in for a public CA here: the
        // image is told to trust it (a registry with a public certificate needs nothing of the kind).
        'export NODE_EXTRA_CA_CERTS="$PWD/test-ca.pem"',
        `${npmInstall(registry.port)} >npm.log 2>&1 && echo npm-installed || { echo NPM-FAILED; tail -20 npm.log; }`,
        `node -e "console.log(require('${PACKAGE}'))"`,
        // The private scope needs a token, which this run does not have.
        `${npmInstall(registry.port, PRIVATE_PACKAGE)} >private.log 2>&1 && echo PRIVATE-INSTALLED || grep -o 'E401' private.log | head -1`,
        `GIT_SSL_CAINFO="$PWD/test-ca.pem" ${gitClone(gitServer.port)} 2>&1 | tail -2; [ -d cloned ] && echo GIT-CLONED || echo git-refused`,
      ]),
    });
    expect(out).toContain('npm-installed');
    expect(out).toContain('demo package loaded');
    expect(out).toContain('git-refused');
    expect(out).toContain('CONNECT tunnel failed, response 403');
    expect(out).not.toContain('PRIVATE-INSTALLED');
    expect(out).toMatch(/^E401$/m);
    expect(code).toBe(0);
    expect(registry.connections).toBeGreaterThan(before.registry);
    expect(gitServer.connections).toBe(before.git);
    expect(hostsOf({ outputs } as StepResult, 'network-allowed')).toEqual([
      `${REGISTRY_HOST}:${registry.port}`,
    ]);
    expect(hostsOf({ outputs } as StepResult, 'network-denied')).toEqual([`${GIT_HOST}:${gitServer.port}`]);
  }, 600_000);

  it('npm installs from a private registry scope with its token in credentials only, with nothing but what the action sets', async () => {
    const repo = runnerRepo((work) =>
      fs.writeFileSync(
        path.join(work, 'package.json'),
        JSON.stringify({ name: 'consumer', version: '0.0.0', private: true }),
      ),
    );
    const before = registry.connections;
    const { code, out, outputs, summary, stderr } = await step(engine, repo, {
      network: 'unrelated.ws-net.test',
      credentials: `${REGISTRY_HOST}:${registry.port} Authorization: Bearer ${verdaccio.token}`,
      command: bash([
        // No .npmrc, no token, no CA of the command's own: npm trusts the run's bundle (NODE_EXTRA_CA_CERTS).
        'echo "npmrc-files $(ls ~/.npmrc .npmrc 2>/dev/null | wc -l)"',
        `${npmInstall(registry.port, PRIVATE_PACKAGE)} >npm.log 2>&1 && echo npm-installed || { echo NPM-FAILED; tail -20 npm.log; }`,
        `node -e "console.log(require('${PRIVATE_PACKAGE}'))"`,
        ...keySearchLines(verdaccio.token, 'registry-token'),
      ]),
    });
    expect(out).toContain('npmrc-files 0');
    expect(out).toContain('npm-installed');
    expect(out).toContain('private package loaded');
    expect(code).toBe(0);
    expect(registry.connections).toBeGreaterThan(before);
    expect(keyNotFound(out, verdaccio.token, 'registry-token')).toBe(true);
    for (const text of [stderr, summary, JSON.stringify(outputs)])
      expect(text).not.toContain(verdaccio.token);
    expect(hostsOf({ outputs } as StepResult, 'network-allowed')).toEqual([
      `${REGISTRY_HOST}:${registry.port}`,
    ]);
    expect(hostsOf({ outputs } as StepResult, 'network-denied')).toEqual([]);
  }, 600_000);

  it('the official Anthropic and OpenAI SDKs reach fakes of their APIs with the keys from credentials, which the container never holds', async () => {
    let files = 0;
    const repo = runnerRepo((work) => {
      files = copyPackages(['@anthropic-ai/sdk', 'openai'], work);
      fs.writeFileSync(
        path.join(work, 'sdks.mjs'),
        [
          "import Anthropic from '@anthropic-ai/sdk';",
          "import OpenAI from 'openai';",
          // Keys and base URLs from the environment, as each SDK reads them; no retries (one request each).
          'const claude = new Anthropic({ maxRetries: 0 });',
          "const message = await claude.messages.create({ model: 'claude-test', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });",
          "console.log('anthropic:', message.content[0].text);",
          'const gpt = new OpenAI({ maxRetries: 0 });',
          "const completion = await gpt.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });",
          "console.log('openai:', completion.choices[0].message.content);",
          '',
        ].join('\n'),
      );
    });
    expect(files).toBeGreaterThan(100);
    const keysBefore = { anthropic: anthropicKeys.length, openai: openaiKeys.length };
    const { code, out, outputs, summary, stderr, ...result } = await step(engine, repo, {
      network: `${ANTHROPIC_HOST}:${anthropic.port}, ${OPENAI_HOST}:${openai.port}`,
      credentials: [
        `${ANTHROPIC_HOST}:${anthropic.port} x-api-key: ${ANTHROPIC_KEY}`,
        `${OPENAI_HOST}:${openai.port} Authorization: Bearer ${OPENAI_KEY}`,
      ].join('\n'),
      // What a user writes: the placeholder keys the SDKs insist on, and where each API is.
      env: [
        'ANTHROPIC_API_KEY=placeholder',
        `ANTHROPIC_BASE_URL=https://${ANTHROPIC_HOST}:${anthropic.port}`,
        'OPENAI_API_KEY=placeholder',
        `OPENAI_BASE_URL=https://${OPENAI_HOST}:${openai.port}/v1`,
      ].join('\n'),
      command: bash([
        'node sdks.mjs 2>&1 | tail -20',
        ...keySearchLines(ANTHROPIC_KEY, 'anthropic-key'),
        ...keySearchLines(OPENAI_KEY, 'openai-key'),
      ]),
    });
    expect(out).toContain('anthropic: hello from the fake Anthropic API');
    expect(out).toContain('openai: hello from the fake OpenAI API');
    expect(code).toBe(0);
    // Each fake saw the real key, once, and nothing else (the placeholder was replaced, not added to).
    expect(anthropicKeys.slice(keysBefore.anthropic)).toEqual([ANTHROPIC_KEY]);
    expect(openaiKeys.slice(keysBefore.openai)).toEqual([`Bearer ${OPENAI_KEY}`]);
    // Only the runner's mask commands hold a key: the credential's value and, for the secret scan, the
    // token after its scheme (`Bearer`).
    for (const [key, label, masks] of [
      [ANTHROPIC_KEY, 'anthropic-key', [ANTHROPIC_KEY]],
      [OPENAI_KEY, 'openai-key', [`Bearer ${OPENAI_KEY}`, OPENAI_KEY]],
    ] as const) {
      expect(keyNotFound(out, key, label)).toBe(true);
      for (const text of [stderr, summary, JSON.stringify(outputs), JSON.stringify(result.state)])
        expect(text).not.toContain(key);
      expect(
        out
          .split('\n')
          .filter((l) => l.includes(key))
          .sort(),
      ).toEqual(masks.map((m) => `::add-mask::${m}`).sort());
    }
    expect(hostsOf({ outputs } as StepResult, 'network-allowed')).toEqual(
      [`${ANTHROPIC_HOST}:${anthropic.port}`, `${OPENAI_HOST}:${openai.port}`].sort(),
    );
    expect(hostsOf({ outputs } as StepResult, 'network-denied')).toEqual([]);
  }, 600_000);
});

// pip needs python3 and pip in the image: Debian's, in an image of their own (built once).
describe.each(ENGINES)('pip through the allow-list, as the runner (%s)', (engine) => {
  const INDEX_TOKEN = `pypi-wsnet${randomBytes(12).toString('hex')}`;
  const INDEX_AUTH = `Basic ${Buffer.from(`__token__:${INDEX_TOKEN}`).toString('base64')}`;
  const indexAuths: string[] = [];
  let pipImage = '';
  let index: Recorder;
  let files: Recorder;

  beforeAll(async () => {
    pipImage = ensurePipImage(image);
    if (engine === 'podman') loadIntoRootlessPodman(pipImage);
    addTestHosts(bridgeAddress(), [PYPI_HOST, FILES_HOST]);
    const wheel = makeWheel('ws_net_pip_demo', 'pip package loaded');
    files = await httpsServer(authority, FILES_HOST, packageFiles(wheel));
    index = await httpsServer(
      authority,
      PYPI_HOST,
      simpleIndex(
        'ws-net-pip-demo',
        wheel,
        () => `https://${FILES_HOST}:${files.port}`,
        INDEX_AUTH,
        indexAuths,
      ),
    );
  }, 600_000);

  afterAll(async () => {
    for (const r of [index, files]) await r?.close();
  });

  it('pip installs from a private index (its token in credentials) whose files are on another host, as PyPI and @pypi; with nothing but what the action sets', async () => {
    const repo = runnerRepo();
    const before = { index: index.connections, files: files.connections, auths: indexAuths.length };
    const { code, out, outputs, summary, stderr } = await step(engine, repo, {
      image: pipImage,
      // The two hosts, as @pypi lists pypi.org and files.pythonhosted.org; the index's token as a credential.
      network: `${PYPI_HOST}:${index.port}, ${FILES_HOST}:${files.port}`,
      credentials: `${PYPI_HOST}:${index.port} Authorization: ${INDEX_AUTH}`,
      command: bash([
        'echo "PIP_CERT=$PIP_CERT"',
        `python3 -m pip install --quiet --no-cache-dir --break-system-packages --target ./site --index-url https://${PYPI_HOST}:${index.port}/simple ws-net-pip-demo 2>&1 | tail -5`,
        `PYTHONPATH=./site python3 -c "import ws_net_pip_demo; print(ws_net_pip_demo.SAYS)"`,
        ...keySearchLines(INDEX_TOKEN, 'raw-token'),
        ...keySearchLines(INDEX_AUTH.slice('Basic '.length), 'index-token'),
      ]),
    });
    expect(out).toContain('pip package loaded');
    expect(out).toMatch(/^PIP_CERT=\/\S+ca-bundle\.pem$/m);
    expect(code).toBe(0);
    // The index saw the token (set by the proxy: pip sent none), the files host its own request.
    expect(indexAuths.slice(before.auths)).toEqual([INDEX_AUTH]);
    expect(index.connections).toBeGreaterThan(before.index);
    expect(files.connections).toBe(before.files + 1);
    expect(keyNotFound(out, INDEX_TOKEN, 'raw-token')).toBe(true);
    expect(keyNotFound(out, INDEX_AUTH.slice('Basic '.length), 'index-token')).toBe(true);
    for (const text of [stderr, summary, JSON.stringify(outputs)]) expect(text).not.toContain(INDEX_TOKEN);
    expect(hostsOf({ outputs } as StepResult, 'network-allowed')).toEqual(
      [`${FILES_HOST}:${files.port}`, `${PYPI_HOST}:${index.port}`].sort(),
    );
    expect(hostsOf({ outputs } as StepResult, 'network-denied')).toEqual([]);
  }, 600_000);
});
