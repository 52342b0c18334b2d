// The bundle (dist/index.js) as the runner runs it, as the runner user, for a /fix on a line of a pull
// request's diff whose path and hunk are hostile: they reach the command through $SANDBOX_CONTEXT_FILE
// byte for byte, and nothing of them reaches the step's stdout (where the runner obeys workflow commands),
// the job summary or GitHub. Main then post, as on a runner.
import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import { runMainAndPost } from '../support/action.js';
import { bundleBot } from '../support/bot-bundle.js';
import { reviewCommentEvent } from '../support/webhooks.js';

const HOSTILE_PATH = 'docs/`$(touch /tmp/wts-e2e-rc-pwned)`\n::error::path @admin </details>.md';
const HOSTILE_HUNK = '@@ -1 +1 @@\r\n::error::hunk\n-$(id) `x` @octocat </details>';

const bot = bundleBot('rcbot');

describe('the bundle on a pull_request_review_comment event', () => {
  it('gives the command the hostile path and hunk as data only, and answers in the review thread', async () => {
    const payload = reviewCommentEvent({
      body: '/fix rename it',
      author: { login: 'alice', association: 'MEMBER' },
      commentId: 4100,
      path: HOSTILE_PATH,
      line: 1,
      diffHunk: HOSTILE_HUNK,
    });
    bot.fake.reviewComments.set(4100, {
      id: 4100,
      issue: 7,
      body: '/fix rename it',
      history: [],
      author: 'alice',
    });
    const inputs = {
      command: 'cp "$SANDBOX_CONTEXT_FILE" context-seen.json',
      push: 'true',
      cleanup: 'always',
    };
    const { main, post } = await runMainAndPost(bot.step('pull_request_review_comment', payload, inputs));
    expect({ main: main.code, post: post.code }).toEqual({ main: 0, post: 0 });

    const seen = JSON.parse(bot.show('context-seen.json')) as { path: string; diff_hunk: string };
    expect(seen.path).toBe(HOSTILE_PATH);
    expect(seen.diff_hunk).toBe(HOSTILE_HUNK);
    expect(fs.existsSync('/tmp/wts-e2e-rc-pwned')).toBe(false);

    const reply = [...bot.fake.reviewComments.values()].find((c) => c.inReplyTo === 4100)!;
    expect(reply.body).toContain('✅ `/fix` finished');
    expect(bot.fake.reviewReactions.map((r) => r.content)).toEqual(['eyes', 'rocket']);
    const everything = [main.stdout, main.stderr, post.stdout, main.summary, JSON.stringify(bot.fake.calls)];
    for (const text of everything) {
      expect(text).not.toMatch(/^::error::(path|hunk)/m);
      expect(text).not.toContain('wts-e2e-rc-pwned');
      expect(text).not.toContain('</details>.md');
    }
  });
});
