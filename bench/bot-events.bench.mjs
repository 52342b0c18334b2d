// What a `/fix` costs by where it was asked (docs/pull-request-bot.md): on the pull request's
// conversation (the baseline), on a line of its diff as a reply in a thread (one more call: the thread),
// and in a submitted review with three comments (one more call: the review's comments). The bundled
// action's main step as the runner runs it, against the fake GitHub API of the tests, variants
// interleaved round by round; the command does nothing, so what differs is the bot's own work. Each
// step's API calls are counted from the fake's log; the post step (clean-up) runs after, untimed.
// Usage: node bench/bot-events.bench.mjs [rounds=7]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';
import { CACHE, IMAGE, loadAverage, machineNote, median, nowNs, ROOT, runActionStep } from './lib.mjs';

const ROUNDS = Number(process.argv[2] ?? 7);
const TOKEN = 'ghs_benchBotToken0123456789abcdefgh';
const loadStart = loadAverage();

// The tests' fake API and webhook payloads, built from their TypeScript beside node_modules.
fs.mkdirSync(CACHE, { recursive: true });
const work = fs.mkdtempSync(path.join(CACHE, 'bot-events-'));
await build({
  stdin: {
    contents: [
      `export { FakeGitHub } from './test/support/fake-github.ts';`,
      `export { makePullRequestRepos } from './test/support/pull-requests.ts';`,
      `export { REPO, issueCommentEvent, reviewCommentEvent, reviewEvent, writeEvent } from './test/support/webhooks.ts';`,
    ].join('\n'),
    resolveDir: ROOT,
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  outfile: path.join(work, 'support.mjs'),
  logLevel: 'warning',
});
const {
  FakeGitHub,
  makePullRequestRepos,
  REPO,
  issueCommentEvent,
  reviewCommentEvent,
  reviewEvent,
  writeEvent,
} = await import(path.join(work, 'support.mjs'));

const FULL = `${REPO.owner}/${REPO.name}`;
const fake = await FakeGitHub.start(FULL, TOKEN);
const repos = makePullRequestRepos();
const events = fs.mkdtempSync(path.join(work, 'events-'));
const alice = { login: 'alice', association: 'MEMBER' };
fake.permissions.set('alice', { permission: 'write', role_name: 'write' });
fake.pulls.set(repos.number, {
  number: repos.number,
  state: 'open',
  headRef: repos.branch,
  headSha: repos.headSha,
  headRepo: FULL,
});

let nextId = 5000;
/** The event of one variant, with what the fake must hold for it. */
function eventOf(variant) {
  const id = nextId++;
  if (variant === 'comment') {
    fake.comments.set(id, { id, issue: repos.number, body: '/fix', history: ['/fix'], author: 'alice' });
    return [
      'issue_comment',
      issueCommentEvent({ body: '/fix', author: alice, number: repos.number, commentId: id }),
    ];
  }
  if (variant === 'line') {
    // A reply in a thread that bob began: the bot reads the thread (one call).
    const root = nextId++;
    fake.reviewComments.set(root, {
      id: root,
      issue: repos.number,
      body: 'why?',
      history: [],
      author: 'bob',
    });
    fake.reviewComments.set(id, {
      id,
      issue: repos.number,
      body: '/fix',
      history: [],
      author: 'alice',
      inReplyTo: root,
    });
    return [
      'pull_request_review_comment',
      reviewCommentEvent({
        body: '/fix',
        author: alice,
        number: repos.number,
        commentId: id,
        path: 'README.md',
        line: 3,
        inReplyTo: root,
      }),
    ];
  }
  for (let i = 0; i < 3; i++) {
    const c = nextId++;
    fake.reviewComments.set(c, {
      id: c,
      issue: repos.number,
      body: `use a const here (${i})`,
      history: [],
      author: 'alice',
      reviewId: id,
      path: 'README.md',
      line: 3,
      diffHunk: '@@ -1,3 +1,3 @@\n # test',
    });
  }
  return [
    'pull_request_review',
    reviewEvent({ body: '/fix', author: alice, number: repos.number, reviewId: id }),
  ];
}

async function step(variant) {
  const [name, payload] = eventOf(variant);
  const callsBefore = fake.calls.length;
  const inputs = {
    image: IMAGE,
    'repository-path': repos.parent,
    'volume-prefix': 'wts-bench-bot',
    trigger: '/fix',
    token: TOKEN,
    command: 'true',
    cleanup: 'always',
  };
  const extraEnv = {
    GITHUB_EVENT_NAME: name,
    GITHUB_EVENT_PATH: writeEvent(events, payload),
    GITHUB_REPOSITORY: FULL,
    GITHUB_API_URL: fake.url,
    GITHUB_SERVER_URL: 'https://ghes.example',
    GITHUB_RUN_ID: '99',
  };
  const main = await runActionStep({ cwd: repos.parent, inputs, extraEnv });
  const ms = Number(nowNs() - main.startNs) / 1e6;
  const calls = fake.calls.length - callsBefore;
  if (main.outputs.triggered !== 'true') throw new Error(`${variant}: no run\n${main.stdout.slice(-2000)}`);
  await runActionStep({ cwd: repos.parent, inputs, extraEnv, state: main.state });
  return { ms, calls };
}

const VARIANTS = ['comment', 'line', 'review'];
const times = Object.fromEntries(VARIANTS.map((v) => [v, []]));
const calls = Object.fromEntries(VARIANTS.map((v) => [v, []]));
await step('comment'); // a warm-up, not counted: the first step of a process fills the caches
for (let round = 0; round < ROUNDS; round++) {
  const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length]);
  for (const v of order) {
    const r = await step(v);
    times[v].push(r.ms);
    calls[v].push(r.calls);
  }
  console.error(
    `round ${round + 1}: ${VARIANTS.map((v) => `${v} ${times[v].at(-1).toFixed(0)} ms`).join(', ')}`,
  );
}
await fake.close();
fs.rmSync(work, { recursive: true, force: true });
fs.rmSync(repos.root, { recursive: true, force: true });

const m = Object.fromEntries(VARIANTS.map((v) => [v, median(times[v])]));
const label = {
  comment: 'a comment on the conversation',
  line: 'a reply on a line of the diff',
  review: 'a review, 3 comments',
};
console.log(`/fix by where it was asked, main step, medians of ${ROUNDS} interleaved rounds`);
console.log('| Where | Median | Ratio | API calls |');
for (const v of VARIANTS)
  console.log(
    `| ${label[v]} | ${(m[v] / 1000).toFixed(2)} s | × ${(m[v] / m.comment).toFixed(2)} | ${median(calls[v])} |`,
  );
console.log(`load ${loadStart} → ${loadAverage()}; ${machineNote()}`);
