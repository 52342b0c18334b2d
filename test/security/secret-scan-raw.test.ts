// Secrets that `git log -p` does not show as stored, pushed for real through the bundle as the runner runs
// it (uid 1001, Docker): the command commits a known secret (an `env` secret, a `credentials` value, a key
// format secretlint knows) into an author or committer, an extra header, a `gpgsig` block, a message whose
// `encoding` header makes git log re-encode the bytes into other characters, a file name, a folder name.
// Each object is one that the import's `transfer.fsckObjects` accepts (this suite would fail otherwise:
// the push would be refused for another reason, and the scan's message would be missing). Judged on the
// host: origin does not hold the commit, and the step's error names the place and the rule, never the
// value. A fork's patch holding such a commit is not saved, and the job summary says why.
import { afterAll, beforeEach, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runMainAndPost } from '../support/action.js';
import { removeVolumes, uniquePrefix } from '../support/docker.js';
import { runnerIds, TEST_IMAGE } from '../support/env.js';
import { FakeGitHub } from '../support/fake-github.js';
import { makePullRequestRepos } from '../support/pull-requests.js';
import { chownTree, git, makeRepo, tempDir, tryGit, type TestRepo } from '../support/repo.js';
import { issueCommentEvent, REPO, writeEvent } from '../support/webhooks.js';

const DEPLOY_KEY = 'deploy-key-raw-9876543210';
// Pairs of characters that ISO-2022-JP (after ESC $ B) reads as eight JIS X 0208 kanji, all defined: git
// log re-encodes the message into those kanji, and the value is gone from what it shows.
const JIS_TOKEN = '4B3k5x9mAzCq7pDw';
const CREDENTIAL = 'cred-raw-0123456789abcdef';
const BRANCH = 'bot/raw';
const TOKEN = 'ghs_rawScanFakeToken0123456789abcd';

// The command's shell puts the values together: the command line in the log holds none.
const CRED_SHELL = `K=cred-raw-; K="\${K}0123456789abcdef"`;
const GITHUB_TOKEN_SHELL = `T=$(printf '%s_%s' ghp wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx)`;
const GITHUB_TOKEN_TAIL = 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx';
const IDENTITY =
  'export GIT_AUTHOR_NAME=bot GIT_AUTHOR_EMAIL=bot@example.com GIT_COMMITTER_NAME=bot GIT_COMMITTER_EMAIL=bot@example.com';

/** A commit object written by hand (headers, then `body`, a printf format) on top of HEAD, on the branch. */
function handMade(headers: string, body: string): string {
  return [
    IDENTITY,
    'echo work > work.txt && git add work.txt && tree=$(git write-tree) && parent=$(git rev-parse HEAD)',
    `c=$( { printf 'tree %s\\nparent %s\\nauthor bot <bot@example.com> 1700000000 +0000\\ncommitter bot <bot@example.com> 1700000000 +0000\\n' "$tree" "$parent"; ${headers}; printf '\\n'; ${body}; } | git hash-object -t commit -w --literally --stdin)`,
    'git update-ref HEAD "$c" && git reset --quiet --hard HEAD',
  ].join(' && ');
}

const plainCommit = (setup: string, env = '') =>
  `${IDENTITY} && ${setup} && git add -A && ${env} git commit --quiet -m work`;

const CASES: Array<{ name: string; command: string; where: RegExp; rule: string; value: string }> = [
  {
    name: 'an author name',
    command: plainCommit('echo a > a.txt', 'GIT_AUTHOR_NAME="Dev $DEPLOY_KEY"'),
    where: /author of [0-9a-f]{12}/,
    rule: 'env DEPLOY_KEY',
    value: DEPLOY_KEY,
  },
  {
    name: 'an author e-mail',
    command: plainCommit('echo a > a.txt', 'GIT_AUTHOR_EMAIL="$DEPLOY_KEY@example.com"'),
    where: /author of [0-9a-f]{12}/,
    rule: 'env DEPLOY_KEY',
    value: DEPLOY_KEY,
  },
  {
    name: 'a committer name (a credentials value)',
    command: `${CRED_SHELL} && ${plainCommit('echo a > a.txt', 'GIT_COMMITTER_NAME="$K"')}`,
    where: /committer of [0-9a-f]{12}/,
    rule: 'credentials for api.example.com',
    value: CREDENTIAL,
  },
  {
    name: 'a committer e-mail (a GitHub token, found by secretlint)',
    command: `${GITHUB_TOKEN_SHELL} && ${plainCommit('echo a > a.txt', 'GIT_COMMITTER_EMAIL="$T@example.com"')}`,
    where: /committer of [0-9a-f]{12}/,
    rule: '@secretlint/secretlint-rule-github (GITHUB_TOKEN)',
    value: GITHUB_TOKEN_TAIL,
  },
  {
    name: 'an extra header',
    command: handMade(`printf 'x-build-id %s\\n' "$DEPLOY_KEY"`, `printf 'add work\\n'`),
    where: /an extra header of [0-9a-f]{12}, line 1/,
    rule: 'env DEPLOY_KEY',
    value: DEPLOY_KEY,
  },
  {
    name: 'a gpgsig block',
    command: handMade(
      `printf 'gpgsig -----BEGIN PGP SIGNATURE-----\\n \\n %s\\n -----END PGP SIGNATURE-----\\n' "$DEPLOY_KEY"`,
      `printf 'signed work\\n'`,
    ),
    where: /header gpgsig of [0-9a-f]{12}, line 3/,
    rule: 'env DEPLOY_KEY',
    value: DEPLOY_KEY,
  },
  {
    name: 'a message in ISO-2022-JP whose raw bytes hold the value',
    command: handMade(`printf 'encoding ISO-2022-JP\\n'`, `printf '\\033$B%s\\033(B\\n' "$JIS_TOKEN"`),
    where: /message of [0-9a-f]{12}, line 1/,
    rule: 'env JIS_TOKEN',
    value: JIS_TOKEN,
  },
  {
    name: 'a message in UTF-16 whose raw bytes hold the value',
    command: handMade(`printf 'encoding UTF-16\\n'`, `printf '%s\\n' "$DEPLOY_KEY"`),
    where: /message of [0-9a-f]{12}, line 1/,
    rule: 'env DEPLOY_KEY',
    value: DEPLOY_KEY,
  },
  {
    name: 'a file name',
    command: plainCommit('echo x > "notes-$DEPLOY_KEY.txt"'),
    where: /path name in [0-9a-f]{12}/,
    rule: 'env DEPLOY_KEY',
    value: DEPLOY_KEY,
  },
  {
    name: 'a folder name',
    command: plainCommit('mkdir "cfg-$DEPLOY_KEY" && : > "cfg-$DEPLOY_KEY/empty"'),
    where: /path name in [0-9a-f]{12}/,
    rule: 'env DEPLOY_KEY',
    value: DEPLOY_KEY,
  },
];

const roots: string[] = [];
const prefixes: string[] = [];
afterAll(() => {
  for (const p of prefixes) removeVolumes(p);
  for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
});

describe('the secret scan reads commits as git stores them, through the bundle, as uid 1001', () => {
  let repo: TestRepo;
  let prefix: string;
  let originBefore: string;
  beforeEach(() => {
    repo = makeRepo({ owner: runnerIds() });
    roots.push(repo.root);
    prefix = uniquePrefix('rawscan');
    prefixes.push(prefix);
    originBefore = git(repo.origin, 'rev-parse', 'refs/heads/main');
    git(repo.origin, 'update-ref', `refs/heads/${BRANCH}`, originBefore);
    git(repo.parent, 'update-ref', `refs/remotes/origin/${BRANCH}`, originBefore);
    chownTree(repo.root, runnerIds());
  });

  it.each(CASES)('blocks a secret in $name: origin does not hold the commit', async (c) => {
    const { main, post } = await runMainAndPost({
      asRunner: true,
      inputs: {
        image: TEST_IMAGE,
        'repository-path': repo.parent,
        'volume-prefix': prefix,
        branch: BRANCH,
        push: 'true',
        cleanup: 'always',
        'secret-scan': 'block',
        env: `DEPLOY_KEY=${DEPLOY_KEY}\nJIS_TOKEN=${JIS_TOKEN}`,
        network: 'api.example.com',
        credentials: `api.example.com X-Key: ${CREDENTIAL}`,
        command: c.command,
      },
      env: { GITHUB_WORKSPACE: repo.parent },
    });
    const error = main.stdout.split('\n').find((l) => l.startsWith('::error::Secret scan of the push'));
    if (!error) process.stdout.write(main.stdout.slice(-4000));
    expect(main.code).toBe(1);
    // The commit reached the parent through the import (fsck accepted it), and went no further.
    const head = git(repo.parent, 'rev-parse', BRANCH);
    expect(head).not.toBe(originBefore);
    expect(git(repo.origin, 'rev-parse', `refs/heads/${BRANCH}`)).toBe(originBefore);
    expect(tryGit(repo.origin, '-c', 'safe.directory=*', 'cat-file', '-e', head).ok).toBe(false);
    expect(error).toMatch(c.where);
    expect(error).toContain(c.rule);
    expect(error).toContain('Nothing of it left (secret-scan: block)');
    expect(error).not.toContain(c.value);
    expect(post.stdout).toContain('the secret scan held its work back');
  });
});

describe("a fork's patch holding a secret in its author is not saved (secret-scan: block)", () => {
  it('writes no patch file, sets no patch-path, and the job summary says why', async () => {
    const full = `${REPO.owner}/${REPO.name}`;
    const fake = await FakeGitHub.start(full, TOKEN);
    const repos = makePullRequestRepos({ owner: runnerIds() });
    roots.push(repos.root);
    const events = tempDir('wts-event-');
    const runnerTemp = tempDir('wts-temp-');
    roots.push(events, runnerTemp);
    fs.chmodSync(runnerTemp, 0o777);
    const prefix = uniquePrefix('rawfork');
    prefixes.push(prefix);
    fake.pulls.set(repos.forkNumber, {
      number: repos.forkNumber,
      state: 'open',
      headRef: 'main',
      headSha: repos.forkHeadSha,
      headRepo: 'someone/hello-world',
      headCloneUrl: repos.fork,
      maintainerCanModify: true,
    });
    fake.pushAccess.set('someone/hello-world', false);
    fake.permissions.set('alice', { permission: 'write', role_name: 'write' });
    const event = issueCommentEvent({
      body: '/fix',
      author: { login: 'alice', association: 'MEMBER' },
      number: repos.forkNumber,
      commentId: 4040,
    });
    try {
      const { main } = await runMainAndPost({
        asRunner: true,
        inputs: {
          image: TEST_IMAGE,
          'repository-path': repos.parent,
          'volume-prefix': prefix,
          trigger: '/fix',
          token: TOKEN,
          push: 'true',
          cleanup: 'always',
          'secret-scan': 'block',
          env: `DEPLOY_KEY=${DEPLOY_KEY}`,
          command: plainCommit("printf '// reviewed\\n' >> src/app.js", 'GIT_AUTHOR_NAME="$DEPLOY_KEY"'),
        },
        env: {
          GITHUB_EVENT_NAME: 'issue_comment',
          GITHUB_EVENT_PATH: writeEvent(events, event),
          GITHUB_REPOSITORY: full,
          GITHUB_API_URL: fake.url,
          GITHUB_SERVER_URL: 'https://ghes.example',
          GITHUB_RUN_ID: '40',
          GITHUB_WORKSPACE: repos.parent,
          RUNNER_TEMP: runnerTemp,
        },
      });
      if (main.code !== 1) process.stdout.write(main.stdout.slice(-4000));
      expect(main.code).toBe(1);
      const error = main.stdout.split('\n').find((l) => l.startsWith('::error::Secret scan of the patch'));
      expect(error).toMatch(/author of [0-9a-f]{12}: env DEPLOY_KEY/);
      expect(main.outputs['patch-path']).toBeUndefined();
      const saved = path.join(runnerTemp, 'worktree-sandbox');
      const patches = fs.existsSync(saved) ? fs.readdirSync(saved).filter((f) => f.endsWith('.patch')) : [];
      expect(patches).toEqual([]);
      expect(main.summary).toContain('no patch saved: the secret scan found 1 finding(s)');
      const comment = [...fake.comments.values()][0];
      expect(comment.body).toContain('Secret scan of the patch');
      expect(comment.body).not.toContain(DEPLOY_KEY);
      expect(comment.body).not.toContain('<pre lang="diff">');
    } finally {
      await fake.close();
    }
  });
});
