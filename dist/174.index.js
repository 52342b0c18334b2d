export const id = 174;
export const ids = [174];
export const modules = {

/***/ 2174:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  runForIssue: () => (/* binding */ runForIssue)
});

// UNUSED EXPORTS: checkedBranchName, issueBranch

// EXTERNAL MODULE: ./src/engine/git.ts + 2 modules
var engine_git = __webpack_require__(1763);
// EXTERNAL MODULE: ./src/sandbox/repository.ts
var repository = __webpack_require__(1151);
// EXTERNAL MODULE: ./src/run/run.ts + 8 modules
var run = __webpack_require__(8439);
// EXTERNAL MODULE: ./src/github/bot-io.ts
var bot_io = __webpack_require__(3539);
// EXTERNAL MODULE: ./src/github/conversation.ts
var github_conversation = __webpack_require__(6536);
// EXTERNAL MODULE: ./src/github/feedback.ts
var github_feedback = __webpack_require__(9712);
// EXTERNAL MODULE: ./src/ui/bounded-text.ts
var bounded_text = __webpack_require__(6323);
;// CONCATENATED MODULE: ./src/github/issue-context.ts

const MAX_ISSUE_TEXT_BYTES = 64 * 1024;
function issueContext(request) {
    const issue = request.issue;
    const body = (0,bounded_text/* cutToBytes */.z)(issue.body, MAX_ISSUE_TEXT_BYTES);
    const said = (0,bounded_text/* cutToBytes */.z)(issue.commentBody ?? '', MAX_ISSUE_TEXT_BYTES);
    const context = {
        event: request.event,
        trigger: issue.how,
        issue: {
            number: issue.number,
            title: (0,bounded_text/* cutToBytes */.z)(issue.title, 1024).text,
            body: body.text,
            labels: issue.labels.slice(0, 100).map((l) => (0,bounded_text/* cutToBytes */.z)(l, 100).text),
        },
        comment: request.comment ? { author: request.requester.login, body: said.text } : null,
        cut: { issue_body: body.cut, comment_body: said.cut },
    };
    return context;
}
/** The prompt file: the text after the trigger, or for a label or an assignment the title and the body. */
function issuePrompt(request) {
    if (request.comment)
        return request.comment.args;
    const issue = request.issue;
    return (0,bounded_text/* cutToBytes */.z)(`${issue.title}\n\n${issue.body}`, MAX_ISSUE_TEXT_BYTES).text;
}

// EXTERNAL MODULE: ./src/github/pr-outcome.ts + 1 modules
var pr_outcome = __webpack_require__(9643);
// EXTERNAL MODULE: ./src/github/pull-request.ts
var pull_request = __webpack_require__(2524);
// EXTERNAL MODULE: ./src/github/run-files.ts
var run_files = __webpack_require__(8372);
// EXTERNAL MODULE: ./src/github/target.ts
var github_target = __webpack_require__(3738);
;// CONCATENATED MODULE: ./src/github/issue-run.ts
// An issue made into a pull request: the run works in the issue's own branch (`issue-branch-prefix` and
// its number: continued when origin has it, else made from `base` or the repository's default branch as
// the API names it, fetched from origin), tells its
// progress in one comment on the issue, pushes, and opens or updates the pull request that closes the
// issue. A later request on the same issue finds the same branch and sandbox (its HOME kept), and the
// context file tells the command which run this is and what the bot replied before.











function issueBranch(prefix, issueNumber) {
    return `${prefix}${issueNumber}`;
}
async function runForIssue(settings, io, planned) {
    const { ctx, api, request } = planned;
    const issue = request.issue;
    const { ui, text } = io;
    const branch = issueBranch(settings.trigger.issueBranchPrefix, issue.number);
    if (settings.branch)
        ui.warning(`The 'branch' input is not used on an issue: the run works on ${branch}.`);
    const progress = {
        what: request.comment?.trigger ?? (issue.how === 'label' ? `label ${issue.label}` : 'assignment'),
        requester: request.requester.login,
        runUrl: ctx.runUrl,
        branch,
    };
    const start = { issueNumber: issue.number, trigger: request.comment?.trigger, event: request.event };
    const feedback = new github_feedback/* PullRequestFeedback */.a(api, ui, { repository: ctx.repository, issueNumber: issue.number, triggerCommentId: request.comment?.id }, io.save);
    (0,bot_io/* setBotOutputs */.Y)(io, {
        triggered: 'true',
        issueNumber: issue.number,
        commentId: request.comment?.id,
        args: request.comment?.args,
    });
    await feedback.react('eyes');
    await feedback.start(progress, text.running(progress));
    // Read once this run's progress comment exists: its author is the account the bot's replies are by.
    const own = feedback.progressCommentId;
    const conversation = await (0,github_conversation/* readConversation */.Gt)(api, issue.number, false, (0,github_conversation/* ownComment */.w7)(own, false), (m) => ui.warning(m));
    const context = (0,github_conversation/* withConversation */.sM)(issueContext(request), conversation);
    io.debug(`Issue #${issue.number}: run ${context.run} on ${branch}.`);
    let files;
    let opened;
    try {
        const ran = await (0,pr_outcome/* reportRun */.G)(io, feedback, progress, start, async () => {
            const git = await (0,engine_git/* createGit */.lD)();
            const parent = await (0,repository/* findParentRepository */.a)(git, settings.repositoryPath);
            const base = await issueBase(settings, api, git, parent.path, io);
            files = await (0,run_files/* writeRequestFiles */.wV)(ctx.runnerTemp, request.comment?.id ?? issue.number, issuePrompt(request), context);
            const outcome = await (0,run/* runSandbox */.F)({ ...settings, branch, base: base.commit }, { ui, save: io.save, command: (0,run_files/* requestFilesForCommand */.xo)(files), tail: true });
            const target = (0,github_target/* planBranchTarget */.Hi)(branch, settings.push);
            const finished = await (0,pr_outcome/* describeOutcome */.S)(git, parent.path, settings, io, ctx, target, undefined, outcome);
            const on = { issueNumber: issue.number, branch, base: base.branch };
            if (finished.pushed)
                opened = await openPullRequest(settings, io, api, on, finished);
            return { outcome, finished: opened ? { ...finished, pullRequest: opened } : finished };
        });
        return { ...ran, pullRequest: opened };
    }
    finally {
        await (0,run_files/* removeRequestFiles */.lY)(files);
        if (issue.how === 'label' && issue.label)
            await removeTriggerLabel(api, io, issue.number, issue.label);
    }
}
/**
 * Where a new issue branch starts: `base` when given; else the repository's default branch as the API
 * names it (GET /repos/{owner}/{repo} `default_branch`), fetched from origin, since the checked-out HEAD
 * may be any commit the workflow chose. Also the pull request's base.
 */
async function issueBase(settings, api, git, parentPath, io) {
    if (settings.base)
        return { commit: settings.base, branch: (0,pull_request/* baseBranch */.sH)(settings.base) };
    const branch = checkedBranchName(await api.defaultBranch());
    const commit = await git.fetchCommit(parentPath, 'origin', `refs/heads/${branch}`, `fetching the default branch ${branch} from origin`);
    io.debug(`Base: the default branch ${branch}, at ${commit.slice(0, 12)} on origin.`);
    return { commit, branch };
}
/** A branch name as the API gave it, used in a refspec and a ref: only the plain characters git allows. */
function checkedBranchName(name) {
    const ok = typeof name === 'string' &&
        name.length <= 255 &&
        /^[A-Za-z0-9_][A-Za-z0-9._/-]*$/.test(name) &&
        !/\.\.|\/\/|\/\.|\.lock$|[./]$/.test(name);
    if (!ok)
        throw new Error(`The repository's default branch, as the API names it (${JSON.stringify(String(name).slice(0, 200))}), is not a branch name this action uses: set 'base'.`);
    return name;
}
async function openPullRequest(settings, io, api, on, finished) {
    const { issueNumber, branch } = on;
    const plan = { action: 'ensure', head: branch, base: on.base };
    const body = io.text.issuePullRequestBody(issueNumber, finished, io.redaction.redact);
    const result = await (0,pull_request/* ensurePullRequest */.pk)(api, plan, { ...settings.pullRequest, title: `Resolve #${issueNumber}`, body }, io.debug);
    const pr = result.pr;
    io.ui.info(`Pull request #${pr.number} ${result.operation}: ${pr.htmlUrl}`);
    io.setOutput('pull-request-number', String(pr.number));
    io.setOutput('pr-number', String(pr.number));
    io.setOutput('pull-request-url', pr.htmlUrl);
    io.setOutput('pull-request-operation', result.operation);
    return pr;
}
/** So that labelling again starts another run. Best effort: a failure is a warning. */
async function removeTriggerLabel(api, io, issueNumber, label) {
    try {
        await api.removeLabel(issueNumber, label);
        io.ui.info(`Label removed from issue #${issueNumber}, so that adding it again starts another run.`);
    }
    catch (error) {
        io.ui.warning(`Could not remove the trigger label from issue #${issueNumber}: ${error.message}`);
    }
}


/***/ }),

/***/ 2524:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   pk: () => (/* binding */ ensurePullRequest),
/* harmony export */   proposePullRequest: () => (/* binding */ proposePullRequest),
/* harmony export */   sH: () => (/* binding */ baseBranch)
/* harmony export */ });
/* unused harmony exports PULL_REQUEST_MARKER, planPullRequest, bodyWithMarker, openedByThisAction */
/* harmony import */ var _api_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(2422);
/* harmony import */ var _context_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(9556);


/** Ends the body of every pull request this action opens: what later runs recognise it by. */
const PULL_REQUEST_MARKER = '<!-- worktree-sandbox:pull-request -->';
function planPullRequest(run, baseInput) {
    if (run.workedOn)
        return { action: 'report', pr: run.workedOn };
    if (!run.branch)
        return { action: 'skip', reason: 'a transient sandbox has no branch to propose' };
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
function baseBranch(base) {
    const name = base
        .trim()
        .replace(/^refs\/heads\//, '')
        .replace(/^(refs\/remotes\/)?origin\//, '');
    if (!name || /^[0-9a-f]{7,64}$/i.test(name) || name === 'HEAD')
        return undefined;
    return name;
}
function bodyWithMarker(body) {
    return `${body.trimEnd()}\n\n${PULL_REQUEST_MARKER}\n`;
}
function openedByThisAction(pr) {
    return pr.body.includes(PULL_REQUEST_MARKER);
}
/**
 * Carries out an `ensure` plan: finds, updates or opens the branch's pull request. A pull request GitHub
 * lists whose head is not the pushed branch of this repository is not used (api.ts, `isHeadOf`): one is
 * opened instead, and should the branch really have one, GitHub refuses and the step fails saying so.
 */
async function ensurePullRequest(api, plan, settings, debug) {
    const body = bodyWithMarker(settings.body);
    const existing = await api.openPullRequestFor(plan.head);
    if (existing) {
        if (!openedByThisAction(existing)) {
            debug(`Pull request #${existing.number} has ${plan.head} as its head and was not opened by this action: left as it is.`);
            return { operation: 'unchanged', pr: existing };
        }
        debug(`Pull request #${existing.number} (opened by this action) has ${plan.head} as its head: updated.`);
        await api.updatePullRequest(existing.number, { title: settings.title, body });
        if (settings.labels.length)
            await api.addLabels(existing.number, settings.labels);
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
    if (settings.labels.length)
        await api.addLabels(pr.number, settings.labels);
    return { operation: 'created', pr };
}
/**
 * The action's one step after a run with `pull-request: true`: sets `pull-request-number`,
 * `pull-request-url` and `pull-request-operation`. An API refusal fails the step, saying what to change.
 */
async function proposePullRequest(settings, outcome, io) {
    const plan = planPullRequest({
        branch: outcome.sandbox.branch,
        pushed: outcome.push?.pushed === true,
        pushReason: outcome.push?.reason,
        workedOn: outcome.pullRequest && { ...outcome.pullRequest, body: '' },
    }, settings.base);
    io.debug(`Pull request: ${plan.action}${'reason' in plan ? ` (${plan.reason})` : ''}.`);
    let result;
    if (plan.action === 'skip') {
        io.ui.info(`No pull request opened: ${plan.reason}.`);
        result = { operation: 'none', reason: plan.reason };
    }
    else if (plan.action === 'report')
        result = { operation: 'unchanged', pr: plan.pr };
    else {
        const ctx = (0,_context_js__WEBPACK_IMPORTED_MODULE_1__/* .readActionContext */ .w)(io.env);
        const api = await (0,_api_js__WEBPACK_IMPORTED_MODULE_0__/* .connectGitHub */ .UY)(settings.token, ctx.apiUrl, ctx.repository, io.redaction, {
            warn: (m) => io.ui.warning(m),
            ...io.api,
        });
        result = await ensurePullRequest(api, plan, settings.pullRequest, io.debug).catch((error) => {
            throw new Error(`Could not open or update the pull request of ${plan.head}: ${explain(error)}`, {
                cause: error,
            });
        });
        if (result.operation !== 'unchanged')
            io.ui.info(`Pull request #${result.pr.number} ${result.operation}: ${result.pr.htmlUrl}`);
        else
            io.ui.info(`Pull request #${result.pr.number} already proposes ${plan.head}: ${result.pr.htmlUrl}`);
        await io.summary(`Pull request [#${result.pr.number}](${result.pr.htmlUrl}): ${result.operation}.\n\n`);
    }
    io.setOutput('pull-request-number', result.pr ? String(result.pr.number) : '');
    io.setOutput('pull-request-url', result.pr?.htmlUrl ?? '');
    io.setOutput('pull-request-operation', result.operation);
    return result;
}
function explain(error) {
    const message = error.message ?? String(error);
    if (/not permitted to create or approve pull requests/i.test(message))
        return `${message}. Allow it in the repository's Settings > Actions > General ("Allow GitHub Actions to create and approve pull requests"), or give 'token' a GitHub App or personal access token.`;
    return message;
}


/***/ })

};
