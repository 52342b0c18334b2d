// The comment lists the bot reads to know what it said before on a pull request or an issue: the
// conversation's comments and the review comments on its diff, each the newest pages only (a bound in
// count and time that keeps what matters most: the latest replies). The conversation's list has no order
// parameter, so its `Link` header tells which page is the last; the review comments are asked newest
// first. Both are returned oldest first, with when each comment was made, so that they can be merged.
import type { getOctokit } from '@actions/github';
import { readPages } from './api-resilience.js';

type Octokit = ReturnType<typeof getOctokit>;

/** A comment on the conversation of an issue or a pull request, or on a line of a pull request's diff. */
export interface IssueCommentInfo {
  id: number;
  author: string;
  /** `User`, `Bot`, ... as GitHub reports the author's account. */
  authorType: string;
  body: string;
  /** When it was made (ISO 8601, as GitHub writes it): the order across the two lists. */
  createdAt: string;
}

/** Pages of 100 comments read at most from one list (a bound in count and time). */
export const MAX_COMMENT_PAGES = 10;
const PER_PAGE = 100;

interface Listed {
  id: number;
  body?: string | null;
  created_at?: string;
  user?: { login?: string; type?: string } | null;
}

function info(c: Listed): IssueCommentInfo {
  return {
    id: c.id,
    author: c.user?.login ?? '',
    authorType: c.user?.type ?? '',
    body: c.body ?? '',
    createdAt: c.created_at ?? '',
  };
}

/** The number of the last page a `Link` header names, if it names one. */
export function lastPage(link: string | undefined): number | undefined {
  const match = /<[^>]*[?&]page=(\d+)[^>]*>;\s*rel="last"/.exec(link ?? '');
  const n = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The conversation's newest MAX_COMMENT_PAGES pages, oldest first. */
export async function listIssueComments(
  octokit: Octokit,
  at: { owner: string; repo: string },
  issueNumber: number,
): Promise<IssueCommentInfo[]> {
  const page = async (n: number) => {
    const response = await octokit.rest.issues.listComments({
      ...at,
      issue_number: issueNumber,
      per_page: PER_PAGE,
      page: n,
    });
    return { data: response.data as Listed[], link: response.headers.link };
  };
  const first = await page(1);
  const last = lastPage(first.link);
  // No `Link` to go by: page after page from the first, as long as pages are full.
  if (last === undefined)
    return (
      await readPages(MAX_COMMENT_PAGES, (p) => (p.page === 1 ? Promise.resolve(first) : page(p.page)))
    ).map(info);
  const comments: Listed[] = [];
  const from = Math.max(1, last - MAX_COMMENT_PAGES + 1);
  if (from === 1) comments.push(...first.data);
  for (let n = Math.max(2, from); n <= last; n++) comments.push(...(await page(n)).data);
  return comments.map(info);
}

/** The review comments on the pull request's diff: the newest MAX_COMMENT_PAGES pages, oldest first. */
export async function listReviewComments(
  octokit: Octokit,
  at: { owner: string; repo: string },
  prNumber: number,
): Promise<IssueCommentInfo[]> {
  const comments = await readPages<Listed>(MAX_COMMENT_PAGES, (page) =>
    octokit.rest.pulls.listReviewComments({
      ...at,
      pull_number: prNumber,
      sort: 'created',
      direction: 'desc',
      ...page,
    }),
  );
  return comments.reverse().map(info);
}
