// The bundle (dist/index.js) as the runner runs it, as the unprivileged runner user, for a comment on a
// pull request: GITHUB_EVENT_PATH points at a real webhook payload, GITHUB_API_URL at a fake GitHub
// Enterprise Server on 127.0.0.1, origin is a real bare repository.
import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import { runMainAndPost } from '../support/action.js';
import { bundleBot, FULL, TOKEN } from '../support/bot-bundle.js';
import { docker, volumesWithPrefix } from '../support/docker.js';
import { refOf } from '../support/pull-requests.js';
import { git } from '../support/repo.js';
import { issueCommentEvent } from '../support/webhooks.js';
import { nodeRuntimes } from '../support/runtimes.js';

// Everything a shell would act on: command substitution, backticks, quotes, separators, variables,
// a here-document marker, and newlines.
const HOSTILE_ARGS = [
  '$(touch /tmp/wts-pwned-subst) `touch wts-pwned-backtick` "double $HOME" \'single\'; touch wts-pwned-semi && echo hi | cat',
  'second line: ${PATH} \\backslash %s %n <<EOF > /dev/null',
  'EOF\n\'unbalanced "quotes',
].join('\n');

const bot = bundleBot('prbot');

function stepFor(body: string, commentId: number, inputs: Record<string, string>) {
  const event = issueCommentEvent({ body, author: { login: 'alice', association: 'MEMBER' }, commentId });
  return bot.step('issue_comment', event, inputs);
}

// Each suite once per Node.js runtime (test/support/runtimes.ts): the name says which ran.
describe.each(nodeRuntimes())('$name', ({ execPath }) => {
  describe('the bundle on an issue_comment event', () => {
    it('hands a hostile comment to the command verbatim as data, pushes, and reports on the pull request', async () => {
      const command = 'cp "$SANDBOX_PROMPT_FILE" prompt-seen.txt && env | sort';
      const { main, post } = await runMainAndPost({
        ...stepFor(`/fix ${HOSTILE_ARGS}\n`, 4321, { command, push: 'true', cleanup: 'always' }),
        node: execPath,
      });
      expect({ main: main.code, post: post.code }).toEqual({ main: 0, post: 0 });

      expect(main.outputs.triggered).toBe('true');
      expect(main.outputs['pr-number']).toBe('7');
      expect(main.outputs['comment-id']).toBe('4321');
      expect(main.outputs.args).toBe(HOSTILE_ARGS);
      expect(main.outputs.pushed).toBe('true');

      // What the command received is exactly the comment's text, and nothing in it ran.
      const pushed = refOf(bot.repos.origin, `refs/heads/${bot.repos.branch}`);
      expect(pushed).toBe(main.outputs['head-sha']);
      expect(git(bot.repos.origin, '-c', 'safe.directory=*', 'show', `${pushed}:prompt-seen.txt`)).toBe(
        HOSTILE_ARGS,
      );
      const files = git(bot.repos.origin, '-c', 'safe.directory=*', 'ls-tree', '-r', '--name-only', pushed);
      expect(files).not.toMatch(/wts-pwned/);
      expect(fs.existsSync('/tmp/wts-pwned-subst')).toBe(false);

      // The API calls went to the Enterprise Server root, with the token; the token never reached the container.
      expect(bot.fake.calls.every((c) => c.authorization === `token ${TOKEN}`)).toBe(true);
      const comment = bot.comments()[0];
      expect(comment.history).toHaveLength(2);
      expect(comment.body).toContain('✅ `/fix` finished');
      expect(comment.body).toContain(`https://ghes.example/${FULL}/commit/${pushed}`);
      expect(comment.body).toContain('SANDBOX_PROMPT_FILE=');
      expect(comment.body).not.toContain(TOKEN);
      expect(comment.body).not.toContain('GITHUB_API_URL');
      expect(bot.fake.reactions.map((r) => r.content)).toEqual(['eyes', 'rocket']);
      expect(main.summary).toContain('## worktree-sandbox: pull request #7');
      expect(main.summary).toContain('## worktree-sandbox: run');

      // cleanup: always, and the work is pushed: the volume is gone.
      expect(volumesWithPrefix(bot.prefix)).toEqual([]);
    });

    it('reaches the API through an HTTP proxy (undici, loaded on demand, builds the proxy agent)', async () => {
      // A forward proxy that tunnels CONNECT to the fake server: the API host resolves nowhere else.
      const connects: string[] = [];
      const proxy = http.createServer((_req, res) => res.writeHead(405).end());
      proxy.on('connect', (req: http.IncomingMessage, client: net.Socket) => {
        connects.push(req.url ?? '');
        const upstream = net.connect(Number(new URL(bot.fake.url).port), '127.0.0.1', () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          upstream.pipe(client);
          client.pipe(upstream);
        });
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      try {
        const proxyUrl = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
        const apiUrl = bot.fake.url.replace('127.0.0.1', 'fake-github.invalid');
        const step = stepFor('/fix', 2468, { command: 'true', cleanup: 'always' });
        const { main, post } = await runMainAndPost({
          ...step,
          env: { ...step.env, GITHUB_API_URL: apiUrl, http_proxy: proxyUrl, HTTP_PROXY: proxyUrl },
          node: execPath,
        });
        expect({
          main: main.code,
          post: post.code,
          stderr: main.stderr,
          errors: main.stdout.match(/::error::.*/g),
        }).toEqual({
          errors: null,
          main: 0,
          post: 0,
          stderr: '',
        });
        expect(connects.length).toBeGreaterThan(0);
        expect(new Set(connects)).toEqual(new Set([new URL(apiUrl).host]));
        expect(bot.comments()[0].body).toContain('✅ `/fix` finished');
        expect(bot.fake.reactions.map((r) => r.content)).toEqual(['eyes', 'rocket']);
      } finally {
        proxy.close();
      }
    });

    it('finishes the progress comment in post when the job is cancelled mid-run', async () => {
      // The marker is computed, so that the log group title (the command itself) does not match it.
      const command = 'echo "wts-long-work-$((40 + 2))"; sleep 120';
      const { main, post } = await runMainAndPost({
        ...stepFor('/fix', 5678, { command }),
        node: execPath,
        killWhen: /wts-long-work-42/,
      });
      expect(main.signal).toBe('SIGKILL');
      expect(post.code).toBe(0);

      const comment = bot.comments()[0];
      expect(comment.history).toHaveLength(2);
      expect(comment.history[0]).toContain('⏳ `/fix` is running');
      expect(comment.body).toContain('🛑 `/fix` stopped before it finished');
      expect(bot.fake.reactions.map((r) => r.content)).toEqual(['eyes', 'confused']);
      expect(bot.fake.log.slice(-2)).toEqual([
        `PATCH /repos/${FULL}/issues/comments/${comment.id}`,
        `POST /repos/${FULL}/issues/comments/5678/reactions`,
      ]);
      // Post also stopped the container the killed main step left running.
      const state = JSON.parse(main.state.run) as { container?: string };
      expect(state.container).toBeTruthy();
      expect(docker('ps', '--all', '--filter', `name=^${state.container}$`, '--format', '{{.Names}}')).toBe(
        '',
      );
      expect(post.stdout).toContain(`Removed container ${state.container}`);
    });
  });
});
