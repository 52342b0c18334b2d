// What the agent spent, and a cap it cannot lift, through the bundle as the runner runs it (uid 1001) on
// Docker: the official Anthropic and OpenAI SDKs (Node 24 in the container), streaming and not, against
// local fakes of their APIs that report usage. Anthropic's over TLS with its key in `credentials` (the
// proxy ends TLS), OpenAI's as a plain-HTTP base URL (an `http://` credential line). The usage the action
// reports is what the fakes sent; with `max-model-tokens`, once reached, each SDK raises its own
// rate-limit error at once (no retries), the fakes see no request past the cap, and the command's earlier
// commit comes back.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runStep } from '../support/action.js';
import { availableEngines } from '../support/engines.js';
import { runnerIds } from '../support/env.js';
import {
  ANTHROPIC_HOST,
  copyPackages,
  FAKE_USAGE,
  fakeAnthropic,
  fakeOpenAi,
  OPENAI_HOST,
} from '../support/net-servers.js';
import {
  addTestHosts,
  bridgeAddress,
  ensureNetImage,
  httpServer,
  httpsServer,
  testCa,
  type Recorder,
} from '../support/network.js';
import { chownTree, git, makeRepo, type TestRepo } from '../support/repo.js';
import { leftVolumes } from '../support/storage.js';

const ENGINE = 'docker';
const HAVE_DOCKER = availableEngines().includes(ENGINE);
const ANTHROPIC_KEY = `sk-ant-wsuse-${randomBytes(12).toString('hex')}`;
const OPENAI_KEY = `sk-proj-wsuse-${randomBytes(12).toString('hex')}`;

let image = '';
let caFile = '';
let anthropic: Recorder;
let openai: Recorder;
const anthropicSeen: string[] = [];
const openaiSeen: string[] = [];
const cleanup: string[] = [];
const volumes = leftVolumes('netuse');

// One call a name; each prints `<name>: ok <text>` or `<name>: <error class> <status> <ms>`. The SDKs keep
// their default retries: a 429 from the budget must not make them wait and try again.
const SCRIPT = `import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
const claude = new Anthropic();
const gpt = new OpenAI();
const messages = [{ role: 'user', content: 'hi' }];
const calls = {
  a: async () => (await claude.messages.create({ model: 'claude-test', max_tokens: 16, messages })).content[0].text,
  as: async () => (await claude.messages.stream({ model: 'claude-test', max_tokens: 16, messages }).finalMessage()).content[0].text,
  o: async () => (await gpt.chat.completions.create({ model: 'gpt-test', messages })).choices[0].message.content,
  os: async () => {
    const stream = await gpt.chat.completions.create({ model: 'gpt-test', messages, stream: true, stream_options: { include_usage: true } });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    return text;
  },
};
for (const name of process.argv.slice(2)) {
  const started = Date.now();
  try {
    console.log(name + ': ok ' + (await calls[name]()));
  } catch (error) {
    console.log(name + ': ' + error.constructor.name + ' ' + error.status + ' ' + (Date.now() - started) + 'ms');
  }
}
`;

beforeAll(async () => {
  if (!HAVE_DOCKER) return;
  image = ensureNetImage();
  addTestHosts(bridgeAddress(), [ANTHROPIC_HOST, OPENAI_HOST]);
  const test = await testCa();
  caFile = test.file;
  cleanup.push(path.dirname(caFile));
  anthropic = await httpsServer(test.ca, ANTHROPIC_HOST, fakeAnthropic(ANTHROPIC_KEY, anthropicSeen));
  openai = await httpServer(fakeOpenAi(OPENAI_KEY, openaiSeen));
}, 240_000);

afterAll(async () => {
  for (const r of [anthropic, openai]) await r?.close();
  await volumes.removeAll();
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
});

function sdkRepo(): TestRepo {
  const repo = makeRepo();
  cleanup.push(repo.root);
  copyPackages(['@anthropic-ai/sdk', 'openai'], repo.parent);
  fs.writeFileSync(path.join(repo.parent, 'usage.mjs'), SCRIPT);
  git(repo.parent, 'add', '-A');
  git(repo.parent, 'commit', '--quiet', '-m', 'the SDKs');
  // Origin has them: what a run pushes is its own commits only.
  git(repo.parent, 'push', '--quiet', 'origin', 'main');
  chownTree(repo.root, runnerIds());
  return repo;
}

async function step(repo: TestRepo, inputs: Record<string, string>) {
  return runStep({
    inputs: {
      mode: 'run',
      image,
      engine: ENGINE,
      'repository-path': repo.parent,
      'volume-prefix': volumes.prefix(ENGINE),
      network: `${ANTHROPIC_HOST}:${anthropic.port}`,
      credentials: [
        `${ANTHROPIC_HOST}:${anthropic.port} x-api-key: ${ANTHROPIC_KEY}`,
        `http://${OPENAI_HOST}:${openai.port} Authorization: Bearer ${OPENAI_KEY}`,
      ].join('\n'),
      env: [
        'ANTHROPIC_API_KEY=placeholder',
        `ANTHROPIC_BASE_URL=https://${ANTHROPIC_HOST}:${anthropic.port}`,
        'OPENAI_API_KEY=placeholder',
        `OPENAI_BASE_URL=http://${OPENAI_HOST}:${openai.port}/v1`,
      ].join('\n'),
      ...inputs,
    },
    env: { GITHUB_WORKSPACE: repo.parent, NODE_EXTRA_CA_CERTS: caFile },
    asRunner: true,
    timeoutMs: 400_000,
  });
}

interface Row {
  host: string;
  port: number;
  model: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  unmetered: number;
}

const perAnthropic = {
  input: FAKE_USAGE.anthropic.input_tokens + FAKE_USAGE.anthropic.cache_read_input_tokens,
  output: FAKE_USAGE.anthropic.output_tokens,
};
const perOpenAi = { input: FAKE_USAGE.openai.prompt_tokens, output: FAKE_USAGE.openai.completion_tokens };

(HAVE_DOCKER ? describe : describe.skip)('model usage and budget through the bundle (docker)', () => {
  it('reports the usage the fakes sent, streamed and not, over TLS and plain HTTP', async () => {
    const repo = sdkRepo();
    const seen = { anthropic: anthropicSeen.length, openai: openaiSeen.length };
    const { code, stdout, outputs, summary } = await step(repo, { command: 'node usage.mjs a as o os' });
    for (const name of ['a', 'as', 'o', 'os'])
      expect(stdout).toMatch(new RegExp(`^${name}: ok hello from the fake`, 'm'));
    expect(code).toBe(0);
    expect(anthropicSeen.length - seen.anthropic).toBe(2);
    expect(openaiSeen.length - seen.openai).toBe(2);
    const usage = JSON.parse(outputs['model-usage']) as { rows: Row[]; totals: Record<string, number> };
    expect(usage.rows).toEqual([
      expect.objectContaining({
        host: ANTHROPIC_HOST,
        port: anthropic.port,
        model: 'claude-test',
        requests: 2,
        inputTokens: 2 * perAnthropic.input,
        outputTokens: 2 * perAnthropic.output,
        cacheReadTokens: 2 * FAKE_USAGE.anthropic.cache_read_input_tokens,
        unmetered: 0,
      }),
      expect.objectContaining({
        host: OPENAI_HOST,
        port: openai.port,
        model: 'gpt-test',
        requests: 2,
        inputTokens: 2 * perOpenAi.input,
        outputTokens: 2 * perOpenAi.output,
        unmetered: 0,
      }),
    ]);
    expect(usage.totals).toMatchObject({ requests: 4, unmetered: 0 });
    expect(summary).toContain('### Model usage');
    expect(summary).toContain(`| "${ANTHROPIC_HOST}":${anthropic.port} | "claude-test" | 2 |`);
    expect(summary).not.toContain('stopped the agent');
  }, 600_000);

  it('max-model-tokens: once reached, every SDK raises its own rate-limit error at once, the fakes see nothing more, and the earlier commit comes back and is pushed', async () => {
    const repo = sdkRepo();
    const seen = { anthropic: anthropicSeen.length, openai: openaiSeen.length };
    // One Anthropic answer stays under the cap; the OpenAI stream after it reaches it, across hosts.
    const cap = perAnthropic.input + perAnthropic.output + 1;
    const { code, stdout, outputs, summary } = await step(repo, {
      branch: 'bot/budget',
      'max-model-tokens': String(cap),
      push: 'true',
      command:
        'echo spent > work.txt && git add work.txt && git commit -qm "work before the budget" && node usage.mjs a os as o a',
    });
    expect(stdout).toMatch(/^a: ok hello/m);
    expect(stdout).toMatch(/^os: ok hello/m);
    const refused = [...stdout.matchAll(/^(as|o|a): RateLimitError 429 (\d+)ms$/gm)];
    expect(refused.map((m) => m[1])).toEqual(['as', 'o', 'a']);
    // No retries with their back-off (half a second and more each).
    for (const m of refused) expect(Number(m[2])).toBeLessThan(400);
    expect(code).toBe(0);
    // The fakes saw the two requests under the cap, and none past it.
    expect(anthropicSeen.length - seen.anthropic).toBe(1);
    expect(openaiSeen.length - seen.openai).toBe(1);
    const usage = JSON.parse(outputs['model-usage']) as Record<string, unknown>;
    expect(usage).toMatchObject({
      totals: { requests: 2, inputTokens: perAnthropic.input + perOpenAi.input },
      limits: { maxRequests: 0, maxTokens: cap },
      stopped: { by: 'max-model-tokens', requests: 2 },
      refused: 3,
    });
    expect(summary).toContain('The model budget stopped the agent: `max-model-tokens`');
    expect(outputs).toMatchObject({ commits: '1', changed: 'true' });
    expect(git(repo.parent, 'log', '-1', '--format=%s', 'bot/budget')).toBe('work before the budget');
    // The run ended as usual: the work done before the budget stopped the agent is on origin.
    expect(outputs.pushed).toBe('true');
    expect(git(repo.origin, 'log', '-1', '--format=%s', 'bot/budget')).toBe('work before the budget');
  }, 600_000);
});
