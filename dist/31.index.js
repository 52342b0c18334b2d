export const id = 31;
export const ids = [31];
export const modules = {

/***/ 6956:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   ProxyAgent: () => (/* binding */ ProxyAgent),
/* harmony export */   fetch: () => (/* binding */ fetch),
/* harmony export */   loadUndici: () => (/* binding */ loadUndici)
/* harmony export */ });
/* harmony import */ var _on_demand_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7575);
// What the bundle gets for `import … from 'undici'` (tsconfig.json `paths`, which ncc's resolver follows;
// see docs/adr/0008-undici-on-demand.md). @actions/core loads its OIDC client, and with it
// @actions/http-client and undici, the moment it is imported, although only `getIDToken` uses it: a
// third of the bundle parsed and evaluated at every start, for a client this action never calls. Here
// undici is a chunk of its own, loaded by the one path that talks to GitHub (api.ts, before Octokit is
// made). The names are the ones the bundled toolkit imports (checked by on-demand.spec.ts).

const undici = (0,_on_demand_js__WEBPACK_IMPORTED_MODULE_0__/* .onDemand */ .h)('undici', 'loadUndici', () => __webpack_require__.e(/* import() */ 752).then(__webpack_require__.t.bind(__webpack_require__, 6752, 19)));
const loaded = undici.loaded;
/** Loads undici (once); the GitHub API client awaits this before it builds anything that uses it. */
const loadUndici = undici.load;
/**
 * @actions/http-client builds one for a proxied request, synchronously: undici must be loaded by then.
 * (A constructor that returns the real agent, so callers get undici's own class.)
 */
const ProxyAgent = function ProxyAgent(...args) {
    return new (loaded().ProxyAgent)(...args);
};
/** @actions/github's fetch, with its proxy dispatcher. */
const fetch = async (...args) => (await loadUndici()).fetch(...args);


/***/ }),

/***/ 2422:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  y0: () => (/* binding */ apiUrl),
  UY: () => (/* binding */ connectGitHub)
});

// UNUSED EXPORTS: MAX_COMMENT_PAGES, MAX_REVIEW_COMMENT_PAGES, isHeadOf, redactParameters

// EXTERNAL MODULE: ./node_modules/bottleneck/light.js
var light = __webpack_require__(3251);
var light_default = /*#__PURE__*/__webpack_require__.n(light);
;// CONCATENATED MODULE: ./src/github/api-resilience.ts
// How the API client rides out GitHub's transient faults, as Octokit's own plugins do it: a 5xx or a
// dropped connection (ECONNRESET reaches the client as status 500) is retried with a growing pause; a
// rate limit is waited out, a secondary one as long as GitHub's retry-after says. Answers that cannot get
// better by asking again (400, 401, 403 without a limit, 404, 410, 422, 451) fail at once. Writes are
// spaced as GitHub asks of integrations (one at a time, a second apart). Lists are read a bounded number of
// pages, so that a pull request with thousands of comments costs a known number of calls.

const DO_NOT_RETRY = [400, 401, 403, 404, 410, 422, 429, 451];
/** The `retry` and `throttle` options of an Octokit that has both plugins. */
function resilienceOptions(options) {
    const scale = options.delayScale ?? 1;
    const rateLimitRetries = options.rateLimitRetries ?? 2;
    const maxWait = options.maxRateLimitWaitSeconds ?? 600;
    const warn = options.warn ?? (() => undefined);
    const onLimit = (kind) => (retryAfter, request, _octokit, retryCount) => {
        const what = `${request.method} ${request.url}`;
        if (retryCount >= rateLimitRetries || retryAfter > maxWait) {
            warn(`GitHub's ${kind} rate limit stopped ${what}; retry-after ${retryAfter} s: not retried.`);
            return false;
        }
        warn(`GitHub's ${kind} rate limit hit ${what}: waiting ${retryAfter} s, then retrying.`);
        return true;
    };
    const spaced = (minTime) => new (light_default()).Group({ maxConcurrent: 1, minTime: Math.round(minTime * scale) });
    return {
        retry: {
            retries: options.retries ?? 3,
            retryAfterBaseValue: 1000 * scale,
            doNotRetry: DO_NOT_RETRY,
        },
        throttle: {
            retryAfterBaseValue: 1000 * scale,
            write: spaced(1000),
            notifications: spaced(3000),
            onRateLimit: onLimit('primary'),
            onSecondaryRateLimit: onLimit('secondary'),
        },
    };
}
/** Reads pages of 100 until one is short or `maxPages` are read: a bound in count and time. */
async function readPages(maxPages, list) {
    const all = [];
    for (let page = 1; page <= maxPages; page++) {
        const { data } = await list({ per_page: 100, page });
        all.push(...data);
        if (data.length < 100)
            break;
    }
    return all;
}

// EXTERNAL MODULE: ./src/bundle/http-client-on-demand.ts
var http_client_on_demand = __webpack_require__(5126);
// EXTERNAL MODULE: ./src/bundle/undici-on-demand.ts
var undici_on_demand = __webpack_require__(6956);
;// CONCATENATED MODULE: ./src/github/api-comments.ts

/** Pages of 100 comments read at most from one list (a bound in count and time). */
const MAX_COMMENT_PAGES = 10;
const PER_PAGE = 100;
function info(c) {
    return {
        id: c.id,
        author: c.user?.login ?? '',
        authorType: c.user?.type ?? '',
        body: c.body ?? '',
        createdAt: c.created_at ?? '',
    };
}
/** The number of the last page a `Link` header names, if it names one. */
function lastPage(link) {
    const match = /<[^>]*[?&]page=(\d+)[^>]*>;\s*rel="last"/.exec(link ?? '');
    const n = match ? Number(match[1]) : NaN;
    return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
/** The conversation's newest MAX_COMMENT_PAGES pages, oldest first. */
async function listIssueComments(octokit, at, issueNumber) {
    const page = async (n) => {
        const response = await octokit.rest.issues.listComments({
            ...at,
            issue_number: issueNumber,
            per_page: PER_PAGE,
            page: n,
        });
        return { data: response.data, link: response.headers.link };
    };
    const first = await page(1);
    const last = lastPage(first.link);
    // No `Link` to go by: page after page from the first, as long as pages are full.
    if (last === undefined)
        return (await readPages(MAX_COMMENT_PAGES, (p) => (p.page === 1 ? Promise.resolve(first) : page(p.page)))).map(info);
    const comments = [];
    const from = Math.max(1, last - MAX_COMMENT_PAGES + 1);
    if (from === 1)
        comments.push(...first.data);
    for (let n = Math.max(2, from); n <= last; n++)
        comments.push(...(await page(n)).data);
    return comments.map(info);
}
/** The review comments on the pull request's diff: the newest MAX_COMMENT_PAGES pages, oldest first. */
async function listReviewComments(octokit, at, prNumber) {
    const comments = await readPages(MAX_COMMENT_PAGES, (page) => octokit.rest.pulls.listReviewComments({
        ...at,
        pull_number: prNumber,
        sort: 'created',
        direction: 'desc',
        ...page,
    }));
    return comments.reverse().map(info);
}

;// CONCATENATED MODULE: ./src/github/api.ts





/** Pages of 100 review comments read at most when a thread is looked for (a bound in count and time). */
const MAX_REVIEW_COMMENT_PAGES = 10;
/**
 * Whether a pull request GitHub listed for a branch really has that branch of this repository as its head:
 * a list answer is checked before it is used (the filter is the server's, and an answer can be wrong).
 * Branch names are compared exactly; repository names as GitHub does, without regard to case.
 */
function isHeadOf(listed, branch, repository) {
    return (listed.ref === branch &&
        typeof listed.repo === 'string' &&
        listed.repo.toLowerCase() === repository.toLowerCase());
}
function apiUrl(env) {
    return (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');
}
async function connectGitHub(token, baseUrl, repo, redaction, options = {}) {
    if (!token)
        throw new Error("The pull-request bot needs the 'token' input to call the GitHub API.");
    const [{ getOctokit }, { retry }, { throttling }] = await Promise.all([
        // @actions/github builds a proxy agent with @actions/http-client and undici as it loads
        // (synchronously): both first (src/bundle/http-client-on-demand.ts, undici-on-demand.ts).
        Promise.all([(0,undici_on_demand.loadUndici)(), (0,http_client_on_demand/* loadHttpClient */.w)()]).then(() => __webpack_require__.e(/* import() */ 758).then(__webpack_require__.bind(__webpack_require__, 1758))),
        __webpack_require__.e(/* import() */ 735).then(__webpack_require__.bind(__webpack_require__, 9735)),
        __webpack_require__.e(/* import() */ 856).then(__webpack_require__.bind(__webpack_require__, 4475)),
    ]);
    const octokit = getOctokit(token, { baseUrl, userAgent: 'worktree-sandbox', ...resilienceOptions(options) }, retry, throttling);
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
            if (!pr)
                return undefined;
            const head = { ref: pr.head?.ref, repo: pr.head?.repo?.full_name };
            if (!isHeadOf(head, branch, `${owner}/${name}`)) {
                // Quoted: whatever GitHub (or whatever answered in its place) wrote there.
                options.warn?.(`GitHub listed pull request ${JSON.stringify(pr.number)} as the open one of ${owner}:${branch}, but its head is ${JSON.stringify(String(head.repo ?? '(no repository)').slice(0, 200))}:${JSON.stringify(String(head.ref ?? '').slice(0, 200))}: not used.`);
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
            }
            catch (error) {
                // 404: not a collaborator (or no such user): no permission.
                if (api_status(error) === 404)
                    return { permission: 'none' };
                throw error;
            }
        },
        async canPush(fullName) {
            const [o, r] = fullName.split('/');
            try {
                const { data } = await octokit.rest.repos.get({ owner: o, repo: r });
                return data.permissions?.push === true;
            }
            catch (error) {
                if (api_status(error) === 404 || api_status(error) === 403)
                    return false;
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
            const data = await readPages(MAX_REVIEW_COMMENT_PAGES, (page) => octokit.rest.pulls.listReviewComments({ ...at, pull_number: prNumber, ...page }));
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
            const data = await readPages(MAX_REVIEW_COMMENT_PAGES, (page) => octokit.rest.pulls.listCommentsForReview({
                ...at,
                pull_number: prNumber,
                review_id: reviewId,
                ...page,
            }));
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
function redactParameters(parameters, redaction) {
    const clean = (value, depth) => {
        if (typeof value === 'string')
            return redaction.redact(value);
        if (depth > 4 || value === null || typeof value !== 'object')
            return value;
        if (Array.isArray(value))
            return value.map((v) => clean(v, depth + 1));
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clean(v, depth + 1)]));
    };
    for (const [key, value] of Object.entries(parameters))
        if (!OWN_PARAMETERS.has(key))
            parameters[key] = clean(value, 0);
}
function api_status(error) {
    const s = error?.status;
    return typeof s === 'number' ? s : undefined;
}


/***/ }),

/***/ 3539:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Y: () => (/* binding */ setBotOutputs)
/* harmony export */ });
function setBotOutputs(io, values) {
    io.setOutput('triggered', values.triggered);
    io.setOutput('pr-number', values.prNumber ? String(values.prNumber) : '');
    io.setOutput('issue-number', values.issueNumber ? String(values.issueNumber) : '');
    io.setOutput('comment-id', values.commentId ? String(values.commentId) : '');
    io.setOutput('args', values.args ?? '');
}


/***/ }),

/***/ 9556:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   w: () => (/* binding */ readActionContext)
/* harmony export */ });
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8161);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_os__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _api_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(2422);
// The workflow run's context as the runner passes it (GITHUB_* variables and the event payload file): read
// once from the environment into plain data. Pure.


function readActionContext(env, payload = {}) {
    const serverUrl = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
    const repository = repositoryName(env.GITHUB_REPOSITORY, payload);
    const full = `${repository.owner}/${repository.repo}`;
    const run = env.GITHUB_RUN_ID ? `/actions/runs/${env.GITHUB_RUN_ID}` : '/actions';
    const attempt = Number(env.GITHUB_RUN_ATTEMPT) > 1 ? `/attempts/${env.GITHUB_RUN_ATTEMPT}` : '';
    return {
        eventName: env.GITHUB_EVENT_NAME ?? '',
        eventPath: env.GITHUB_EVENT_PATH ?? '',
        repository,
        apiUrl: (0,_api_js__WEBPACK_IMPORTED_MODULE_1__/* .apiUrl */ .y0)(env),
        serverUrl,
        runUrl: `${serverUrl}/${full}${run}${attempt}`,
        runnerTemp: env.RUNNER_TEMP || node_os__WEBPACK_IMPORTED_MODULE_0__.tmpdir(),
    };
}
function repositoryName(value, payload) {
    const fromPayload = payload?.repository
        ?.full_name;
    const full = value || (typeof fromPayload === 'string' ? fromPayload : '');
    const match = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(full);
    if (!match)
        throw new Error(`GITHUB_REPOSITORY is ${JSON.stringify(full)}: expected owner/name.`);
    return { owner: match[1], repo: match[2] };
}


/***/ }),

/***/ 6536:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Gt: () => (/* binding */ readConversation),
/* harmony export */   Ju: () => (/* binding */ commentContext),
/* harmony export */   sM: () => (/* binding */ withConversation),
/* harmony export */   w7: () => (/* binding */ ownComment)
/* harmony export */ });
/* unused harmony exports MAX_EARLIER_REPLIES, MAX_EARLIER_REPLY_BYTES, botReplies, conversationContext */
/* harmony import */ var _request_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(5183);
/* harmony import */ var _ui_bounded_text_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6323);


const MAX_EARLIER_REPLIES = 10;
const MAX_EARLIER_REPLY_BYTES = 32 * 1024;
/** The comments written as the same account as `own`, that start with the progress marker, before it. */
function botReplies(comments, own) {
    const mine = comments.find((c) => c.kind === own.kind && c.id === own.id);
    if (!mine)
        return "this run's progress comment is not among the comments read";
    if (!mine.author)
        return "this run's progress comment names no author";
    return comments
        .filter((c) => c !== mine &&
        c.author === mine.author &&
        c.authorType === mine.authorType &&
        c.body.startsWith(_request_js__WEBPACK_IMPORTED_MODULE_0__/* .PROGRESS_MARKER */ .b) &&
        // A run that started later (another job on the same branch) is not an earlier one.
        c.createdAt <= mine.createdAt)
        .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id - b.id));
}
/** The context's conversation part; `own` undefined: this run could make no progress comment. */
function conversationContext(comments, own) {
    const replies = 'error' in comments
        ? `the comments could not be read: ${comments.error}`
        : own
            ? botReplies(comments, own)
            : 'this run made no progress comment to know its own account by';
    if (typeof replies === 'string')
        return {
            run: 1,
            earlier_replies: [],
            cut: { earlier_replies_left_out: 0, earlier_replies_cut: 0 },
            earlier_replies_error: (0,_ui_bounded_text_js__WEBPACK_IMPORTED_MODULE_1__/* .cutToBytes */ .z)(replies, 1000).text,
        };
    const bounded = (0,_ui_bounded_text_js__WEBPACK_IMPORTED_MODULE_1__/* .keepNewest */ .I)(replies.map((r) => ({ created_at: (0,_ui_bounded_text_js__WEBPACK_IMPORTED_MODULE_1__/* .cutToBytes */ .z)(r.createdAt, 40).text, body: r.body })), MAX_EARLIER_REPLIES, MAX_EARLIER_REPLY_BYTES);
    return {
        run: replies.length + 1,
        earlier_replies: bounded.kept,
        cut: { earlier_replies_left_out: bounded.leftOut, earlier_replies_cut: bounded.bodiesCut },
    };
}
/** Merges the conversation part into a context (its `cut` too). */
function withConversation(context, conversation) {
    const { cut, ...rest } = conversation;
    return { ...context, ...rest, cut: { ...context.cut, ...cut } };
}
/**
 * Reads what the bot said before on pull request or issue `number` (a pull request's review comments
 * too), after this run made its own progress comment. A failure to read is said in the context, never
 * fatal.
 */
async function readConversation(api, number, isPullRequest, own, warn) {
    if (!own)
        return conversationContext([], undefined);
    try {
        const comments = (await api.issueComments(number)).map((c) => ({
            ...c,
            kind: 'issue',
        }));
        if (isPullRequest)
            for (const c of await api.reviewComments(number))
                comments.push({ ...c, kind: 'review' });
        return conversationContext(comments, own);
    }
    catch (error) {
        warn(`Could not read the bot's earlier replies on #${number}: ${error.message}`);
        return conversationContext({ error: error.message }, own);
    }
}
/** This run's progress comment, when it made one: a reply in a review thread, or on the conversation. */
function ownComment(id, inReviewThread) {
    return id === undefined ? undefined : { kind: inReviewThread ? 'review' : 'issue', id };
}
/** The context of a comment on a pull request's conversation: where it was made. */
function commentContext(request) {
    return {
        event: request.event,
        pull_request: request.prNumber ?? null,
        comment_id: request.comment?.id ?? null,
        cut: {},
    };
}


/***/ }),

/***/ 9712:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Y: () => (/* binding */ finishStoppedProgress),
/* harmony export */   a: () => (/* binding */ PullRequestFeedback)
/* harmony export */ });
class PullRequestFeedback {
    api;
    ui;
    target;
    save;
    commentId;
    constructor(api, ui, target, save) {
        this.api = api;
        this.ui = ui;
        this.target = target;
        this.save = save;
    }
    async react(content) {
        const id = this.target.triggerCommentId;
        if (id)
            await this.attempt(`add a ${content} reaction`, () => this.target.reviewThreadId ? this.api.reactToReviewComment(id, content) : this.api.react(id, content));
    }
    /** Creates the progress comment (`body`: present/progress-comment.ts) and records it for the post step. */
    async start(ctx, body) {
        const issue = this.target.issueNumber;
        if (!issue)
            return;
        const thread = this.target.reviewThreadId;
        const id = await this.attempt('create the progress comment', () => thread ? this.api.replyInReviewThread(issue, thread, body) : this.api.createComment(issue, body));
        if (id === undefined)
            return;
        this.commentId = id;
        this.save({ progress: this.progressState(ctx, false) });
        this.ui.info(`Progress comment ${id} created on #${issue}.`);
    }
    /** Rewrites the progress comment with the outcome, adds the final reaction, and tells post it is done. */
    async finish(ctx, body, reaction) {
        const id = this.commentId;
        if (id !== undefined) {
            await this.attempt('update the progress comment', () => this.target.reviewThreadId
                ? this.api.updateReviewComment(id, body)
                : this.api.updateComment(id, body));
            this.save({ progress: this.progressState(ctx, true) });
        }
        await this.react(reaction);
    }
    get progressCommentId() {
        return this.commentId;
    }
    progressState(ctx, finished) {
        return {
            commentId: this.commentId,
            owner: this.target.repository.owner,
            repo: this.target.repository.repo,
            triggerCommentId: this.target.triggerCommentId,
            inReviewThread: this.target.reviewThreadId ? true : undefined,
            finished,
            context: ctx,
        };
    }
    async attempt(what, call) {
        try {
            return await call();
        }
        catch (error) {
            this.ui.warning(`Could not ${what} on the pull request: ${error.message}`);
            return undefined;
        }
    }
}
/** Post step: the main step ended without finishing the progress comment (cancelled, killed, failed). */
async function finishStoppedProgress(api, progress, body, ui) {
    if (progress.inReviewThread)
        await api.updateReviewComment(progress.commentId, body);
    else
        await api.updateComment(progress.commentId, body);
    ui.info(`Progress comment ${progress.commentId} marked as stopped.`);
    const trigger = progress.triggerCommentId;
    if (trigger) {
        await (progress.inReviewThread ? api.reactToReviewComment(trigger, 'confused') : api.react(trigger, 'confused')).catch((error) => ui.warning(`Could not add a reaction: ${error.message}`));
    }
}


/***/ }),

/***/ 4264:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   C9: () => (/* binding */ fetchPullHead),
/* harmony export */   VE: () => (/* binding */ listCommits),
/* harmony export */   aZ: () => (/* binding */ savePatch),
/* harmony export */   ip: () => (/* binding */ pointRef),
/* harmony export */   uv: () => (/* binding */ ensureLocalBranch)
/* harmony export */ });
/* unused harmony exports MAX_LISTED_COMMITS, PATCH_MAX_PATHS, PATCH_MAX_BYTES */
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _engine_git_commands_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(8657);
/* harmony import */ var _run_changed_paths_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(5136);
// The git steps a pull-request run adds around the sandbox, all on the host through the hardened wrapper:
// fetch a fork's head from the base repository, give it a local branch, and read what the run committed
// (commit list, patch). Commits live in the parent's object store whatever the isolation.




function checkSha(sha) {
    if (!_engine_git_commands_js__WEBPACK_IMPORTED_MODULE_3__/* .OID */ .V.test(sha))
        throw new Error(`Not a commit id: ${JSON.stringify(sha)}.`);
    return sha;
}
/**
 * Fetches `refs/pull/N/head` from origin (GitHub keeps every pull request's head there) and returns its
 * commit, holding no lock and changing no ref (git.ts `fetchCommit`): the wait on the network holds up no
 * other run of the parent. `pointRef` then records it, under the repository lock.
 */
async function fetchPullHead(git, parentPath, ref) {
    return checkSha(await git.fetchCommit(parentPath, 'origin', ref, `fetching the pull request's head ${ref} from origin`));
}
/** Points `ref` at `sha` (a fork's fetched head at its tracking ref). */
async function pointRef(git, parentPath, ref, sha) {
    await git.run(parentPath, [
        'update-ref',
        '-m',
        'worktree-sandbox: fetched from origin',
        '--',
        ref,
        checkSha(sha),
    ]);
}
/**
 * Creates the local branch at `sha` when it does not exist. An existing one is left as it is: it belongs to
 * a sandbox kept from an earlier run, which is reused as it is.
 */
async function ensureLocalBranch(git, parentPath, branch, sha) {
    if (await git.refExists(parentPath, `refs/heads/${branch}`))
        return false;
    await git.run(parentPath, [
        'update-ref',
        '-m',
        'worktree-sandbox: pull request head',
        '--',
        `refs/heads/${branch}`,
        checkSha(sha),
        '',
    ]);
    return true;
}
/** The progress comment lists at most this many commits (the newest), their subjects cut at SUBJECT_MAX. */
const MAX_LISTED_COMMITS = 250;
const SUBJECT_MAX = 200;
/**
 * The commits from `start` (excluded) to `head`, oldest first: the newest MAX_LISTED_COMMITS of them, each
 * subject cut at SUBJECT_MAX characters, so that what git prints stays a few tens of kilobytes whatever
 * the run committed; `more` when older ones were left out.
 */
async function listCommits(git, parentPath, start, head) {
    if (start === head)
        return { commits: [], more: false };
    const out = await git.run(parentPath, [
        'log',
        `--max-count=${MAX_LISTED_COMMITS + 1}`,
        '--no-show-signature',
        '--no-color',
        `--format=%H%x1f%<(${SUBJECT_MAX},trunc)%s`,
        '--end-of-options',
        `${checkSha(start)}..${checkSha(head)}`,
        '--',
    ]);
    const lines = out.split('\n').filter(Boolean);
    const commits = lines
        .slice(0, MAX_LISTED_COMMITS)
        .reverse()
        .map((line) => {
        const [sha, subject = ''] = line.split('\x1f');
        return { sha, subject: subject.trimEnd() };
    });
    return { commits, more: lines.length > MAX_LISTED_COMMITS };
}
/** Up to this many changed files the commits are saved as a patch (git's diff holds every path it compares). */
const PATCH_MAX_PATHS = 10_000;
/** The largest patch written to its file; a larger one is not saved (the commits stay in the parent). */
const PATCH_MAX_BYTES = 256 * 1024 * 1024;
/** The largest patch also read back for the progress comment (which shows up to 30,000 characters). */
const PATCH_TEXT_MAX_BYTES = 64 * 1024;
/**
 * The commits as a mailbox (`git am` applies it), streamed to a file under `dir` (never held here);
 * returns the path, and the text when it is small enough to show. Undefined when the commits change more
 * than PATCH_MAX_PATHS files (counted first, in bounded memory), git failed, or the patch is larger than
 * PATCH_MAX_BYTES (then no file is left): the commits stay in the parent repository.
 */
async function savePatch(git, parentPath, start, head, dir, name) {
    const span = await (0,_run_changed_paths_js__WEBPACK_IMPORTED_MODULE_2__/* .changedPaths */ .vl)(git, parentPath, checkSha(start), checkSha(head));
    if (!span.exact || span.count > PATCH_MAX_PATHS)
        return undefined;
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.mkdir(dir, { recursive: true });
    const file = node_path__WEBPACK_IMPORTED_MODULE_1__.join(dir, `${name.replace(/[^A-Za-z0-9._-]/g, '-')}.patch`);
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm(file, { force: true });
    const written = await git.stream(parentPath, [
        'format-patch',
        '--stdout',
        '--binary',
        ..._engine_git_commands_js__WEBPACK_IMPORTED_MODULE_3__/* .NO_EXTERNAL_DIFF */ .S,
        '--no-signature',
        `${checkSha(start)}..${checkSha(head)}`,
        '--',
    ], { stdoutFile: { path: file, maxBytes: PATCH_MAX_BYTES } });
    if (written.exitCode !== 0 || written.overLimit) {
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm(file, { force: true });
        return undefined;
    }
    const text = written.stdoutBytes <= PATCH_TEXT_MAX_BYTES ? await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile(file, 'utf8') : '';
    return { path: file, text };
}


/***/ }),

/***/ 9643:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  S: () => (/* binding */ describeOutcome),
  G: () => (/* binding */ reportRun)
});

// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./src/run/secret-gate.ts + 2 modules
var secret_gate = __webpack_require__(2735);
// EXTERNAL MODULE: ./src/run/redaction.ts
var run_redaction = __webpack_require__(7064);
// EXTERNAL MODULE: ./src/run/secret-scan.ts
var secret_scan = __webpack_require__(4415);
;// CONCATENATED MODULE: ./src/run/tail-scan.ts


const TAIL_UNREAD = '(the log tail is not shown: the secret scan could not read it)';
/** The tail with what the scan found masked; as it came with `secret-scan: off` (the redaction still runs). */
async function scanLogTail(tail, mode, redaction, ui) {
    if (mode === 'off' || !tail.length)
        return { lines: [...tail], found: [] };
    // Bounded by the tail itself: at most 40 lines of at most 1,000 characters (command.ts).
    const text = tail.join('\n');
    let masked = text;
    const found = new Set(redaction.namesIn(text));
    try {
        const messages = await (await (0,secret_scan/* loadLint */.o7)())(text);
        // Ranges masked from the last to the first, each at most once where two overlap.
        let end = text.length;
        for (const m of [...messages].sort((a, b) => b.range[0] - a.range[0])) {
            const [from, to] = [m.range[0], Math.min(m.range[1], end)];
            if (to > from)
                masked = masked.slice(0, from) + run_redaction/* MASK */.v5 + masked.slice(to);
            end = Math.min(end, from);
            found.add(`${m.ruleId} (${m.messageId})`);
        }
    }
    catch (error) {
        ui.warning(`Secret scan of the log tail: ${error.message}; the tail is not shown.`);
        return { lines: [TAIL_UNREAD], found: [...found] };
    }
    if (found.size)
        ui.warning(`Secret scan of the log tail: ${[...found].join(', ')}; masked in the pull request's comment (the run goes on).`);
    return { lines: masked.split('\n'), found: [...found] };
}

// EXTERNAL MODULE: ./src/github/pr-git.ts
var pr_git = __webpack_require__(4264);
;// CONCATENATED MODULE: ./src/github/pr-outcome.ts




/**
 * Rewrites the progress comment and writes the job summary: with what `run` (the sandbox's run, and what
 * it did) returns, or with why it failed, which is thrown on.
 */
async function reportRun(io, feedback, progress, start, run) {
    const { redact } = io.redaction;
    try {
        const { outcome, finished } = await run();
        // The comment names the commit the sandbox really started from (the branch may have moved since).
        const done = { ...progress, headSha: outcome.sandbox.startSha };
        const succeeded = outcome.command.exitCode === 0 && !finished.pushFailed;
        await feedback.finish(done, io.text.finished(done, finished, redact), succeeded ? 'rocket' : 'confused');
        await io.summary(io.text.summary(done, start, finished));
        return outcome;
    }
    catch (error) {
        await feedback.finish(progress, io.text.failed(progress, error.message, redact), 'confused');
        if (error instanceof secret_gate/* SecretScanBlocked */.aM)
            await io.summary(io.text.blockedSummary(progress, start, error.findings.length));
        throw error;
    }
}
/** What the run did; its patch's path is the output `patch-path`. */
async function describeOutcome(git, parentPath, settings, io, ctx, target, pr, outcome) {
    const { command, report, push, sandbox } = outcome;
    const gate = (0,secret_gate/* secretGate */._D)(settings, io.ui, () => io.save({ secretsFound: true }));
    const pushed = push?.pushed === true;
    const repoOfCommits = target.delivery.kind === 'fork' ? target.delivery.repo : `${ctx.repository.owner}/${ctx.repository.repo}`;
    const listed = await (0,pr_git/* listCommits */.VE)(git, parentPath, sandbox.startSha, report.headSha);
    const commits = listed.commits.map((c) => ({
        ...c,
        url: pushed ? `${ctx.serverUrl}/${repoOfCommits}/commit/${c.sha}` : undefined,
    }));
    let patch;
    if (settings.push && !pushed && commits.length) {
        // The patch is shown on the pull request and offered as a file: scanned as a push would be (the commits
        // raw, their path names, their added lines). Under block a finding throws here: no file is written.
        await (0,secret_gate/* checkCommits */.TK)(git, parentPath, [report.headSha, '--not', sandbox.startSha], gate, 'the patch');
        const name = pr
            ? `pr-${pr.number}-${report.headSha.slice(0, 12)}`
            : `${sandbox.name}-${report.headSha.slice(0, 12)}`;
        patch = await (0,pr_git/* savePatch */.aZ)(git, parentPath, sandbox.startSha, report.headSha, external_node_path_.join(ctx.runnerTemp, 'worktree-sandbox'), name);
    }
    const tail = await scanLogTail(command.tail, settings.secretScan, io.redaction, io.ui);
    if (patch)
        io.setOutput('patch-path', patch.path);
    return {
        exitCode: command.exitCode,
        timedOut: command.timedOut,
        oomKilled: command.oomKilled,
        durationMs: command.durationMs,
        filesChanged: report.changedFiles,
        filesChangedCount: report.changedCount,
        diffStat: report.diffStat,
        commits,
        ...(listed.more ? { moreCommits: true } : {}),
        pushed,
        pushedTo: pushed ? pushLabel(target) : undefined,
        pushReason: push && !pushed ? push.reason : undefined,
        pushFailed: deliversByPush(target) && commits.length > 0 && !pushed,
        patch,
        tail: tail.lines,
        reply: command.reply,
        ...(command.network?.models ? { modelUsage: command.network.models } : {}),
        tailFound: tail.found,
    };
}
/** Whether the delivery is a push (to origin or to a fork), rather than a patch or nothing. */
function deliversByPush(target) {
    return target.delivery.kind === 'origin' || target.delivery.kind === 'fork';
}
function pushLabel(target) {
    return target.delivery.kind === 'fork'
        ? `${target.delivery.repo}:${target.delivery.branch}`
        : `origin/${target.branch}`;
}


/***/ }),

/***/ 9031:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  finishProgressInPost: () => (/* binding */ finishProgressInPost),
  runForPullRequest: () => (/* binding */ runForPullRequest)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: ./src/engine/git.ts + 2 modules
var engine_git = __webpack_require__(1763);
// EXTERNAL MODULE: ./src/sandbox/lock.ts
var lock = __webpack_require__(6856);
// EXTERNAL MODULE: ./src/sandbox/repository.ts
var repository = __webpack_require__(1151);
// EXTERNAL MODULE: ./src/run/run.ts + 8 modules
var run_run = __webpack_require__(8439);
// EXTERNAL MODULE: ./src/github/api.ts + 2 modules
var github_api = __webpack_require__(2422);
// EXTERNAL MODULE: ./src/github/bot-io.ts
var bot_io = __webpack_require__(3539);
// EXTERNAL MODULE: ./src/github/context.ts
var context = __webpack_require__(9556);
// EXTERNAL MODULE: ./src/github/event.ts + 3 modules
var github_event = __webpack_require__(4126);
// EXTERNAL MODULE: ./src/github/conversation.ts
var github_conversation = __webpack_require__(6536);
// EXTERNAL MODULE: ./src/github/feedback.ts
var github_feedback = __webpack_require__(9712);
// EXTERNAL MODULE: ./src/github/permissions.ts
var permissions = __webpack_require__(5435);
// EXTERNAL MODULE: ./src/github/pr-outcome.ts + 1 modules
var pr_outcome = __webpack_require__(9643);
// EXTERNAL MODULE: ./src/github/pr-git.ts
var pr_git = __webpack_require__(4264);
// EXTERNAL MODULE: ./src/ui/bounded-text.ts
var bounded_text = __webpack_require__(6323);
;// CONCATENATED MODULE: ./src/github/review-body-context.ts

const MAX_REVIEW_COMMENTS = 50;
/** For the kept comments' paths, hunks and bodies together. */
const MAX_REVIEW_COMMENT_BYTES = 64 * 1024;
const MAX_REVIEW_BODY_BYTES = 64 * 1024;
const MAX_PATH_BYTES = 1024;
/**
 * The first comments, at most `maxCount`, their texts within `maxBytes` in all. The one that does not fit
 * whole is kept cut short (its body before its hunk: what the reviewer wrote matters most), and the rest
 * are left out.
 */
function boundReviewComments(comments, maxCount = MAX_REVIEW_COMMENTS, maxBytes = MAX_REVIEW_COMMENT_BYTES) {
    const kept = [];
    let room = maxBytes;
    let cut = 0;
    for (const c of comments) {
        if (kept.length >= maxCount || room <= 0)
            break;
        // Each text takes what the ones before it left: the path, then the body, then the hunk.
        const take = (text, most = room) => {
            const fitted = (0,bounded_text/* cutToBytes */.z)(text, Math.min(most, room));
            room -= Buffer.byteLength(fitted.text, 'utf8');
            return fitted;
        };
        const path = take(c.path, MAX_PATH_BYTES);
        const body = take(c.body);
        const hunk = take(c.diffHunk);
        kept.push({
            path: path.text,
            line: c.line,
            start_line: c.startLine,
            side: c.side,
            diff_hunk: hunk.text,
            body: body.text,
        });
        if (body.cut || hunk.cut) {
            cut++;
            break;
        }
        if (path.cut)
            cut++;
    }
    return { kept, leftOut: comments.length - kept.length, cut };
}
function reviewContext(request, comments) {
    const review = request.review;
    const bounded = boundReviewComments('error' in comments ? [] : comments);
    const body = (0,bounded_text/* cutToBytes */.z)(review.body, MAX_REVIEW_BODY_BYTES);
    const context = {
        event: 'pull_request_review',
        pull_request: request.prNumber,
        review_id: review.id,
        state: review.state,
        commit_id: review.commitId,
        body: body.text,
        comments: bounded.kept,
        cut: { body: body.cut, comments_left_out: bounded.leftOut, comments_cut: bounded.cut },
    };
    if ('error' in comments)
        context.comments_error = (0,bounded_text/* cutToBytes */.z)(comments.error, 1000).text;
    return context;
}
/** Reads the review's comments (one call for each 100) and makes the context; a failure is a warning. */
async function readReviewContext(api, request, ui) {
    try {
        return reviewContext(request, await api.commentsOfReview(request.prNumber, request.review.id));
    }
    catch (error) {
        ui.warning(`Could not read the review's comments: ${error.message}`);
        return reviewContext(request, { error: error.message });
    }
}

;// CONCATENATED MODULE: ./src/github/review-context.ts

/** The most earlier comments of a thread the file holds, and their authors and bodies in bytes. */
const MAX_THREAD_COMMENTS = 20;
const MAX_THREAD_BYTES = 64 * 1024;
const MAX_HUNK_BYTES = 64 * 1024;
function reviewCommentContext(request, thread) {
    const rc = request.reviewComment;
    // Only what came before the trigger: the thread may already hold later replies.
    const earlier = !('error' in thread)
        ? thread
            .filter((c) => c.id < rc.id)
            .map((c) => ({ author: (0,bounded_text/* cutToBytes */.z)(c.author, 100).text, body: c.body }))
        : [];
    // Authors count against the bytes too; the thread reads oldest first.
    const bounded = (0,bounded_text/* keepNewest */.I)(earlier, MAX_THREAD_COMMENTS, MAX_THREAD_BYTES, (c) => Buffer.byteLength(c.author, 'utf8'));
    const hunk = (0,bounded_text/* cutToBytes */.z)(rc.diffHunk, MAX_HUNK_BYTES);
    const context = {
        event: 'pull_request_review_comment',
        pull_request: request.prNumber,
        comment_id: rc.id,
        path: rc.path,
        line: rc.line,
        start_line: rc.startLine,
        side: rc.side,
        commit_id: rc.commitId,
        outdated: rc.outdated,
        diff_hunk: hunk.text,
        thread: bounded.kept.reverse(),
        cut: {
            diff_hunk: hunk.cut,
            thread_comments_left_out: bounded.leftOut,
            thread_bodies_cut: bounded.bodiesCut,
        },
    };
    if ('error' in thread)
        context.thread_error = (0,bounded_text/* cutToBytes */.z)(thread.error, 1000).text;
    return context;
}

// EXTERNAL MODULE: ./src/github/run-files.ts
var run_files = __webpack_require__(8372);
// EXTERNAL MODULE: ./src/github/target.ts
var github_target = __webpack_require__(3738);
;// CONCATENATED MODULE: ./src/github/pr-run.ts
// The pull-request bot, as a story around the run mode: decide from the event, check who asked, look the
// pull request up, say on it that the run started, run the sandbox on its head, deliver the changes (push,
// or a patch for a fork), and rewrite the progress comment with the outcome.
// The comment's text reaches the command only as data: read-only files named by $SANDBOX_PROMPT_FILE and,
// for a comment on a line of the diff or a review, $SANDBOX_CONTEXT_FILE (run-files.ts).


















/** Runs the sandbox for a pull-request event; undefined when the event starts no run (which is no failure). */
async function runForPullRequest(settings, io) {
    const payload = await readEvent(io.env.GITHUB_EVENT_PATH);
    const ctx = (0,context/* readActionContext */.w)(io.env, payload);
    const repo = `${ctx.repository.owner}/${ctx.repository.repo}`;
    const decision = (0,github_event/* decideEvent */.D_)(ctx.eventName, payload, settings.trigger, settings.committer.email);
    io.debug(`Event: ${ctx.eventName} on ${repo}: ${decision.run ? (0,github_event/* describeRequest */.Ng)(decision.request) : `no run (${decision.reason})`}.`);
    if (!decision.run)
        return notTriggered(io, decision.reason);
    const { request } = decision;
    const first = (0,permissions/* checkRequester */.lJ)(request.requester, settings.trigger);
    io.debug(`Gate, who asked: ${first.allowed ? `allowed: ${first.why}` : `refused: ${first.reason}`}.`);
    if (!first.allowed && first.silent)
        return notTriggered(io, first.reason, knownOf(request));
    const api = await (0,github_api/* connectGitHub */.UY)(settings.token, ctx.apiUrl, ctx.repository, io.redaction, {
        warn: (m) => io.ui.warning(m),
        ...io.api,
    });
    if (!first.allowed)
        return refuse(io, api, request, `not allowed: ${first.reason}`);
    if ((0,permissions/* needsPermissionCheck */.dF)(request.requester)) {
        const level = await api.permission(request.requester.login);
        const verdict = (0,permissions/* checkPermission */.Yj)(request.requester, level);
        io.debug(`Gate, permission: @${request.requester.login} has permission ${level.permission}, role ${level.roleName ?? 'none'}: ${verdict.allowed ? `allowed: ${verdict.why}` : `refused: ${verdict.reason}`}.`);
        if (!verdict.allowed)
            return refuse(io, api, request, `not allowed: ${verdict.reason}`);
        io.ui.info(`Requested by @${request.requester.login}: ${first.why}; ${verdict.why}.`);
    }
    else
        io.ui.info(`Requested by @${request.requester.login}: ${first.why}.`);
    if (request.issue) {
        const { runForIssue } = await __webpack_require__.e(/* import() */ 174).then(__webpack_require__.bind(__webpack_require__, 2174));
        return runForIssue(settings, io, { ctx, api, request });
    }
    const pr = await findPullRequest(api, request, io.ui);
    if (pr && pr.state !== 'open')
        return refuse(io, api, request, `pull request #${pr.number} is ${pr.state}`, 'confused');
    if (settings.branch)
        io.ui.warning(`The 'branch' input is not used on ${ctx.eventName}: the run works on the pull request's branch.`);
    const canPushFork = pr && (0,github_target/* needsForkAccessCheck */.sz)(pr, settings.push) ? await api.canPush(pr.headRepo) : false;
    const target = pr
        ? (0,github_target/* planPullRequestTarget */.ZV)(pr, settings.push, canPushFork)
        : (0,github_target/* planBranchTarget */.Hi)(request.pushedBranch, settings.push);
    io.debug(`Target: ${(0,github_target/* describeTarget */.ff)(pr, target)}.`);
    const outcome = await runTarget(settings, io, { ctx, api, request, pr, target });
    return { ...outcome, pullRequest: pr };
}
async function runTarget(settings, io, run) {
    const { ctx, api, request, pr, target } = run;
    const { ui, text } = io;
    const progress = {
        what: request.comment?.trigger ?? request.event,
        requester: request.requester.login,
        runUrl: ctx.runUrl,
        branch: pr && target.fork ? `${pr.headRepo || 'deleted fork'}:${pr.headRef}` : target.branch,
        headSha: pr?.headSha,
    };
    const start = { prNumber: pr?.number, trigger: request.comment?.trigger, event: request.event };
    const feedback = new github_feedback/* PullRequestFeedback */.a(api, ui, {
        repository: ctx.repository,
        issueNumber: pr?.number,
        // A review has no reactions API: its feedback is the progress comment alone.
        triggerCommentId: request.review ? undefined : request.comment?.id,
        reviewThreadId: request.reviewComment?.threadId,
    }, io.save);
    (0,bot_io/* setBotOutputs */.Y)(io, {
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
    const own = (0,github_conversation/* ownComment */.w7)(feedback.progressCommentId, request.reviewComment !== undefined);
    const conversation = pr && request.comment
        ? await (0,github_conversation/* readConversation */.Gt)(api, pr.number, true, own, (m) => ui.warning(m))
        : undefined;
    let files;
    try {
        return await (0,pr_outcome/* reportRun */.G)(io, feedback, progress, start, async () => {
            const git = await (0,engine_git/* createGit */.lD)();
            const parent = await (0,repository/* findParentRepository */.a)(git, settings.repositoryPath);
            await prepareForkBranch(git, parent, target, ui);
            if (request.comment)
                files = await (0,run_files/* writeRequestFiles */.wV)(ctx.runnerTemp, request.comment.id, request.comment.args, conversation ? (0,github_conversation/* withConversation */.sM)(context ?? (0,github_conversation/* commentContext */.Ju)(request), conversation) : context);
            const deps = {
                ui,
                save: io.save,
                command: files ? (0,run_files/* requestFilesForCommand */.xo)(files) : undefined,
                pushTo: pushDestination(target),
                tail: true,
            };
            const outcome = await (0,run_run/* runSandbox */.F)({ ...settings, branch: target.branch, base: '' }, deps);
            const finished = await (0,pr_outcome/* describeOutcome */.S)(git, parent.path, settings, io, ctx, target, pr, outcome);
            return { outcome, finished };
        });
    }
    finally {
        await (0,run_files/* removeRequestFiles */.lY)(files);
    }
}
/** The context file's data: a diff comment's place and thread, or a review's comments. */
async function requestContext(api, request, io) {
    if (request.review)
        return readReviewContext(api, request, io.ui);
    const rc = request.reviewComment;
    if (!rc)
        return undefined;
    // A thread's first comment has nothing before it: no call needed.
    if (rc.threadId === rc.id)
        return reviewCommentContext(request, []);
    try {
        return reviewCommentContext(request, await api.reviewThread(request.prNumber, rc.threadId));
    }
    catch (error) {
        io.ui.warning(`Could not read the review thread: ${error.message}`);
        return reviewCommentContext(request, { error: error.message });
    }
}
async function findPullRequest(api, request, ui) {
    if (request.prNumber)
        return api.pullRequest(request.prNumber);
    const branch = request.pushedBranch;
    try {
        const open = await api.openPullRequestFor(branch);
        if (open)
            return api.pullRequest(open.number);
        ui.info(`No open pull request has ${branch} as its head: the run reports in the job summary only.`);
    }
    catch (error) {
        ui.warning(`Could not look for a pull request of ${branch}: ${error.message}`);
    }
    return undefined;
}
/**
 * A fork's head is fetched from origin (`refs/pull/N/head`), outside the repository lock (a slow origin
 * holds up no other run of the parent), then recorded and given its local branch, once, under the lock.
 */
async function prepareForkBranch(git, parent, target, ui) {
    const fetch = target.fetch;
    if (!fetch)
        return;
    const head = await (0,pr_git/* fetchPullHead */.C9)(git, parent.path, fetch.ref);
    const created = await (0,lock/* withRepositoryLock */.aZ)(parent.gitDir, async () => {
        await (0,pr_git/* pointRef */.ip)(git, parent.path, fetch.into, head);
        return (0,pr_git/* ensureLocalBranch */.uv)(git, parent.path, target.branch, head);
    });
    if (created)
        ui.info(`Branch ${target.branch} created at the fork's head ${head.slice(0, 12)}.`);
    else
        ui.info(`Branch ${target.branch} exists (a sandbox kept from an earlier run): reused as it is.`);
}
function pushDestination(target) {
    const { delivery } = target;
    if (delivery.kind === 'patch')
        return { withheld: delivery.reason };
    if (delivery.kind !== 'fork')
        return undefined;
    const to = {
        url: delivery.url,
        branch: delivery.branch,
        trackingRef: delivery.trackingRef,
        label: `${delivery.repo}:${delivery.branch}`,
    };
    return to;
}
/** A request that starts no run (someone not allowed, a closed pull request): a reaction says so; the step succeeds. */
async function refuse(io, api, request, reason, reaction = '-1') {
    if (request.comment && !request.review) {
        const id = request.comment.id;
        await (request.reviewComment ? api.reactToReviewComment(id, reaction) : api.react(id, reaction)).catch((error) => io.ui.warning(`Could not add a reaction to the comment: ${error.message}`));
    }
    return notTriggered(io, reason, knownOf(request));
}
/** What the outputs tell of a request that starts no run. */
function knownOf(request) {
    return { prNumber: request.prNumber, issueNumber: request.issue?.number, commentId: request.comment?.id };
}
async function notTriggered(io, reason, known = {}) {
    io.ui.info(`No run: ${reason}.`);
    (0,bot_io/* setBotOutputs */.Y)(io, { triggered: 'false', ...known });
    await io.summary(io.text.noRunSummary(reason));
    return undefined;
}
async function readEvent(eventPath) {
    if (!eventPath)
        return {};
    try {
        return JSON.parse(await promises_.readFile(eventPath, 'utf8'));
    }
    catch (error) {
        throw new Error(`Cannot read the event payload ${eventPath}: ${error.message}`, {
            cause: error,
        });
    }
}
/** Post step: rewrites a progress comment the main step left "running" with `body`. Never throws. */
async function finishProgressInPost(progress, body, token, redaction, ui, env = process.env) {
    try {
        const api = await (0,github_api/* connectGitHub */.UY)(token, (0,github_api/* apiUrl */.y0)(env), { owner: progress.owner, repo: progress.repo }, redaction, { warn: (m) => ui.warning(m) });
        await (0,github_feedback/* finishStoppedProgress */.Y)(api, progress, body, ui);
    }
    catch (error) {
        ui.warning(`Could not finish the progress comment: ${error.message}`);
    }
}


/***/ }),

/***/ 8372:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   lY: () => (/* binding */ removeRequestFiles),
/* harmony export */   wV: () => (/* binding */ writeRequestFiles),
/* harmony export */   xo: () => (/* binding */ requestFilesForCommand)
/* harmony export */ });
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_2__);
// The files that carry a request's text to the command as data: the prompt (the text after the trigger,
// $SANDBOX_PROMPT_FILE) and the context (JSON about where the request was made, $SANDBOX_CONTEXT_FILE).
// Both sit in a private folder of the runner's temp and are mounted read-only at the same path: no part
// of them is ever put on a command line or in a shell.



async function writeRequestFiles(runnerTemp, commentId, args, context) {
    const dir = node_path__WEBPACK_IMPORTED_MODULE_1__.join(runnerTemp, 'worktree-sandbox', `prompt-${commentId}-${(0,node_crypto__WEBPACK_IMPORTED_MODULE_2__.randomBytes)(4).toString('hex')}`);
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.mkdir(dir, { recursive: true, mode: 0o755 });
    const prompt = node_path__WEBPACK_IMPORTED_MODULE_1__.join(dir, 'prompt.txt');
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.writeFile(prompt, args, { mode: 0o644 });
    if (context === undefined)
        return { dir, prompt };
    const file = node_path__WEBPACK_IMPORTED_MODULE_1__.join(dir, 'context.json');
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.writeFile(file, `${JSON.stringify(context, null, 2)}\n`, { mode: 0o644 });
    return { dir, prompt, context: file };
}
/** What the command gets of them: read-only mounts and the variables that name them. */
function requestFilesForCommand(files) {
    const readOnlyFiles = [files.prompt];
    const extraEnv = { SANDBOX_PROMPT_FILE: files.prompt };
    if (files.context) {
        readOnlyFiles.push(files.context);
        extraEnv.SANDBOX_CONTEXT_FILE = files.context;
    }
    return { readOnlyFiles, extraEnv };
}
async function removeRequestFiles(files) {
    if (files)
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm(files.dir, { recursive: true, force: true });
}


/***/ }),

/***/ 3738:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Hi: () => (/* binding */ planBranchTarget),
/* harmony export */   ZV: () => (/* binding */ planPullRequestTarget),
/* harmony export */   ff: () => (/* binding */ describeTarget),
/* harmony export */   sz: () => (/* binding */ needsForkAccessCheck)
/* harmony export */ });
/* unused harmony exports isFork, forkBranchName */
function isFork(pr) {
    return !pr.headRepo || pr.headRepo.toLowerCase() !== pr.baseRepo.toLowerCase();
}
/** Only then is it worth asking the API whether the token can push to the fork. */
function needsForkAccessCheck(pr, push) {
    return push && isFork(pr) && !!pr.headRepo && pr.maintainerCanModify;
}
/** The local name of a fork's branch: its own name could be any branch of the base repository (`main`). */
function forkBranchName(number) {
    return `pr-${number}`;
}
function planPullRequestTarget(pr, push, tokenCanPushFork) {
    if (!isFork(pr))
        return { branch: pr.headRef, fork: false, delivery: push ? { kind: 'origin' } : { kind: 'none' } };
    const into = `refs/remotes/origin/pull/${pr.number}/head`;
    const base = {
        branch: forkBranchName(pr.number),
        fetch: { ref: `refs/pull/${pr.number}/head`, into },
        fork: true,
    };
    if (!push)
        return { ...base, delivery: { kind: 'none' } };
    const patch = (reason) => ({ ...base, delivery: { kind: 'patch', reason } });
    if (!pr.headRepo)
        return patch('the fork of this pull request was deleted');
    if (!pr.maintainerCanModify)
        return patch(`the pull request comes from the fork ${pr.headRepo}, whose author does not allow edits from maintainers`);
    if (!tokenCanPushFork)
        return patch(`the pull request comes from the fork ${pr.headRepo} and the token cannot push there (GITHUB_TOKEN never can: give a personal access token or GitHub App token with access to the fork)`);
    return {
        ...base,
        delivery: {
            kind: 'fork',
            url: pr.headCloneUrl,
            branch: pr.headRef,
            repo: pr.headRepo,
            trackingRef: into,
        },
    };
}
/** A push with no pull request (or one whose head is the pushed branch): the pushed branch itself. */
function planBranchTarget(branch, push) {
    return { branch, fork: false, delivery: push ? { kind: 'origin' } : { kind: 'none' } };
}
/** One line for the debug log: the pull request (same repository or fork) and where the changes go. */
function describeTarget(pr, target) {
    const on = pr
        ? `pull request #${pr.number}, head ${pr.headRepo || 'deleted fork'}:${pr.headRef} at ${pr.headSha.slice(0, 12)}, ${target.fork ? 'a fork' : 'the same repository'}`
        : 'no open pull request';
    const { delivery } = target;
    const to = delivery.kind === 'origin'
        ? `push to origin/${target.branch}`
        : delivery.kind === 'fork'
            ? `push to ${delivery.repo}:${delivery.branch}`
            : delivery.kind === 'patch'
                ? `no push, a patch: ${delivery.reason}`
                : 'no push (push: false)';
    return `${on}; sandbox branch ${target.branch}; ${to}`;
}


/***/ })

};
