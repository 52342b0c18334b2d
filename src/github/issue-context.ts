// What the command learns about an issue it makes a pull request of, as data for SANDBOX_CONTEXT_FILE:
// the issue (title, body, labels) and the comment that asked (which run this is, and the bot's earlier
// replies, are added by conversation.ts). Pure. Every text in it is untrusted and bounded; the file says
// what it left out.
import type { RunRequest } from './request.js';
import { cutToBytes } from '../ui/bounded-text.js';

export const MAX_ISSUE_TEXT_BYTES = 64 * 1024;

export interface IssueContext {
  event: string;
  /** What asked: `comment`, `label` or `assignment`. */
  trigger: string;
  issue: { number: number; title: string; body: string; labels: string[] };
  comment: { author: string; body: string } | null;
  cut: {
    issue_body: boolean;
    comment_body: boolean;
  };
}

export function issueContext(request: RunRequest): IssueContext {
  const issue = request.issue!;
  const body = cutToBytes(issue.body, MAX_ISSUE_TEXT_BYTES);
  const said = cutToBytes(issue.commentBody ?? '', MAX_ISSUE_TEXT_BYTES);
  const context: IssueContext = {
    event: request.event,
    trigger: issue.how,
    issue: {
      number: issue.number,
      title: cutToBytes(issue.title, 1024).text,
      body: body.text,
      labels: issue.labels.slice(0, 100).map((l) => cutToBytes(l, 100).text),
    },
    comment: request.comment ? { author: request.requester.login, body: said.text } : null,
    cut: { issue_body: body.cut, comment_body: said.cut },
  };
  return context;
}

/** The prompt file: the text after the trigger, or for a label or an assignment the title and the body. */
export function issuePrompt(request: RunRequest): string {
  if (request.comment) return request.comment.args;
  const issue = request.issue!;
  return cutToBytes(`${issue.title}\n\n${issue.body}`, MAX_ISSUE_TEXT_BYTES).text;
}
