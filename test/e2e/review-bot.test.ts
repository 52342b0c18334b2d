// The bundle (dist/index.js) as the runner runs it, as the runner user, for a review submitted with /fix
// whose body and comment (path, hunk, body) are hostile: they reach the command through
// $SANDBOX_CONTEXT_FILE and $SANDBOX_PROMPT_FILE byte for byte, and nothing of them reaches the step's
// stdout (where the runner obeys workflow commands), the job summary or GitHub. Main then post, as on a runner.
import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import { runMainAndPost } from '../support/action.js';
import { KEEP_WHAT_IT_SAW } from '../support/bot.js';
import { bundleBot } from '../support/bot-bundle.js';
import { reviewEvent } from '../support/webhooks.js';

const HOSTILE_ARGS = 'rename `x` $(touch /tmp/wts-e2e-rv-pwned)\n::error::args @admin </details>';
const HOSTILE_PATH = 'docs/`$(touch /tmp/wts-e2e-rv-pwned)`\n::error::path @admin </details>.md';
const HOSTILE_HUNK = '@@ -1 +1 @@\r\n::error::hunk\n-$(id) `x` @octocat </details>';
const HOSTILE_BODY = '::error::comment\r\n$(touch /tmp/wts-e2e-rv-pwned) @octocat </details>';

const bot = bundleBot('rvbot');

describe('the bundle on a pull_request_review event', () => {
  it('gives the command the hostile body and comment as data only, and reports on the pull request', async () => {
    bot.fake.reviewComments.set(4200, {
      id: 4200,
      issue: 7,
      body: HOSTILE_BODY,
      history: [],
      author: 'alice',
      reviewId: 420,
      path: HOSTILE_PATH,
      line: 1,
      diffHunk: HOSTILE_HUNK,
    });
    const payload = reviewEvent({
      body: `/fix ${HOSTILE_ARGS}`,
      author: { login: 'alice', association: 'MEMBER' },
      reviewId: 420,
      state: 'changes_requested',
    });
    const inputs = { command: KEEP_WHAT_IT_SAW, push: 'true', cleanup: 'always' };
    const { main, post } = await runMainAndPost(bot.step('pull_request_review', payload, inputs));
    expect({ main: main.code, post: post.code }).toEqual({ main: 0, post: 0 });

    const seen = JSON.parse(bot.show('context-seen.json')) as {
      body: string;
      state: string;
      comments: Array<{ path: string; diff_hunk: string; body: string }>;
    };
    expect(seen.body).toBe(`/fix ${HOSTILE_ARGS}`);
    expect(seen.state).toBe('changes_requested');
    expect(seen.comments).toMatchObject([
      { path: HOSTILE_PATH, diff_hunk: HOSTILE_HUNK, body: HOSTILE_BODY },
    ]);
    expect(bot.show('prompt-seen.txt')).toBe(HOSTILE_ARGS);
    expect(fs.existsSync('/tmp/wts-e2e-rv-pwned')).toBe(false);

    const progress = bot.comments();
    expect(progress).toHaveLength(1);
    expect(progress[0].body).toContain('✅ `/fix` finished');
    expect(bot.fake.reactions).toEqual([]);
    expect(bot.fake.reviewReactions).toEqual([]);
    const everything = [main.stdout, main.stderr, post.stdout, main.summary, JSON.stringify(bot.fake.calls)];
    for (const text of everything) {
      expect(text).not.toMatch(/^::error::(args|path|hunk|comment)/m);
      expect(text).not.toContain('wts-e2e-rv-pwned');
      expect(text).not.toContain('</details>.md');
      expect(text).not.toContain('@octocat </details>');
      expect(text).not.toContain('@admin');
    }
  });
});
