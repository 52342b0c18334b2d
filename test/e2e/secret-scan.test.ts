// `secret-scan` through the bundle, as the runner runs it (uid 1001, Docker): a run that commits a secret
// (a credentials value, an env secret in a commit message, a well-known key format) pushes nothing; the
// step fails naming the place and the rule, never the value; origin's branch stays where it was; the
// post step keeps the sandbox and its work. With `warn` the push goes, with warnings.
import { afterAll, beforeEach, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import { runMainAndPost } from '../support/action.js';
import { removeVolumes, uniquePrefix } from '../support/docker.js';
import { runnerIds, TEST_IMAGE } from '../support/env.js';
import { chownTree, git, makeRepo, tryGit, type TestRepo } from '../support/repo.js';
import { nodeRuntimes } from '../support/runtimes.js';

const CREDENTIAL = 'cred-e2e-0123456789abcdef';
const DEPLOY_KEY = 'deploy-key-e2e-9876543210';
const BRANCH = 'bot/work';
// A GitHub token's shape, put together by the command's shell: this file holds none.
const WRITE_GITHUB_TOKEN = `printf 'const t = "%s_%s";\\n' ghp wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx > src/token.js`;

const repos: TestRepo[] = [];
const prefixes: string[] = [];
afterAll(() => {
  for (const p of prefixes) removeVolumes(p);
  for (const r of repos) fs.rmSync(r.root, { recursive: true, force: true });
});

let repo: TestRepo;
let prefix: string;
let originBefore: string;
beforeEach(() => {
  repo = makeRepo({ owner: runnerIds() });
  repos.push(repo);
  prefix = uniquePrefix('scan');
  prefixes.push(prefix);
  // The branch is on origin already: "did not move" is then a ref that stayed where it was.
  // (Made in place: a local push would run git in origin, owned by the runner user, as root.)
  originBefore = git(repo.origin, 'rev-parse', 'refs/heads/main');
  git(repo.origin, 'update-ref', `refs/heads/${BRANCH}`, originBefore);
  git(repo.parent, 'update-ref', `refs/remotes/origin/${BRANCH}`, originBefore);
  chownTree(repo.root, runnerIds());
});

/** The Node.js that runs the bundle: each suite runs once per runtime (test/support/runtimes.ts). */
let node = process.execPath;

async function run(command: string, inputs: Record<string, string> = {}) {
  return runMainAndPost({
    node,
    asRunner: true,
    inputs: {
      image: TEST_IMAGE,
      'repository-path': repo.parent,
      'volume-prefix': prefix,
      branch: BRANCH,
      push: 'true',
      cleanup: 'always',
      env: `DEPLOY_KEY=${DEPLOY_KEY}`,
      command,
      ...inputs,
    },
    env: { GITHUB_WORKSPACE: repo.parent },
  });
}

/** The step failed on the scan, origin did not move, and the post step kept the sandbox with the work. */
function expectBlocked(
  result: Awaited<ReturnType<typeof run>>,
  expected: { where: RegExp; rule: string; value: string },
): void {
  const { main, post } = result;
  if (main.code !== 1) process.stdout.write(main.stdout.slice(-4000));
  expect(main.code).toBe(1);
  const error = main.stdout
    .split('\n')
    .find((l) => l.startsWith('::error::Secret scan of the push to origin/'));
  expect(error).toBeDefined();
  expect(error).toMatch(expected.where);
  expect(error).toContain(expected.rule);
  expect(error).toContain('Nothing of it left (secret-scan: block)');
  // Only the runner's masking commands carry the value (the runner consumes them; they are not shown).
  const shown = main.stdout.split('\n').filter((l) => !l.startsWith('::add-mask::'));
  expect(shown.join('\n')).not.toContain(expected.value);
  expect(main.outputs.pushed).toBeUndefined();
  expect(git(repo.origin, 'rev-parse', `refs/heads/${BRANCH}`)).toBe(originBefore);
  expect(post.code).toBe(0);
  expect(post.stdout).toContain('the secret scan held its work back: kept for a person to look at');
  // The work is in the parent (its branch, imported), for a person to look at.
  expect(tryGit(repo.parent, 'merge-base', '--is-ancestor', originBefore, BRANCH).ok).toBe(true);
  expect(git(repo.parent, 'rev-parse', BRANCH)).not.toBe(originBefore);
}

describe.each(nodeRuntimes())(
  '$name: secret-scan through the bundle, as uid 1001 (Docker)',
  ({ execPath }) => {
    beforeEach(() => {
      node = execPath;
    });

    it('blocks a credentials value written into a new file: origin does not move, the sandbox is kept', async () => {
      // (Put together by the shell: the command line shown in the log does not hold the value either.)
      const [first, rest] = [CREDENTIAL.slice(0, 8), CREDENTIAL.slice(8)];
      const result = await run(`printf 'A=1\\nKEY=%s%s\\n' ${first} ${rest} > leaked.env`, {
        network: 'api.example.com',
        credentials: `api.example.com X-Key: ${CREDENTIAL}`,
      });
      expectBlocked(result, {
        where: /added line in leaked\.env:2 of [0-9a-f]{12}/,
        rule: 'credentials for api.example.com',
        value: CREDENTIAL,
      });
    });

    it('blocks an env secret in a commit message', async () => {
      const result = await run(
        `echo x > x.txt && git add x.txt && git commit --quiet -m "add x" -m "with key $DEPLOY_KEY"`,
      );
      expectBlocked(result, {
        where: /message of [0-9a-f]{12}, line 3/,
        rule: 'env DEPLOY_KEY',
        value: DEPLOY_KEY,
      });
    });

    it('blocks a well-known key format (a GitHub token, found by secretlint)', async () => {
      const result = await run(`mkdir -p src && ${WRITE_GITHUB_TOKEN}`);
      expectBlocked(result, {
        where: /added line in src\/token\.js:1 of [0-9a-f]{12}/,
        rule: '@secretlint/secretlint-rule-github (GITHUB_TOKEN)',
        value: 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx',
      });
    });

    it('blocks a key in the reply: the reply is posted nowhere, nothing is pushed, the sandbox is kept', async () => {
      const result = await run(
        'echo work > work.txt && printf "Fixed it. The key was %s\\n" "$DEPLOY_KEY" > "$SANDBOX_REPLY_FILE"',
      );
      const { main, post } = result;
      if (main.code !== 1) process.stdout.write(main.stdout.slice(-4000));
      expect(main.code).toBe(1);
      const error = main.stdout.split('\n').find((l) => l.startsWith('::error::Secret scan of the reply'));
      expect(error).toMatch(/reply, line 1/);
      expect(error).toContain('env DEPLOY_KEY');
      const shown = main.stdout.split('\n').filter((l) => !l.startsWith('::add-mask::'));
      expect(shown.join('\n')).not.toContain(DEPLOY_KEY);
      // The log shows the command line (which holds the words, not the value), never the reply itself.
      expect(main.summary).not.toContain('Fixed it.');
      expect(main.summary).not.toContain("The command's reply");
      expect(main.outputs.reply).toBeUndefined();
      expect(main.outputs.pushed).toBeUndefined();
      expect(git(repo.origin, 'rev-parse', `refs/heads/${BRANCH}`)).toBe(originBefore);
      expect(post.code).toBe(0);
      expect(post.stdout).toContain('the secret scan held its work back: kept for a person to look at');
    });

    it('with warn: the push goes, with the findings as warnings', async () => {
      const { main, post } = await run(`mkdir -p src && ${WRITE_GITHUB_TOKEN}`, { 'secret-scan': 'warn' });
      if (main.outputs.pushed !== 'true') process.stdout.write(main.stdout.slice(-4000));
      expect({ main: main.code, post: post.code }).toEqual({ main: 0, post: 0 });
      expect(main.outputs.pushed).toBe('true');
      expect(git(repo.origin, 'rev-parse', `refs/heads/${BRANCH}`)).toBe(
        git(repo.parent, 'rev-parse', BRANCH),
      );
      const warning = main.stdout.split('\n').find((l) => l.startsWith('::warning::Secret scan of the push'));
      expect(warning).toContain('src/token.js:1');
      expect(warning).toContain('secret-scan: warn lets it go on');
    });
  },
);
