import { describe, expect, it } from '@jest/globals';
import type { TriggerSettings } from '../settings/settings.js';
import { reviewEvent } from '../../test/support/webhooks.js';
import { chooseRunKind, decideEvent, describeRequest, PROGRESS_MARKER } from './event.js';

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
const decide = (payload: unknown, t = trigger) => decideEvent('pull_request_review', payload, t, 'x@y');

describe('pull_request_review', () => {
  it('is the bot with a trigger, plain run mode without one', () => {
    expect(chooseRunKind('pull_request_review', trigger)).toMatchObject({ bot: true });
    expect(chooseRunKind('pull_request_review', { ...trigger, command: '' }).bot).toBe(false);
    expect(() =>
      chooseRunKind('pull_request_review', { ...trigger, command: '', pullRequestBot: true }),
    ).toThrow(/pull_request_review event needs the 'trigger' input/);
  });

  it('runs for a submitted review whose body starts with the trigger: the reviewer asked', () => {
    const payload = reviewEvent({
      body: '/fix the three comments\r\nplease',
      author: alice,
      number: 12,
      reviewId: 88,
      state: 'changes_requested',
    });
    const decision = decide(payload);
    expect(decision).toEqual({
      run: true,
      request: {
        event: 'pull_request_review',
        prNumber: 12,
        requester: { login: 'alice', type: 'User', association: 'MEMBER', eventNeedsWrite: false },
        comment: { id: 88, trigger: '/fix', args: 'the three comments\nplease' },
        review: {
          id: 88,
          body: '/fix the three comments\r\nplease',
          state: 'changes_requested',
          commitId: payload.review.commit_id,
        },
      },
    });
    expect(decision.run && describeRequest(decision.request)).toContain('a review (changes_requested)');
  });

  it.each(['edited', 'dismissed'] as const)('ignores a review %s', (action) => {
    expect(decide(reviewEvent({ body: '/fix', author: alice, action }))).toEqual({
      run: false,
      reason: `the review was ${action}, not submitted`,
    });
  });

  it.each([
    ['no body', null],
    ['the trigger later on', 'looks good, /fix the name'],
    ['a longer word', '/fixed'],
    ['a quoted line', '> /fix it'],
    ['a fenced code block', '```\n/fix it\n```'],
    ['a tilde fence', '~~~sh\n/fix\n~~~'],
    ['an indented code block', '    /fix it'],
    ['a tab-indented code block', '\n\t/fix it'],
    ['its own progress note', `${PROGRESS_MARKER}\n/fix`],
  ])('ignores a review with %s', (_name, body) => {
    const decision = decide(reviewEvent({ body, author: alice }));
    expect(decision.run).toBe(false);
  });

  it('needs the trigger input and the payload it reads', () => {
    expect(decide(reviewEvent({ body: '/fix', author: alice }), { ...trigger, command: '' })).toEqual({
      run: false,
      reason: "review events need the 'trigger' input (such as /fix)",
    });
    const broken = reviewEvent({ body: '/fix', author: alice }) as unknown as { review: { id: unknown } };
    broken.review.id = 'not a number';
    expect(decide(broken).run).toBe(false);
  });
});
