export const id = 540;
export const ids = [540];
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

/***/ 6313:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  y0: () => (/* binding */ apiUrl),
  UY: () => (/* binding */ connectGitHub)
});

// UNUSED EXPORTS: isHeadOf

// EXTERNAL MODULE: ./node_modules/bottleneck/light.js
var light = __webpack_require__(3251);
var light_default = /*#__PURE__*/__webpack_require__.n(light);
;// CONCATENATED MODULE: ./src/github/api-resilience.ts
// How the API client rides out GitHub's transient faults, as Octokit's own plugins do it: a 5xx or a
// dropped connection (ECONNRESET reaches the client as status 500) is retried with a growing pause; a
// rate limit is waited out, a secondary one as long as GitHub's retry-after says. Answers that cannot get
// better by asking again (400, 401, 403 without a limit, 404, 410, 422, 451) fail at once. Writes are
// spaced as GitHub asks of integrations (one at a time, a second apart).

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

// EXTERNAL MODULE: ./src/bundle/http-client-on-demand.ts
var http_client_on_demand = __webpack_require__(5126);
// EXTERNAL MODULE: ./src/bundle/undici-on-demand.ts
var undici_on_demand = __webpack_require__(6956);
;// CONCATENATED MODULE: ./src/github/api.ts



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
async function connectGitHub(token, baseUrl, repo, options = {}) {
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
    const { owner, repo: name } = repo;
    return {
        async pullRequest(number) {
            const { data } = await octokit.rest.pulls.get({ owner, repo: name, pull_number: number });
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
                owner,
                repo: name,
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
            const { data } = await octokit.rest.repos.get({ owner, repo: name });
            return data.default_branch;
        },
        async createPullRequest(pr) {
            const { data } = await octokit.rest.pulls.create({ owner, repo: name, ...pr });
            return { number: data.number, htmlUrl: data.html_url, body: data.body ?? '' };
        },
        async updatePullRequest(number, change) {
            await octokit.rest.pulls.update({ owner, repo: name, pull_number: number, ...change });
        },
        async addLabels(issueNumber, labels) {
            await octokit.rest.issues.addLabels({ owner, repo: name, issue_number: issueNumber, labels });
        },
        async permission(login) {
            try {
                const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
                    owner,
                    repo: name,
                    username: login,
                });
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
            const { data } = await octokit.rest.issues.createComment({
                owner,
                repo: name,
                issue_number: issueNumber,
                body,
            });
            return data.id;
        },
        async updateComment(commentId, body) {
            await octokit.rest.issues.updateComment({ owner, repo: name, comment_id: commentId, body });
        },
        async react(commentId, content) {
            await octokit.rest.reactions.createForIssueComment({
                owner,
                repo: name,
                comment_id: commentId,
                content,
            });
        },
    };
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
/* harmony import */ var _api_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6313);
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

/***/ 6540:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  finishProgressInPost: () => (/* binding */ finishProgressInPost),
  runForPullRequest: () => (/* binding */ runForPullRequest)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: ./src/engine/git.ts + 2 modules
var engine_git = __webpack_require__(1763);
// EXTERNAL MODULE: ./src/sandbox/lock.ts
var lock = __webpack_require__(6856);
// EXTERNAL MODULE: ./src/sandbox/repository.ts
var repository = __webpack_require__(1151);
// EXTERNAL MODULE: ./src/run/run.ts + 8 modules
var run_run = __webpack_require__(8439);
// EXTERNAL MODULE: ./src/run/secret-gate.ts + 1 modules
var secret_gate = __webpack_require__(9702);
// EXTERNAL MODULE: ./src/github/api.ts + 1 modules
var github_api = __webpack_require__(6313);
// EXTERNAL MODULE: ./src/github/context.ts
var context = __webpack_require__(9556);
// EXTERNAL MODULE: ./src/github/event.ts
var github_event = __webpack_require__(5015);
// EXTERNAL MODULE: ./src/run/reply.ts + 1 modules
var run_reply = __webpack_require__(5125);
;// CONCATENATED MODULE: ./src/github/progress.ts
// The progress comment on the pull request: one comment, created when the run starts and rewritten in
// place when it ends (or by the post step when the job stopped first). Pure rendering.
// Everything the command produced (log, file names, commit subjects, patch) is untrusted: it goes into
// code blocks or code spans, where Markdown, HTML and @mentions do nothing, with known secrets redacted.


/** GitHub refuses comments over 65,536 characters. */
const MAX_COMMENT = 65_000;
const MAX_LINE = 300;
const MAX_FILES = 100;
const MAX_INLINE_PATCH = 30_000;
/** The most characters of the command's reply in the comment (the job summary has more). */
const MAX_REPLY_IN_COMMENT = 20_000;
const REDACTED = '***';
function renderRunning(ctx) {
    return [
        github_event/* PROGRESS_MARKER */.b$,
        `### ⏳ \`${ctx.what}\` is running`,
        '',
        `${requestLine(ctx)} The sandbox works on ${branchLine(ctx)}; this comment is updated when the run ends.`,
    ].join('\n');
}
function renderFinished(ctx, run, secrets) {
    const clean = (text) => redact(text, secrets);
    const ok = run.exitCode === 0;
    const status = run.timedOut
        ? `⏱ \`${ctx.what}\` timed out`
        : run.oomKilled
            ? `💥 \`${ctx.what}\` ran out of memory`
            : !ok
                ? `❌ \`${ctx.what}\` failed`
                : run.pushFailed
                    ? `⚠️ \`${ctx.what}\` finished, but its commits were not pushed`
                    : `✅ \`${ctx.what}\` finished`;
    const rows = [
        ['Exit code', String(run.exitCode)],
        ['Duration', formatDuration(run.durationMs)],
        ['Files changed', String(run.filesChangedCount)],
        ['Commits', commitsCell(run)],
    ];
    if (run.modelUsage)
        rows.push(['Model usage', run.modelUsage]);
    if (run.patch)
        rows.push(['Patch', `saved as ${code(run.patch.path)} (output \`patch-path\`)`]);
    const sections = [
        github_event/* PROGRESS_MARKER */.b$,
        `### ${status}`,
        '',
        `${requestLine(ctx)} Branch: ${branchLine(ctx)}.`,
        '',
        '| | |',
        '|---|---|',
        ...rows.map(([k, v]) => `| ${k} | ${v.replace(/\|/g, '\\|')} |`),
    ];
    const reply = (0,run_reply/* replyMarkdown */.iz)(run.reply, {
        heading: "**The command's reply**",
        maxChars: MAX_REPLY_IN_COMMENT,
        redact: clean,
        elsewhere: 'the job summary and the output `reply` have the rest',
    });
    if (reply)
        sections.push('', reply);
    if (run.commits.length) {
        sections.push('', run.pushed ? '**Commits pushed**' : '**Commits (not pushed)**', '');
        if (run.moreCommits)
            sections.push(`- … older commits left out: only the newest ${run.commits.length} are listed`);
        for (const c of run.commits) {
            const sha = c.url ? `[\`${c.sha.slice(0, 7)}\`](${c.url})` : code(c.sha.slice(0, 7));
            sections.push(`- ${sha} ${code(clean(c.subject))}`);
        }
    }
    if (run.filesChanged.length) {
        const shown = run.filesChanged.slice(0, MAX_FILES).map(clean);
        if (run.filesChangedCount > shown.length)
            shown.push(`… and ${run.filesChangedCount - shown.length} more`);
        const stat = run.diffStat ? clean(run.diffStat) : shown.join('\n');
        sections.push('', details('Files changed', fence(stat)));
    }
    if (run.tail.length)
        sections.push('', details('Last lines of the log', fence(clean(tailText(run.tail)))));
    const body = sections.join('\n');
    if (run.patch && run.patch.text.length <= MAX_INLINE_PATCH) {
        const withPatch = `${body}\n\n${details('Patch (apply with `git am`)', fence(clean(run.patch.text), 'diff'))}`;
        if (withPatch.length <= MAX_COMMENT)
            return withPatch;
    }
    return body.length <= MAX_COMMENT ? body : `${body.slice(0, MAX_COMMENT - 40)}\n\n… (cut: too long)`;
}
/** The main step failed before the run could end (an error, not the command's exit code). */
function renderFailed(ctx, message, secrets) {
    return [
        github_event/* PROGRESS_MARKER */.b$,
        `### ❌ \`${ctx.what}\` could not run`,
        '',
        `${requestLine(ctx)} Branch: ${branchLine(ctx)}.`,
        '',
        fence(redact(message, secrets).slice(0, 4_000)),
    ].join('\n');
}
/** The job ended before the main step finished the comment: cancelled, timed out or killed. */
function renderStopped(ctx) {
    const what = ctx ? `\`${ctx.what}\`` : 'The run';
    return [
        github_event/* PROGRESS_MARKER */.b$,
        `### 🛑 ${what} stopped before it finished`,
        '',
        ...(ctx ? [`${requestLine(ctx)} Branch: ${branchLine(ctx)}.`, ''] : []),
        'The job was cancelled, timed out or failed while the run was in progress: nothing more was pushed.' +
            (ctx ? ` The [workflow run](${ctx.runUrl}) has the details.` : ''),
    ].join('\n');
}
/** Replaces every occurrence of each secret (4 characters or more: shorter ones would blank out text). */
function redact(text, secrets) {
    let out = text;
    for (const secret of secrets) {
        if (secret.length >= 4)
            out = out.split(secret).join(REDACTED);
    }
    return out;
}
/** A fenced code block whose fence is longer than any run of backticks in the text. */
function fence(text, lang = '') {
    const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
    const marks = '`'.repeat(Math.max(3, longest + 1));
    return `${marks}${lang}\n${text}\n${marks}`;
}
function formatDuration(ms) {
    const seconds = ms / 1000;
    if (seconds < 60)
        return `${seconds.toFixed(1)} s`;
    const minutes = Math.floor(seconds / 60);
    return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}
function commitsCell(run) {
    const n = `${run.moreCommits ? 'more than ' : ''}${run.commits.length}`;
    if (run.pushed)
        return `${n} pushed to ${code(run.pushedTo ?? '')}`;
    if (!run.commits.length)
        return run.pushReason ? `none (${run.pushReason})` : 'none';
    return run.pushReason ? `${n}, not pushed: ${run.pushReason}` : `${n}, not pushed`;
}
function requestLine(ctx) {
    return `Requested by @${ctx.requester} · [workflow run](${ctx.runUrl}).`;
}
function branchLine(ctx) {
    return ctx.headSha ? `${code(ctx.branch)} at ${code(ctx.headSha.slice(0, 12))}` : code(ctx.branch);
}
/** An inline code span that holds any text on one line (backticks cannot close it early). */
function code(text) {
    const one = text.replace(/[\r\n]+/g, ' ');
    const longest = Math.max(0, ...(one.match(/`+/g) ?? []).map((run) => run.length));
    const ticks = '`'.repeat(longest + 1);
    const pad = one.startsWith('`') || one.endsWith('`') ? ' ' : '';
    return `${ticks}${pad}${one}${pad}${ticks}`;
}
function details(summary, body) {
    return `<details><summary>${summary}</summary>\n\n${body}\n</details>`;
}
function tailText(lines) {
    return lines.map((l) => (l.length > MAX_LINE ? `${l.slice(0, MAX_LINE)}…` : l)).join('\n');
}

;// CONCATENATED MODULE: ./src/github/feedback.ts

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
            await this.attempt(`add a ${content} reaction`, () => this.api.react(id, content));
    }
    /** Creates the progress comment and records it for the post step. */
    async start(ctx) {
        const issue = this.target.issueNumber;
        if (!issue)
            return;
        const id = await this.attempt('create the progress comment', () => this.api.createComment(issue, renderRunning(ctx)));
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
            await this.attempt('update the progress comment', () => this.api.updateComment(id, body));
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
async function finishStoppedProgress(api, progress, ui) {
    await api.updateComment(progress.commentId, renderStopped(progress.context));
    ui.info(`Progress comment ${progress.commentId} marked as stopped.`);
    if (progress.triggerCommentId) {
        await api
            .react(progress.triggerCommentId, 'confused')
            .catch((error) => ui.warning(`Could not add a reaction: ${error.message}`));
    }
}

;// CONCATENATED MODULE: ./src/github/permissions.ts
/** Repository roles that can push (GitHub's `permission` is `write` for maintainers too). */
const WRITE_ROLES = ['admin', 'maintain', 'write'];
function isBot(requester) {
    return requester.type === 'Bot' || /\[bot\]$/i.test(requester.login);
}
/** `dependabot[bot]`, `Dependabot` and `dependabot` all name the same bot. */
function botName(login) {
    return login.replace(/\[bot\]$/i, '').toLowerCase();
}
function checkRequester(requester, rules) {
    const who = `@${requester.login}`;
    if (isBot(requester)) {
        if (rules.allowedBots.some((b) => botName(b) === botName(requester.login)))
            return { allowed: true, why: `${who} is named in allowed-bots` };
        return {
            allowed: false,
            silent: true,
            reason: `${who} is a bot: bots (this action's own account included) start no run unless allowed-bots names them`,
        };
    }
    if (requester.eventNeedsWrite)
        return { allowed: true, why: `${who} started an event that carries no author association` };
    const association = requester.association ?? 'NONE';
    if (rules.allowedAssociations.includes(association))
        return { allowed: true, why: `${who} is ${association} of the repository` };
    return {
        allowed: false,
        silent: false,
        reason: `${who} is ${association} of the repository; allowed-associations is ${rules.allowedAssociations.join(', ') || 'empty'}`,
    };
}
/** Every run a person starts needs their repository permission; bots are let in by `allowed-bots` alone. */
function needsPermissionCheck(requester) {
    return !isBot(requester);
}
function checkPermission(requester, level) {
    const who = `@${requester.login}`;
    const roles = [level.permission, level.roleName ?? ''].map((r) => r.toLowerCase());
    if (roles.some((r) => WRITE_ROLES.includes(r)))
        return { allowed: true, why: `${who} has ${level.roleName || level.permission} permission` };
    const role = level.roleName || (level.permission === 'none' ? '' : level.permission);
    return {
        allowed: false,
        silent: false,
        reason: `${who} has ${role ? `${role} permission` : 'no permission'} on the repository: a run needs write, maintain or admin (it receives the secrets named in env)`,
    };
}

// EXTERNAL MODULE: ./src/network/usage-report.ts
var usage_report = __webpack_require__(4992);
// EXTERNAL MODULE: ./src/run/changed-paths.ts
var changed_paths = __webpack_require__(5136);
;// CONCATENATED MODULE: ./src/github/pr-git.ts
// The git steps a pull-request run adds around the sandbox, all on the host through the hardened wrapper:
// fetch a fork's head from the base repository, give it a local branch, and read what the run committed
// (commit list, patch). Commits live in the parent's object store whatever the isolation.




function checkSha(sha) {
    if (!engine_git/* OID */.Vx.test(sha))
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
    const span = await (0,changed_paths/* changedPaths */.vl)(git, parentPath, checkSha(start), checkSha(head));
    if (!span.exact || span.count > PATCH_MAX_PATHS)
        return undefined;
    await promises_.mkdir(dir, { recursive: true });
    const file = external_node_path_.join(dir, `${name.replace(/[^A-Za-z0-9._-]/g, '-')}.patch`);
    await promises_.rm(file, { force: true });
    const written = await git.stream(parentPath, [
        'format-patch',
        '--stdout',
        '--binary',
        ...engine_git/* NO_EXTERNAL_DIFF */.ST,
        '--no-signature',
        `${checkSha(start)}..${checkSha(head)}`,
        '--',
    ], { stdoutFile: { path: file, maxBytes: PATCH_MAX_BYTES } });
    if (written.exitCode !== 0 || written.overLimit) {
        await promises_.rm(file, { force: true });
        return undefined;
    }
    const text = written.stdoutBytes <= PATCH_TEXT_MAX_BYTES ? await promises_.readFile(file, 'utf8') : '';
    return { path: file, text };
}

;// CONCATENATED MODULE: ./src/github/pr-outcome.ts
// What a pull-request run reports when it is done: its commits (from the parent, where the import put
// them), a patch where they could not be pushed, and the job summary's lines.




async function describeOutcome(git, parentPath, settings, ctx, target, pr, outcome, gate) {
    const { command, report, push, sandbox } = outcome;
    const pushed = push?.pushed === true;
    const repoOfCommits = target.delivery.kind === 'fork' ? target.delivery.repo : `${ctx.repository.owner}/${ctx.repository.repo}`;
    const listed = await listCommits(git, parentPath, sandbox.startSha, report.headSha);
    const commits = listed.commits.map((c) => ({
        ...c,
        url: pushed ? `${ctx.serverUrl}/${repoOfCommits}/commit/${c.sha}` : undefined,
    }));
    let patch;
    if (settings.push && !pushed && commits.length) {
        // The patch is shown on the pull request and offered as a file: scanned as a push would be.
        await (0,secret_gate/* checkCommits */.TK)(git, parentPath, [report.headSha, '--not', sandbox.startSha], gate, 'the patch');
        const name = pr
            ? `pr-${pr.number}-${report.headSha.slice(0, 12)}`
            : `${sandbox.name}-${report.headSha.slice(0, 12)}`;
        patch = await savePatch(git, parentPath, sandbox.startSha, report.headSha, external_node_path_.join(ctx.runnerTemp, 'worktree-sandbox'), name);
    }
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
        tail: command.tail,
        reply: command.reply,
        ...(command.network?.models && (0,usage_report/* modelUsageTotals */.s6)(command.network.models)
            ? { modelUsage: (0,usage_report/* modelUsageTotals */.s6)(command.network.models) }
            : {}),
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
function summaryOf(request, pr, progress, run) {
    const on = pr ? `pull request #${pr.number}` : `branch \`${progress.branch}\``;
    const lines = [
        `## worktree-sandbox: ${on}`,
        '',
        `Started by @${request.requester.login} (${request.comment ? `comment ${request.comment.trigger}` : request.event}).`,
    ];
    if (run.pushed)
        lines.push(`Pushed ${run.commits.length} commit(s) to \`${run.pushedTo}\`.`);
    else if (run.pushReason)
        lines.push(`Not pushed: ${run.pushReason}.`);
    if (run.patch)
        lines.push(`Patch saved as \`${run.patch.path}\` (output \`patch-path\`).`);
    return `${lines.join('\n')}\n\n`;
}

;// CONCATENATED MODULE: ./src/github/target.ts
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
    if (!pr.headRepo)
        return { ...base, delivery: { kind: 'patch', reason: 'the fork of this pull request was deleted' } };
    if (!pr.maintainerCanModify)
        return {
            ...base,
            delivery: {
                kind: 'patch',
                reason: `the pull request comes from the fork ${pr.headRepo}, whose author does not allow edits from maintainers`,
            },
        };
    if (!tokenCanPushFork)
        return {
            ...base,
            delivery: {
                kind: 'patch',
                reason: `the pull request comes from the fork ${pr.headRepo} and the token cannot push there (GITHUB_TOKEN never can: give a personal access token or GitHub App token with access to the fork)`,
            },
        };
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

;// CONCATENATED MODULE: ./src/github/pr-run.ts
// The pull-request bot, as a story around the run mode: decide from the event, check who asked, look the
// pull request up, say on it that the run started, run the sandbox on its head, deliver the changes (push,
// or a patch for a fork), and rewrite the progress comment with the outcome.
// The comment's text reaches the command only as data: a read-only file named by $SANDBOX_PROMPT_FILE.

















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
    const known = { prNumber: request.prNumber, commentId: request.comment?.id };
    const first = checkRequester(request.requester, settings.trigger);
    io.debug(`Gate, who asked: ${first.allowed ? `allowed: ${first.why}` : `refused: ${first.reason}`}.`);
    if (!first.allowed && first.silent)
        return notTriggered(io, first.reason, known);
    const api = await (0,github_api/* connectGitHub */.UY)(settings.token, ctx.apiUrl, ctx.repository, {
        warn: (m) => io.ui.warning(m),
        ...io.api,
    });
    if (!first.allowed)
        return refuse(io, api, request, `not allowed: ${first.reason}`);
    if (needsPermissionCheck(request.requester)) {
        const level = await api.permission(request.requester.login);
        const verdict = checkPermission(request.requester, level);
        io.debug(`Gate, permission: @${request.requester.login} has permission ${level.permission}, role ${level.roleName ?? 'none'}: ${verdict.allowed ? `allowed: ${verdict.why}` : `refused: ${verdict.reason}`}.`);
        if (!verdict.allowed)
            return refuse(io, api, request, `not allowed: ${verdict.reason}`);
        io.ui.info(`Requested by @${request.requester.login}: ${first.why}; ${verdict.why}.`);
    }
    else
        io.ui.info(`Requested by @${request.requester.login}: ${first.why}.`);
    const pr = await findPullRequest(api, request, io.ui);
    if (pr && pr.state !== 'open')
        return refuse(io, api, request, `pull request #${pr.number} is ${pr.state}`, 'confused');
    if (settings.branch)
        io.ui.warning(`The 'branch' input is not used on ${ctx.eventName}: the run works on the pull request's branch.`);
    const canPushFork = pr && needsForkAccessCheck(pr, settings.push) ? await api.canPush(pr.headRepo) : false;
    const target = pr
        ? planPullRequestTarget(pr, settings.push, canPushFork)
        : planBranchTarget(request.pushedBranch, settings.push);
    io.debug(`Target: ${describeTarget(pr, target)}.`);
    const outcome = await runTarget(settings, io, { ctx, api, request, pr, target });
    return { ...outcome, pullRequest: pr };
}
async function runTarget(settings, io, run) {
    const { ctx, api, request, pr, target } = run;
    const { ui } = io;
    const secrets = [settings.token, ...settings.env.map((e) => e.value)];
    const progress = {
        what: request.comment?.trigger ?? request.event,
        requester: request.requester.login,
        runUrl: ctx.runUrl,
        branch: pr && target.fork ? `${pr.headRepo || 'deleted fork'}:${pr.headRef}` : target.branch,
        headSha: pr?.headSha,
    };
    const feedback = new PullRequestFeedback(api, ui, { repository: ctx.repository, issueNumber: pr?.number, triggerCommentId: request.comment?.id }, io.save);
    setOutputs(io, {
        triggered: 'true',
        prNumber: pr?.number,
        commentId: request.comment?.id,
        args: request.comment?.args,
    });
    await feedback.react('eyes');
    await feedback.start(progress);
    let promptFile;
    let outcome;
    try {
        const git = await engine_git/* Git */.TU.create();
        const parent = await (0,repository/* findParentRepository */.a)(git, settings.repositoryPath);
        await prepareForkBranch(git, parent, target, ui);
        if (request.comment)
            promptFile = await writePromptFile(ctx.runnerTemp, request.comment.id, request.comment.args);
        const deps = {
            ui,
            save: io.save,
            command: promptFile
                ? { readOnlyFiles: [promptFile], extraEnv: { SANDBOX_PROMPT_FILE: promptFile } }
                : undefined,
            pushTo: pushDestination(target),
        };
        outcome = await (0,run_run/* runSandbox */.F)({ ...settings, branch: target.branch, base: '' }, deps);
        const gate = (0,secret_gate/* secretGate */._D)(settings, ui, () => io.save({ secretsFound: true }));
        const finished = await describeOutcome(git, parent.path, settings, ctx, target, pr, outcome, gate);
        // The comment names the commit the sandbox really started from (the branch may have moved since).
        const done = { ...progress, headSha: outcome.sandbox.startSha };
        if (finished.patch)
            io.setOutput('patch-path', finished.patch.path);
        const succeeded = outcome.command.exitCode === 0 && !finished.pushFailed;
        await feedback.finish(done, renderFinished(done, finished, secrets), succeeded ? 'rocket' : 'confused');
        await io.summary(summaryOf(request, pr, done, finished));
    }
    catch (error) {
        await feedback.finish(progress, renderFailed(progress, error.message, secrets), 'confused');
        throw error;
    }
    finally {
        if (promptFile)
            await promises_.rm(external_node_path_.dirname(promptFile), { recursive: true, force: true });
    }
    return outcome;
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
    const head = await fetchPullHead(git, parent.path, fetch.ref);
    const created = await (0,lock/* withRepositoryLock */.aZ)(parent.gitDir, async () => {
        await pointRef(git, parent.path, fetch.into, head);
        return ensureLocalBranch(git, parent.path, target.branch, head);
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
/** The comment's text, for the command to read: a private folder, a file the container may only read. */
async function writePromptFile(runnerTemp, commentId, args) {
    const dir = external_node_path_.join(runnerTemp, 'worktree-sandbox', `prompt-${commentId}-${(0,external_node_crypto_.randomBytes)(4).toString('hex')}`);
    await promises_.mkdir(dir, { recursive: true, mode: 0o755 });
    const file = external_node_path_.join(dir, 'prompt.txt');
    await promises_.writeFile(file, args, { mode: 0o644 });
    return file;
}
/** A request that starts no run (someone not allowed, a closed pull request): a reaction says so; the step succeeds. */
async function refuse(io, api, request, reason, reaction = '-1') {
    if (request.comment) {
        await api
            .react(request.comment.id, reaction)
            .catch((error) => io.ui.warning(`Could not add a reaction to the comment: ${error.message}`));
    }
    return notTriggered(io, reason, {
        prNumber: request.prNumber,
        commentId: request.comment?.id,
    });
}
async function notTriggered(io, reason, known = {}) {
    io.ui.info(`No run: ${reason}.`);
    setOutputs(io, { triggered: 'false', ...known });
    await io.summary(`## worktree-sandbox: no run\n\n${escapeMarkdown(reason)}.\n`);
    return undefined;
}
function setOutputs(io, values) {
    io.setOutput('triggered', values.triggered);
    io.setOutput('pr-number', values.prNumber ? String(values.prNumber) : '');
    io.setOutput('comment-id', values.commentId ? String(values.commentId) : '');
    io.setOutput('args', values.args ?? '');
}
function escapeMarkdown(text) {
    return text.replace(/[<>]/g, (c) => `&#${c.charCodeAt(0)};`);
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
/** Post step: finishes a progress comment the main step left "running". Never throws. */
async function finishProgressInPost(progress, token, ui, env = process.env) {
    try {
        const api = await (0,github_api/* connectGitHub */.UY)(token, (0,github_api/* apiUrl */.y0)(env), { owner: progress.owner, repo: progress.repo }, { warn: (m) => ui.warning(m) });
        await finishStoppedProgress(api, progress, ui);
    }
    catch (error) {
        ui.warning(`Could not finish the progress comment: ${error.message}`);
    }
}


/***/ })

};
