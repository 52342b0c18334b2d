import { describe, expect, it } from '@jest/globals';
import type { TriggerSettings } from '../settings/settings.js';
import type { Requester } from './request.js';
import { botName, checkPermission, checkRequester, isBot, needsPermissionCheck } from './permissions.js';

const rules: TriggerSettings = {
  command: '/fix',
  allowedAssociations: ['OWNER', 'MEMBER', 'COLLABORATOR'],
  allowedBots: [],
  prNumber: 0,
  pullRequestBot: false,
  labelTrigger: '',
  assigneeTrigger: '',
  issueBranchPrefix: 'worktree-sandbox/issue-',
};
const person = (association: string, login = 'alice'): Requester => ({
  login,
  type: 'User',
  association,
  eventNeedsWrite: false,
});

describe('checkRequester', () => {
  it('lets the allowed associations in and keeps everyone else out, saying why', () => {
    for (const a of ['OWNER', 'MEMBER', 'COLLABORATOR'])
      expect(checkRequester(person(a), rules)).toMatchObject({ allowed: true });
    for (const a of ['CONTRIBUTOR', 'FIRST_TIMER', 'FIRST_TIME_CONTRIBUTOR', 'MANNEQUIN', 'NONE']) {
      const verdict = checkRequester(person(a, 'mallory'), rules);
      expect(verdict).toEqual({
        allowed: false,
        silent: false,
        reason: `@mallory is ${a} of the repository; allowed-associations is OWNER, MEMBER, COLLABORATOR`,
      });
    }
    expect(
      checkRequester(person('CONTRIBUTOR'), { ...rules, allowedAssociations: ['CONTRIBUTOR'] }),
    ).toMatchObject({
      allowed: true,
    });
  });

  it('treats a missing association as NONE', () => {
    const noAssociation = { ...person('OWNER'), association: undefined };
    expect(checkRequester(noAssociation, rules)).toMatchObject({ allowed: false, reason: /is NONE/ });
  });

  it('ignores bots silently (its own account above all) unless allowed-bots names them', () => {
    const own = { login: 'github-actions[bot]', type: 'Bot', association: 'NONE', eventNeedsWrite: false };
    expect(checkRequester(own, rules)).toMatchObject({ allowed: false, silent: true });
    // A bot is a bot even when it has an owner's association or write access.
    expect(checkRequester({ ...own, association: 'OWNER', eventNeedsWrite: true }, rules)).toMatchObject({
      allowed: false,
      silent: true,
    });
    const renovate = { login: 'renovate[bot]', type: 'Bot', eventNeedsWrite: false };
    expect(checkRequester(renovate, { ...rules, allowedBots: ['Renovate'] })).toMatchObject({
      allowed: true,
    });
    expect(checkRequester(renovate, { ...rules, allowedBots: ['renovate[bot]'] })).toMatchObject({
      allowed: true,
    });
    expect(checkRequester(renovate, { ...rules, allowedBots: ['dependabot'] })).toMatchObject({
      allowed: false,
    });
  });

  it('lets events without an association (push, workflow_dispatch) past the association gate', () => {
    const pusher = { login: 'dave', type: 'User', eventNeedsWrite: true };
    expect(checkRequester(pusher, rules)).toMatchObject({ allowed: true });
  });
});

describe('isBot / botName', () => {
  it('knows a bot by its type or its [bot] login', () => {
    expect(isBot({ login: 'x[bot]', type: 'User' })).toBe(true);
    expect(isBot({ login: 'x', type: 'Bot' })).toBe(true);
    expect(isBot({ login: 'robot', type: 'User' })).toBe(false);
    expect(botName('Dependabot[bot]')).toBe('dependabot');
  });
});

describe('repository permission, for every run a person starts', () => {
  it('is checked for every person, whatever the event or push, and for no bot', () => {
    expect(needsPermissionCheck(person('MEMBER'))).toBe(true);
    expect(needsPermissionCheck(person('COLLABORATOR'))).toBe(true);
    const pusher: Requester = { ...person('NONE'), association: undefined, eventNeedsWrite: true };
    expect(needsPermissionCheck(pusher)).toBe(true);
    expect(needsPermissionCheck({ ...person('NONE'), login: 'r[bot]', type: 'Bot' })).toBe(false);
  });

  it('needs write, maintain or admin', () => {
    const alice = person('MEMBER');
    expect(checkPermission(alice, { permission: 'write', roleName: 'write' })).toMatchObject({
      allowed: true,
    });
    expect(checkPermission(alice, { permission: 'write', roleName: 'maintain' })).toMatchObject({
      allowed: true,
    });
    expect(checkPermission(alice, { permission: 'admin' })).toMatchObject({ allowed: true });
    expect(checkPermission(alice, { permission: 'read', roleName: 'triage' })).toEqual({
      allowed: false,
      silent: false,
      reason:
        '@alice has triage permission on the repository: a run needs write, maintain or admin (it receives the secrets named in env)',
    });
    expect(checkPermission(person('COLLABORATOR'), { permission: 'read', roleName: 'read' })).toMatchObject({
      allowed: false,
      reason: /^@alice has read permission/,
    });
    expect(checkPermission(alice, { permission: 'none' })).toMatchObject({
      allowed: false,
      reason: /^@alice has no permission on the repository/,
    });
  });
});
