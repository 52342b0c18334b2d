// Real webhook payloads (@octokit/webhooks-examples, the shapes GitHub sends), adapted per test case in
// code: who wrote the comment, what it says, which repository and pull request it is about.
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WebhookDefinition } from '@octokit/webhooks-examples';
import type {
  AuthorAssociation,
  IssueCommentEvent,
  IssuesAssignedEvent,
  IssuesLabeledEvent,
  PullRequestEvent,
  PullRequestReviewCommentEvent,
  PullRequestReviewEvent,
  PushEvent,
  WorkflowDispatchEvent,
} from '@octokit/webhooks-types';

const definitions = createRequire(import.meta.url)('@octokit/webhooks-examples') as WebhookDefinition[];

function example<T>(name: string, pick: (e: Record<string, unknown>) => boolean = () => true): T {
  const def = definitions.find((d) => d.name === name);
  const found = (def?.examples as unknown as Record<string, unknown>[] | undefined)?.find(pick);
  if (!found) throw new Error(`@octokit/webhooks-examples has no ${name} example`);
  return structuredClone(found) as T;
}

export interface Repo {
  owner: string;
  name: string;
}

export const REPO: Repo = { owner: 'octo-org', name: 'hello-world' };

function applyRepository(payload: { repository?: unknown }, repo: Repo): void {
  const r = payload.repository as { name: string; full_name: string; owner: { login: string } };
  r.name = repo.name;
  r.full_name = `${repo.owner}/${repo.name}`;
  r.owner.login = repo.owner;
}

export interface Person {
  login: string;
  type?: 'User' | 'Bot';
  association?: AuthorAssociation;
}

function applyUser(target: { login: string; type: string }, person: Person): void {
  target.login = person.login;
  target.type = person.type ?? 'User';
}

/** A comment on pull request `number` (or on a plain issue with `onPullRequest: false`). */
export function issueCommentEvent(options: {
  body: string;
  author: Person;
  number?: number;
  commentId?: number;
  action?: 'created' | 'edited' | 'deleted';
  onPullRequest?: boolean;
  repo?: Repo;
}): IssueCommentEvent {
  const action = options.action ?? 'created';
  const event = example<IssueCommentEvent>('issue_comment', (e) => e.action === action);
  const repo = options.repo ?? REPO;
  const number = options.number ?? 7;
  applyRepository(event, repo);
  event.issue.number = number;
  const base = `https://github.com/${repo.owner}/${repo.name}`;
  if (options.onPullRequest !== false) {
    event.issue.pull_request = {
      url: `https://api.github.com/repos/${repo.owner}/${repo.name}/pulls/${number}`,
      html_url: `${base}/pull/${number}`,
      diff_url: `${base}/pull/${number}.diff`,
      patch_url: `${base}/pull/${number}.patch`,
      merged_at: null,
    };
  } else {
    delete (event.issue as { pull_request?: unknown }).pull_request;
  }
  event.comment.id = options.commentId ?? 1_000_000 + number;
  event.comment.body = options.body;
  applyUser(event.comment.user, options.author);
  event.comment.author_association = options.author.association ?? 'NONE';
  return event;
}

/**
 * A comment on a line of pull request `number`'s diff. `startLine` makes it a multi-line comment,
 * `outdated` drops its position and line as GitHub does once the line has left the diff, `inReplyTo`
 * makes it a reply in a thread, `headRepo` a pull request from a fork.
 */
export function reviewCommentEvent(options: {
  body: string;
  author: Person;
  number?: number;
  commentId?: number;
  action?: 'created' | 'edited' | 'deleted';
  path?: string;
  line?: number;
  startLine?: number;
  diffHunk?: string;
  outdated?: boolean;
  inReplyTo?: number;
  headRepo?: string;
  repo?: Repo;
}): PullRequestReviewCommentEvent {
  const action = options.action ?? 'created';
  const event = example<PullRequestReviewCommentEvent>(
    'pull_request_review_comment',
    (e) =>
      e.action === action && (action !== 'created' || (e.comment as { line?: unknown }).line !== undefined),
  );
  const repo = options.repo ?? REPO;
  applyRepository(event, repo);
  const number = options.number ?? 7;
  event.pull_request.number = number;
  event.pull_request.base.repo.full_name = `${repo.owner}/${repo.name}`;
  if (event.pull_request.head.repo)
    event.pull_request.head.repo.full_name = options.headRepo ?? `${repo.owner}/${repo.name}`;
  const c = event.comment as PullRequestReviewCommentEvent['comment'] & Record<string, unknown>;
  c.id = options.commentId ?? 2_000_000 + number;
  c.body = options.body;
  applyUser(c.user, options.author);
  c.author_association = options.author.association ?? 'NONE';
  if (options.path !== undefined) c.path = options.path;
  if (options.diffHunk !== undefined) c.diff_hunk = options.diffHunk;
  if (options.line !== undefined) c.line = options.line;
  if (options.startLine !== undefined) {
    c.start_line = options.startLine;
    c.start_side = 'RIGHT';
  }
  if (options.inReplyTo !== undefined) c.in_reply_to_id = options.inReplyTo;
  if (options.outdated) {
    c.position = null;
    c.line = null;
  }
  return event;
}

/**
 * A review of pull request `number` submitted (or `edited`, `dismissed`) with `body`; `headRepo` makes the
 * pull request a fork's.
 */
export function reviewEvent(options: {
  body: string | null;
  author: Person;
  number?: number;
  reviewId?: number;
  state?: 'commented' | 'changes_requested' | 'approved';
  action?: 'submitted' | 'edited' | 'dismissed';
  headRepo?: string;
  repo?: Repo;
}): PullRequestReviewEvent {
  const action = options.action ?? 'submitted';
  // The examples hold submitted and dismissed reviews; an edit has the shape of a submission.
  const event = example<PullRequestReviewEvent>('pull_request_review', (e) =>
    action === 'dismissed' ? e.action === 'dismissed' : e.action === 'submitted',
  );
  (event as { action: string }).action = action;
  const repo = options.repo ?? REPO;
  applyRepository(event, repo);
  const number = options.number ?? 7;
  event.pull_request.number = number;
  event.pull_request.base.repo.full_name = `${repo.owner}/${repo.name}`;
  if (event.pull_request.head.repo)
    event.pull_request.head.repo.full_name = options.headRepo ?? `${repo.owner}/${repo.name}`;
  const review = event.review as PullRequestReviewEvent['review'] & Record<string, unknown>;
  review.id = options.reviewId ?? 3_000_000 + number;
  review.body = options.body;
  if (options.state) review.state = options.state;
  applyUser(review.user, options.author);
  review.author_association = options.author.association ?? 'NONE';
  return event;
}

/**
 * An issue labelled (`label`) or assigned (`assignee`) by `sender`; `state`/`locked` make it closed or
 * locked; `title` and `body` replace the example's.
 */
export function issuesEvent(options: {
  action: 'labeled' | 'assigned';
  sender: Person;
  label?: string;
  assignee?: string;
  number?: number;
  title?: string;
  body?: string;
  state?: 'open' | 'closed';
  locked?: boolean;
  repo?: Repo;
}): IssuesLabeledEvent | IssuesAssignedEvent {
  const event = example<IssuesLabeledEvent | IssuesAssignedEvent>(
    'issues',
    (e) => e.action === options.action,
  );
  applyRepository(event, options.repo ?? REPO);
  const issue = event.issue as unknown as Record<string, unknown>;
  issue.number = options.number ?? 12;
  if (options.title !== undefined) issue.title = options.title;
  if (options.body !== undefined) issue.body = options.body;
  issue.state = options.state ?? 'open';
  issue.locked = options.locked ?? false;
  applyUser(event.sender, options.sender);
  const e = event as unknown as Record<string, { name?: string; login?: string }>;
  if (options.action === 'labeled') e.label.name = options.label ?? 'fix-me';
  else e.assignee.login = options.assignee ?? 'fix-bot';
  return event;
}

/** A comment on plain issue `number` (open unless `state` says otherwise). */
export function plainIssueCommentEvent(options: {
  body: string;
  author: Person;
  number?: number;
  commentId?: number;
  title?: string;
  issueBody?: string;
  state?: 'open' | 'closed';
  locked?: boolean;
}): IssueCommentEvent {
  const event = issueCommentEvent({ ...options, number: options.number ?? 12, onPullRequest: false });
  const issue = event.issue as unknown as Record<string, unknown>;
  if (options.title !== undefined) issue.title = options.title;
  if (options.issueBody !== undefined) issue.body = options.issueBody;
  issue.state = options.state ?? 'open';
  issue.locked = options.locked ?? false;
  return event;
}

export function pullRequestEvent(options: {
  action: 'opened' | 'synchronize' | 'closed' | 'labeled';
  author: Person;
  number?: number;
  repo?: Repo;
}): PullRequestEvent {
  const event = example<PullRequestEvent>('pull_request', (e) => e.action === options.action);
  applyRepository(event, options.repo ?? REPO);
  const number = options.number ?? 7;
  (event as { number: number }).number = number;
  event.pull_request.number = number;
  applyUser(event.pull_request.user, options.author);
  event.pull_request.author_association = options.author.association ?? 'NONE';
  return event;
}

export function pushEvent(options: {
  ref: string;
  pusher: Person;
  after?: string;
  deleted?: boolean;
  committerEmail?: string;
  repo?: Repo;
}): PushEvent {
  const event = example<PushEvent>('push', (e) => !!e.head_commit);
  applyRepository(event, options.repo ?? REPO);
  event.ref = options.ref;
  if (options.after) event.after = options.after;
  event.deleted = options.deleted ?? false;
  applyUser(event.sender, options.pusher);
  if (options.committerEmail && event.head_commit) event.head_commit.committer.email = options.committerEmail;
  return event;
}

export function workflowDispatchEvent(options: { sender: Person; repo?: Repo }): WorkflowDispatchEvent {
  const event = example<WorkflowDispatchEvent>('workflow_dispatch');
  applyRepository(event, options.repo ?? REPO);
  applyUser(event.sender, options.sender);
  return event;
}

/** Writes the payload where GITHUB_EVENT_PATH will point, as the runner does. */
export function writeEvent(dir: string, payload: unknown): string {
  const file = path.join(dir, 'event.json');
  fs.writeFileSync(file, JSON.stringify(payload));
  fs.chmodSync(file, 0o644);
  return file;
}
