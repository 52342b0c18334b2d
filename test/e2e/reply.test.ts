// The command's reply ($SANDBOX_REPLY_FILE) through the bundle, as the runner user: what a hostile command
// writes there (or plants there instead of a file) judged where it lands: the comment body the fake GitHub
// API received, the job summary, the output `reply` and the step's log as the runner reads it.
import { beforeAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runMainAndPost, runStep } from '../support/action.js';
import { bundleBot, MARKER } from '../support/bot-bundle.js';
import { runnerIds, TEST_IMAGE } from '../support/env.js';
import { countTag, HOSTILE_REPLY, renderedOutsideCode } from '../support/hostile-reply.js';
import { makeRepo, tempDir } from '../support/repo.js';
import { injectedCommands } from '../support/runner-log.js';
import { requireRootlessPodman } from '../support/rootless.js';
import { nodeRuntimes } from '../support/runtimes.js';
import { DOCKER, PODMAN_ROOTLESS } from '../support/storage.js';
import { issueCommentEvent } from '../support/webhooks.js';

const SECRET = 'wts-parent-secret-4f1d';
// The runtime GitHub runs the action with (runs.using: node24).
const node = nodeRuntimes().at(-1)!.execPath;

/** A shell word that writes `text` to $SANDBOX_REPLY_FILE byte for byte (no quoting to get wrong). */
function writeReply(text: string): string {
  return `printf %s ${Buffer.from(text).toString('base64')} | base64 -d > "$SANDBOX_REPLY_FILE"`;
}

/** The progress comment, rendered, with code taken away: what remains must be the action's own. */
/** HOSTILE_REPLY's two images, rendered: links, never images. */
const IMAGE_LINKS =
  'Images in the reply, not shown here: <a href="https://evil.example/pixel.png">image</a>, <a href="https://evil.example/p.png">pixel</a>.';

function ownStructure(body: string): string {
  expect(body.startsWith(`${MARKER}\n`)).toBe(true);
  return renderedOutsideCode(body.slice(MARKER.length));
}

describe('the command’s reply, pull-request bot (Docker, volume sandbox)', () => {
  const bot = bundleBot('reply');

  async function botRun(command: string, commentId: number, timeoutMs?: number) {
    const event = issueCommentEvent({
      body: '/fix',
      author: { login: 'alice', association: 'MEMBER' },
      commentId,
    });
    const inputs = { cleanup: 'always', command };
    const { main, post } = await runMainAndPost({
      ...bot.step('issue_comment', event, inputs),
      node,
      timeoutMs,
    });
    expect({ main: main.code, post: post.code, stderr: main.stderr }).toEqual({
      main: 0,
      post: 0,
      stderr: '',
    });
    const comments = bot.comments();
    expect(comments).toHaveLength(1);
    return { main, body: comments[0].body };
  }

  it('posts a hostile reply that pings nobody, breaks no structure, loads no image (each a link) and issues no command', async () => {
    const { main, body } = await botRun(`${writeReply(HOSTILE_REPLY)}; echo wts-last-log-line`, 9101);

    // The comment pings nobody; rendered, what lies outside code is the action's own: its one <details>
    // (the log's last lines, after the reply), no image, no HTML comment, nothing of the hostile lines.
    expect(body).not.toMatch(/@(wts-victim|octo-org\/|ghost)/);
    const html = ownStructure(body);
    expect(html).not.toMatch(/<img|<!--|wts-pwned|fake<\/summary>/);
    // Its images load nothing: each is a link, in the one line that lists them.
    expect(html.match(/evil\.example/g)).toHaveLength(2);
    expect(html).toContain(IMAGE_LINKS);
    expect(countTag(html, 'details')).toBe(1);
    expect(html).toContain('<summary>Last lines of the log</summary>');
    // The reply is there, under its heading, every mention broken.
    expect(body).toContain("**The command's reply**");
    expect(body).toContain('Fixed it. Thanks @\u200Dwts-victim, @\u200Docto-org/security-team');

    // The job summary: the same, under its own heading; the log obeys none of its lines.
    expect(main.summary).not.toMatch(/@(wts-victim|octo-org\/|ghost)/);
    const summary = renderedOutsideCode(main.summary);
    expect(summary).not.toMatch(/<img|<!--|<details|wts-pwned/);
    expect(summary.match(/evil\.example/g)).toHaveLength(2);
    expect(summary).toContain(IMAGE_LINKS);
    expect(injectedCommands(main.stdout, 'wts-pwned')).toEqual([]);
    expect(main.summary).toContain("### The command's reply");
    expect(main.stdout).toContain('wts-pwned-error');
    // The output carries the reply as the command wrote it.
    expect(main.outputs.reply).toBe(HOSTILE_REPLY);
  });

  it('does not follow a link to the parent’s files', async () => {
    // A file of the parent's .git, which the container cannot see (it is hidden): only the host could read it.
    const secret = path.join(bot.repos.parent, '.git', 'wts-secret');
    fs.writeFileSync(secret, SECRET, { mode: 0o644 });
    fs.chownSync(secret, runnerIds().uid, runnerIds().gid);
    const { main, body } = await botRun(`ln -s ${secret} "$SANDBOX_REPLY_FILE"`, 9102);
    for (const text of [body, main.summary, main.stdout, JSON.stringify(main.outputs)])
      expect(text).not.toContain(SECRET);
    expect(body).toContain('The reply file is a symbolic link: not followed, no reply.');
    expect(main.outputs.reply).toBe('');
  });

  it('neither waits on a FIFO nor reads it', async () => {
    const { main, body } = await botRun('mkfifo "$SANDBOX_REPLY_FILE"', 9103, 150_000);
    expect(body).toContain('The reply file is a FIFO, not a plain file: not read, no reply.');
    expect(main.stdout).toContain('::warning::The reply file is a FIFO');
  });

  it('reads 64 KiB of 10 MB, says the cut, and keeps the comment within GitHub’s limit', async () => {
    const { main, body } = await botRun(
      `head -c 10485760 /dev/zero | tr '\\0' y > "$SANDBOX_REPLY_FILE"`,
      9104,
    );
    expect(main.outputs.reply).toBe('y'.repeat(65_536));
    expect(main.summary.length).toBeLessThan(100_000);
    expect(body.length).toBeLessThan(65_536);
    const cut = 'The reply was cut: its file had 10,485,760 bytes, and only the first 65,536 were read.';
    expect(body).toContain(cut);
    expect(body).toContain('45,536 more characters are left out here');
    expect(main.summary).toContain(cut);
    expect(main.stdout).toContain(`::warning::${cut}`);
  });
});

// Docker, and the runner's own rootless Podman (keep-id: the folder the runner made is the command's to write).
describe.each([DOCKER, PODMAN_ROOTLESS])(
  'the command’s reply, run mode (disk sandbox, $label)',
  (storage) => {
    beforeAll(() => {
      if (storage.rootless) requireRootlessPodman();
    });
    it('is in the summary and the output, and its folder goes whatever the command left in it', async () => {
      const ids = runnerIds();
      const repo = makeRepo({ owner: ids });
      const root = path.join(repo.root, 'cache');
      fs.mkdirSync(root);
      fs.chownSync(root, ids.uid, ids.gid);
      const runnerTemp = tempDir('wts-reply-temp-');
      fs.chmodSync(runnerTemp, 0o777);
      try {
        const command = [
          writeReply(HOSTILE_REPLY),
          // Clutter the runner must still remove: a folder it may not enter, a FIFO, a link out.
          'd=$(dirname "$SANDBOX_REPLY_FILE")',
          'mkdir -p "$d/junk/deeper" && touch "$d/junk/deeper/f" && chmod 000 "$d/junk/deeper" "$d/junk"',
          'mkfifo "$d/fifo"; ln -s / "$d/root"',
          'test -z "$(git status --porcelain --untracked-files=all)" && echo wts-worktree-clean',
        ].join('; ');
        const main = await runStep({
          node,
          asRunner: true,
          rootlessPodman: storage.rootless,
          inputs: {
            mode: 'run',
            engine: storage.engine,
            image: TEST_IMAGE,
            isolation: 'disk',
            'repository-path': repo.parent,
            'worktree-root': root,
            cleanup: 'always',
            command,
          },
          env: { GITHUB_WORKSPACE: repo.parent, RUNNER_TEMP: runnerTemp },
        });
        expect({ code: main.code, stderr: main.stderr }).toEqual({ code: 0, stderr: '' });
        // Outside the sandbox: nothing to commit, nothing changed.
        expect(main.stdout).toMatch(/^wts-worktree-clean$/m);
        expect(main.outputs.changed).toBe('false');
        expect(main.summary).not.toMatch(/@(wts-victim|octo-org\/|ghost)/);
        const html = renderedOutsideCode(main.summary);
        expect(html).not.toMatch(/<img|<!--|wts-pwned/);
        expect(html.match(/evil\.example/g)).toHaveLength(2);
        expect(html).toContain(IMAGE_LINKS);
        expect(countTag(html, 'details')).toBe(0);
        expect(injectedCommands(main.stdout, 'wts-pwned')).toEqual([]);
        expect(main.outputs.reply).toBe(HOSTILE_REPLY);
        expect(main.summary).toContain("### The command's reply");
        // The reply folder is gone (RUNNER_TEMP/worktree-sandbox keeps nothing of it).
        const left = fs.readdirSync(path.join(runnerTemp, 'worktree-sandbox'));
        expect(left.filter((n) => n.startsWith('reply-'))).toEqual([]);
      } finally {
        fs.rmSync(runnerTemp, { recursive: true, force: true });
        fs.rmSync(repo.root, { recursive: true, force: true });
      }
    });
  },
);
