// `worktree-sandbox run --network <allow-list> --credentials <file or lines>`: the real binary, checked
// as the action checks its inputs (the errors name the option, never a credential's value, and nothing is
// made), and a run through the proxy on Docker and on rootless Podman as the runner: listed hosts
// reached, others refused, the key set by the proxy and not in the container.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { removeVolumes, uniquePrefix, volumesWithPrefix } from '../support/docker.js';
import {
  addTestHosts,
  ALLOWED,
  bridgeAddress,
  CREDENTIALED,
  DENIED,
  ensureNetImage,
  httpServer,
  httpsServer,
  keyNotFound,
  keySearchLines,
  loadNetImageIntoRootlessPodman,
  testCa,
  type Recorder,
} from '../support/network.js';
import { availableEngines } from '../support/engines.js';
import { runnerIds } from '../support/env.js';
import { makeRepo, tempDir, type TestRepo } from '../support/repo.js';
import { runAsRunner } from '../support/rootless.js';
import { PODMAN_ROOTLESS, removeStorageVolumes } from '../support/storage.js';

const BIN = path.resolve('bin/worktree-sandbox.js');
const SECRET = `sk-wsnet-cli-${randomBytes(12).toString('hex')}`;
const prefix = uniquePrefix('clinet');
let repo: TestRepo;
let dir = '';
let image = '';
let caFile = '';
let llm: Recorder;
let allowed: Recorder;
let denied: Recorder;
const keysSeen: string[] = [];
const cleanupDirs: string[] = [];
const ENGINES = availableEngines();

beforeAll(async () => {
  repo = makeRepo();
  dir = tempDir('wts-cli-net-');
  image = ensureNetImage();
  addTestHosts(bridgeAddress());
  const test = await testCa();
  caFile = test.file;
  llm = await httpsServer(test.ca, CREDENTIALED, (req, res) => {
    keysSeen.push(String(req.headers['x-api-key']));
    res.end(req.headers['x-api-key'] === SECRET ? 'key accepted\n' : 'bad key\n');
  });
  allowed = await httpServer();
  denied = await httpServer();
}, 240_000);

afterAll(async () => {
  for (const r of [llm, allowed, denied]) await r?.close();
  removeVolumes(prefix);
  if (ENGINES.includes('podman')) await removeStorageVolumes(PODMAN_ROOTLESS, prefix);
  for (const d of cleanupDirs) fs.rmSync(d, { recursive: true, force: true });
  for (const d of [repo?.root, dir, caFile && path.dirname(caFile)])
    if (d) fs.rmSync(d, { recursive: true, force: true });
});

const base = () => ['run', '--image', image, '--volume-prefix', prefix, '--repository-path', repo.parent];

function cliSync(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, CI: '' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

// Asynchronous: the test's servers answer in this process while the CLI runs.
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, CI: '', NODE_EXTRA_CA_CERTS: caFile },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 300_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('worktree-sandbox run --network / --credentials', () => {
  it('refuses a bad allow-list or credential as the action does, naming the option, before anything is made', () => {
    const secretFile = path.join(dir, 'no-header');
    fs.writeFileSync(secretFile, `${CREDENTIALED} ${SECRET}\n`, { mode: 0o600 });
    const cases: Array<[string[], RegExp]> = [
      [['--network', '*'], /^worktree-sandbox: Invalid option '--network': "\*"/],
      [['--network', 'https://api.example.com/v1'], /^worktree-sandbox: Invalid option '--network'/],
      [['--network', '@nope'], /^worktree-sandbox: Invalid option '--network': "@nope"/],
      [['--network', 'api.example.com, none'], /^worktree-sandbox: Invalid option '--network'/],
      [['--network', 'host'], /^worktree-sandbox: Invalid option '--network'/],
      // credentials without an allow-list (network is bridge by default)
      [
        ['--credentials', `${CREDENTIALED} x-api-key: ${SECRET}`],
        /^worktree-sandbox: Invalid option '--credentials'/,
      ],
      // a line without a header, from a file
      [
        ['--network', ALLOWED, '--credentials', secretFile],
        /^worktree-sandbox: Invalid option '--credentials': "line 1/,
      ],
      // neither a credential line nor a file
      [
        ['--network', ALLOWED, '--credentials', path.join(dir, 'missing')],
        /^worktree-sandbox: Invalid option '--credentials': ".*missing": not a credential line .* \(ENOENT\)/,
      ],
      [
        ['--network', ALLOWED, '--credentials', dir],
        /^worktree-sandbox: Invalid option '--credentials': .*: not a file/,
      ],
      // a model budget: a whole number, and only where the proxy sees the requests
      [
        ['--network', 'audit', '--max-model-tokens', '-1'],
        /^worktree-sandbox: Invalid option '--max-model-tokens'/,
      ],
      [['--max-model-requests', '10'], /^worktree-sandbox: Invalid option '--max-model-requests'/],
    ];
    for (const [args, message] of cases) {
      const r = cliSync([...base(), ...args, '--command', 'echo SHOULD-NOT-RUN']);
      expect({ args, code: r.code, lines: r.stderr.trim().split('\n').length }).toEqual({
        args,
        code: 2,
        lines: 1,
      });
      expect(r.stderr).toMatch(message);
      expect(r.stderr + r.stdout).not.toContain(SECRET);
      expect(r.stdout).not.toContain('SHOULD-NOT-RUN');
    }
    expect(volumesWithPrefix(prefix)).toEqual([]);
    // And --help says what they take.
    const help = cliSync(['run', '--help']);
    expect(help.stdout).toMatch(/--network <mode>\s+bridge, none, audit, or an allow-list/);
    expect(help.stdout).toContain('--credentials <file or lines>');
  });

  it.each(ENGINES)(
    'runs through the proxy on %s (Podman: rootless, as uid 1001): the listed hosts reached, the key set from a credentials file and not in the container, others refused',
    async (engine) => {
      const rootless = engine === 'podman';
      if (rootless) loadNetImageIntoRootlessPodman();
      const owner = runnerIds();
      const work = rootless ? makeRepo({ owner }) : repo;
      if (rootless) cleanupDirs.push(work.root);
      const file = path.join(dir, `credentials-${engine}`);
      fs.writeFileSync(file, `${CREDENTIALED}:${llm.port} x-api-key: ${SECRET}\n`, { mode: 0o600 });
      if (rootless) fs.chownSync(file, owner.uid, owner.gid);
      const before = { llm: llm.connections, allowed: allowed.connections, denied: denied.connections };
      const seen = keysSeen.length;
      const command = [
        `curl -sS -H 'x-api-key: placeholder' https://${CREDENTIALED}:${llm.port}/`,
        `curl -sS http://${ALLOWED}:${allowed.port}/ && echo ok-allowed`,
        `curl -sS -o /dev/null -w 'denied %{http_code}\\n' http://${DENIED}:${denied.port}/`,
        ...keySearchLines(SECRET),
      ];
      const args = [
        'run',
        '--engine',
        engine,
        '--image',
        image,
        '--volume-prefix',
        prefix,
        '--repository-path',
        work.parent,
        '--json',
        '--network',
        `${ALLOWED}:${allowed.port}`,
        '--credentials',
        file,
        '--command',
        `bash <<'EOF'\n${command.join('\n')}\nEOF`,
      ];
      const r = rootless
        ? await runAsRunner(process.execPath, [BIN, ...args], {
            rootlessPodman: true,
            cwd: work.parent,
            env: { CI: '', NODE_EXTRA_CA_CERTS: caFile },
            timeoutMs: 300_000,
          })
        : await cli(args);
      expect({ code: r.code, stderr: r.code === 0 ? '' : r.stderr }).toEqual({ code: 0, stderr: '' });
      expect(r.stdout).toContain('key accepted');
      expect(r.stdout).toContain('ok-allowed');
      expect(r.stdout).toContain('denied 403');
      expect(keyNotFound(r.stdout, SECRET)).toBe(true);
      expect(keysSeen.slice(seen)).toEqual([SECRET]);
      expect({ llm: llm.connections, allowed: allowed.connections, denied: denied.connections }).toEqual({
        llm: before.llm + 1,
        allowed: before.allowed + 1,
        denied: before.denied,
      });
      expect(r.stdout + r.stderr).not.toContain(SECRET);
      const outcome = JSON.parse(r.stdout.slice(r.stdout.lastIndexOf('\n{'))) as {
        command: {
          network: { allowed: Array<{ host: string }>; denied: Array<{ host: string; port: number }> };
        };
      };
      expect(outcome.command.network.allowed.map((a) => a.host).sort()).toEqual([ALLOWED, CREDENTIALED]);
      expect(outcome.command.network.denied).toEqual([
        expect.objectContaining({ host: DENIED, port: denied.port }),
      ]);
    },
    300_000,
  );
});
