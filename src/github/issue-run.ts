// An issue made into a pull request: the run works in the issue's own branch (`issue-branch-prefix` and
// its number: continued when origin has it, else made from `base` or the repository's default branch as
// the API names it, fetched from origin), tells its
// progress in one comment on the issue, pushes, and opens or updates the pull request that closes the
// issue. A later request on the same issue finds the same branch and sandbox (its HOME kept), and the
// context file tells the command which run this is and what the bot replied before.
import { createGit } from '../engine/git.js';
import type { GitCommands } from '../engine/git-commands.js';
import { findParentRepository } from '../sandbox/repository.js';
import type { FinishedRun, ProgressContext } from '../run/progress-data.js';
import { runSandbox } from '../run/run.js';
import type { RunSettings } from '../settings/settings.js';
import type { GitHubApi, PullRequestSummary } from './api.js';
import { setBotOutputs, type PrRunIo, type PrRunOutcome } from './bot-io.js';
import type { ActionContext } from './context.js';
import { ownComment, readConversation, withConversation } from './conversation.js';
import { PullRequestFeedback } from './feedback.js';
import { issueContext, issuePrompt } from './issue-context.js';
import { describeOutcome, reportRun } from './pr-outcome.js';
import { baseBranch, ensurePullRequest } from './pull-request.js';
import type { RunRequest } from './request.js';
import {
  removeRequestFiles,
  requestFilesForCommand,
  writeRequestFiles,
  type RequestFiles,
} from './run-files.js';
import { planBranchTarget } from './target.js';

export function issueBranch(prefix: string, issueNumber: number): string {
  return `${prefix}${issueNumber}`;
}

export async function runForIssue(
  settings: RunSettings,
  io: PrRunIo,
  planned: { ctx: ActionContext; api: GitHubApi; request: RunRequest },
): Promise<PrRunOutcome> {
  const { ctx, api, request } = planned;
  const issue = request.issue!;
  const { ui, text } = io;
  const branch = issueBranch(settings.trigger.issueBranchPrefix, issue.number);
  if (settings.branch) ui.warning(`The 'branch' input is not used on an issue: the run works on ${branch}.`);
  const progress: ProgressContext = {
    what: request.comment?.trigger ?? (issue.how === 'label' ? `label ${issue.label}` : 'assignment'),
    requester: request.requester.login,
    runUrl: ctx.runUrl,
    branch,
  };
  const start = { issueNumber: issue.number, trigger: request.comment?.trigger, event: request.event };
  const feedback = new PullRequestFeedback(
    api,
    ui,
    { repository: ctx.repository, issueNumber: issue.number, triggerCommentId: request.comment?.id },
    io.save,
  );
  setBotOutputs(io, {
    triggered: 'true',
    issueNumber: issue.number,
    commentId: request.comment?.id,
    args: request.comment?.args,
  });
  await feedback.react('eyes');
  await feedback.start(progress, text.running(progress));
  // Read once this run's progress comment exists: its author is the account the bot's replies are by.
  const own = feedback.progressCommentId;
  const conversation = await readConversation(api, issue.number, false, ownComment(own, false), (m) =>
    ui.warning(m),
  );
  const context = withConversation(issueContext(request), conversation);
  io.debug(`Issue #${issue.number}: run ${context.run} on ${branch}.`);

  let files: RequestFiles | undefined;
  let opened: PullRequestSummary | undefined;
  try {
    const ran = await reportRun(io, feedback, progress, start, async () => {
      const git = await createGit();
      const parent = await findParentRepository(git, settings.repositoryPath);
      const base = await issueBase(settings, api, git, parent.path, io);
      files = await writeRequestFiles(
        ctx.runnerTemp,
        request.comment?.id ?? issue.number,
        issuePrompt(request),
        context,
      );
      const outcome = await runSandbox(
        { ...settings, branch, base: base.commit },
        { ui, save: io.save, command: requestFilesForCommand(files), tail: true },
      );
      const target = planBranchTarget(branch, settings.push);
      const finished = await describeOutcome(git, parent.path, settings, io, ctx, target, undefined, outcome);
      const on = { issueNumber: issue.number, branch, base: base.branch };
      if (finished.pushed) opened = await openPullRequest(settings, io, api, on, finished);
      return { outcome, finished: opened ? { ...finished, pullRequest: opened } : finished };
    });
    return { ...ran, pullRequest: opened };
  } finally {
    await removeRequestFiles(files);
    if (issue.how === 'label' && issue.label) await removeTriggerLabel(api, io, issue.number, issue.label);
  }
}

/**
 * Where a new issue branch starts: `base` when given; else the repository's default branch as the API
 * names it (GET /repos/{owner}/{repo} `default_branch`), fetched from origin, since the checked-out HEAD
 * may be any commit the workflow chose. Also the pull request's base.
 */
async function issueBase(
  settings: RunSettings,
  api: GitHubApi,
  git: GitCommands,
  parentPath: string,
  io: PrRunIo,
): Promise<{ commit: string; branch?: string }> {
  if (settings.base) return { commit: settings.base, branch: baseBranch(settings.base) };
  const branch = checkedBranchName(await api.defaultBranch());
  const commit = await git.fetchCommit(
    parentPath,
    'origin',
    `refs/heads/${branch}`,
    `fetching the default branch ${branch} from origin`,
  );
  io.debug(`Base: the default branch ${branch}, at ${commit.slice(0, 12)} on origin.`);
  return { commit, branch };
}

/** A branch name as the API gave it, used in a refspec and a ref: only the plain characters git allows. */
export function checkedBranchName(name: unknown): string {
  const ok =
    typeof name === 'string' &&
    name.length <= 255 &&
    /^[A-Za-z0-9_][A-Za-z0-9._/-]*$/.test(name) &&
    !/\.\.|\/\/|\/\.|\.lock$|[./]$/.test(name);
  if (!ok)
    throw new Error(
      `The repository's default branch, as the API names it (${JSON.stringify(String(name).slice(0, 200))}), is not a branch name this action uses: set 'base'.`,
    );
  return name;
}

async function openPullRequest(
  settings: RunSettings,
  io: PrRunIo,
  api: GitHubApi,
  on: { issueNumber: number; branch: string; base?: string },
  finished: FinishedRun,
): Promise<PullRequestSummary | undefined> {
  const { issueNumber, branch } = on;
  const plan = { action: 'ensure' as const, head: branch, base: on.base };
  const body = io.text.issuePullRequestBody(issueNumber, finished, io.redaction.redact);
  const result = await ensurePullRequest(
    api,
    plan,
    { ...settings.pullRequest, title: `Resolve #${issueNumber}`, body },
    io.debug,
  );
  const pr = result.pr!;
  io.ui.info(`Pull request #${pr.number} ${result.operation}: ${pr.htmlUrl}`);
  io.setOutput('pull-request-number', String(pr.number));
  io.setOutput('pr-number', String(pr.number));
  io.setOutput('pull-request-url', pr.htmlUrl);
  io.setOutput('pull-request-operation', result.operation);
  return pr;
}

/** So that labelling again starts another run. Best effort: a failure is a warning. */
async function removeTriggerLabel(api: GitHubApi, io: PrRunIo, issueNumber: number, label: string) {
  try {
    await api.removeLabel(issueNumber, label);
    io.ui.info(`Label removed from issue #${issueNumber}, so that adding it again starts another run.`);
  } catch (error) {
    io.ui.warning(
      `Could not remove the trigger label from issue #${issueNumber}: ${(error as Error).message}`,
    );
  }
}
