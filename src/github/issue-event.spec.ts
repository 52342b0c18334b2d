import { describe, expect, it } from '@jest/globals';
import type { TriggerSettings } from '../settings/settings.js';
import { issuesEvent, plainIssueCommentEvent } from '../../test/support/webhooks.js';
import { chooseRunKind, decideEvent } from './event.js';

const trigger: TriggerSettings = {
  command: '/fix',
  allowedAssociations: ['OWNER', 'MEMBER', 'COLLABORATOR'],
  allowedBots: [],
  prNumber: 0,
  pullRequestBot: false,
  labelTrigger: 'fix-me',
  assigneeTrigger: 'fix-bot',
  issueBranchPrefix: 'worktree-sandbox/issue-',
};
const alice = { login: 'alice', association: 'MEMBER' as const };
const decide = (name: string, payload: unknown, t: TriggerSettings = trigger) =>
  decideEvent(name, payload, t, 'bot@example.com');

describe('issues that become pull requests', () => {
  it('is the bot on issues only with label-trigger or assignee-trigger, and says so otherwise', () => {
    expect(chooseRunKind('issues', trigger).bot).toBe(true);
    expect(chooseRunKind('issues', { ...trigger, labelTrigger: '', assigneeTrigger: '' }).bot).toBe(false);
    expect(() =>
      chooseRunKind('issues', { ...trigger, labelTrigger: '', assigneeTrigger: '', pullRequestBot: true }),
    ).toThrow(/issues event needs 'label-trigger' or 'assignee-trigger'/);
  });

  it('fails by name on a bot event it does not serve, rather than run in plain run mode', () => {
    expect(() => chooseRunKind('discussion_comment', trigger)).toThrow(
      /does not serve discussion_comment events.*remove discussion_comment from the workflow's 'on:'/,
    );
    expect(chooseRunKind('discussion_comment', { ...trigger, command: '' }).bot).toBe(false);
  });

  it('reads a trigger comment on an open issue: the text after it, the title, body and labels', () => {
    const payload = plainIssueCommentEvent({
      body: '/fix please',
      author: alice,
      commentId: 77,
      title: 'Crash `$(id)`',
      issueBody: 'steps',
    });
    expect(decide('issue_comment', payload)).toEqual({
      run: true,
      request: {
        event: 'issue_comment',
        requester: { login: 'alice', type: 'User', association: 'MEMBER', eventNeedsWrite: false },
        comment: { id: 77, trigger: '/fix', args: 'please' },
        issue: {
          number: 12,
          title: 'Crash `$(id)`',
          body: 'steps',
          labels: payload.issue.labels!.map((l) => l.name),
          how: 'comment',
          commentBody: '/fix please',
        },
      },
    });
  });

  it('reads a label and an assignment: who asked is the sender, whose permission the API is asked', () => {
    const labeled = decide('issues', issuesEvent({ action: 'labeled', sender: { login: 'maint' } }));
    expect(labeled.run && labeled.request).toMatchObject({
      event: 'issues',
      requester: { login: 'maint', eventNeedsWrite: true },
      issue: { number: 12, how: 'label', label: 'fix-me' },
    });
    const assigned = decide('issues', issuesEvent({ action: 'assigned', sender: { login: 'maint' } }));
    expect(assigned.run && assigned.request).toMatchObject({ issue: { how: 'assignment' } });
    // The bot's own login is the same with or without [bot].
    const asBot = decide(
      'issues',
      issuesEvent({ action: 'assigned', sender: { login: 'maint' }, assignee: 'fix-bot[bot]' }),
    );
    expect(asBot.run).toBe(true);
  });

  it.each([
    ['another label', issuesEvent({ action: 'labeled', sender: alice, label: 'bug' }), /not fix-me/],
    [
      'another assignee',
      issuesEvent({ action: 'assigned', sender: alice, assignee: 'bob' }),
      /not assigned to fix-bot/,
    ],
    [
      'a closed issue',
      issuesEvent({ action: 'labeled', sender: alice, state: 'closed' }),
      /issue #12 is closed/,
    ],
    [
      'a locked issue',
      issuesEvent({ action: 'assigned', sender: alice, locked: true }),
      /issue #12 is locked/,
    ],
    [
      'a comment on a locked issue',
      plainIssueCommentEvent({ body: '/fix', author: alice, locked: true }),
      /issue #12 is locked/,
    ],
  ])('starts nothing for %s, and says why', (_name, payload, reason) => {
    const name = 'label' in payload || 'assignee' in payload ? 'issues' : 'issue_comment';
    const decision = decide(name, payload);
    expect(decision.run).toBe(false);
    expect(!decision.run && decision.reason).toMatch(reason);
  });

  it('serves no label without label-trigger, and no other issues action', () => {
    const off = { ...trigger, labelTrigger: '' };
    expect(decide('issues', issuesEvent({ action: 'labeled', sender: alice }), off)).toEqual({
      run: false,
      reason: "issues action 'labeled' starts no run (assigned do, with label-trigger and assignee-trigger)",
    });
  });
});
