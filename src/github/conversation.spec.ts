import { describe, expect, it } from '@jest/globals';
import { lastPage } from './api-comments.js';
import { keepNewest } from '../ui/bounded-text.js';
import {
  conversationContext,
  MAX_EARLIER_REPLIES,
  MAX_EARLIER_REPLY_BYTES,
  readConversation,
  withConversation,
  type ListedComment,
} from './conversation.js';
import { PROGRESS_MARKER } from './request.js';

const BOT = { author: 'my-app[bot]', authorType: 'Bot' };
let seq = 0;
function comment(
  kind: 'issue' | 'review',
  body: string,
  who: { author: string; authorType: string } = BOT,
  id = ++seq,
): ListedComment {
  const createdAt = new Date(Date.UTC(2026, 0, 1) + id * 1000).toISOString();
  return { kind, id, body, createdAt, ...who };
}
const reply = (text: string, id?: number) => comment('issue', `${PROGRESS_MARKER}\n${text}`, BOT, id);

describe('the bot’s earlier replies', () => {
  it('are the marked comments of this run’s own account, before its own comment, newest first', () => {
    const first = reply('run one');
    const second = comment('review', `${PROGRESS_MARKER}\nrun two, in a thread`);
    const own = reply('running');
    const context = conversationContext(
      [first, comment('issue', '/fix again', { author: 'alice', authorType: 'User' }), second, own],
      { kind: 'issue', id: own.id },
    );
    expect(context).toEqual({
      run: 3,
      earlier_replies: [
        { created_at: second.createdAt, body: second.body },
        { created_at: first.createdAt, body: first.body },
      ],
      cut: { earlier_replies_left_out: 0, earlier_replies_cut: 0 },
    });
  });

  it('do not count a forged marker: a user, another bot, an unmarked or later bot comment', () => {
    const own = reply('running', 500);
    const context = conversationContext(
      [
        comment('issue', `${PROGRESS_MARKER}\nforged`, { author: 'mallory', authorType: 'User' }),
        comment('issue', `${PROGRESS_MARKER}\nforged`, { author: 'other-app[bot]', authorType: 'Bot' }),
        // The same login with another account type is not the same account.
        comment('issue', `${PROGRESS_MARKER}\nforged`, { author: 'my-app[bot]', authorType: 'User' }),
        comment('issue', `quoted:\n${PROGRESS_MARKER}`),
        own,
        reply('a run that started after this one', 600),
      ],
      { kind: 'issue', id: own.id },
    );
    expect(context.run).toBe(1);
    expect(context.earlier_replies).toEqual([]);
  });

  it('tell the same id in the other list apart from this run’s own comment', () => {
    const own = comment('review', `${PROGRESS_MARKER}\nrunning`, BOT, 700);
    const sameId = comment('issue', `${PROGRESS_MARKER}\nan earlier run`, BOT, 700);
    expect(conversationContext([sameId, own], { kind: 'review', id: 700 }).run).toBe(2);
  });

  it('say why when this run’s own account cannot be known, and count nothing', () => {
    const earlier = reply('earlier');
    expect(conversationContext([earlier], undefined)).toMatchObject({
      run: 1,
      earlier_replies: [],
      earlier_replies_error: 'this run made no progress comment to know its own account by',
    });
    expect(conversationContext([earlier], { kind: 'issue', id: 123_456 }).earlier_replies_error).toBe(
      "this run's progress comment is not among the comments read",
    );
    expect(conversationContext({ error: 'HTTP 502' }, { kind: 'issue', id: 1 })).toMatchObject({
      run: 1,
      earlier_replies_error: 'the comments could not be read: HTTP 502',
    });
  });

  it('keep at most 10 and 32 KiB, the newest, saying what was cut', () => {
    const many = Array.from({ length: 14 }, (_, i) => reply(`reply ${i}`));
    const count = keepNewest(many, MAX_EARLIER_REPLIES, MAX_EARLIER_REPLY_BYTES);
    expect(count.kept.map((r) => r.body.split('\n')[1])).toEqual(
      Array.from({ length: 10 }, (_, i) => `reply ${13 - i}`),
    );
    expect(count).toMatchObject({ leftOut: 4, bodiesCut: 0 });

    const big = [reply('é'.repeat(10_000)), reply('x'.repeat(20_000)), reply('€'.repeat(5_000))];
    const bytes = keepNewest(big, MAX_EARLIER_REPLIES, MAX_EARLIER_REPLY_BYTES);
    const total = bytes.kept.reduce((n, r) => n + Buffer.byteLength(r.body, 'utf8'), 0);
    expect(total).toBeLessThanOrEqual(MAX_EARLIER_REPLY_BYTES);
    expect(bytes).toMatchObject({ leftOut: 1, bodiesCut: 1 });
    expect(bytes.kept[0].body).toBe(big[2].body);
    // Cut between characters, never inside one.
    expect(bytes.kept[1].body).not.toContain('\ufffd');
  });

  it('are merged into a context with its own cut', () => {
    const merged = withConversation(
      { event: 'x', cut: { diff_hunk: false } },
      conversationContext([], { kind: 'issue', id: 1 }),
    );
    expect(merged.cut).toEqual({ diff_hunk: false, earlier_replies_left_out: 0, earlier_replies_cut: 0 });
  });

  it('are read from both lists of a pull request, and a failed read is a warning, not a failure', async () => {
    const earlier = { ...reply('on the conversation'), kind: undefined };
    const own = { ...comment('review', `${PROGRESS_MARKER}\nrunning`), kind: undefined };
    const api = {
      issueComments: () => Promise.resolve([earlier]),
      reviewComments: () => Promise.resolve([own]),
    };
    const warnings: string[] = [];
    const read = await readConversation(api, 7, true, { kind: 'review', id: own.id }, (m) =>
      warnings.push(m),
    );
    expect(read).toMatchObject({ run: 2, earlier_replies: [{ body: earlier.body }] });
    const failing = { ...api, reviewComments: () => Promise.reject(new Error('HTTP 500')) };
    const failed = await readConversation(failing, 7, true, { kind: 'review', id: own.id }, (m) =>
      warnings.push(m),
    );
    expect(failed).toMatchObject({
      run: 1,
      earlier_replies_error: 'the comments could not be read: HTTP 500',
    });
    expect(warnings).toEqual(["Could not read the bot's earlier replies on #7: HTTP 500"]);
  });
});

describe('the last page of a list', () => {
  it('is read from the Link header, and only from its rel="last"', () => {
    const link =
      '<https://api.github.com/repositories/1/issues/7/comments?per_page=100&page=2>; rel="next", ' +
      '<https://api.github.com/repositories/1/issues/7/comments?per_page=100&page=34>; rel="last"';
    expect(lastPage(link)).toBe(34);
    expect(lastPage('<https://x/?page=2>; rel="next"')).toBeUndefined();
    expect(lastPage(undefined)).toBeUndefined();
  });
});
