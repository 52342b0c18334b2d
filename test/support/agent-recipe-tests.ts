// The checks every agent recipe of docs/agents.md must pass, shared by test/e2e/agents/*.test.ts (one
// file per CLI, so that Jest runs the three CLIs in parallel workers): a `/fix` comment runs the recipe
// as written with the real CLI, through the bundle as the runner runs it, against a scripted fake of its
// API over TLS with the key in `credentials`; the edit is pushed, the reply posted, the key seen only by
// the fake, the usage reported as the fake billed it; under `max-model-requests: 1` the CLI stops within
// seconds and what it wrote comes back; and a command that waits on a question nobody answers ends at
// its `timeout-minutes` with a clear log, its container gone and its earlier commits kept.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  AGENTS,
  agentImage,
  FAKE_HOSTS,
  readRecipe,
  runRecipe,
  versionToTest,
  type Agent,
} from './agent-recipes.js';
import { EDIT_FILE, EDIT_TEXT, REPLY_TEXT, type ScriptedFake } from './agent-fakes.js';
import { availableEngines } from './engines.js';
import { addTestHosts, bridgeAddress, httpsServer, keyNotFound, testCa, type Recorder } from './network.js';
import type { RunCa } from '../../src/network/ca.js';
import { refOf } from './pull-requests.js';
import { git } from './repo.js';

interface UsageRow {
  host: string;
  port: number;
  model: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/** A short `timeout-minutes` (the input takes fractions), and what the run may take past it. */
const HANG_LIMIT_MS = 15_000;
const HANG_MARGIN_MS = 30_000;
const HANG_FILE = 'BEFORE_THE_QUESTION.md';
const HANG_TEXT = 'committed before the command asked';

/** How long a CLI may take, once its budget is spent, to stop. */
const STOP_WITHIN_MS = 20_000;

/**
 * `requestsForOneEdit`: the budget under which the CLI makes its edit and no more (Gemini CLI first asks a
 * small model to route the task: one request more).
 */
export function describeRecipe(
  name: Agent['name'],
  makeFake: (key: string) => ScriptedFake,
  requestsForOneEdit = 1,
): void {
  const agent = AGENTS[name];
  const key = `sk-wsagent-${name}-${randomBytes(12).toString('hex')}`;
  const have = availableEngines().includes('docker');
  const cleanup: string[] = [];
  let fake: ScriptedFake;
  let server: Recorder;
  let caFile = '';
  let ca: RunCa;
  let image = '';
  let version = '';

  beforeAll(async () => {
    if (!have) return;
    version = versionToTest(agent);
    const started = Date.now();
    image = agentImage(agent, version);
    console.log(`${agent.label} ${version}: image ready in ${Date.now() - started} ms`);
    addTestHosts(bridgeAddress(), FAKE_HOSTS);
    const test = await testCa();
    caFile = test.file;
    ca = test.ca;
    cleanup.push(path.dirname(caFile));
  }, 900_000);

  afterAll(async () => {
    await server?.close();
    for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function start(): Promise<void> {
    await server?.close();
    fake = makeFake(key);
    server = await httpsServer(ca, agent.fakeHost, (req, res) => fake.handler(req, res));
  }

  (have ? describe : describe.skip)(`the ${agent.label} recipe of docs/agents.md`, () => {
    it('names the version it was tested with', () => {
      const recipe = readRecipe(name);
      if (!process.env.WORKTREE_SANDBOX_AGENT_VERSION) expect(recipe.testedWith).toBe(version);
      expect(recipe.inputs.command).not.toMatch(/npx|npm /);
    });

    it('on a /fix comment: the edit is pushed, the reply posted, the key seen by the fake only, the usage as billed', async () => {
      await start();
      const run = await runRecipe({ agent, image, port: server.port, key, caFile, cleanup });
      const { main, post, github, repos } = run;
      await github.close();
      const log = `${main.stdout}\n${main.stderr}`;
      expect({ main: main.code, post: post.code, log: main.code === 0 ? '' : log.slice(-6000) }).toEqual({
        main: 0,
        post: 0,
        log: '',
      });
      console.log(
        `${agent.label} ${version}: first model request ${fake.firstAt - run.startedAt} ms after the command started; ` +
          `requests ${fake.paths.join(', ')}; denied ${main.outputs['network-denied']}`,
      );
      // The edit, made with the CLI's own file tool, is on the pull request's branch.
      const pushed = refOf(repos.origin, `refs/heads/${repos.branch}`);
      expect(pushed).toBe(main.outputs['head-sha']);
      expect(git(repos.origin, '-c', 'safe.directory=*', 'show', `${pushed}:${EDIT_FILE}`)).toBe(
        EDIT_TEXT.trim(),
      );
      // The reply, written by the CLI to $SANDBOX_REPLY_FILE, is posted.
      expect(main.outputs.reply?.trim()).toBe(REPLY_TEXT);
      const comment = [...github.comments.values()][0];
      expect(comment.body).toContain(REPLY_TEXT);
      // The key: on every request that reached the fake, and nowhere in the container.
      expect(fake.keys.length).toBeGreaterThan(0);
      expect(new Set(fake.keys)).toEqual(new Set([key]));
      expect(keyNotFound(main.stdout, key)).toBe(true);
      for (const text of [...comment.history, main.summary, post.summary, JSON.stringify(main.outputs)])
        expect(text).not.toContain(key);
      // The usage the action reports is what the fake billed, model by model.
      const usage = JSON.parse(main.outputs['model-usage']) as { rows: UsageRow[] };
      const billed = [...fake.billed].map(([model, b]) => ({
        host: agent.fakeHost,
        port: server.port,
        model,
        requests: b.requests,
        inputTokens: b.input,
        outputTokens: b.output,
        cacheReadTokens: b.cacheRead,
        cacheWriteTokens: b.cacheWrite,
      }));
      const byModel = (a: { model: string }, b: { model: string }) => a.model.localeCompare(b.model);
      expect([...usage.rows].sort(byModel)).toEqual(
        billed.sort(byModel).map((b) => expect.objectContaining(b)),
      );
    }, 900_000);

    it(`max-model-requests: ${requestsForOneEdit} stops the CLI within seconds, and what it wrote before comes back`, async () => {
      await start();
      const run = await runRecipe({
        agent,
        image,
        port: server.port,
        key,
        caFile,
        cleanup,
        inputs: { 'max-model-requests': String(requestsForOneEdit) },
      });
      const { main, github, repos } = run;
      await github.close();
      const usage = JSON.parse(main.outputs['model-usage']) as { stopped?: { by: string }; refused: number };
      expect(usage.stopped?.by).toBe('max-model-requests');
      expect(usage.refused).toBeGreaterThan(0);
      // The budget's model requests reached the fake, no more (a WebSocket's GET is no model request).
      expect(fake.paths.filter((p) => p.startsWith('POST')).length).toBe(requestsForOneEdit);
      const stoppedAfter = run.endedAt - fake.lastAt;
      console.log(
        `${agent.label} ${version}: ended ${stoppedAfter} ms after its last request; refused ${usage.refused}`,
      );
      // `endedOnItsOwn` false: the command never reached its next line (timeout-minutes stopped it).
      expect({
        endedOnItsOwn: Number.isFinite(run.endedAt),
        withinSeconds: stoppedAfter < STOP_WITHIN_MS,
      }).toEqual({
        endedOnItsOwn: true,
        withinSeconds: true,
      });
      const pushed = refOf(repos.origin, `refs/heads/${repos.branch}`);
      expect(git(repos.origin, '-c', 'safe.directory=*', 'show', `${pushed}:${EDIT_FILE}`)).toBe(
        EDIT_TEXT.trim(),
      );
    }, 900_000);

    if (name === 'claude-code')
      it('without --permission-mode (the README line before), it asks, nobody answers, and it ends with no change', async () => {
        await start();
        const run = await runRecipe({
          agent,
          image,
          port: server.port,
          key,
          caFile,
          cleanup,
          edit: (command) => command.replace('--permission-mode bypassPermissions', ''),
        });
        await run.github.close();
        expect(run.main.code).toBe(0);
        expect(run.main.outputs.changed).toBe('false');
        expect(run.main.outputs.reply ?? '').toBe('');
        // It did ask for the write, and got no answer: its tool call came back refused.
        expect(fake.requests.some((body) => /"is_error":true/.test(body) && /permission/i.test(body))).toBe(
          true,
        );
      }, 900_000);

    if (name === 'claude-code')
      it('a command that waits on a question nobody answers ends at timeout-minutes: exit 124, said in the log, container gone, earlier commit pushed', async () => {
        await start();
        // What a CLI stuck on a login or trust dialog does: it asks, then waits for an answer that never
        // comes (a pipe nobody writes to; the container has no terminal, so /dev/tty would fail at once).
        const asks = [
          'echo "agent container $(hostname)"',
          `printf '%s\\n' '${HANG_TEXT}' > ${HANG_FILE}`,
          `git add ${HANG_FILE} && git commit -q -m 'work before the question'`,
          'mkfifo "$HOME/answer"',
          'printf "Trust this folder? [y/N] "',
          'read -r answer < "$HOME/answer"',
        ].join('\n');
        const began = Date.now();
        const run = await runRecipe({
          agent,
          image,
          port: server.port,
          key,
          caFile,
          cleanup,
          edit: () => asks,
          inputs: { 'timeout-minutes': String(HANG_LIMIT_MS / 60_000) },
        });
        const hostEnded = Date.now();
        const { main, github, repos } = run;
        await github.close();
        const log = `${main.stdout}\n${main.stderr}`;
        const said = /The command was stopped by timeout-minutes after (\d+\.\d)s \(exit code 124\)/.exec(
          log,
        );
        const container = /^agent container ([0-9a-f]{12})$/m.exec(main.stdout)?.[1] ?? '';
        console.log(
          `hung command: stopped after ${said?.[1]} s (limit ${HANG_LIMIT_MS / 1000} s); both steps ended ` +
            `${hostEnded - run.startedAt} ms after the command started, ${hostEnded - began} ms after the run began`,
        );
        expect({
          exitCode: main.outputs['exit-code'],
          saidInLog: said !== null,
          // The question was asked, and the command never got past it.
          asked: main.stdout.includes('Trust this folder?'),
          endedOnItsOwn: Number.isFinite(run.endedAt),
        }).toEqual({ exitCode: '124', saidInLog: true, asked: true, endedOnItsOwn: false });
        const seconds = Number(said?.[1]);
        expect(seconds).toBeGreaterThanOrEqual(HANG_LIMIT_MS / 1000);
        expect(seconds).toBeLessThan(HANG_LIMIT_MS / 1000 + 5);
        // Judged on the host: the run (main and post steps) ended within the limit plus a margin.
        expect(hostEnded - run.startedAt).toBeLessThan(HANG_LIMIT_MS + HANG_MARGIN_MS);
        // The container this run made is gone (by its id, not by the engine's whole list).
        expect(container).not.toBe('');
        expect(
          execFileSync('docker', ['ps', '-aq', '--no-trunc', '--filter', `id=${container}`], {
            encoding: 'utf8',
            timeout: 30_000,
          }).trim(),
        ).toBe('');
        // What was committed before the question came back and was pushed.
        const pushed = refOf(repos.origin, `refs/heads/${repos.branch}`);
        expect(pushed).toBe(main.outputs['head-sha']);
        expect(git(repos.origin, '-c', 'safe.directory=*', 'show', `${pushed}:${HANG_FILE}`)).toBe(HANG_TEXT);
      }, 900_000);
  });
}
