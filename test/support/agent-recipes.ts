// The agent recipes of docs/agents.md as tests run them: each recipe is read from the page (a fenced YAML
// block after `<!-- recipe: NAME -->`), so that what users copy is what is tested; its CLI is installed once
// from the npm registry at the version the page names (or at WORKTREE_SANDBOX_AGENT_VERSION, `latest` for
// the scheduled drift check) into a cache reused across runs, and put in an image built from the Node
// image; and a `/fix` comment runs the recipe through the bundle as the runner runs it, with the API's
// host swapped for a local fake's; a second `/fix` on the same pull request can follow it, in the same
// sandbox and HOME, to run the page's resume recipe (`<!-- recipe: NAME-resume -->`, a `command` only).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { runMainAndPost, type StepResult } from './action.js';
import { uniquePrefix } from './docker.js';
import { runnerIds } from './env.js';
import { FakeGitHub } from './fake-github.js';
import { keySearchLines, NODE_IMAGE } from './network.js';
import { makePullRequestRepos, refOf, type PullRequestRepos } from './pull-requests.js';
import { tempDir } from './repo.js';
import { issueCommentEvent, REPO, writeEvent } from './webhooks.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const AGENTS_DOC = path.join(ROOT, 'docs/agents.md');
const CACHE = process.env.WORKTREE_SANDBOX_AGENT_CACHE ?? path.join(os.tmpdir(), 'worktree-sandbox-agents');
/** Where each CLI's tests record the version and date they passed with (scripts/agent-tested.mjs reads it). */
export const TESTED_DIR = path.join(CACHE, 'tested');
const INSTALL_TIMEOUT_MS = 600_000;

export interface Agent {
  name: 'claude-code' | 'codex' | 'gemini-cli';
  label: string;
  pkg: string;
  /** The API's host in the recipe (in `credentials` and the base URL), swapped for the fake's. */
  apiHost: string;
  /** The fake's host name (in /etc/hosts, pointing at this machine). */
  fakeHost: string;
}

export const AGENTS: Record<Agent['name'], Agent> = {
  'claude-code': {
    name: 'claude-code',
    label: 'Claude Code',
    pkg: '@anthropic-ai/claude-code',
    apiHost: 'api.anthropic.com',
    fakeHost: 'claude.ws-agents.test',
  },
  codex: {
    name: 'codex',
    label: 'OpenAI Codex CLI',
    pkg: '@openai/codex',
    apiHost: 'api.openai.com',
    fakeHost: 'codex.ws-agents.test',
  },
  'gemini-cli': {
    name: 'gemini-cli',
    label: 'Gemini CLI',
    pkg: '@google/gemini-cli',
    apiHost: 'generativelanguage.googleapis.com',
    fakeHost: 'gemini.ws-agents.test',
  },
};
export const FAKE_HOSTS = Object.values(AGENTS).map((a) => a.fakeHost);

export interface Recipe {
  /** The version the page says the recipe was tested with. */
  testedWith: string;
  inputs: { image: string; network: string; credentials: string; env: string; command: string };
}

/** "Tested with <version> on <date>." as the page writes it (and scripts/agent-tested.mjs rewrites it). */
const TESTED_LINE = /Tested\s+with\s+(\d+\.\d+\.\d+(?:-[\w.]+)?)\s+on\s+\d{4}-\d\d-\d\d/;

/** The recipe named `name` on docs/agents.md, and the "Tested with" version of its paragraph. */
export function readRecipe(name: Agent['name'], doc = fs.readFileSync(AGENTS_DOC, 'utf8')): Recipe {
  const marker = doc.indexOf(`<!-- recipe: ${name} -->`);
  if (marker < 0) throw new Error(`docs/agents.md has no recipe ${name}`);
  const block = /```yaml\n([\s\S]*?)\n```/.exec(doc.slice(marker))?.[1];
  const paragraph = doc.slice(doc.lastIndexOf('\n\n', marker - 3), marker);
  const testedWith = TESTED_LINE.exec(paragraph)?.[1];
  if (!block || !testedWith) throw new Error(`recipe ${name}: no YAML block or no "Tested with" line`);
  const inputs = parse(block) as Recipe['inputs'];
  for (const key of ['image', 'network', 'credentials', 'env', 'command'] as const)
    if (typeof inputs[key] !== 'string') throw new Error(`recipe ${name}: no ${key}`);
  return { testedWith, inputs };
}

/** The command of the resume recipe of `name` (`<!-- recipe: NAME-resume -->`): its other inputs are the recipe's. */
export function readResumeCommand(name: Agent['name'], doc = fs.readFileSync(AGENTS_DOC, 'utf8')): string {
  const marker = doc.indexOf(`<!-- recipe: ${name}-resume -->`);
  const block = marker < 0 ? undefined : /```yaml\n([\s\S]*?)\n```/.exec(doc.slice(marker))?.[1];
  const command = block ? (parse(block) as { command?: unknown }).command : undefined;
  if (typeof command !== 'string')
    throw new Error(`docs/agents.md has no resume recipe ${name} with a command`);
  return command;
}

/** What a CLI's tests record once every check passed: the version and the day (UTC). */
export function recordTested(agent: Agent, version: string): void {
  fs.mkdirSync(TESTED_DIR, { recursive: true });
  const date = new Date().toISOString().slice(0, 10);
  fs.writeFileSync(
    path.join(TESTED_DIR, `${agent.name}.json`),
    `${JSON.stringify({ cli: agent.name, package: agent.pkg, version, date })}\n`,
  );
}

/** The version to test: the page's, or WORKTREE_SANDBOX_AGENT_VERSION (`latest` asks the registry). */
export function versionToTest(agent: Agent): string {
  const wanted = process.env.WORKTREE_SANDBOX_AGENT_VERSION ?? readRecipe(agent.name).testedWith;
  if (wanted !== 'latest') return wanted;
  return execFileSync('npm', ['view', `${agent.pkg}@latest`, 'version'], {
    encoding: 'utf8',
    timeout: 60_000,
  }).trim();
}

/** `npm install --prefix` once per package and version; later runs reuse the folder. */
export function installAgent(agent: Agent, version: string): string {
  const dir = path.join(CACHE, `${agent.name}@${version}`);
  if (fs.existsSync(path.join(dir, '.complete'))) return dir;
  fs.mkdirSync(CACHE, { recursive: true });
  const partial = fs.mkdtempSync(path.join(CACHE, `.${agent.name}-`));
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      partial,
      '--no-audit',
      '--no-fund',
      '--omit=dev',
      '--engine-strict=false',
      `${agent.pkg}@${version}`,
    ],
    { stdio: 'ignore', timeout: INSTALL_TIMEOUT_MS },
  );
  fs.writeFileSync(path.join(partial, '.complete'), `${agent.pkg}@${version}\n`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(partial, dir);
  return dir;
}

/**
 * The image the recipe names, as its set-up step would build it (`npm install -g` on the Node image):
 * here from the cached install, copied under /usr (which the key search leaves out as the image's own).
 */
export function agentImage(agent: Agent, version: string): string {
  const tag = `worktree-sandbox-agent-${agent.name}:${version}`;
  try {
    execFileSync('docker', ['image', 'inspect', tag], { stdio: 'ignore' });
    return tag;
  } catch {
    // not built yet
  }
  const prefix = installAgent(agent, version);
  const dockerfile = [
    `FROM ${NODE_IMAGE}`,
    'COPY . /usr/local/lib/agent/',
    'RUN for b in /usr/local/lib/agent/node_modules/.bin/*; do ln -s "$b" /usr/local/bin/; done',
    `LABEL agent="${agent.pkg}@${version}"`,
    '',
  ].join('\n');
  // The install folder is the context (its links kept as links); the Dockerfile comes on standard input.
  execFileSync('docker', ['build', '-q', '-t', tag, '-f', '-', prefix], {
    input: dockerfile,
    stdio: ['pipe', 'ignore', 'ignore'],
    timeout: INSTALL_TIMEOUT_MS,
  });
  return tag;
}

export interface RecipeRun {
  main: StepResult;
  post: StepResult;
  github: FakeGitHub;
  repos: PullRequestRepos;
  /** The `volume-prefix` of its sandbox, which a follow-up run reuses. */
  prefix: string;
  /** When the command started and ended, by the container's clock (ms since the epoch). */
  startedAt: number;
  endedAt: number;
}

const TOKEN = 'ghs_e2eAgentFakeToken0123456789abcd';
const FULL = `${REPO.owner}/${REPO.name}`;

/**
 * A `/fix` comment that runs `recipe` as written, the API's host swapped for `fakeHost:port` and the key
 * put in for `${{ secrets.* }}`; after it, the key is searched for everywhere the container can read.
 */
export async function runRecipe(options: {
  agent: Agent;
  image: string;
  port: number;
  key: string;
  caFile: string;
  inputs?: Record<string, string>;
  /** A change to the recipe's command, to show what goes wrong without one of its parts. */
  edit?: (command: string) => string;
  /** The comment's text after `/fix`. */
  comment?: string;
  /** An earlier run whose pull request (its head now what that run pushed) and sandbox this one takes up. */
  followUp?: RecipeRun;
  cleanup: string[];
}): Promise<RecipeRun> {
  const { agent, key } = options;
  const swap = (text: string) =>
    text
      .replaceAll(agent.apiHost, `${agent.fakeHost}:${options.port}`)
      .replace(/\$\{\{ secrets\.\w+ \}\}/g, key);
  const recipe = readRecipe(agent.name).inputs;
  const github = await FakeGitHub.start(FULL, TOKEN);
  const earlier = options.followUp;
  const repos = earlier?.repos ?? makePullRequestRepos({ owner: runnerIds() });
  const prefix = earlier?.prefix ?? uniquePrefix(`ag${agent.name.slice(0, 3)}`);
  const events = tempDir('wts-agent-event-');
  options.cleanup.push(repos.root, events);
  github.pulls.set(repos.number, {
    number: repos.number,
    state: 'open',
    headRef: repos.branch,
    headSha: earlier ? refOf(repos.origin, `refs/heads/${repos.branch}`) : repos.headSha,
    headRepo: FULL,
  });
  github.permissions.set('alice', { permission: 'write', role_name: 'maintain' });
  const event = issueCommentEvent({
    body: `/fix ${options.comment ?? 'write FIXED_BY_AGENT.md'}`,
    author: { login: 'alice', association: 'MEMBER' },
    commentId: earlier ? 4243 : 4242,
  });
  const command = [
    'echo "agent started $(date +%s%3N)"',
    options.edit ? options.edit(recipe.command) : recipe.command,
    'status=$?',
    'echo "agent ended $(date +%s%3N) status $status"',
    `bash <<'WS_KEY_EOF'\n${keySearchLines(key).join('\n')}\nWS_KEY_EOF`,
    'exit $status',
  ].join('\n');
  const { main, post } = await runMainAndPost({
    asRunner: true,
    inputs: {
      engine: 'docker',
      'repository-path': repos.parent,
      'volume-prefix': prefix,
      trigger: '/fix',
      token: TOKEN,
      push: 'true',
      cleanup: 'always',
      'timeout-minutes': '5',
      ...recipe,
      image: options.image,
      network: swap(recipe.network),
      credentials: swap(recipe.credentials),
      env: swap(recipe.env),
      command: swap(command),
      ...options.inputs,
    },
    env: {
      GITHUB_EVENT_NAME: 'issue_comment',
      GITHUB_EVENT_PATH: writeEvent(events, event),
      GITHUB_REPOSITORY: FULL,
      GITHUB_API_URL: github.url,
      GITHUB_SERVER_URL: 'https://ghes.example',
      GITHUB_RUN_ID: earlier ? '42' : '41',
      GITHUB_WORKSPACE: repos.parent,
      NODE_EXTRA_CA_CERTS: options.caFile,
    },
    timeoutMs: 540_000,
  });
  const at = (word: string) => Number(new RegExp(`^agent ${word} (\\d+)`, 'm').exec(main.stdout)?.[1] ?? NaN);
  return { main, post, github, repos, prefix, startedAt: at('started'), endedAt: at('ended') };
}
