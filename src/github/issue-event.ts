// Whether an event on an issue (not a pull request) asks for a pull request to be made of it: a comment
// that starts with the trigger, the `label-trigger` label added, or the issue assigned to
// `assignee-trigger`. Pure decisions from the payload and the settings. A closed or locked issue starts
// nothing, and says why. For a label or an assignment, who asked is the one who labelled or assigned.
import type { TriggerSettings } from '../settings/settings.js';
import { botName } from './permissions.js';
import {
  ignore,
  parseTrigger,
  positive,
  PROGRESS_MARKER,
  record,
  text,
  user,
  type EventDecision,
  type IssueRequest,
  type Obj,
} from './request.js';

/** What `issues` events may start a run: only with the input that names their label or login. */
export function issueTriggers(
  trigger: Partial<Pick<TriggerSettings, 'labelTrigger' | 'assigneeTrigger'>>,
): string[] {
  return [...(trigger.labelTrigger ? ['labeled'] : []), ...(trigger.assigneeTrigger ? ['assigned'] : [])];
}

/** `issue_comment` on an issue that is not a pull request. */
export function decideIssueComment(event: Obj, trigger: TriggerSettings): EventDecision {
  const comment = record(event.comment);
  const body = text(comment.body);
  if (body.trimStart().startsWith(PROGRESS_MARKER))
    return ignore('the comment is a progress comment of this action');
  const parsed = parseTrigger(body, trigger.command);
  if (!parsed) return ignore(`the comment does not start with ${trigger.command}`);
  const issue = readIssue(event, 'comment');
  if ('reason' in issue) return ignore(issue.reason);
  issue.commentBody = body;
  const id = positive(comment.id);
  const requester = user(comment.user, comment.author_association);
  if (!id || !requester) return ignore('the comment payload lacks the comment id or author');
  return {
    run: true,
    request: {
      event: 'issue_comment',
      requester,
      comment: { id, trigger: trigger.command, args: parsed.args },
      issue,
    },
  };
}

/** `issues`: `labeled` with `label-trigger`, `assigned` with `assignee-trigger`; nothing else. */
export function decideIssues(event: Obj, trigger: TriggerSettings): EventDecision {
  const action = text(event.action);
  let issueRequest: IssueRequest | { reason: string };
  if (action === 'labeled' && trigger.labelTrigger) {
    const label = text(record(event.label).name);
    if (label !== trigger.labelTrigger)
      return ignore(`the label added is not ${trigger.labelTrigger} (label-trigger)`);
    issueRequest = readIssue(event, 'label');
    if (!('reason' in issueRequest)) issueRequest.label = label;
  } else if (action === 'assigned' && trigger.assigneeTrigger) {
    const login = text(record(event.assignee).login);
    if (botName(login) !== botName(trigger.assigneeTrigger))
      return ignore(`the issue was not assigned to ${trigger.assigneeTrigger} (assignee-trigger)`);
    issueRequest = readIssue(event, 'assignment');
  } else {
    const served = issueTriggers(trigger);
    return ignore(
      `issues action '${action}' starts no run (${served.length ? served.join(' and ') : 'none'} do, with label-trigger and assignee-trigger)`,
    );
  }
  if ('reason' in issueRequest) return ignore(issueRequest.reason);
  // The payload carries no association for the sender: labelling and assigning need triage access at
  // least, and the run asks the API for the sender's write access as for everyone.
  const requester = user(event.sender, undefined, true);
  if (!requester) return ignore('the issues payload lacks its sender');
  return { run: true, request: { event: 'issues', requester, issue: issueRequest } };
}

function readIssue(event: Obj, how: IssueRequest['how']): IssueRequest | { reason: string } {
  const issue = record(event.issue);
  const number = positive(issue.number);
  if (!number) return { reason: 'the payload lacks the issue number' };
  if (issue.pull_request) return { reason: `#${number} is a pull request, not an issue` };
  if (issue.locked === true) return { reason: `issue #${number} is locked` };
  if (text(issue.state) !== 'open')
    return { reason: `issue #${number} is ${text(issue.state) || 'not open'}` };
  const labels = Array.isArray(issue.labels)
    ? issue.labels.map((l) => text(record(l).name)).filter(Boolean)
    : [];
  return { number, title: text(issue.title), body: text(issue.body), labels, how };
}
