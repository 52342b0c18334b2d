// Who may start a run: pure decisions over what the event and the API say about the requester.
// Bots are ignored (the bot's own comments would start it again) unless `allowed-bots` names them;
// people need an allowed author association and, for every run (a run receives the secrets named in
// `env`, pushed or not), write access to the repository as the API reports it.
import type { TriggerSettings } from '../settings/settings.js';
import type { Requester } from './request.js';

export type Verdict =
  | { allowed: true; why: string }
  /** `silent`: ignored without a word on the pull request (bots). */
  | { allowed: false; silent: boolean; reason: string };

/** Repository roles that can push (GitHub's `permission` is `write` for maintainers too). */
export const WRITE_ROLES = ['admin', 'maintain', 'write'];

export interface RepositoryPermission {
  /** `admin`, `write`, `read` or `none`. */
  permission: string;
  /** `admin`, `maintain`, `write`, `triage`, `read`, or a custom role's name. */
  roleName?: string;
}

export function isBot(requester: Pick<Requester, 'login' | 'type'>): boolean {
  return requester.type === 'Bot' || /\[bot\]$/i.test(requester.login);
}

/** `dependabot[bot]`, `Dependabot` and `dependabot` all name the same bot. */
export function botName(login: string): string {
  return login.replace(/\[bot\]$/i, '').toLowerCase();
}

export function checkRequester(requester: Requester, rules: TriggerSettings): Verdict {
  const who = `@${requester.login}`;
  if (isBot(requester)) {
    if (rules.allowedBots.some((b) => botName(b) === botName(requester.login)))
      return { allowed: true, why: `${who} is named in allowed-bots` };
    return {
      allowed: false,
      silent: true,
      reason: `${who} is a bot: bots (this action's own account included) start no run unless allowed-bots names them`,
    };
  }
  if (requester.eventNeedsWrite)
    return { allowed: true, why: `${who} started an event that carries no author association` };
  const association = requester.association ?? 'NONE';
  if (rules.allowedAssociations.includes(association))
    return { allowed: true, why: `${who} is ${association} of the repository` };
  return {
    allowed: false,
    silent: false,
    reason: `${who} is ${association} of the repository; allowed-associations is ${rules.allowedAssociations.join(', ') || 'empty'}`,
  };
}

/** Every run a person starts needs their repository permission; bots are let in by `allowed-bots` alone. */
export function needsPermissionCheck(requester: Pick<Requester, 'login' | 'type'>): boolean {
  return !isBot(requester);
}

export function checkPermission(requester: Requester, level: RepositoryPermission): Verdict {
  const who = `@${requester.login}`;
  const roles = [level.permission, level.roleName ?? ''].map((r) => r.toLowerCase());
  if (roles.some((r) => WRITE_ROLES.includes(r)))
    return { allowed: true, why: `${who} has ${level.roleName || level.permission} permission` };
  const role = level.roleName || (level.permission === 'none' ? '' : level.permission);
  return {
    allowed: false,
    silent: false,
    reason: `${who} has ${role ? `${role} permission` : 'no permission'} on the repository: a run needs write, maintain or admin (it receives the secrets named in env)`,
  };
}
