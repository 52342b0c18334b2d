// Untrusted text cannot leave its block under GitHub's renderer (docs/security-model.md, "What comes back";
// ADR 0012). cmark-gfm takes at most 255 backticks as a fence and makes no code span longer than 80, so a
// fence "longer than any in the text" or a code span was closed from inside: by a reply line, a log line
// or a patch line of 255 backticks, or a commit subject of 81. Each attack runs through the bundle as the
// runner runs it, against the fake GitHub API; the comment body it received and the job summary are
// rendered with cmark-gfm as GitHub runs it, and what is left must be the action's own: its headings,
// details blocks, links and one mention, no image, no HTML comment but its marker, no ping.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import { runMainAndPost } from '../support/action.js';
import { decodedText, expectOwnStructure, outsidePre, renderGfm, tagCount } from '../support/cmark.js';
import { removeVolumes, uniquePrefix } from '../support/docker.js';
import { runnerIds, TEST_IMAGE } from '../support/env.js';
import { FakeGitHub } from '../support/fake-github.js';
import { makePullRequestRepos, type PullRequestRepos } from '../support/pull-requests.js';
import { makeRepo, tempDir } from '../support/repo.js';
import { nodeRuntimes } from '../support/runtimes.js';
import { issueCommentEvent, REPO, writeEvent } from '../support/webhooks.js';

const TOKEN = 'ghs_renderFakeToken0123456789abcdef';
const FULL = `${REPO.owner}/${REPO.name}`;
const MARKER = '<!-- worktree-sandbox:progress -->';
const node = nodeRuntimes().at(-1)!.execPath;
const ticks = (n: number) => '`'.repeat(n);
const B255 = ticks(255);
/** What a closed block lets through: an outside image, a comment that hides the rest, a stray end, pings. */
const MARKUP = [
  '![x](https://evil.example/x.png)',
  '<!-- hides the rest',
  '</details>',
  '@someone and @org/team',
];

/** A command that runs `script` (base64, so that no quoting of it can go wrong). */
const shell = (script: string) => `echo ${Buffer.from(script).toString('base64')} | base64 -d | sh`;
const writeFile = (text: string, file: string) =>
  `printf %s ${Buffer.from(text).toString('base64')} | base64 -d > ${file}`;

/**
 * `markdown` rendered by cmark-gfm holds the action's own structure and nothing else: exactly the details
 * blocks it wrote (by their summaries), its marker, its one mention, its links, no image; no link to an
 * outside host but in the one line that lists the reply's images as links.
 */
function judge(
  markdown: string,
  own: { summaries: string[]; headings: number; links?: number; marker?: boolean; mentions?: string[] },
): string {
  const html = renderGfm(markdown);
  expectOwnStructure(html, {
    details: own.summaries.length,
    headings: own.headings,
    links: own.links,
    comments: own.marker ? 1 : 0,
    mentions: own.mentions ?? [],
  });
  expect([...html.matchAll(/<summary>(.*?)<\/summary>/g)].map((m) => m[1])).toEqual(own.summaries);
  const outside = outsidePre(html).replace(/<p>Images in the reply, not shown here: .*<\/p>/, '');
  // Outside hosts only as text (an inline subject is inert text), never in an attribute.
  expect(outside).not.toMatch(/="[^"]*evil\.example/);
  return html;
}

describe('untrusted text under cmark-gfm, through the bundle (pull-request bot)', () => {
  let fake: FakeGitHub;
  let repos: PullRequestRepos;
  let events: string;
  let prefix: string;

  beforeEach(async () => {
    fake = await FakeGitHub.start(FULL, TOKEN);
    repos = makePullRequestRepos({ owner: runnerIds() });
    events = tempDir('wts-event-');
    prefix = uniquePrefix('render');
    fake.pulls.set(repos.number, {
      number: repos.number,
      state: 'open',
      headRef: repos.branch,
      headSha: repos.headSha,
      headRepo: FULL,
    });
    // A fork whose author allows no edits: its run's work becomes a patch, shown inline.
    fake.pulls.set(repos.forkNumber, {
      number: repos.forkNumber,
      state: 'open',
      headRef: 'main',
      headSha: repos.forkHeadSha,
      headRepo: 'someone/hello-world',
      headCloneUrl: repos.fork,
      maintainerCanModify: false,
    });
    fake.permissions.set('alice', { permission: 'write', role_name: 'maintain' });
  });

  afterEach(async () => {
    await fake.close();
    removeVolumes(prefix);
    fs.rmSync(repos.root, { recursive: true, force: true });
    fs.rmSync(events, { recursive: true, force: true });
  });

  async function botRun(command: string, number: number, commentId: number) {
    const event = issueCommentEvent({
      body: '/fix',
      author: { login: 'alice', association: 'MEMBER' },
      number,
      commentId,
    });
    const { main, post } = await runMainAndPost({
      node,
      asRunner: true,
      inputs: {
        image: TEST_IMAGE,
        'repository-path': repos.parent,
        'volume-prefix': prefix,
        trigger: '/fix',
        token: TOKEN,
        push: 'true',
        cleanup: 'always',
        command,
      },
      env: {
        GITHUB_EVENT_NAME: 'issue_comment',
        GITHUB_EVENT_PATH: writeEvent(events, event),
        GITHUB_REPOSITORY: FULL,
        GITHUB_API_URL: fake.url,
        GITHUB_SERVER_URL: 'https://ghes.example',
        GITHUB_RUN_ID: '99',
        GITHUB_WORKSPACE: repos.parent,
      },
    });
    expect({ main: main.code, post: post.code, stderr: main.stderr }).toEqual({
      main: 0,
      post: 0,
      stderr: '',
    });
    const comments = [...fake.comments.values()];
    if (process.env.WTS_RENDER_DUMP)
      fs.writeFileSync(`${process.env.WTS_RENDER_DUMP}-${commentId}.md`, comments[0]?.body ?? '');
    expect(comments).toHaveLength(1);
    const body = comments[0].body;
    expect(body.startsWith(`${MARKER}\n`)).toBe(true);
    expect(body.length).toBeLessThan(65_536);
    return { main, body };
  }

  it('a reply and a log tail with a line of 255 backticks, and a subject of 81, stay in their blocks', async () => {
    const subject = `${ticks(81)} ${MARKUP.join(' ')} ${ticks(81)}`;
    const script = [
      writeFile([B255, ...MARKUP, B255].join('\n'), '"$SANDBOX_REPLY_FILE"'),
      'echo x > a.txt && git add -A',
      `git commit -qm "$(printf %s ${Buffer.from(subject).toString('base64')} | base64 -d)"`,
      `printf '%s\\n' '${B255}' '@org/team and @user' '</details>' '<!-- hides the rest' '![y](https://evil.example/y.png)'`,
    ].join('\n');
    const { main, body } = await botRun(shell(script), repos.number, 9301);

    // The comment: its heading, table, reply, commit list, Files changed, the log; the run link, the
    // pushed commit's link and the reply's one image as a link; the one mention is the requester's.
    const html = judge(body, {
      summaries: ['Files changed', 'Last lines of the log'],
      headings: 1,
      links: 3,
      marker: true,
      mentions: ['@alice'],
    });
    expect(html).toContain("<strong>The command's reply</strong>");
    expect(html).toContain('not shown here: <a href="https://evil.example/x.png">x</a>.');
    expect(tagCount(html, 'pre')).toBe(3);
    expect(html).toMatch(/<li><a href="[^"]+">.*<\/a> <code>`{81} !\[x\]/);

    // The job summary: the run's table, the reply, the diff stat, the bot's lines.
    judge(main.summary, { summaries: ['Diff stat'], headings: 3, mentions: ['@alice'] });
  });

  it("a fork's inline patch whose commit message has a line of 255 backticks stays in its block", async () => {
    const message = ['feat: a plain subject', '', B255, ...MARKUP, B255].join('\n');
    const script = [
      "echo '// more' >> src/app.js && git add -A",
      `git commit -qm "$(printf %s ${Buffer.from(message).toString('base64')} | base64 -d)"`,
    ].join('\n');
    const { main, body } = await botRun(shell(script), repos.forkNumber, 9302);
    expect(main.outputs['patch-path']).toMatch(/\.patch$/);
    const html = judge(body, {
      summaries: ['Files changed', 'Patch (apply with <code>git am</code>)'],
      headings: 1,
      links: 1,
      marker: true,
      mentions: ['@alice'],
    });
    expect(html).toMatch(/<pre lang="diff">\n[\s\S]*`{255}\n!\[x\]/);
    judge(main.summary, { summaries: ['Diff stat'], headings: 2, mentions: ['@alice'] });
  });

  it('70,000 backticks of reply leave the comment whole: Files changed, the log and the cut notes', async () => {
    const script = [
      writeFile(ticks(70_000), '"$SANDBOX_REPLY_FILE"'),
      'echo x > b.txt && git add -A && git commit -qm "plain"',
      'echo wts-last-log-line',
    ].join('\n');
    const { main, body } = await botRun(shell(script), repos.number, 9303);
    const cut = 'The reply was cut: its file had 70,000 bytes, and only the first 65,536 were read.';
    const html = judge(body, {
      summaries: ['Files changed', 'Last lines of the log'],
      headings: 1,
      links: 2,
      marker: true,
      mentions: ['@alice'],
    });
    const outside = outsidePre(html);
    expect(outside).toContain(cut);
    expect(outside).toMatch(/more characters are left out here/);
    expect(html).toMatch(/<pre>\nwts-last-log-line\n<\/pre>/);
    const summary = judge(main.summary, { summaries: ['Diff stat'], headings: 3, mentions: ['@alice'] });
    expect(outsidePre(summary)).toContain(cut);
  });
});

describe("the run's job summary, through the bundle (run mode)", () => {
  // A branch name is whoever pushed it's text: git allows `|`, `<`, `>`, `` ` `` and `@` in one. The
  // run's table names the parent's branch in a row's key as well as in its value.
  it("a branch named as markup stays text in the parent's row: no image, no cell of its own", async () => {
    const repo = makeRepo({ owner: runnerIds() });
    const prefix = uniquePrefix('render-run');
    const branch = 'bot/a|b<img/src=https.evil.example/x.png>`@someone';
    const root = fs.mkdtempSync(`${repo.root}/wt-`);
    fs.chownSync(root, runnerIds().uid, runnerIds().gid);
    try {
      const { main } = await runMainAndPost({
        node,
        asRunner: true,
        inputs: {
          mode: 'run',
          image: TEST_IMAGE,
          isolation: 'disk',
          branch,
          'repository-path': repo.parent,
          'worktree-root': root,
          'volume-prefix': prefix,
          cleanup: 'always',
          command: 'echo fixed >> README.md && git commit -qam fix',
        },
        env: { GITHUB_WORKSPACE: repo.parent },
      });
      expect({ code: main.code, stderr: main.stderr }).toEqual({ code: 0, stderr: '' });
      const html = renderGfm(main.summary);
      expectOwnStructure(html, { headings: 1, details: 1, mentions: [] });
      const row = /<tr>\n<td>Parent's (.*)<\/td>\n<td>(.*)<\/td>\n<\/tr>/.exec(html);
      expect(row).not.toBeNull();
      // The whole name in the key's one cell, as characters (the renderer's entities read back).
      expect(
        decodedText(row![1])
          .replace(/\u200b/g, '')
          .replace(/@\u200d/g, '@'),
      ).toBe(branch);
    } finally {
      removeVolumes(prefix);
      fs.rmSync(repo.root, { recursive: true, force: true });
    }
  });
});
