// The checks every agent recipe of docs/agents.md must pass, shared by test/e2e/agents/*.test.ts (one
// file per CLI, so that Jest runs the three CLIs in parallel workers): a `/fix` comment runs the recipe
// as written with the real CLI, through the bundle as the runner runs it, against a scripted fake of its
// API over TLS with the key in `credentials`; the edit is pushed, the reply posted, the key seen only by
// the fake, the usage reported as the fake billed it; under `max-model-requests: 1` the CLI stops within
// seconds and what it wrote comes back; a second `/fix` on the same pull request runs the page's resume
// recipe and the CLI sends the first run's conversation; and a command that waits on a question nobody
// answers ends at its `timeout-minutes` with a clear log, its container gone and its earlier commits kept.
// When every check of a CLI passed, its version and the day are recorded for the page's "Tested with" line
// (scripts/agent-tested.mjs writes it).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  AGENTS,
  agentImage,
  FAKE_HOSTS,
  readRecipe,
  readResumeCommand,
  recordTested,
  runRecipe,
  TESTED_DIR,
  versionToTest,
  type Agent,
  type RecipeRun,
} from './agent-recipes.js';
import { hangCheck } from './agent-hang-check.js';
import { removeVolumes } from './docker.js';
import { EDIT_FILE, EDIT_TEXT, FINAL_TEXT, REPLY_TEXT, type ScriptedFake } from './agent-fakes.js';
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
  // The first /fix's text carries a word of its own, for the follow-up to find in what the CLI resends.
  const marker = `conversation ${randomBytes(6).toString('hex')}`;
  const followUpText = `now tell me what you did (follow-up ${randomBytes(6).toString('hex')})`;
  /** The main test's run, its sandbox kept (`cleanup: auto`) for the follow-up. */
  let first: RecipeRun | undefined;
  // The checks declared for this CLI, and those that passed: all of them, and the version is recorded.
  let declared = 0;
  const passed = new Set<string>();
  const check = (title: string, fn: () => Promise<void> | void) => {
    declared++;
    it(
      title,
      async () => {
        await fn();
        passed.add(title);
      },
      900_000,
    );
  };

  beforeAll(async () => {
    if (!have) return;
    fs.rmSync(path.join(TESTED_DIR, `${name}.json`), { force: true });
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
    if (have && version && passed.size === declared) recordTested(agent, version);
    // The kept sandbox, if the follow-up did not remove it: only the volumes of that run's own prefix.
    if (first) removeVolumes(first.prefix);
    for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The recipe run against a fresh fake. */
  async function recipeRun(options: Partial<Parameters<typeof runRecipe>[0]> = {}): Promise<RecipeRun> {
    await server?.close();
    fake = makeFake(key);
    server = await httpsServer(ca, agent.fakeHost, (req, res) => fake.handler(req, res));
    return runRecipe({ agent, image, port: server.port, key, caFile, cleanup, ...options });
  }

  (have ? describe : describe.skip)(`the ${agent.label} recipe of docs/agents.md`, () => {
    check('names the version it was tested with', () => {
      const recipe = readRecipe(name);
      if (!process.env.WORKTREE_SANDBOX_AGENT_VERSION) expect(recipe.testedWith).toBe(version);
      expect(recipe.inputs.command).not.toMatch(/npx|npm /);
    });

    check(
      'on a /fix comment: the edit is pushed, the reply posted, the key seen by the fake only, the usage as billed',
      async () => {
        const run = await recipeRun({
          comment: `write ${EDIT_FILE} (${marker})`,
          inputs: { cleanup: 'auto' },
        });
        first = run;
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
      },
    );

    check(
      "a second /fix on the same pull request runs the resume recipe: the CLI sends the first run's conversation",
      async () => {
        // The first run (the test above) kept its sandbox, and so the CLI's HOME and its session in it.
        expect(first?.main.code).toBe(0);
        const run = await recipeRun({
          followUp: first,
          comment: followUpText,
          edit: () => readResumeCommand(name),
        });
        const { main, github } = run;
        await github.close();
        const log = `${main.stdout}\n${main.stderr}`;
        expect({ main: main.code, log: main.code === 0 ? '' : log.slice(-6000) }).toEqual({
          main: 0,
          log: '',
        });
        console.log(
          `${agent.label} ${version}: follow-up ran ${run.endedAt - run.startedAt} ms; requests ${fake.paths.join(', ')}`,
        );
        // Judged on what the fake received: the follow-up's first turn holds the first run's prompt and
        // final answer (the CLI resent its session), and the new comment's text.
        const turn = fake.turns[0] ?? '';
        expect({
          firstPrompt: turn.includes(marker),
          firstAnswer: turn.includes(FINAL_TEXT),
          newPrompt: turn.includes(followUpText),
        }).toEqual({ firstPrompt: true, firstAnswer: true, newPrompt: true });
        expect(new Set(fake.keys)).toEqual(new Set([key]));
      },
    );

    check(
      `max-model-requests: ${requestsForOneEdit} stops the CLI within seconds, and what it wrote before comes back`,
      async () => {
        const run = await recipeRun({
          inputs: { 'max-model-requests': String(requestsForOneEdit) },
        });
        const { main, github, repos } = run;
        await github.close();
        const usage = JSON.parse(main.outputs['model-usage']) as {
          stopped?: { by: string };
          refused: number;
        };
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
      },
    );

    if (name === 'claude-code')
      check(
        'without --permission-mode (the README line before), it asks, nobody answers, and it ends with no change',
        async () => {
          const run = await recipeRun({
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
        },
      );

    if (name === 'claude-code')
      check(
        'a command that waits on a question nobody answers ends at timeout-minutes: exit 124, said in the log, container gone, earlier commit pushed',
        () => hangCheck(recipeRun),
      );
  });
}
