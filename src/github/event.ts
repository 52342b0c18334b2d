// Whether the workflow asked for the pull-request bot on this event, and what the event asks of it: pure
// decisions from the event name, its payload and the trigger settings. The bot is never guessed from the
// event: `trigger` asks for it on comments, `pull-request-bot` on pull_request(_target) and push,
// `pr-number` on workflow_dispatch; everything else is plain run mode, the same on every event. The payload
// is read defensively: any field may be missing or of the wrong type, and then the event starts nothing.
import type { TriggerSettings } from '../settings/settings.js';
import {
  ignore,
  parseTrigger,
  positive,
  PROGRESS_MARKER,
  record,
  text,
  user,
  type EventDecision,
  type Obj,
  type RunRequest,
} from './request.js';
import { decideIssueComment, decideIssues, issueTriggers } from './issue-event.js';
import { decideReview } from './review-event.js';

export { PROGRESS_MARKER } from './request.js';

const BOT_EVENTS = ['pull_request', 'pull_request_target', 'push'];
/**
 * Events a bot workflow subscribes to that this bot does not serve: with a trigger input set, the step
 * fails naming the event, rather than running the command in plain run mode on the default branch.
 */
const UNSERVED_BOT_EVENTS = ['discussion', 'discussion_comment', 'commit_comment'];
/** Events whose comment (or review's body) starts a run with the `trigger` input. */
const COMMENT_EVENTS = ['issue_comment', 'pull_request_review_comment', 'pull_request_review'];
const PULL_REQUEST_ACTIONS = ['opened', 'synchronize', 'reopened', 'ready_for_review'];

export interface RunKind {
  /** true: the pull-request bot; false: plain run mode. */
  bot: boolean;
  /** Why, for the debug log. */
  why: string;
  /** An input that this event does not read, said as a warning. */
  warning?: string;
}

/**
 * Plain run mode or the pull-request bot, from what the workflow asked for (cheap: no payload, no API).
 * Throws when the workflow asked for the bot on an event the bot cannot serve: better a red step than a
 * run that silently does something else.
 */
export function chooseRunKind(
  eventName: string | undefined,
  trigger: Pick<TriggerSettings, 'command' | 'prNumber' | 'pullRequestBot'> &
    Partial<Pick<TriggerSettings, 'labelTrigger' | 'assigneeTrigger'>>,
): RunKind {
  const event = eventName || 'this event';
  if (COMMENT_EVENTS.includes(event)) {
    if (trigger.command) return { bot: true, why: `${event} with trigger ${trigger.command}` };
    if (trigger.pullRequestBot)
      throw new Error(
        `pull-request-bot: true on an ${event} event needs the 'trigger' input (such as /fix): the comment's first word that starts a run.`,
      );
    return { bot: false, why: `${event} without trigger: plain run mode` };
  }
  if (UNSERVED_BOT_EVENTS.includes(event) && (trigger.command || trigger.pullRequestBot))
    throw new Error(
      `The pull-request bot does not serve ${event} events (it serves ${COMMENT_EVENTS.join(', ')} with 'trigger', issues with 'label-trigger' or 'assignee-trigger', ${BOT_EVENTS.join(', ')} with 'pull-request-bot', workflow_dispatch with 'pr-number'): remove ${event} from the workflow's 'on:'.`,
    );
  if (eventName === 'issues') {
    const actions = issueTriggers(trigger);
    if (actions.length) return { bot: true, why: `issues with ${actions.join(' and ')} triggers` };
    if (trigger.pullRequestBot)
      throw new Error(
        "pull-request-bot: true on an issues event needs 'label-trigger' or 'assignee-trigger': the label or the login that starts a run.",
      );
    return { bot: false, why: 'issues without label-trigger or assignee-trigger: plain run mode' };
  }
  if (eventName === 'workflow_dispatch') {
    if (trigger.prNumber) return { bot: true, why: `workflow_dispatch with pr-number ${trigger.prNumber}` };
    if (trigger.pullRequestBot)
      throw new Error(
        "pull-request-bot: true on a workflow_dispatch event needs the 'pr-number' input: the pull request to work on.",
      );
    return { bot: false, why: 'workflow_dispatch without pr-number: plain run mode' };
  }
  if (BOT_EVENTS.includes(eventName ?? '')) {
    if (trigger.pullRequestBot) return { bot: true, why: `${event} with pull-request-bot: true` };
    return {
      bot: false,
      why: `${event} without pull-request-bot: plain run mode`,
      warning: trigger.command
        ? `'trigger' is read on ${COMMENT_EVENTS.join(' and ')} events only: this ${event} event is plain run mode (pull-request-bot: true asks for the bot).`
        : undefined,
    };
  }
  if (trigger.pullRequestBot)
    throw new Error(
      `pull-request-bot: true on ${event}: the pull-request bot serves ${BOT_EVENTS.join(', ')} (${COMMENT_EVENTS.join(' and ')} with 'trigger', issues with 'label-trigger' or 'assignee-trigger', workflow_dispatch with 'pr-number'). Set it only for those events, e.g. pull-request-bot: \${{ github.event_name == 'push' }}.`,
    );
  return { bot: false, why: `${event}: plain run mode` };
}

/** `ownCommitterEmail`: the committer of this action's own commits (`committer`); pushes of them start nothing. */
export function decideEvent(
  eventName: string | undefined,
  payload: unknown,
  trigger: TriggerSettings,
  ownCommitterEmail: string,
): EventDecision {
  const event = record(payload);
  switch (eventName) {
    case 'issue_comment':
      return decideComment(event, trigger);
    case 'pull_request_review_comment':
      return decideReviewComment(event, trigger);
    case 'pull_request_review':
      return decideReview(event, trigger);
    case 'issues':
      return decideIssues(event, trigger);
    case 'pull_request':
    case 'pull_request_target':
      return decidePullRequest(eventName, event);
    case 'workflow_dispatch':
      return decideDispatch(event, trigger);
    case 'push':
      return decidePush(event, ownCommitterEmail);
    default:
      return ignore(
        `${eventName || 'this event'} is not a pull-request event (issue_comment, pull_request_review_comment, pull_request_review, issues, pull_request, pull_request_target, workflow_dispatch with pr-number, push)`,
      );
  }
}

function decideComment(event: Obj, trigger: TriggerSettings): EventDecision {
  if (event.action !== 'created')
    return ignore(`the comment was ${text(event.action) || 'changed'}, not created`);
  const issue = record(event.issue);
  const comment = record(event.comment);
  const body = text(comment.body);
  if (!trigger.command) return ignore("comment events need the 'trigger' input (such as /fix)");
  if (!issue.pull_request) return decideIssueComment(event, trigger);
  if (body.trimStart().startsWith(PROGRESS_MARKER))
    return ignore('the comment is a progress comment of this action');
  const parsed = parseTrigger(body, trigger.command);
  if (!parsed) return ignore(`the comment does not start with ${trigger.command}`);
  const number = positive(issue.number);
  const id = positive(comment.id);
  const requester = user(comment.user, comment.author_association);
  if (!number || !id || !requester)
    return ignore('the comment payload lacks the issue number, comment id or author');
  return {
    run: true,
    request: {
      event: 'issue_comment',
      prNumber: number,
      requester,
      comment: { id, trigger: trigger.command, args: parsed.args },
    },
  };
}

function decideReviewComment(event: Obj, trigger: TriggerSettings): EventDecision {
  if (event.action !== 'created')
    return ignore(`the review comment was ${text(event.action) || 'changed'}, not created`);
  const comment = record(event.comment);
  const body = text(comment.body);
  if (!trigger.command) return ignore("comment events need the 'trigger' input (such as /fix)");
  if (body.trimStart().startsWith(PROGRESS_MARKER))
    return ignore('the comment is a progress reply of this action');
  const parsed = parseTrigger(body, trigger.command);
  if (!parsed) return ignore(`the review comment does not start with ${trigger.command}`);
  const number = positive(record(event.pull_request).number);
  const id = positive(comment.id);
  const requester = user(comment.user, comment.author_association);
  if (!number || !id || !requester)
    return ignore('the review comment payload lacks the pull request number, comment id or author');
  const line = positive(comment.line) ?? null;
  return {
    run: true,
    request: {
      event: 'pull_request_review_comment',
      prNumber: number,
      requester,
      comment: { id, trigger: trigger.command, args: parsed.args },
      reviewComment: {
        id,
        threadId: positive(comment.in_reply_to_id) ?? id,
        path: text(comment.path),
        line,
        startLine: positive(comment.start_line) ?? null,
        side: text(comment.side) || null,
        commitId: text(comment.commit_id),
        // GitHub drops the position (and the line) of a comment whose line left the diff.
        outdated: comment.position === null || comment.position === undefined || line === null,
        diffHunk: text(comment.diff_hunk),
      },
    },
  };
}

function decidePullRequest(eventName: string, event: Obj): EventDecision {
  const action = text(event.action);
  if (!PULL_REQUEST_ACTIONS.includes(action))
    return ignore(`pull request action '${action}' starts no run (${PULL_REQUEST_ACTIONS.join(', ')} do)`);
  const pr = record(event.pull_request);
  const number = positive(pr.number) ?? positive(event.number);
  // Whose code runs in the sandbox: the pull request's author.
  const requester = user(pr.user, pr.author_association);
  if (!number || !requester) return ignore('the pull request payload lacks its number or author');
  return { run: true, request: { event: eventName, prNumber: number, requester } };
}

function decideDispatch(event: Obj, trigger: TriggerSettings): EventDecision {
  if (!trigger.prNumber) return ignore('workflow_dispatch needs the pr-number input');
  const requester = user(event.sender, undefined, true);
  if (!requester) return ignore('the workflow_dispatch payload lacks its sender');
  return { run: true, request: { event: 'workflow_dispatch', prNumber: trigger.prNumber, requester } };
}

function decidePush(event: Obj, ownCommitterEmail: string): EventDecision {
  const ref = text(event.ref);
  if (!ref.startsWith('refs/heads/')) return ignore(`${ref || 'the pushed ref'} is not a branch`);
  if (event.deleted === true || /^0+$/.test(text(event.after))) return ignore(`${ref} was deleted`);
  // Our own commits pushed with a token that does start workflows (PAT, App) must not start us again.
  const committer = record(record(event.head_commit).committer);
  if (ownCommitterEmail && text(committer.email).toLowerCase() === ownCommitterEmail.toLowerCase())
    return ignore('the pushed commit was made by worktree-sandbox itself');
  const requester = user(event.sender, undefined, true);
  if (!requester) return ignore('the push payload lacks its sender');
  return {
    run: true,
    request: { event: 'push', pushedBranch: ref.slice('refs/heads/'.length), requester },
  };
}

/** One line for the debug log: who asked, about what. */
export function describeRequest(request: RunRequest): string {
  const { login, type, association } = request.requester;
  const parts = [`requester @${login} (${type}, association ${association ?? 'none in this event'})`];
  if (request.prNumber) parts.push(`pull request #${request.prNumber}`);
  if (request.issue) parts.push(`issue #${request.issue.number} by ${request.issue.how}`);
  if (request.pushedBranch) parts.push(`pushed branch ${request.pushedBranch}`);
  if (request.comment) parts.push(`comment ${request.comment.id} with ${request.comment.trigger}`);
  if (request.review) parts.push(`a review (${request.review.state || 'no state'})`);
  if (request.reviewComment)
    parts.push(
      `on a line of the diff${request.reviewComment.outdated ? ' (outdated)' : ''}, thread ${request.reviewComment.threadId}`,
    );
  return parts.join(', ');
}
