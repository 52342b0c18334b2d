// What the pull-request bot reads from an event and the request it makes of it: the shared types and
// the defensive payload readers of event.ts and issue-event.ts (any field may be missing or of the wrong
// type, and then the event starts nothing). Pure.

export { PROGRESS_MARKER } from '../run/progress-data.js';

export interface Requester {
  login: string;
  /** The account type GitHub reports: `User`, `Bot`, `Organization`, `Mannequin`. */
  type: string;
  /** The author association, when the event carries one. */
  association?: string;
  /**
   * The event happens only for people with write access (push, workflow_dispatch) and carries no author
   * association: the association gate does not apply. The API's permission is still asked.
   */
  eventNeedsWrite: boolean;
}

export interface TriggerComment {
  id: number;
  trigger: string;
  /** The rest of the comment: data for the command, never part of a command line. */
  args: string;
}

/**
 * A comment on a line of a pull request's diff (`pull_request_review_comment`): where it sits, as the
 * payload says. Untrusted text (path, hunk) reaches the command only through the context file.
 */
export interface ReviewCommentRequest {
  id: number;
  /** The thread's first comment: replies go under it (GitHub answers no reply to a reply). */
  threadId: number;
  path: string;
  line: number | null;
  startLine: number | null;
  side: string | null;
  commitId: string;
  /** Its line is no longer in the diff (GitHub gives it no position). */
  outdated: boolean;
  diffHunk: string;
}

/**
 * A review submitted with the trigger as the first word of its body (`pull_request_review`). Its body is
 * untrusted text, for the context file only; its comments are read through the API.
 */
export interface ReviewRequest {
  id: number;
  body: string;
  /** `commented`, `changes_requested` or `approved`, as the payload says (lower case). */
  state: string;
  commitId: string;
}

/** An issue to make a pull request of: what the payload says of it (untrusted text, for the files only). */
export interface IssueRequest {
  number: number;
  title: string;
  body: string;
  labels: string[];
  /** What asked: a comment with the trigger, the `label-trigger` label, or an assignment to `assignee-trigger`. */
  how: 'comment' | 'label' | 'assignment';
  /** `label`: the label to remove when the run ends. */
  label?: string;
  /** `comment`: the whole comment that asked (the trigger too). */
  commentBody?: string;
}

export interface RunRequest {
  event: string;
  /** The pull request to work on; for a push it is looked up from the branch. */
  prNumber?: number;
  /** push: the branch that was pushed. */
  pushedBranch?: string;
  requester: Requester;
  /**
   * Set when a comment asked for the run; for a review, its body asked (the id is the review's, which takes
   * no reaction).
   */
  comment?: TriggerComment;
  /** Set when a review asked for the run. */
  review?: ReviewRequest;
  /** Set when the comment is on a line of the diff. */
  reviewComment?: ReviewCommentRequest;
  /** Set when the run makes a pull request of an issue. */
  issue?: IssueRequest;
}

export type EventDecision = { run: true; request: RunRequest } | { run: false; reason: string };

/**
 * The trigger must be the comment's first word, whole (`/fixed` is not `/fix`; case is ignored). The
 * rest of the comment, without the blank space that separates it, is the argument text (CRLF read as LF).
 * A first line indented as a Markdown code block (a tab, or four spaces) is code, not a request.
 */
export function parseTrigger(body: string, trigger: string): { args: string } | undefined {
  if (!trigger) return undefined;
  const unixBody = body.replace(/\r\n/g, '\n');
  if (/^(?:[ \t]*\n)*(?: {0,3}\t| {4})/.test(unixBody)) return undefined;
  const text = unixBody.replace(/^\s+/, '');
  const end = text.search(/\s/);
  const word = end < 0 ? text : text.slice(0, end);
  if (word.toLowerCase() !== trigger.toLowerCase()) return undefined;
  return { args: end < 0 ? '' : text.slice(end).trim() };
}

export type Obj = Record<string, unknown>;

export function record(value: unknown): Obj {
  return value && typeof value === 'object' ? (value as Obj) : {};
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

export function user(value: unknown, association: unknown, eventNeedsWrite = false): Requester | undefined {
  const u = record(value);
  const login = text(u.login);
  if (!login) return undefined;
  return {
    login,
    type: text(u.type) || 'User',
    association: text(association) || undefined,
    eventNeedsWrite,
  };
}

export function ignore(reason: string): EventDecision {
  return { run: false, reason };
}
