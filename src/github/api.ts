// The few GitHub REST calls the pull-request bot makes, behind one small interface. Octokit is loaded
// only when a run needs it; the API root comes from GITHUB_API_URL, so GitHub Enterprise Server
// (https://HOST/api/v3) works as github.com does. Calls survive transient faults (api-resilience.ts).
// Every request passes the run's one redaction (run/redaction.ts) as its last step: whatever a call sends
// (a comment, a pull request's body, a reply in a review thread, one added later), no known secret goes.
import type { RepositoryPermission } from './permissions.js';
import { readPages, resilienceOptions, type ApiOptions } from './api-resilience.js';
import { loadHttpClient } from '../bundle/http-client-on-demand.js';
import { loadUndici } from '../bundle/undici-on-demand.js';
import type { Redaction } from '../run/redaction.js';
import { listIssueComments, listReviewComments, type IssueCommentInfo } from './api-comments.js';

export { MAX_COMMENT_PAGES, type IssueCommentInfo } from './api-comments.js';

export interface RepositoryName {
  owner: string;
  repo: string;
}

export interface PullRequestInfo {
  number: number;
  /** `open` or `closed`. */
  state: string;
  htmlUrl: string;
  headRef: string;
  headSha: string;
  /** `owner/name` of the head repository; empty when the fork was deleted. */
  headRepo: string;
  headCloneUrl: string;
  baseRepo: string;
  maintainerCanModify: boolean;
}

export type Reaction = 'eyes' | 'rocket' | 'confused' | '-1';

/** An open pull request as a list answers it: enough to report it and to tell whether we opened it. */
export interface PullRequestSummary {
  number: number;
  htmlUrl: string;
  body: string;
}

/** A comment of a review thread on a line of the diff, as the list of a pull request's review comments gives it. */
export interface ReviewThreadComment {
  id: number;
  author: string;
  body: string;
  /** The thread's first comment (absent on the first comment itself). */
  inReplyTo?: number;
}

/** A comment of a submitted review, on a line of the diff, as the review's list of comments gives it. */
export interface ReviewComment extends ReviewThreadComment {
  path: string;
  /** The line (the last of a multi-line comment); null once the line has left the diff. */
  line: number | null;
  startLine: number | null;
  side: string | null;
  diffHunk: string;
}

/** Pages of 100 review comments read at most when a thread is looked for (a bound in count and time). */
export const MAX_REVIEW_COMMENT_PAGES = 10;

export interface NewPullRequest {
  head: string;
  base: string;
  title: string;
  body: string;
  draft: boolean;
}

/**
 * Whether a pull request GitHub listed for a branch really has that branch of this repository as its head:
 * a list answer is checked before it is used (the filter is the server's, and an answer can be wrong).
 * Branch names are compared exactly; repository names as GitHub does, without regard to case.
 */
export function isHeadOf(
  listed: { ref?: unknown; repo?: unknown },
  branch: string,
  repository: string,
): boolean {
  return (
    listed.ref === branch &&
    typeof listed.repo === 'string' &&
    listed.repo.toLowerCase() === repository.toLowerCase()
  );
}

export interface GitHubApi {
  pullRequest(number: number): Promise<PullRequestInfo>;
  /**
   * The open pull request whose head is `branch` in this repository, if any. One GitHub lists with
   * another head is not used (it is told through `warn`): the answer is then none.
   */
  openPullRequestFor(branch: string): Promise<PullRequestSummary | undefined>;
  defaultBranch(): Promise<string>;
  createPullRequest(pr: NewPullRequest): Promise<PullRequestSummary>;
  updatePullRequest(number: number, change: { title: string; body: string }): Promise<void>;
  addLabels(issueNumber: number, labels: string[]): Promise<void>;
  permission(login: string): Promise<RepositoryPermission>;
  /** Whether the token may push to `owner/name` (the API's `permissions.push` for its holder). */
  canPush(fullName: string): Promise<boolean>;
  createComment(issueNumber: number, body: string): Promise<number>;
  updateComment(commentId: number, body: string): Promise<void>;
  react(commentId: number, content: Reaction): Promise<void>;
  /** A reply in the review thread that `threadId` starts (comments on a line of the diff). */
  replyInReviewThread(prNumber: number, threadId: number, body: string): Promise<number>;
  updateReviewComment(commentId: number, body: string): Promise<void>;
  reactToReviewComment(commentId: number, content: Reaction): Promise<void>;
  /** The conversation's newest comments, oldest first (at most MAX_COMMENT_PAGES pages are read). */
  issueComments(issueNumber: number): Promise<IssueCommentInfo[]>;
  /** The newest review comments on the pull request's diff, oldest first (MAX_COMMENT_PAGES pages). */
  reviewComments(prNumber: number): Promise<IssueCommentInfo[]>;
  removeLabel(issueNumber: number, label: string): Promise<void>;
  /** The comments of thread `threadId`, oldest first (at most MAX_REVIEW_COMMENT_PAGES pages are read). */
  reviewThread(prNumber: number, threadId: number): Promise<ReviewThreadComment[]>;
  /** The comments of review `reviewId`, as GitHub lists them (at most MAX_REVIEW_COMMENT_PAGES pages are read). */
  commentsOfReview(prNumber: number, reviewId: number): Promise<ReviewComment[]>;
}

export function apiUrl(env: NodeJS.ProcessEnv): string {
  return (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');
}

export async function connectGitHub(
  token: string,
  baseUrl: string,
  repo: RepositoryName,
  redaction: Redaction,
  options: ApiOptions = {},
): Promise<GitHubApi> {
  if (!token) throw new Error("The pull-request bot needs the 'token' input to call the GitHub API.");
  const [{ getOctokit }, { retry }, { throttling }] = await Promise.all([
    // @actions/github builds a proxy agent with @actions/http-client and undici as it loads
    // (synchronously): both first (src/bundle/http-client-on-demand.ts, undici-on-demand.ts).
    Promise.all([loadUndici(), loadHttpClient()]).then(() => import('@actions/github')),
    import('@octokit/plugin-retry'),
    import('@octokit/plugin-throttling'),
  ]);
  const octokit = getOctokit(
    token,
    { baseUrl, userAgent: 'worktree-sandbox', ...resilienceOptions(options) },
    retry,
    throttling,
  );
  octokit.hook.before('request', (request) => redactParameters(request, redaction));
  const { owner, repo: name } = repo;
  // Only these two: any other field of `repo` would go out as a parameter of every call.
  const at = { owner, repo: name };
  return {
    async pullRequest(number) {
      const { data } = await octokit.rest.pulls.get({ ...at, pull_number: number });
      return {
        number: data.number,
        state: data.state,
        htmlUrl: data.html_url,
        headRef: data.head.ref,
        headSha: data.head.sha,
        headRepo: data.head.repo?.full_name ?? '',
        headCloneUrl: data.head.repo?.clone_url ?? '',
        baseRepo: data.base.repo.full_name,
        maintainerCanModify: data.maintainer_can_modify === true,
      };
    },
    async openPullRequestFor(branch) {
      const { data } = await octokit.rest.pulls.list({
        ...at,
        head: `${owner}:${branch}`,
        state: 'open',
        per_page: 1,
      });
      const pr = data[0];
      if (!pr) return undefined;
      const head = { ref: pr.head?.ref, repo: pr.head?.repo?.full_name };
      if (!isHeadOf(head, branch, `${owner}/${name}`)) {
        // Quoted: whatever GitHub (or whatever answered in its place) wrote there.
        options.warn?.(
          `GitHub listed pull request ${JSON.stringify(pr.number)} as the open one of ${owner}:${branch}, but its head is ${JSON.stringify(String(head.repo ?? '(no repository)').slice(0, 200))}:${JSON.stringify(String(head.ref ?? '').slice(0, 200))}: not used.`,
        );
        return undefined;
      }
      return { number: pr.number, htmlUrl: pr.html_url, body: pr.body ?? '' };
    },
    async defaultBranch() {
      const { data } = await octokit.rest.repos.get({ ...at });
      return data.default_branch;
    },
    async createPullRequest(pr) {
      const { data } = await octokit.rest.pulls.create({ ...at, ...pr });
      return { number: data.number, htmlUrl: data.html_url, body: data.body ?? '' };
    },
    async updatePullRequest(number, change) {
      await octokit.rest.pulls.update({ ...at, pull_number: number, ...change });
    },
    async addLabels(issueNumber, labels) {
      await octokit.rest.issues.addLabels({ ...at, issue_number: issueNumber, labels });
    },
    async permission(login) {
      try {
        const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ ...at, username: login });
        return { permission: data.permission, roleName: data.role_name };
      } catch (error) {
        // 404: not a collaborator (or no such user): no permission.
        if (status(error) === 404) return { permission: 'none' };
        throw error;
      }
    },
    async canPush(fullName) {
      const [o, r] = fullName.split('/');
      try {
        const { data } = await octokit.rest.repos.get({ owner: o, repo: r });
        return data.permissions?.push === true;
      } catch (error) {
        if (status(error) === 404 || status(error) === 403) return false;
        throw error;
      }
    },
    async createComment(issueNumber, body) {
      const { data } = await octokit.rest.issues.createComment({ ...at, issue_number: issueNumber, body });
      return data.id;
    },
    async updateComment(commentId, body) {
      await octokit.rest.issues.updateComment({ ...at, comment_id: commentId, body });
    },
    async react(commentId, content) {
      await octokit.rest.reactions.createForIssueComment({ ...at, comment_id: commentId, content });
    },
    async replyInReviewThread(prNumber, threadId, body) {
      const { data } = await octokit.rest.pulls.createReplyForReviewComment({
        ...at,
        pull_number: prNumber,
        comment_id: threadId,
        body,
      });
      return data.id;
    },
    async updateReviewComment(commentId, body) {
      await octokit.rest.pulls.updateReviewComment({ ...at, comment_id: commentId, body });
    },
    async reactToReviewComment(commentId, content) {
      await octokit.rest.reactions.createForPullRequestReviewComment({
        ...at,
        comment_id: commentId,
        content,
      });
    },
    issueComments: (issueNumber) => listIssueComments(octokit, at, issueNumber),
    reviewComments: (prNumber) => listReviewComments(octokit, at, prNumber),
    async removeLabel(issueNumber, label) {
      await octokit.rest.issues.removeLabel({ ...at, issue_number: issueNumber, name: label });
    },
    async reviewThread(prNumber, threadId) {
      const data = await readPages(MAX_REVIEW_COMMENT_PAGES, (page) =>
        octokit.rest.pulls.listReviewComments({ ...at, pull_number: prNumber, ...page }),
      );
      return data
        .filter((c) => c.id === threadId || c.in_reply_to_id === threadId)
        .map((c) => ({
          id: c.id,
          author: c.user?.login ?? '',
          body: c.body ?? '',
          inReplyTo: c.in_reply_to_id ?? undefined,
        }))
        .sort((a, b) => a.id - b.id);
    },
    async commentsOfReview(prNumber, reviewId) {
      const data = await readPages(MAX_REVIEW_COMMENT_PAGES, (page) =>
        octokit.rest.pulls.listCommentsForReview({
          ...at,
          pull_number: prNumber,
          review_id: reviewId,
          ...page,
        }),
      );
      return data.map((c) => ({
        id: c.id,
        author: c.user?.login ?? '',
        path: c.path,
        line: c.line ?? null,
        startLine: c.start_line ?? null,
        side: c.side ?? null,
        diffHunk: c.diff_hunk,
        body: c.body,
      }));
    },
  };
}

/** What the client itself sets (the token is in the headers): everything else a call sends is redacted. */
const OWN_PARAMETERS = new Set(['method', 'url', 'baseUrl', 'headers', 'request', 'mediaType']);

/** Redacts, in place, every text a request carries: its parameters, and the texts in their lists. */
export function redactParameters(parameters: Record<string, unknown>, redaction: Redaction): void {
  const clean = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return redaction.redact(value);
    if (depth > 4 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((v) => clean(v, depth + 1));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clean(v, depth + 1)]));
  };
  for (const [key, value] of Object.entries(parameters))
    if (!OWN_PARAMETERS.has(key)) parameters[key] = clean(value, 0);
}

function status(error: unknown): number | undefined {
  const s = (error as { status?: unknown } | undefined)?.status;
  return typeof s === 'number' ? s : undefined;
}
