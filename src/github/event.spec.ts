import { describe, expect, it } from '@jest/globals';
import type { TriggerSettings } from '../settings.js';
import { BOT_IDENTITY } from '../settings.js';
import {
  issueCommentEvent,
  pullRequestEvent,
  pushEvent,
  workflowDispatchEvent,
} from '../../test/support/webhooks.js';
import { decideEvent, isPullRequestRun, parseTrigger, PROGRESS_MARKER } from './event.js';

const trigger: TriggerSettings = {
  command: '/fix',
  allowedAssociations: ['OWNER', 'MEMBER', 'COLLABORATOR'],
  allowedBots: [],
  prNumber: 0,
};
const alice = { login: 'alice', association: 'MEMBER' as const };

describe('parseTrigger', () => {
  it('takes the first word, whole: /fixed is not /fix', () => {
    expect(parseTrigger('/fix', '/fix')).toEqual({ args: '' });
    expect(parseTrigger('/fixed the typo', '/fix')).toBeUndefined();
    expect(parseTrigger('/fix-all', '/fix')).toBeUndefined();
    expect(parseTrigger('please /fix this', '/fix')).toBeUndefined();
    expect(parseTrigger('> /fix quoted', '/fix')).toBeUndefined();
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
    expect(decideEvent('issue_comment', event, trigger)).toEqual({
      run: true,
      request: {
        event: 'issue_comment',
        prNumber: 12,
        requester: { login: 'alice', type: 'User', association: 'MEMBER', hasWriteAccess: false },
        comment: { id: 55, trigger: '/fix', args: 'the typo' },
      },
    });
  });

  it.each([
    ['an edited comment', issueCommentEvent({ body: '/fix', author: alice, action: 'edited' }), /edited/],
    ['a deleted comment', issueCommentEvent({ body: '/fix', author: alice, action: 'deleted' }), /deleted/],
    [
      'a plain issue',
      issueCommentEvent({ body: '/fix', author: alice, onPullRequest: false }),
      /not on a pull/,
    ],
    ['/fixed', issueCommentEvent({ body: '/fixed it', author: alice }), /does not start with \/fix/],
    [
      'its own progress comment',
      issueCommentEvent({ body: `${PROGRESS_MARKER}\n/fix`, author: alice }),
      /progress comment/,
    ],
  ])('ignores %s', (_name, event, reason) => {
    const decision = decideEvent('issue_comment', event, trigger);
    expect(decision.run).toBe(false);
    expect(!decision.run && decision.reason).toMatch(reason);
  });

  it('needs a trigger for comment events', () => {
    const event = issueCommentEvent({ body: '/fix', author: alice });
    const decision = decideEvent('issue_comment', event, { ...trigger, command: '' });
    expect(!decision.run && decision.reason).toMatch(/'trigger' input/);
  });

  it('starts nothing from a payload without the expected fields', () => {
    expect(decideEvent('issue_comment', {}, trigger).run).toBe(false);
    expect(decideEvent('issue_comment', null, trigger).run).toBe(false);
    const event = issueCommentEvent({ body: '/fix', author: alice }) as unknown as Record<string, unknown>;
    (event.comment as Record<string, unknown>).user = null;
    expect(decideEvent('issue_comment', event, trigger).run).toBe(false);
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
      expect(decideEvent('pull_request_target', event, trigger)).toEqual({
        run: true,
        request: {
          event: 'pull_request_target',
          prNumber: 3,
          requester: { login: 'bob', type: 'User', association: 'CONTRIBUTOR', hasWriteAccess: false },
        },
      });
    }
    const closed = pullRequestEvent({ action: 'closed', author: alice });
    expect(decideEvent('pull_request', closed, trigger).run).toBe(false);
  });

  it('takes workflow_dispatch with pr-number as a request with write access', () => {
    const event = workflowDispatchEvent({ sender: { login: 'carol' } });
    expect(decideEvent('workflow_dispatch', event, { ...trigger, prNumber: 9 })).toEqual({
      run: true,
      request: {
        event: 'workflow_dispatch',
        prNumber: 9,
        requester: { login: 'carol', type: 'User', association: undefined, hasWriteAccess: true },
      },
    });
    expect(decideEvent('workflow_dispatch', event, trigger).run).toBe(false);
  });

  it('runs a push on the pushed branch, and never on its own commits, tags or deletions', () => {
    const pusher = { login: 'dave' };
    expect(decideEvent('push', pushEvent({ ref: 'refs/heads/topic/x', pusher }), trigger)).toEqual({
      run: true,
      request: {
        event: 'push',
        pushedBranch: 'topic/x',
        requester: { login: 'dave', type: 'User', association: undefined, hasWriteAccess: true },
      },
    });
    const own = pushEvent({ ref: 'refs/heads/x', pusher, committerEmail: BOT_IDENTITY.email });
    expect(decideEvent('push', own, trigger)).toMatchObject({
      run: false,
      reason: /worktree-sandbox itself/,
    });
    expect(decideEvent('push', pushEvent({ ref: 'refs/tags/v1', pusher }), trigger).run).toBe(false);
    const deleted = pushEvent({ ref: 'refs/heads/x', pusher, deleted: true, after: '0'.repeat(40) });
    expect(decideEvent('push', deleted, trigger).run).toBe(false);
  });

  it('ignores events that are not about pull requests', () => {
    expect(decideEvent('schedule', {}, trigger).run).toBe(false);
    expect(decideEvent(undefined, {}, trigger).run).toBe(false);
  });
});

describe('isPullRequestRun', () => {
  it('routes pull-request events, dispatches with pr-number and pushes without a branch to the bot', () => {
    expect(isPullRequestRun('issue_comment', { prNumber: 0 }, '')).toBe(true);
    expect(isPullRequestRun('pull_request', { prNumber: 0 }, '')).toBe(true);
    expect(isPullRequestRun('pull_request_target', { prNumber: 0 }, 'x')).toBe(true);
    expect(isPullRequestRun('workflow_dispatch', { prNumber: 4 }, '')).toBe(true);
    expect(isPullRequestRun('workflow_dispatch', { prNumber: 0 }, '')).toBe(false);
    expect(isPullRequestRun('push', { prNumber: 0 }, '')).toBe(true);
    expect(isPullRequestRun('push', { prNumber: 0 }, 'release')).toBe(false);
    expect(isPullRequestRun('schedule', { prNumber: 0 }, '')).toBe(false);
    expect(isPullRequestRun(undefined, { prNumber: 0 }, '')).toBe(false);
  });
});
