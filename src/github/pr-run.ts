// The pull-request bot, as a story around the run mode: decide from the event, check who asked, look the
// pull request up, say on it that the run started, run the sandbox on its head, deliver the changes (push,
// or a patch for a fork), and rewrite the progress comment with the outcome.
// The comment's text reaches the command only as data: read-only files named by $SANDBOX_PROMPT_FILE and,
// for a comment on a line of the diff or a review, $SANDBOX_CONTEXT_FILE (run-files.ts).
import * as fs from 'node:fs/promises';
import type { GitCommands } from '../engine/git-commands.js';
import { createGit } from '../engine/git.js';
import { withRepositoryLock } from '../sandbox/lock.js';
import { findParentRepository, type ParentRepository } from '../sandbox/repository.js';
import type { ProgressContext } from '../run/progress-data.js';
import type { PushDestination } from '../run/push.js';
import { runSandbox, type RunDeps, type RunOutcome } from '../run/run.js';
import type { Redaction } from '../run/redaction.js';
import type { RunSettings } from '../settings/settings.js';
import type { Ui } from '../ui/ui.js';
import { apiUrl, connectGitHub, type GitHubApi, type PullRequestInfo } from './api.js';
import { setBotOutputs, type PrRunIo, type PrRunOutcome } from './bot-io.js';
import { readActionContext, type ActionContext } from './context.js';
import { decideEvent, describeRequest } from './event.js';
import type { RunRequest } from './request.js';
import { commentContext, ownComment, readConversation, withConversation } from './conversation.js';
import { finishStoppedProgress, PullRequestFeedback, type ProgressState } from './feedback.js';
import { checkPermission, checkRequester, needsPermissionCheck } from './permissions.js';
import { describeOutcome, reportRun } from './pr-outcome.js';
import { ensureLocalBranch, fetchPullHead, pointRef } from './pr-git.js';
import { readReviewContext, type ReviewContext } from './review-body-context.js';
import { reviewCommentContext } from './review-context.js';
import {
  removeRequestFiles,
  requestFilesForCommand,
  writeRequestFiles,
  type RequestFiles,
} from './run-files.js';
import {
  describeTarget,
  needsForkAccessCheck,
  planBranchTarget,
  planPullRequestTarget,
  type RunTarget,
} from './target.js';

export type { PrRunIo, PrRunOutcome } from './bot-io.js';

/** Runs the sandbox for a pull-request event; undefined when the event starts no run (which is no failure). */
export async function runForPullRequest(
  settings: RunSettings,
  io: PrRunIo,
): Promise<PrRunOutcome | undefined> {
  const payload = await readEvent(io.env.GITHUB_EVENT_PATH);
  const ctx = readActionContext(io.env, payload);
  const repo = `${ctx.repository.owner}/${ctx.repository.repo}`;
  const decision = decideEvent(ctx.eventName, payload, settings.trigger, settings.committer.email);
  io.debug(
    `Event: ${ctx.eventName} on ${repo}: ${decision.run ? describeRequest(decision.request) : `no run (${decision.reason})`}.`,
  );
  if (!decision.run) return notTriggered(io, decision.reason);
  const { request } = decision;

  const first = checkRequester(request.requester, settings.trigger);
  io.debug(`Gate, who asked: ${first.allowed ? `allowed: ${first.why}` : `refused: ${first.reason}`}.`);
  if (!first.allowed && first.silent) return notTriggered(io, first.reason, knownOf(request));
  const api = await connectGitHub(settings.token, ctx.apiUrl, ctx.repository, io.redaction, {
    warn: (m) => io.ui.warning(m),
    ...io.api,
  });
  if (!first.allowed) return refuse(io, api, request, `not allowed: ${first.reason}`);
  if (needsPermissionCheck(request.requester)) {
    const level = await api.permission(request.requester.login);
    const verdict = checkPermission(request.requester, level);
    io.debug(
      `Gate, permission: @${request.requester.login} has permission ${level.permission}, role ${level.roleName ?? 'none'}: ${verdict.allowed ? `allowed: ${verdict.why}` : `refused: ${verdict.reason}`}.`,
    );
    if (!verdict.allowed) return refuse(io, api, request, `not allowed: ${verdict.reason}`);
    io.ui.info(`Requested by @${request.requester.login}: ${first.why}; ${verdict.why}.`);
  } else io.ui.info(`Requested by @${request.requester.login}: ${first.why}.`);

  if (request.issue) {
    const { runForIssue } = await import('./issue-run.js');
    return runForIssue(settings, io, { ctx, api, request });
  }
  const pr = await findPullRequest(api, request, io.ui);
  if (pr && pr.state !== 'open')
    return refuse(io, api, request, `pull request #${pr.number} is ${pr.state}`, 'confused');
  if (settings.branch)
    io.ui.warning(
      `The 'branch' input is not used on ${ctx.eventName}: the run works on the pull request's branch.`,
    );
  const canPushFork = pr && needsForkAccessCheck(pr, settings.push) ? await api.canPush(pr.headRepo) : false;
  const target = pr
    ? planPullRequestTarget(pr, settings.push, canPushFork)
    : planBranchTarget(request.pushedBranch!, settings.push);
  io.debug(`Target: ${describeTarget(pr, target)}.`);
  const outcome = await runTarget(settings, io, { ctx, api, request, pr, target });
  return { ...outcome, pullRequest: pr };
}

interface PlannedRun {
  ctx: ActionContext;
  api: GitHubApi;
  request: RunRequest;
  pr?: PullRequestInfo;
  target: RunTarget;
}

async function runTarget(settings: RunSettings, io: PrRunIo, run: PlannedRun): Promise<RunOutcome> {
  const { ctx, api, request, pr, target } = run;
  const { ui, text } = io;
  const progress: ProgressContext = {
    what: request.comment?.trigger ?? request.event,
    requester: request.requester.login,
    runUrl: ctx.runUrl,
    branch: pr && target.fork ? `${pr.headRepo || 'deleted fork'}:${pr.headRef}` : target.branch,
    headSha: pr?.headSha,
  };
  const start = { prNumber: pr?.number, trigger: request.comment?.trigger, event: request.event };
  const feedback = new PullRequestFeedback(
    api,
    ui,
    {
      repository: ctx.repository,
      issueNumber: pr?.number,
      // A review has no reactions API: its feedback is the progress comment alone.
      triggerCommentId: request.review ? undefined : request.comment?.id,
      reviewThreadId: request.reviewComment?.threadId,
    },
    io.save,
  );
  setBotOutputs(io, {
    triggered: 'true',
    prNumber: pr?.number,
    commentId: request.comment?.id,
    args: request.comment?.args,
  });
  await feedback.react('eyes');
  // Read before the progress reply is made, which would otherwise be part of the thread.
  const context = await requestContext(api, request, io);
  await feedback.start(progress, text.running(progress));
  // Read once this run's progress comment exists: its author is the account the bot's replies are by.
  const own = ownComment(feedback.progressCommentId, request.reviewComment !== undefined);
  const conversation =
    pr && request.comment
      ? await readConversation(api, pr.number, true, own, (m) => ui.warning(m))
      : undefined;

  let files: RequestFiles | undefined;
  try {
    return await reportRun(io, feedback, progress, start, async () => {
      const git = await createGit();
      const parent = await findParentRepository(git, settings.repositoryPath);
      await prepareForkBranch(git, parent, target, ui);
      if (request.comment)
        files = await writeRequestFiles(
          ctx.runnerTemp,
          request.comment.id,
          request.comment.args,
          conversation ? withConversation(context ?? commentContext(request), conversation) : context,
        );
      const deps: RunDeps = {
        ui,
        save: io.save,
        command: files ? requestFilesForCommand(files) : undefined,
        pushTo: pushDestination(target),
        tail: true,
      };
      const outcome = await runSandbox({ ...settings, branch: target.branch, base: '' }, deps);
      const finished = await describeOutcome(git, parent.path, settings, io, ctx, target, pr, outcome);
      return { outcome, finished };
    });
  } finally {
    await removeRequestFiles(files);
  }
}

/** The context file's data: a diff comment's place and thread, or a review's comments. */
async function requestContext(
  api: GitHubApi,
  request: RunRequest,
  io: PrRunIo,
): Promise<ReviewContext | ReturnType<typeof reviewCommentContext> | undefined> {
  if (request.review) return readReviewContext(api, request, io.ui);
  const rc = request.reviewComment;
  if (!rc) return undefined;
  // A thread's first comment has nothing before it: no call needed.
  if (rc.threadId === rc.id) return reviewCommentContext(request, []);
  try {
    return reviewCommentContext(request, await api.reviewThread(request.prNumber!, rc.threadId));
  } catch (error) {
    io.ui.warning(`Could not read the review thread: ${(error as Error).message}`);
    return reviewCommentContext(request, { error: (error as Error).message });
  }
}

async function findPullRequest(
  api: GitHubApi,
  request: RunRequest,
  ui: Ui,
): Promise<PullRequestInfo | undefined> {
  if (request.prNumber) return api.pullRequest(request.prNumber);
  const branch = request.pushedBranch!;
  try {
    const open = await api.openPullRequestFor(branch);
    if (open) return api.pullRequest(open.number);
    ui.info(`No open pull request has ${branch} as its head: the run reports in the job summary only.`);
  } catch (error) {
    ui.warning(`Could not look for a pull request of ${branch}: ${(error as Error).message}`);
  }
  return undefined;
}

/**
 * A fork's head is fetched from origin (`refs/pull/N/head`), outside the repository lock (a slow origin
 * holds up no other run of the parent), then recorded and given its local branch, once, under the lock.
 */
async function prepareForkBranch(
  git: GitCommands,
  parent: ParentRepository,
  target: RunTarget,
  ui: Ui,
): Promise<void> {
  const fetch = target.fetch;
  if (!fetch) return;
  const head = await fetchPullHead(git, parent.path, fetch.ref);
  const created = await withRepositoryLock(parent.gitDir, async () => {
    await pointRef(git, parent.path, fetch.into, head);
    return ensureLocalBranch(git, parent.path, target.branch, head);
  });
  if (created) ui.info(`Branch ${target.branch} created at the fork's head ${head.slice(0, 12)}.`);
  else ui.info(`Branch ${target.branch} exists (a sandbox kept from an earlier run): reused as it is.`);
}

function pushDestination(target: RunTarget): RunDeps['pushTo'] {
  const { delivery } = target;
  if (delivery.kind === 'patch') return { withheld: delivery.reason };
  if (delivery.kind !== 'fork') return undefined;
  const to: PushDestination = {
    url: delivery.url,
    branch: delivery.branch,
    trackingRef: delivery.trackingRef,
    label: `${delivery.repo}:${delivery.branch}`,
  };
  return to;
}

/** A request that starts no run (someone not allowed, a closed pull request): a reaction says so; the step succeeds. */
async function refuse(
  io: PrRunIo,
  api: GitHubApi,
  request: RunRequest,
  reason: string,
  reaction: '-1' | 'confused' = '-1',
): Promise<undefined> {
  if (request.comment && !request.review) {
    const id = request.comment.id;
    await (request.reviewComment ? api.reactToReviewComment(id, reaction) : api.react(id, reaction)).catch(
      (error: Error) => io.ui.warning(`Could not add a reaction to the comment: ${error.message}`),
    );
  }
  return notTriggered(io, reason, knownOf(request));
}

/** What the outputs tell of a request that starts no run. */
function knownOf(request: RunRequest) {
  return { prNumber: request.prNumber, issueNumber: request.issue?.number, commentId: request.comment?.id };
}

async function notTriggered(
  io: PrRunIo,
  reason: string,
  known: { prNumber?: number; issueNumber?: number; commentId?: number } = {},
): Promise<undefined> {
  io.ui.info(`No run: ${reason}.`);
  setBotOutputs(io, { triggered: 'false', ...known });
  await io.summary(io.text.noRunSummary(reason));
  return undefined;
}

async function readEvent(eventPath: string | undefined): Promise<unknown> {
  if (!eventPath) return {};
  try {
    return JSON.parse(await fs.readFile(eventPath, 'utf8')) as unknown;
  } catch (error) {
    throw new Error(`Cannot read the event payload ${eventPath}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** Post step: rewrites a progress comment the main step left "running" with `body`. Never throws. */
export async function finishProgressInPost(
  progress: ProgressState,
  body: string,
  token: string,
  redaction: Redaction,
  ui: Ui,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  try {
    const api = await connectGitHub(
      token,
      apiUrl(env),
      { owner: progress.owner, repo: progress.repo },
      redaction,
      { warn: (m) => ui.warning(m) },
    );
    await finishStoppedProgress(api, progress, body, ui);
  } catch (error) {
    ui.warning(`Could not finish the progress comment: ${(error as Error).message}`);
  }
}
