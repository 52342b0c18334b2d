// `pull-request: true`, as create-pull-request does it: a run that pushed a branch that is not yet the head
// of an open pull request opens one (title, body, draft, labels; against `base` or the default branch).
// A later run finds it open and updates it, but only when this action opened it (its body carries a
// marker): someone else's pull request is reported, never rewritten. The decision is pure; the effects are
// a handful of API calls.
import type { RunOutcome } from '../run/run.js';
import type { PullRequestSettings, RunSettings } from '../settings/settings.js';
import type { GitHubApi, PullRequestSummary } from './api.js';
import { connectGitHub } from './api.js';
import { readActionContext } from './context.js';
import type { PrRunIo } from './bot-io.js';

/** Ends the body of every pull request this action opens: what later runs recognise it by. */
export const PULL_REQUEST_MARKER = '<!-- worktree-sandbox:pull-request -->';

export type PullRequestPlan =
  /** Nothing to open: why. */
  | { action: 'skip'; reason: string }
  /** The run worked on a pull request already (the bot): that one is the answer. */
  | { action: 'report'; pr: PullRequestSummary }
  /** Find the branch's open pull request; open one if there is none. */
  | { action: 'ensure'; head: string; base?: string };

export type PullRequestOperation = 'created' | 'updated' | 'unchanged' | 'none';

export interface PullRequestResult {
  operation: PullRequestOperation;
  pr?: PullRequestSummary;
  reason?: string;
}

/** What the run did, as far as opening a pull request goes. */
export interface PushedRun {
  /** The sandbox branch (empty: transient). */
  branch: string;
  pushed: boolean;
  pushReason?: string;
  /** The bot worked on this pull request. */
  workedOn?: PullRequestSummary;
}

export function planPullRequest(run: PushedRun, baseInput: string): PullRequestPlan {
  if (run.workedOn) return { action: 'report', pr: run.workedOn };
  if (!run.branch) return { action: 'skip', reason: 'a transient sandbox has no branch to propose' };
  if (!run.pushed)
    return {
      action: 'skip',
      reason: `the branch was not pushed${run.pushReason ? ` (${run.pushReason})` : ''}`,
    };
  const base = baseBranch(baseInput);
  if (base === run.branch)
    return { action: 'skip', reason: `${run.branch} is the base branch itself: there is nothing to propose` };
  return { action: 'ensure', head: run.branch, base };
}

/** `base` as a branch name (`refs/heads/x`, `origin/x` and `x` all name x); undefined: the default branch. */
export function baseBranch(base: string): string | undefined {
  const name = base
    .trim()
    .replace(/^refs\/heads\//, '')
    .replace(/^(refs\/remotes\/)?origin\//, '');
  if (!name || /^[0-9a-f]{7,64}$/i.test(name) || name === 'HEAD') return undefined;
  return name;
}

export function bodyWithMarker(body: string): string {
  return `${body.trimEnd()}\n\n${PULL_REQUEST_MARKER}\n`;
}

export function openedByThisAction(pr: Pick<PullRequestSummary, 'body'>): boolean {
  return pr.body.includes(PULL_REQUEST_MARKER);
}

/**
 * Carries out an `ensure` plan: finds, updates or opens the branch's pull request. A pull request GitHub
 * lists whose head is not the pushed branch of this repository is not used (api.ts, `isHeadOf`): one is
 * opened instead, and should the branch really have one, GitHub refuses and the step fails saying so.
 */
export async function ensurePullRequest(
  api: GitHubApi,
  plan: Extract<PullRequestPlan, { action: 'ensure' }>,
  settings: PullRequestSettings,
  debug: (message: string) => void,
): Promise<PullRequestResult> {
  const body = bodyWithMarker(settings.body);
  const existing = await api.openPullRequestFor(plan.head);
  if (existing) {
    if (!openedByThisAction(existing)) {
      debug(
        `Pull request #${existing.number} has ${plan.head} as its head and was not opened by this action: left as it is.`,
      );
      return { operation: 'unchanged', pr: existing };
    }
    debug(`Pull request #${existing.number} (opened by this action) has ${plan.head} as its head: updated.`);
    await api.updatePullRequest(existing.number, { title: settings.title, body });
    if (settings.labels.length) await api.addLabels(existing.number, settings.labels);
    return { operation: 'updated', pr: { ...existing, body } };
  }
  const base = plan.base ?? (await api.defaultBranch());
  debug(`No open pull request has ${plan.head} as its head: opening one against ${base}.`);
  const pr = await api.createPullRequest({
    head: plan.head,
    base,
    title: settings.title,
    body,
    draft: settings.draft,
  });
  if (settings.labels.length) await api.addLabels(pr.number, settings.labels);
  return { operation: 'created', pr };
}

type ProposeIo = Pick<PrRunIo, 'ui' | 'debug' | 'env' | 'setOutput' | 'summary' | 'api' | 'redaction'>;

/**
 * The action's one step after a run with `pull-request: true`: sets `pull-request-number`,
 * `pull-request-url` and `pull-request-operation`. An API refusal fails the step, saying what to change.
 */
export async function proposePullRequest(
  settings: RunSettings,
  outcome: RunOutcome & { pullRequest?: { number: number; htmlUrl: string } },
  io: ProposeIo,
): Promise<PullRequestResult> {
  const plan = planPullRequest(
    {
      branch: outcome.sandbox.branch,
      pushed: outcome.push?.pushed === true,
      pushReason: outcome.push?.reason,
      workedOn: outcome.pullRequest && { ...outcome.pullRequest, body: '' },
    },
    settings.base,
  );
  io.debug(`Pull request: ${plan.action}${'reason' in plan ? ` (${plan.reason})` : ''}.`);
  let result: PullRequestResult;
  if (plan.action === 'skip') {
    io.ui.info(`No pull request opened: ${plan.reason}.`);
    result = { operation: 'none', reason: plan.reason };
  } else if (plan.action === 'report') result = { operation: 'unchanged', pr: plan.pr };
  else {
    const ctx = readActionContext(io.env);
    const api = await connectGitHub(settings.token, ctx.apiUrl, ctx.repository, io.redaction, {
      warn: (m) => io.ui.warning(m),
      ...io.api,
    });
    result = await ensurePullRequest(api, plan, settings.pullRequest, io.debug).catch((error: unknown) => {
      throw new Error(`Could not open or update the pull request of ${plan.head}: ${explain(error)}`, {
        cause: error,
      });
    });
    if (result.operation !== 'unchanged')
      io.ui.info(`Pull request #${result.pr!.number} ${result.operation}: ${result.pr!.htmlUrl}`);
    else
      io.ui.info(`Pull request #${result.pr!.number} already proposes ${plan.head}: ${result.pr!.htmlUrl}`);
    await io.summary(`Pull request [#${result.pr!.number}](${result.pr!.htmlUrl}): ${result.operation}.\n\n`);
  }
  io.setOutput('pull-request-number', result.pr ? String(result.pr.number) : '');
  io.setOutput('pull-request-url', result.pr?.htmlUrl ?? '');
  io.setOutput('pull-request-operation', result.operation);
  return result;
}

function explain(error: unknown): string {
  const message = (error as Error).message ?? String(error);
  if (/not permitted to create or approve pull requests/i.test(message))
    return `${message}. Allow it in the repository's Settings > Actions > General ("Allow GitHub Actions to create and approve pull requests"), or give 'token' a GitHub App or personal access token.`;
  return message;
}
