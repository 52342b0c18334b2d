// The network allow-list and its credentials, attacked through the bundle as the runner runs it (uid
// 1001): Docker, and rootless Podman. The command has only the proxy; a credential's value reaches the
// server it is for and is nowhere the command, the engine or the job's outputs could show it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runStep } from '../support/action.js';
import { availableEngines } from '../support/engines.js';
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
  tcpTrap,
  testCa,
  type Recorder,
} from '../support/network.js';
import { chownTree, git, makeRepo, type TestRepo } from '../support/repo.js';
import { asRunner, runnerEnv } from '../support/rootless.js';
import { runnerIds } from '../support/env.js';
import { leftVolumes } from '../support/storage.js';

const ENGINES = availableEngines();
const SECRET = `sk-wsnet-${randomBytes(12).toString('hex')}`;

let image = '';
let caFile = '';
let bridge = '';
let llm: Recorder;
let allowed: Recorder;
let denied: Recorder;
let trap: Recorder;
const keysSeen: string[] = [];
const repos: TestRepo[] = [];

beforeAll(async () => {
  image = ensureNetImage();
  if (ENGINES.includes('podman')) loadNetImageIntoRootlessPodman();
  bridge = bridgeAddress();
  addTestHosts(bridge);
  const test = await testCa();
  caFile = test.file;
  llm = await httpsServer(test.ca, CREDENTIALED, (req, res) => {
    keysSeen.push(String(req.headers['x-api-key']));
    const ok = req.headers['x-api-key'] === SECRET;
    res.writeHead(ok ? 200 : 401);
    res.end(ok ? 'key accepted\n' : 'bad key\n');
  });
  allowed = await httpServer();
  denied = await httpServer();
  trap = await tcpTrap();
}, 240_000);

/** Each step runs without its post step, so the run's sandbox volume is left: removed at the end. */
const volumes = leftVolumes('netsec');

afterAll(async () => {
  for (const r of [llm, allowed, denied, trap]) await r?.close();
  await volumes.removeAll();
  for (const r of repos) fs.rmSync(r.root, { recursive: true, force: true });
  if (caFile) fs.rmSync(path.dirname(caFile), { recursive: true, force: true });
});

/** What the engine says about every container of the run, while it runs, and its event stream. */
function engineCli(engine: string, args: string[]): [string, string[], NodeJS.ProcessEnv] {
  if (engine === 'docker') return ['docker', args, process.env];
  const [cmd, cmdArgs] = asRunner('podman', args);
  return [cmd, cmdArgs, runnerEnv({ rootlessPodman: true })];
}

function inspectManaged(engine: string): string {
  const [cmd, args, env] = engineCli(engine, ['ps', '-q', '--filter', 'label=worktree-sandbox.managed=true']);
  const ids = execFileSync(cmd, args, { encoding: 'utf8', env, cwd: '/' }).split('\n').filter(Boolean);
  if (ids.length === 0) return '';
  const [icmd, iargs, ienv] = engineCli(engine, ['inspect', ...ids]);
  // Another suite on the same engine may remove its containers between the two calls: those are not ours.
  const r = spawnSync(icmd, iargs, { encoding: 'utf8', env: ienv, cwd: '/' });
  const failures = r.stderr.split('\n').filter((l) => l.trim() && !/no such (object|container)/i.test(l));
  if (r.status !== 0 && (failures.length > 0 || !r.stdout.trim()))
    throw new Error(`inspect failed: ${r.stderr}`);
  return r.stdout;
}

describe.each(ENGINES)('network allow-list through the bundle, as the runner (%s)', (engine) => {
  it('reaches the allowed hosts, sets the key only at its host, and no copy of the key is anywhere the command or the engine can show', async () => {
    const repo = makeRepo();
    repos.push(repo);
    chownTree(repo.root, runnerIds());
    const before = { allowed: allowed.connections, denied: denied.connections, trap: trap.connections };
    const lines = [
      // the key: set by the proxy, replacing the one the command sends
      `curl -sS -H 'x-api-key: placeholder' https://${CREDENTIALED}:${llm.port}/`,
      // Node's own fetch, with nothing but what the action set (NODE_USE_ENV_PROXY, NODE_EXTRA_CA_CERTS)
      `node -e "fetch('https://${CREDENTIALED}:${llm.port}/').then(r=>r.text()).then(t=>console.log('node', t.trim()), e=>console.log('node failed', e.cause?.code ?? e.message))"`,
      `curl -sS http://${ALLOWED}:${allowed.port}/ && echo ok-allowed`,
      `curl -sS -o /dev/null -w 'denied %{http_code}\\n' http://${DENIED}:${denied.port}/`,
      `(exec 3<>/dev/tcp/${bridge}/${trap.port}) 2>/dev/null && echo REACHED || echo unreachable`,
      `cut -d: -f1 /proc/net/dev | tail -n +3 | tr -d ' '`,
      'grep CapEff /proc/self/status',
      'echo inspect-now; sleep 3',
      // Everything the command can read: its environment, every process's, the files and mounts.
      ...keySearchLines(SECRET),
    ];
    const inspected: string[] = [];
    const [ecmd, eargs, eenv] = engineCli(engine, ['events', '--format', '{{json .}}']);
    const events: ChildProcess = spawn(ecmd, eargs, {
      env: eenv,
      cwd: '/',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let eventText = '';
    events.stdout!.on('data', (d: Buffer) => (eventText += d.toString()));
    const result = await runStep({
      inputs: {
        mode: 'run',
        image,
        engine,
        'repository-path': repo.parent,
        'volume-prefix': volumes.prefix(engine),
        network: `${ALLOWED}:${allowed.port}`,
        credentials: `${CREDENTIALED}:${llm.port} x-api-key: ${SECRET}`,
        command: `bash <<'EOF'\n${lines.join('\n')}\nEOF`,
      },
      // The proxy checks the test server's certificate as the runner would an internal CA's.
      env: { GITHUB_WORKSPACE: repo.parent, NODE_EXTRA_CA_CERTS: caFile },
      asRunner: true,
      rootlessPodman: engine === 'podman',
      onStdout: (out) => {
        if (inspected.length === 0 && out.includes('inspect-now')) inspected.push(inspectManaged(engine));
      },
    });
    events.kill();
    const out = result.stdout;
    expect(result.code).toBe(0);
    expect(out).toContain('key accepted');
    expect(keysSeen.slice(-2)).toEqual([SECRET, SECRET]);
    expect(out).toMatch(/node key accepted/);
    expect(out).toContain('ok-allowed');
    expect(out).toContain('denied 403');
    expect(out).toContain('unreachable');
    expect(out).not.toContain('REACHED');
    expect(out).toMatch(/^lo$/m);
    expect(out).toMatch(/CapEff:\s+0000000000000000/);
    expect(keyNotFound(out, SECRET)).toBe(true);
    expect({ allowed: allowed.connections, denied: denied.connections, trap: trap.connections }).toEqual({
      ...before,
      allowed: before.allowed + 1,
    });
    // The engine's view of both containers (the command's and the sidecar's) and its events.
    expect(inspected[0]).toContain('HTTPS_PROXY=http://127.0.0.1:3128');
    expect(inspected[0]).not.toContain(SECRET);
    expect(eventText.length).toBeGreaterThan(0);
    expect(eventText).not.toContain(SECRET);
    // The job's log: only the runner's mask command holds it (the runner consumes that line and shows ***
    // wherever the value would appear); the outputs, the state and the summary hold none.
    expect(out.split('\n').filter((l) => l.includes(SECRET))).toEqual([`::add-mask::${SECRET}`]);
    for (const text of [
      result.stderr,
      result.summary,
      JSON.stringify(result.outputs),
      JSON.stringify(result.state),
    ])
      expect(text).not.toContain(SECRET);
    const reached = JSON.parse(result.outputs['network-allowed']) as Array<{ host: string }>;
    expect(reached.map((r) => r.host).sort()).toEqual([ALLOWED, CREDENTIALED]);
    expect(JSON.parse(result.outputs['network-denied'])).toEqual([
      expect.objectContaining({ host: DENIED, port: denied.port, requests: 1 }),
    ]);
    expect(out).toMatch(
      new RegExp(
        `::warning::Network: the proxy refused "${DENIED.replace(/\./g, '\\.')}" port ${denied.port}`,
      ),
    );
    expect(result.summary).toContain('### Network (allow-list)');
    expect(result.summary).toContain(`| ✅ "${CREDENTIALED}" | ${llm.port} |`);
  }, 600_000);

  it('holds for a disk sandbox: the allow-list and the key as above, and the work written in the sandbox comes back', async () => {
    const repo = makeRepo();
    repos.push(repo);
    chownTree(repo.root, runnerIds());
    const before = { allowed: allowed.connections, denied: denied.connections, trap: trap.connections };
    const seen = keysSeen.length;
    const result = await runStep({
      inputs: {
        mode: 'run',
        image,
        engine,
        isolation: 'disk',
        'worktree-root': path.join(repo.root, 'disk-sandboxes'),
        'repository-path': repo.parent,
        network: `${ALLOWED}:${allowed.port}`,
        credentials: `${CREDENTIALED}:${llm.port} x-api-key: ${SECRET}`,
        push: 'false',
        command: `bash <<'EOF'\n${[
          `curl -sS -H 'x-api-key: placeholder' https://${CREDENTIALED}:${llm.port}/ > answer.txt`,
          `curl -sS http://${ALLOWED}:${allowed.port}/ >> answer.txt`,
          `curl -sS -o /dev/null -w 'denied %{http_code}\\n' http://${DENIED}:${denied.port}/`,
          `(exec 3<>/dev/tcp/${bridge}/${trap.port}) 2>/dev/null && echo REACHED || echo unreachable`,
          'id -u; stat -c "owner %u" answer.txt',
          'git add answer.txt && git -c user.name=bot -c user.email=bot@example.com commit -qm "the answer" && echo committed',
          ...keySearchLines(SECRET),
        ].join('\n')}\nEOF`,
      },
      env: { GITHUB_WORKSPACE: repo.parent, NODE_EXTRA_CA_CERTS: caFile },
      asRunner: true,
      rootlessPodman: engine === 'podman',
    });
    const out = result.stdout;
    expect({ code: result.code, errors: out.match(/::error::.*/g) }).toEqual({ code: 0, errors: null });
    expect(out).toContain('denied 403');
    expect(out).toContain('unreachable');
    expect(out).toContain('committed');
    // The runner's uid inside, owning what it wrote (rootless Podman: keep-id, also through the sidecar's
    // user namespace that the command's container joins).
    expect(out).toMatch(new RegExp(`^${runnerIds().uid}\\nowner ${runnerIds().uid}$`, 'm'));
    expect(result.outputs.volume).toBe('');
    expect(result.outputs['worktree-path'].startsWith(path.join(repo.root, 'disk-sandboxes'))).toBe(true);
    expect(keyNotFound(out, SECRET)).toBe(true);
    expect(keysSeen.slice(seen)).toEqual([SECRET]);
    expect({ allowed: allowed.connections, denied: denied.connections, trap: trap.connections }).toEqual({
      ...before,
      allowed: before.allowed + 1,
    });
    // The command's commit is in the parent now, and its file holds both answers.
    expect(result.outputs.commits).toBe('1');
    expect(git(repo.parent, 'show', `${result.outputs['head-sha']}:answer.txt`)).toBe(
      `key accepted\nhello from ${ALLOWED}:${allowed.port}`,
    );
    for (const text of [result.stderr, result.summary, JSON.stringify(result.outputs)])
      expect(text).not.toContain(SECRET);
  }, 600_000);
});

describe('the proxy speaks HTTP strictly, through the bundle (docker)', () => {
  it('refuses a key in clear, a smuggled request, TRACE and a request for another host inside the key tunnel: the servers parse none of them', async () => {
    const repo = makeRepo();
    repos.push(repo);
    chownTree(repo.root, runnerIds());
    const before = { keys: keysSeen.length, llm: llm.connections, allowedHosts: allowed.hosts.length };
    const smuggle = [
      'exec 3<>/dev/tcp/127.0.0.1/3128',
      `body=$'GET /smuggled HTTP/1.1\\r\\nHost: ${DENIED}:${denied.port}\\r\\n\\r\\n'`,
      `printf 'GET http://${ALLOWED}:${allowed.port}/ HTTP/1.1\\r\\nHost: ${ALLOWED}:${allowed.port}\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n%x\\r\\n%s\\r\\n0\\r\\n\\r\\n' "\${#body}" "$body" >&3`,
      'echo "smuggle $(head -1 <&3 | tr -d "\\r")"',
      'exec 3>&-',
    ];
    const result = await runStep({
      inputs: {
        mode: 'run',
        image,
        engine: 'docker',
        'repository-path': repo.parent,
        'volume-prefix': volumes.prefix('docker'),
        network: `${ALLOWED}:${allowed.port}`,
        credentials: `${CREDENTIALED}:${llm.port} x-api-key: ${SECRET}`,
        command: `bash <<'EOF'\n${[
          `curl -sS -o /dev/null -w 'clear %{http_code}\\n' http://${CREDENTIALED}:${llm.port}/`,
          `curl -sS -o /dev/null -w 'trace %{http_code}\\n' -X TRACE http://${ALLOWED}:${allowed.port}/`,
          `curl -sS -o /dev/null -w 'elsewhere %{http_code}\\n' --request-target http://${DENIED}/steal https://${CREDENTIALED}:${llm.port}/`,
          ...smuggle,
        ].join('\n')}\nEOF`,
      },
      env: { GITHUB_WORKSPACE: repo.parent, NODE_EXTRA_CA_CERTS: caFile },
      asRunner: true,
    });
    const out = result.stdout;
    expect(result.code).toBe(0);
    expect(out).toContain('clear 403');
    expect(out).toContain('trace 405');
    expect(out).toContain('elsewhere 421');
    expect(out).toContain('smuggle HTTP/1.1 400 Bad Request');
    // What the servers parsed: the key's host got no connection, the allowed one no smuggled request.
    expect(keysSeen.length).toBe(before.keys);
    expect(llm.connections).toBe(before.llm);
    expect(allowed.hosts.slice(before.allowedHosts)).toEqual([]);
    // One row per host and port, with the first refusal's reason and every refusal counted.
    expect(JSON.parse(result.outputs['network-denied'])).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          host: ALLOWED,
          requests: 2,
          reason: expect.stringMatching(/^TRACE is refused/),
        }),
        expect.objectContaining({
          host: CREDENTIALED,
          requests: 2,
          reason: expect.stringMatching(/sent over TLS only/),
        }),
      ]),
    );
  }, 600_000);
});
