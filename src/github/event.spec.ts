import { describe, expect, it } from '@jest/globals';
import type { TriggerSettings } from '../settings/settings.js';
import {
  issueCommentEvent,
  pullRequestEvent,
  pushEvent,
  reviewCommentEvent,
  workflowDispatchEvent,
} from '../../test/support/webhooks.js';
import { chooseRunKind, decideEvent } from './event.js';
import { parseTrigger, PROGRESS_MARKER } from './request.js';

const OWN = 'fix-bot@example.com';

const trigger: TriggerSettings = {
  command: '/fix',
  allowedAssociations: ['OWNER', 'MEMBER', 'COLLABORATOR'],
  allowedBots: [],
  prNumber: 0,
  pullRequestBot: false,
  labelTrigger: '',
  assigneeTrigger: '',
  issueBranchPrefix: 'worktree-sandbox/issue-',
};
const alice = { login: 'alice', association: 'MEMBER' as const };

describe('parseTrigger', () => {
  it('takes the first word, whole: /fixed is not /fix', () => {
    expect(parseTrigger('/fix', '/fix')).toEqual({ args: '' });
    expect(parseTrigger('/fixed the typo', '/fix')).toBeUndefined();
    expect(parseTrigger('/fix-all', '/fix')).toBeUndefined();
    expect(parseTrigger('please /fix this', '/fix')).toBeUndefined();
    expect(parseTrigger('> /fix quoted', '/fix')).toBeUndefined();
    // A code block: fenced, or indented (a tab, or four spaces, on the first line with text).
    expect(parseTrigger('```\n/fix\n```', '/fix')).toBeUndefined();
    expect(parseTrigger('    /fix', '/fix')).toBeUndefined();
    expect(parseTrigger('\n  \t/fix', '/fix')).toBeUndefined();
    expect(parseTrigger('   /fix three spaces', '/fix')).toEqual({ args: 'three spaces' });
    expect(parseTrigger('/FIX it', '/fix')).toEqual({ args: 'it' });
  });

  it('hands the rest of the comment over verbatim, only the separating blank space removed', () => {
    const rest = 'the `README`\n\n$(rm -rf /) "quoted" \'single\'; echo $HOME\n  indented';
    expect(parseTrigger(`  /fix  ${rest}\n`, '/fix')).toEqual({ args: rest });
    expect(parseTrigger('/fix\r\nline one\r\nline two', '/fix')).toEqual({ args: 'line one\nline two' });
    expect(parseTrigger('/fix\tx', '/fix')).toEqual({ args: 'x' });
  });

  it('never matches an empty trigger', () => {
    expect(parseTrigger('anything', '')).toBeUndefined();
  });
});

describe('decideEvent: issue_comment', () => {
  it('runs for a new comment on a pull request that starts with the trigger', () => {
    const event = issueCommentEvent({ body: '/fix the typo', author: alice, number: 12, commentId: 55 });
    expect(decideEvent('issue_comment', event, trigger, OWN)).toEqual({
      run: true,
      request: {
        event: 'issue_comment',
        prNumber: 12,
        requester: { login: 'alice', type: 'User', association: 'MEMBER', eventNeedsWrite: false },
        comment: { id: 55, trigger: '/fix', args: 'the typo' },
      },
    });
  });

  it.each([
    ['an edited comment', issueCommentEvent({ body: '/fix', author: alice, action: 'edited' }), /edited/],
    ['a deleted comment', issueCommentEvent({ body: '/fix', author: alice, action: 'deleted' }), /deleted/],
    [
      'a closed plain issue',
      {
        ...issueCommentEvent({ body: '/fix', author: alice, onPullRequest: false, number: 12 }),
        issue: { number: 12, state: 'closed' },
      },
      /issue #12 is closed/,
    ],
    ['/fixed', issueCommentEvent({ body: '/fixed it', author: alice }), /does not start with \/fix/],
    [
      'its own progress comment',
      issueCommentEvent({ body: `${PROGRESS_MARKER}\n/fix`, author: alice }),
      /progress comment/,
    ],
  ])('ignores %s', (_name, event, reason) => {
    const decision = decideEvent('issue_comment', event, trigger, OWN);
    expect(decision.run).toBe(false);
    expect(!decision.run && decision.reason).toMatch(reason);
  });

  it('needs a trigger for comment events', () => {
    const event = issueCommentEvent({ body: '/fix', author: alice });
    const decision = decideEvent('issue_comment', event, { ...trigger, command: '' }, OWN);
    expect(!decision.run && decision.reason).toMatch(/'trigger' input/);
  });

  it('starts nothing from a payload without the expected fields', () => {
    expect(decideEvent('issue_comment', {}, trigger, OWN).run).toBe(false);
    expect(decideEvent('issue_comment', null, trigger, OWN).run).toBe(false);
    const event = issueCommentEvent({ body: '/fix', author: alice }) as unknown as Record<string, unknown>;
    (event.comment as Record<string, unknown>).user = null;
    expect(decideEvent('issue_comment', event, trigger, OWN).run).toBe(false);
  });
});

describe('decideEvent: other events', () => {
  it('runs for an opened or synchronized pull request, as its author', () => {
    for (const action of ['opened', 'synchronize'] as const) {
      const event = pullRequestEvent({
        action,
        author: { login: 'bob', association: 'CONTRIBUTOR' },
        number: 3,
      });
      expect(decideEvent('pull_request_target', event, trigger, OWN)).toEqual({
        run: true,
        request: {
          event: 'pull_request_target',
          prNumber: 3,
          requester: { login: 'bob', type: 'User', association: 'CONTRIBUTOR', eventNeedsWrite: false },
        },
      });
    }
    const closed = pullRequestEvent({ action: 'closed', author: alice });
    expect(decideEvent('pull_request', closed, trigger, OWN).run).toBe(false);
  });

  it('takes workflow_dispatch with pr-number as a request with write access', () => {
    const event = workflowDispatchEvent({ sender: { login: 'carol' } });
    expect(decideEvent('workflow_dispatch', event, { ...trigger, prNumber: 9 }, OWN)).toEqual({
      run: true,
      request: {
        event: 'workflow_dispatch',
        prNumber: 9,
        requester: { login: 'carol', type: 'User', association: undefined, eventNeedsWrite: true },
      },
    });
    expect(decideEvent('workflow_dispatch', event, trigger, OWN).run).toBe(false);
  });

  it('runs a push on the pushed branch, and never on its own commits, tags or deletions', () => {
    const pusher = { login: 'dave' };
    expect(decideEvent('push', pushEvent({ ref: 'refs/heads/topic/x', pusher }), trigger, OWN)).toEqual({
      run: true,
      request: {
        event: 'push',
        pushedBranch: 'topic/x',
        requester: { login: 'dave', type: 'User', association: undefined, eventNeedsWrite: true },
      },
    });
    const own = pushEvent({ ref: 'refs/heads/x', pusher, committerEmail: 'Fix-Bot@example.com' });
    expect(decideEvent('push', own, trigger, OWN)).toMatchObject({
      run: false,
      reason: /worktree-sandbox itself/,
    });
    expect(decideEvent('push', pushEvent({ ref: 'refs/tags/v1', pusher }), trigger, OWN).run).toBe(false);
    const deleted = pushEvent({ ref: 'refs/heads/x', pusher, deleted: true, after: '0'.repeat(40) });
    expect(decideEvent('push', deleted, trigger, OWN).run).toBe(false);
  });

  it('ignores events that are not about pull requests', () => {
    expect(decideEvent('schedule', {}, trigger, OWN).run).toBe(false);
    expect(decideEvent(undefined, {}, trigger, OWN).run).toBe(false);
  });
});

describe('chooseRunKind: the bot is asked for, never guessed', () => {
  const none = { command: '', prNumber: 0, pullRequestBot: false };
  const kind = (event: string | undefined, asked: Partial<typeof none> = {}) =>
    chooseRunKind(event, { ...none, ...asked });

  it('is plain run mode on every event when nothing asks for the bot', () => {
    for (const event of [
      'issue_comment',
      'pull_request',
      'pull_request_target',
      'push',
      'workflow_dispatch',
      'schedule',
      undefined,
    ]) {
      const chosen = kind(event);
      expect(chosen.bot).toBe(false);
      expect(chosen.warning).toBeUndefined();
    }
  });

  it('is the bot on a comment with trigger, on pull_request(_target) and push with pull-request-bot, on a dispatch with pr-number', () => {
    expect(kind('issue_comment', { command: '/fix' })).toMatchObject({ bot: true, why: /trigger \/fix/ });
    for (const event of ['pull_request', 'pull_request_target', 'push'])
      expect(kind(event, { pullRequestBot: true })).toMatchObject({ bot: true, why: /pull-request-bot/ });
    expect(kind('workflow_dispatch', { prNumber: 4 })).toMatchObject({ bot: true });
    expect(kind('issue_comment', { command: '/fix', pullRequestBot: true }).bot).toBe(true);
  });

  it('warns that trigger alone does not ask for the bot on other events', () => {
    expect(kind('pull_request', { command: '/fix' })).toMatchObject({
      bot: false,
      warning: /'trigger' is read on issue_comment events only/,
    });
  });

  it('fails when pull-request-bot asks for what the event cannot give', () => {
    expect(() => kind('schedule', { pullRequestBot: true })).toThrow(/pull-request-bot: true on schedule/);
    expect(() => kind('issue_comment', { pullRequestBot: true })).toThrow(/needs the 'trigger' input/);
    expect(() => kind('workflow_dispatch', { pullRequestBot: true })).toThrow(/needs the 'pr-number' input/);
  });
});

describe('a comment on a line of the diff (pull_request_review_comment)', () => {
  const decide = (payload: unknown, t: TriggerSettings = trigger) =>
    decideEvent('pull_request_review_comment', payload, t, OWN);

  it('is the bot with a trigger, plain run mode without one, and refuses pull-request-bot without one', () => {
    expect(chooseRunKind('pull_request_review_comment', trigger).bot).toBe(true);
    expect(chooseRunKind('pull_request_review_comment', { ...trigger, command: '' }).bot).toBe(false);
    expect(() =>
      chooseRunKind('pull_request_review_comment', { ...trigger, command: '', pullRequestBot: true }),
    ).toThrow(/pull_request_review_comment event needs the 'trigger' input/);
  });

  it('reads where a one-line comment sits, its hunk and the text after the trigger', () => {
    const payload = reviewCommentEvent({
      body: '/fix use a const here',
      author: alice,
      commentId: 31,
      path: 'src/a.ts',
      line: 12,
      diffHunk: '@@ -1,2 +1,2 @@\n-let a\n+let b',
    });
    const decision = decide(payload);
    expect(decision).toEqual({
      run: true,
      request: {
        event: 'pull_request_review_comment',
        prNumber: 7,
        requester: { login: 'alice', type: 'User', association: 'MEMBER', eventNeedsWrite: false },
        comment: { id: 31, trigger: '/fix', args: 'use a const here' },
        reviewComment: {
          id: 31,
          threadId: 31,
          path: 'src/a.ts',
          line: 12,
          startLine: null,
          side: 'RIGHT',
          commitId: payload.comment.commit_id,
          outdated: false,
          diffHunk: '@@ -1,2 +1,2 @@\n-let a\n+let b',
        },
      },
    });
  });

  it('reads a multi-line comment, a reply in a thread and an outdated comment (which still runs)', () => {
    const multi = decide(reviewCommentEvent({ body: '/fix', author: alice, line: 9, startLine: 4 }));
    expect(multi.run && multi.request.reviewComment).toMatchObject({
      line: 9,
      startLine: 4,
      outdated: false,
    });
    const reply = decide(reviewCommentEvent({ body: '/fix', author: alice, commentId: 40, inReplyTo: 39 }));
    expect(reply.run && reply.request.reviewComment).toMatchObject({ id: 40, threadId: 39 });
    const old = decide(reviewCommentEvent({ body: '/fix', author: alice, outdated: true }));
    expect(old.run && old.request.reviewComment).toMatchObject({ line: null, outdated: true });
  });

  it.each(['edited', 'deleted'] as const)('ignores an %s comment', (action) => {
    expect(decide(reviewCommentEvent({ body: '/fix', author: alice, action }))).toEqual({
      run: false,
      reason: `the review comment was ${action}, not created`,
    });
  });

  it('ignores comments that do not start with the trigger, and its own progress replies', () => {
    expect(decide(reviewCommentEvent({ body: 'looks /fix', author: alice })).run).toBe(false);
    expect(decide(reviewCommentEvent({ body: '> /fix quoted', author: alice })).run).toBe(false);
    expect(decide(reviewCommentEvent({ body: `${PROGRESS_MARKER}\n/fix`, author: alice })).run).toBe(false);
    expect(decide(reviewCommentEvent({ body: '/fix', author: alice }), { ...trigger, command: '' }).run).toBe(
      false,
    );
  });
});
