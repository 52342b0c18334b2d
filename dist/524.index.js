export const id = 524;
export const ids = [524];
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
