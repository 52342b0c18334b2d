import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 7616:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   O: () => (/* binding */ ACTION_DEFAULTS)
/* harmony export */ });
/* unused harmony export ACTION_INPUTS */
// Generated from action.yml by scripts/action-defaults.mjs: do not edit. The inputs, written once.
/** Every input, in action.yml's order: the CLI's options are made of them. */
const ACTION_INPUTS = {
    "mode": { "description": "`run` creates or reuses a sandbox and runs `command` in it; `reap` removes stale sandboxes.", "default": "run" },
    "command": { "description": "Command to run in the sandbox with `sh -c`, working directory = the worktree. Required in run mode.", "default": "" },
    "image": { "description": "Container image of the command, with `sh` and `git` (and `setpriv` or `chroot` for volume sandboxes). Reap mode does not use it: its helpers run the runner's own programs.", "default": "buildpack-deps:bookworm-scm" },
    "engine": { "description": "Container engine: `docker`, or `podman` (same CLI, volumes and labels; rootful Podman may need `default_ulimits = []` in a containers.conf named by CONTAINERS_CONF).", "default": "docker" },
    "isolation": { "description": "`container`: the worktree lives in a Docker named volume; `disk`: under `worktree-root` on the host.", "default": "container" },
    "branch": { "description": "Branch for the sandbox: checked out when it exists (locally or on origin), created from `base` when new. Empty: a transient `exploration-<8 hex>` sandbox on a detached HEAD.", "default": "" },
    "base": { "description": "Start point for a new branch or a transient sandbox. Default: the parent repository HEAD.", "default": "" },
    "repository-path": { "description": "The parent repository. Default: $GITHUB_WORKSPACE, else the working directory. A linked worktree is resolved to its parent.", "default": "" },
    "worktree-root": { "description": "Root of disk sandboxes (`<root>/<project>/<sandbox>`). Default: $XDG_CACHE_HOME/worktree-sandbox/worktrees (~/.cache/... when unset); when the action runs in a container (a container job, an ARC runner), `<runner work folder>/_worktree-sandbox/worktrees`, which the engine can see.", "default": "" },
    "volume-prefix": { "description": "Prefix of sandbox volume names: `<prefix>-<project>-<sandbox>`.", "default": "worktree-sandbox" },
    "cleanup": { "description": "Post step: `auto` removes a transient sandbox that holds no work and keeps everything else; `always` removes it (uncommitted work saved as a patch under RUNNER_TEMP first); `never` keeps it.", "default": "auto" },
    "env": { "description": "Variables for the container, one per line: `NAME` (taken from the step environment) or `NAME=value`. Nothing else of the runner environment enters the container.", "default": "" },
    "timeout-minutes": { "description": "Stop the command after this many minutes (a positive number; 0 = no limit but the job's).", "default": "0" },
    "lock-timeout-minutes": { "description": "How long a run waits for another run that is using the same sandbox (the same branch) before it fails.", "default": "10" },
    "allow-failure": { "description": "`true`: a non-zero exit of the command is reported but does not fail the step.", "default": "false" },
    "push": { "description": "`true`: commit what is left uncommitted and push the sandbox branch to origin (never forced).", "default": "false" },
    "commit-message": { "description": "Message of the commit made with `push: true`.", "default": "chore: changes made in worktree-sandbox" },
    "secret-scan": { "description": "Before a push, a saved patch or a posted reply, the lines the run adds, its commits as git stores them (author, committer, every header, the message's bytes), the path names it adds and the reply are scanned for `token`, the values of `credentials`, the values of `env` entries named `*_KEY`, `*_TOKEN`, `*_SECRET` or `*_PASSWORD`, and well-known credential formats (secretlint's recommended rules). `block`: a finding stops it and fails the step, naming the place and the rule, never the value; the sandbox keeps the work. `warn`: findings are warnings. `off`: no scan. See [docs/secret-scan.md](docs/secret-scan.md).", "default": "block" },
    "author": { "description": "Author of the commit made with `push: true`, as `Name <email>`. Empty: `github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>` (on GitHub Enterprise Server: `github-actions[bot] <github-actions[bot]@users.noreply.HOST>`, HOST from GITHUB_SERVER_URL).", "default": "" },
    "committer": { "description": "Committer of the commit made with `push: true`, as `Name <email>`. Empty: the same bot identity as `author`. A push whose head commit has this committer e-mail starts no pull-request bot run.", "default": "" },
    "pull-request": { "description": "`true` (needs `push: true`): a pushed branch that is not yet the head of an open pull request gets one, against `base` (a branch name) or else the default branch. A pull request this action opened is updated (title, body, labels) by later runs; one opened by someone else is left as it is.", "default": "false" },
    "pull-request-title": { "description": "Title of the pull request opened with `pull-request: true`.", "default": "Changes made in worktree-sandbox" },
    "pull-request-body": { "description": "Body (Markdown) of the pull request opened with `pull-request: true`.", "default": "Automated changes made by worktree-sandbox." },
    "pull-request-draft": { "description": "`true`: the pull request is opened as a draft.", "default": "false" },
    "pull-request-labels": { "description": "Labels for the pull request, separated by commas or newlines.", "default": "" },
    "token": { "description": "Token for the GitHub API and for pushing. It never enters the container." },
    "trigger": { "description": "Pull-request bot: the command word that starts a run from a pull-request comment (e.g. `/fix`): the comment must start with it, whole (`/fixed` is not `/fix`). The rest of the comment is handed to the command as data ($SANDBOX_PROMPT_FILE, output `args`; where it was made in $SANDBOX_CONTEXT_FILE). Needed for `issue_comment`, `pull_request_review_comment` and `pull_request_review` (the review's body) events.", "default": "" },
    "label-trigger": { "description": "Pull-request bot: a label (such as `fix-me`) that, added to an issue (`issues` event, `labeled`), makes a pull request of it. The label is removed when the run ends, so that labelling again starts another run.", "default": "" },
    "assignee-trigger": { "description": "Pull-request bot: a login (such as `fix-bot`) that, assigned to an issue (`issues` event, `assigned`), makes a pull request of it.", "default": "" },
    "issue-branch-prefix": { "description": "Pull-request bot: an issue is worked on in the branch of this prefix and its number (made from `base`, else the checked-out HEAD; continued when it exists on origin).", "default": "worktree-sandbox/issue-" },
    "allowed-associations": { "description": "Pull-request bot: author associations that may start a run, comma or space separated (OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, FIRST_TIMER, FIRST_TIME_CONTRIBUTOR, MANNEQUIN, NONE). Every run a person starts also needs write, maintain or admin permission on the repository, checked through the API (a run gets the secrets named in `env`).", "default": "OWNER,MEMBER,COLLABORATOR" },
    "allowed-bots": { "description": "Pull-request bot: bot accounts that may start runs (e.g. `dependabot`, `renovate[bot]`). Every other bot, this action's own account included, is ignored.", "default": "" },
    "pr-number": { "description": "Pull-request bot, `workflow_dispatch` only: the pull request to work on. Giving it asks for the bot on that event.", "default": "" },
    "pull-request-bot": { "description": "`true`: on `pull_request`, `pull_request_target` and `push` events the action is the pull-request bot (it works on the pull request's head or the pushed branch, checks who asked, and reports on the pull request). `false`: those events are plain run mode, as every other event. Comment events ask for the bot with `trigger`.", "default": "false" },
    "memory": { "description": "Memory limit of the container (Docker syntax, e.g. `2g`). Empty: no limit.", "default": "" },
    "cpus": { "description": "CPU limit of the container (e.g. `1.5`). Empty: no limit.", "default": "" },
    "pids-limit": { "description": "Maximum number of processes in the container.", "default": "4096" },
    "network": { "description": "`bridge` (default: any host), `none` (no network at all), `audit` (any host, through the proxy, every host recorded and an allow-list proposed), or an allow-list: host names, `*.example.com`, an optional `:port` (default 443 and 80) and presets (`@github`, `@npm`, `@pypi`, `@debian`, `@anthropic`, `@openai`, `@gemini`), one per line or separated by commas. With an allow-list or `audit` the command reaches nothing but the proxy (docs/network.md).", "default": "bridge" },
    "credentials": { "description": "With an allow-list or `audit`: one `<host> <Header-Name>: <value>` a line (e.g. `api.anthropic.com x-api-key: <a secret>`). The proxy sets that header on requests to that host only, over TLS only (`http://<host>[:port] ...` sends it in clear, for an internal service); the value never enters the container. The host is allowed implicitly.", "default": "" },
    "max-model-requests": { "description": "With an allow-list or `audit`: the most requests the command may make to model APIs the proxy sees in clear (hosts in `credentials`, plain-HTTP base URLs), over the whole run; past it the proxy answers 429 in the API's own format. `0`: no limit.", "default": "0" },
    "max-model-tokens": { "description": "With an allow-list or `audit`: the most input plus output tokens those answers may report over the whole run; once reached, further model requests get 429. `0`: no limit.", "default": "0" },
    "read-only-rootfs": { "description": "`true`: the container root filesystem is read-only (a tmpfs at /tmp).", "default": "false" },
    "max-import-size": { "description": "The most the changes of one run may weigh when they come back from the sandbox (the git bundle, e.g. `512m`, `2g`). Larger: nothing is imported, the step fails and the sandbox is kept.", "default": "1g" },
    "headless-expiry-days": { "description": "Reap mode: whole days (≥ 1) of inactivity after which a transient `exploration-*` sandbox is stale.", "default": "30" },
    "branch-expiry-days": { "description": "Reap mode: whole days (≥ 1) of inactivity after which a persistent (branch) sandbox is stale.", "default": "90" },
    "orphan-expiry-days": { "description": "Reap mode: whole days (≥ `branch-expiry-days`) after which a sandbox whose parent repository is gone or unreadable is removed.", "default": "90" },
    "dry-run": { "description": "Reap mode: `true` decides and reports everything and removes nothing.", "default": "false" },
    "max-removals": { "description": "Reap mode: at most this many removals in one run, oldest first (0 = no limit); the rest waits for the next run.", "default": "0" },
    "force": { "description": "Reap mode: `true` removes stale sandboxes that hold work too (never those in use); with `archive-dir`, the work is saved there first.", "default": "false" },
    "archive-dir": { "description": "Reap mode: folder where the work of forced removals (a patch and a bundle) and the files of orphans (a .tar.gz) are saved before removal. Empty: nothing is archived.", "default": "" },
};
/** The inputs' defaults, for the code that runs without the runner filling them in. */
const ACTION_DEFAULTS = Object.fromEntries(Object.entries(ACTION_INPUTS).flatMap(([name, input]) => input.default === undefined ? [] : [[name, input.default]]));


/***/ }),

/***/ 654:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  P: () => (/* binding */ actionIo),
  V: () => (/* binding */ actionUi)
});

// EXTERNAL MODULE: ./node_modules/@actions/core/lib/core.js + 9 modules
var core = __nccwpck_require__(7710);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __nccwpck_require__(7598);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __nccwpck_require__(8161);
// EXTERNAL MODULE: ./src/ui/ui.ts
var ui = __nccwpck_require__(5750);
// EXTERNAL MODULE: ./src/ui/sandbox-text.ts
var sandbox_text = __nccwpck_require__(9633);
// EXTERNAL MODULE: ./src/action/step-state.ts
var step_state = __nccwpck_require__(4634);
// EXTERNAL MODULE: ./src/ui/untrusted-markdown.ts
var untrusted_markdown = __nccwpck_require__(8912);
// EXTERNAL MODULE: ./src/present/progress-comment.ts
var progress_comment = __nccwpck_require__(3936);
;// CONCATENATED MODULE: ./src/present/bot-summary.ts


function head(ctx, start) {
    const on = start.prNumber ? `pull request #${start.prNumber}` : `branch ${(0,untrusted_markdown/* untrustedCode */.C2)(ctx.branch, 500)}`;
    return [
        `## worktree-sandbox: ${on}`,
        '',
        `Started by @${ctx.requester} (${start.trigger !== undefined ? `comment ${start.trigger}` : start.event}).`,
    ];
}
function summary(ctx, start, run) {
    const lines = head(ctx, start);
    // The branch, the fork and git's reason may be text a pull request chose: shown inert.
    if (run.pushed)
        lines.push(`Pushed ${run.commits.length} commit(s) to ${(0,untrusted_markdown/* untrustedCode */.C2)(run.pushedTo ?? '', 500)}.`);
    else if (run.pushReason)
        lines.push(`Not pushed: ${(0,untrusted_markdown/* untrustedInline */.qm)(run.pushReason, 1_000)}.`);
    if (run.patch)
        lines.push(`Patch saved as ${(0,untrusted_markdown/* untrustedCode */.C2)(run.patch.path)} (output \`patch-path\`).`);
    if (run.tailFound?.length)
        lines.push(`The log tail held a secret (${run.tailFound.map((f) => `\`${f.replace(/`/g, "'")}\``).join(', ')}): masked in the comment.`);
    const text = `${lines.join('\n')}\n\n`;
    if (start.issueNumber === undefined)
        return text;
    return `${text}${run.pullRequest ? progress_comment.pullRequestLine(run.pullRequest) : ''}\n\n`;
}
/**
 * The summary of a run whose push or patch the secret scan held back (`block`): why nothing left. The
 * places are in the step's error (escaped there); the summary gives only counts, no sandbox text.
 */
function blockedSummary(ctx, start, findings) {
    const found = findings ? `found ${findings} finding(s) in` : 'could not scan the whole of';
    const lines = [
        ...head(ctx, start),
        `Nothing pushed and no patch saved: the secret scan ${found} what would have left (secret-scan: block). The step's error names each place (never a value); the sandbox keeps the work for a person to look at.`,
    ];
    return `${lines.join('\n')}\n\n`;
}
function noRunSummary(reason) {
    return `## worktree-sandbox: no run\n\n${(0,untrusted_markdown/* untrustedInline */.qm)(reason)}.\n`;
}
const botText = { ...progress_comment, summary, blockedSummary, noRunSummary };

// EXTERNAL MODULE: ./src/present/step-summary.ts
var step_summary = __nccwpck_require__(2700);
;// CONCATENATED MODULE: ./src/action/action-ui.ts
// How the core talks to a person in a workflow run: log groups, annotations, masked secrets, and text from
// a sandbox fenced so that no line of it can act as a workflow command.








/** Values registered with the runner for masking, in this process (the runner masks them for the job). */
const masked = new Set();
function actionUi() {
    return {
        // core.info writes the message as it is: a lone carriage return or a line starting with `::` in it
        // would be read as a workflow command. Sandbox text in a message is escaped where the message is made
        // (sandboxText); logLines is the last guard for every message, whatever it carries.
        info: (m) => core/* info */.pq((0,sandbox_text/* logLines */.OG)(m)),
        // Only when asked for (ACTIONS_STEP_DEBUG): a reap of thousands of sandboxes logs a line each.
        // core.debug escapes line breaks: a debug message cannot become a workflow command.
        debug: (m) => {
            if (core/* isDebug */._o())
                core/* debug */.Yz((0,sandbox_text/* logLines */.OG)(m));
        },
        debugging: core/* isDebug */._o(),
        warning: (m) => core/* warning */.$e((0,sandbox_text/* logLines */.OG)(m)),
        group: (title, fn) => core/* group */.Os(title, fn),
        // Once per value: the run, the secret scan and the proxy's credentials may each register the same one.
        mask: (s) => {
            if (masked.has(s))
                return;
            masked.add(s);
            core/* setSecret */.Pq(s);
        },
        // The command's output must not issue workflow commands (::set-output, ::add-mask, ::error ...):
        // command processing is stopped around it with a token it cannot guess.
        fenced: (text) => {
            const token = (0,external_node_crypto_.randomUUID)();
            process.stdout.write(`::stop-commands::${token}${external_node_os_.EOL}${text}${external_node_os_.EOL}::${token}::${external_node_os_.EOL}`);
        },
        untrusted: async (fn) => {
            const token = (0,external_node_crypto_.randomUUID)();
            process.stdout.write(`::stop-commands::${token}${external_node_os_.EOL}`);
            // The command's output goes through as it came (the fence needs no lines), its last line ended.
            const write = (0,ui/* streamLineWriter */.k)(process.stdout, (line) => `${line}${external_node_os_.EOL}`, { raw: true });
            try {
                return await fn(write);
            }
            finally {
                write.end();
                process.stdout.write(`::${token}::${external_node_os_.EOL}`);
            }
        },
    };
}
/**
 * Where a run meets the runner: outputs and the job summary, each through the run's one redaction (GitHub
 * masks neither), state for the post step.
 */
function actionIo(ui, redaction) {
    return {
        ui,
        debug: (message) => core/* debug */.Yz(message),
        env: process.env,
        setOutput: (name, value) => core/* setOutput */.uH(name, redaction.redact(value)),
        summary: (markdown) => (0,step_summary/* writeSummary */.Sy)(redaction, markdown),
        save: step_state/* saveRunState */.iZ,
        redaction,
        text: botText,
    };
}


/***/ }),

/***/ 4634:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   IZ: () => (/* binding */ currentRunState),
/* harmony export */   fQ: () => (/* binding */ loadRunState),
/* harmony export */   iZ: () => (/* binding */ saveRunState),
/* harmony export */   tl: () => (/* binding */ isPost)
/* harmony export */ });
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(7710);
// The action's state between its two phases (GITHUB_STATE), and which of the two is running. As in
// actions/checkout: the flag is saved when the module first loads in the main step.

const isPost = _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getState */ .Gu('isPost') === 'true';
if (!isPost)
    _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .saveState */ .LZ('isPost', 'true');
const KEY = 'run';
let current;
function saveRunState(update) {
    current = { ...(current ?? {}), ...update };
    _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .saveState */ .LZ(KEY, JSON.stringify(current));
}
/** What the main step has saved so far (undefined before anything). */
function currentRunState() {
    return current;
}
function loadRunState() {
    const raw = _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getState */ .Gu(KEY);
    if (!raw)
        return undefined;
    try {
        return JSON.parse(raw);
    }
    catch {
        return undefined;
    }
}


/***/ }),

/***/ 5126:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Q: () => (/* binding */ HttpClient),
/* harmony export */   w: () => (/* binding */ loadHttpClient)
/* harmony export */ });
/* harmony import */ var _on_demand_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(7575);
// What the bundle gets for `import … from '@actions/http-client'` (tsconfig.json `paths`, which ncc's
// resolver follows; docs/adr/0008-undici-on-demand.md). @actions/core imports its OIDC client, and with
// it @actions/http-client, Node's http, https and tls, and tunnel (net, assert), the moment it is
// imported, although only `getIDToken` uses it, which this action never calls. Here the client is a
// chunk of its own, loaded by the one path that talks to GitHub (api.ts, before @actions/github, which
// builds its proxy agent with it as it loads). The copy loaded is the one @actions/github depends on:
// the only one that runs. The names are the ones the bundled toolkit imports (checked by
// on-demand.spec.ts).

const client = (0,_on_demand_js__WEBPACK_IMPORTED_MODULE_0__/* .onDemand */ .h)('@actions/http-client', 'loadHttpClient', () => __nccwpck_require__.e(/* import() */ 659).then(__nccwpck_require__.t.bind(__nccwpck_require__, 9659, 23)));
const loaded = client.loaded;
/** Loads @actions/http-client (once); the GitHub API client awaits this before it loads @actions/github. */
const loadHttpClient = client.load;
/** A constructor that returns the real client, so callers get the toolkit's own class. */
const HttpClient = function HttpClient(...args) {
    return new (loaded().HttpClient)(...args);
};


/***/ }),

/***/ 7575:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   h: () => (/* binding */ onDemand)
/* harmony export */ });
// A module the bundle loads only when asked (ADR 0008): undici and @actions/http-client, which the
// toolkit imports at start but only the GitHub side uses. Loaded once; code that uses it before it is
// loaded gets an error that says so.
function onDemand(name, loaderName, importModule) {
    let value;
    return {
        load: async () => (value ??= await importModule()),
        loaded: () => {
            if (!value)
                throw new Error(`Internal error: ${name} was used before ${loaderName}() was awaited.`);
            return value;
        },
    };
}


/***/ }),

/***/ 5011:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Q6: () => (/* binding */ userArg),
/* harmony export */   _c: () => (/* binding */ currentIdentity),
/* harmony export */   s$: () => (/* binding */ containerRunArgs)
/* harmony export */ });
/* unused harmony export mountArg */
/* harmony import */ var _labels_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(9667);

/** The runner's uid:gid: containers run as it, so that what they write belongs to the runner. */
function currentIdentity() {
    return { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
}
function userArg(id = currentIdentity()) {
    return `${id.uid}:${id.gid}`;
}
/** A mount in `--mount` syntax (CSV: a field with a comma or quote is quoted). */
function mountArg(engine, mount, bindSource = (f) => f) {
    const fields = [`type=${mount.type}`];
    if (mount.type === 'bind')
        fields.push(`source=${bindSource(mount.source)}`);
    else if (mount.type === 'volume')
        fields.push(`source=${mount.source}`);
    fields.push(`target=${mount.target}`);
    // `ro`, not `readonly`: Podman (4.3) refuses `readonly` on volume mounts; both engines take `ro`.
    if (mount.type !== 'tmpfs' && mount.readonly)
        fields.push('ro');
    if (mount.type === 'tmpfs') {
        fields.push('tmpfs-mode=0755');
        // Podman copies what the folder holds into the tmpfs unless told not to: the very files it must hide.
        if (engine === 'podman')
            fields.push('notmpcopyup');
    }
    return fields.map((f) => (/[",]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(',');
}
/**
 * `bindSource` maps each bind source to the engine's side (the action may run in a container of the
 * engine): this is the one place bind sources are written, whatever builds the mounts.
 */
function containerRunArgs(engine, spec, bindSource = (f) => f) {
    const args = ['run'];
    if (spec.remove)
        args.push('--rm');
    if (spec.name)
        args.push('--name', spec.name);
    if (spec.init && engine === 'docker')
        args.push('--init');
    const joined = spec.joinNetworkOf ? `container:${spec.joinNetworkOf}` : undefined;
    const userns = joined && engine === 'podman' ? [`--userns=${joined}`] : (spec.userns ?? []);
    args.push(...userns, '--user', spec.user, '--cap-drop', 'ALL');
    for (const cap of spec.capAdd ?? [])
        args.push('--cap-add', cap);
    args.push('--security-opt', 'no-new-privileges');
    const limits = spec.limits ?? {};
    args.push('--pids-limit', String(limits.pidsLimit ?? 1024), '--network', joined ?? limits.network ?? 'none');
    if (limits.memory)
        args.push('--memory', limits.memory, '--memory-swap', limits.memory);
    if (limits.cpus)
        args.push('--cpus', limits.cpus);
    if (limits.readOnlyRootfs)
        args.push('--read-only', '--tmpfs', '/tmp:rw,exec,nosuid,size=512m');
    for (const [key, value] of Object.entries({ [_labels_js__WEBPACK_IMPORTED_MODULE_0__/* .MANAGED_LABEL */ .bS]: 'true', ...spec.labels }))
        args.push('--label', `${key}=${value}`);
    for (const mount of spec.mounts)
        args.push('--mount', mountArg(engine, mount, bindSource));
    if (spec.workdir)
        args.push('--workdir', spec.workdir);
    for (const [key, value] of Object.entries(spec.env ?? {}))
        args.push('-e', `${key}=${value}`);
    if (spec.envFile)
        args.push('--env-file', spec.envFile);
    for (const key of spec.inheritEnv ?? [])
        args.push('-e', key);
    return [...args, '--entrypoint', spec.entrypoint, '--', spec.image, ...spec.args];
}


/***/ }),

/***/ 389:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   FR: () => (/* binding */ engineFailure),
/* harmony export */   NJ: () => (/* binding */ EngineError),
/* harmony export */   TM: () => (/* binding */ firstLine)
/* harmony export */ });
class EngineError extends Error {
    constructor(message) {
        super(message);
        this.name = 'EngineError';
    }
}
/** A non-zero exit of `<engine> args...`, told as unreachable when the engine's words say so. */
function engineFailure(engine, args, result) {
    const detail = (result.stderr || result.stdout).trim();
    if (/Cannot connect to the Docker daemon|Is the docker daemon running|connect: (no such file|connection refused|permission denied)|unable to connect to Podman|cannot connect to Podman/i.test(detail)) {
        return new EngineError(`The ${engine} engine is unreachable: ${firstLine(detail)}`);
    }
    return new EngineError(`${engine} ${args[0]} ${args[1] ?? ''} failed (exit ${result.exitCode}): ${detail}`);
}
function firstLine(text) {
    return text.split('\n')[0] ?? '';
}


/***/ }),

/***/ 6269:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   CC: () => (/* binding */ plantProbe),
/* harmony export */   Gn: () => (/* binding */ probeEngineView),
/* harmony export */   J4: () => (/* binding */ PROBE_NAME),
/* harmony export */   Lv: () => (/* binding */ removeStaleProbes),
/* harmony export */   d_: () => (/* binding */ PROBE_FILE_PREFIX)
/* harmony export */ });
/* unused harmony exports PROBE_TIMEOUT_MS, remoteEngine, unseenFolder, notSeenMessage, PROBE_TARGET, STALE_PROBE_MS, parseCreatedAt */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var _container_args_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(5011);
/* harmony import */ var _engine_error_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(389);
/* harmony import */ var _host_paths_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(6387);
/* harmony import */ var _labels_js__WEBPACK_IMPORTED_MODULE_6__ = __nccwpck_require__(9667);
// Verify, don't assume: before a run makes or uses a sandbox, prove that the engine sees the folders the
// action mounts where the action sees them. In each folder the action writes a file with a random name;
// the engine is asked to create (not start) a helper container that binds each file. An engine refuses
// to create a container whose bind source it does not find, so creation succeeds only when it finds
// every file on its side: the same folder, not one that merely has the same name (a remote engine, a
// Docker-in-Docker engine that does not share it, a translation that points elsewhere). Creating costs
// one short engine call; starting the helper would cost a container start and prove nothing more. A
// container the run creates anyway can carry the files instead of a helper (plantProbe): the engine then
// checks them when it creates that container, before anything in it starts, and no helper is needed.
// Everything the probe made (files, folders it had to make, the helper) is removed, whatever happens.







/** How long the engine may take to create the probe's helper before the run stops. */
const PROBE_TIMEOUT_MS = 30_000;
const PROBE_FILE_PREFIX = '.worktree-sandbox-probe-';
/**
 * The engine's address when it is on another machine, for a person; undefined for a socket or a loopback
 * address (a Docker-in-Docker sidecar shares the runner pod's network, and may well share its folders).
 */
function remoteEngine(env = process.env) {
    const host = env.DOCKER_HOST || env.CONTAINER_HOST || '';
    const match = /^(tcp|ssh|https?):\/\/(?:[^@/]*@)?(\[[^\]]*\]|[^:/]*)/i.exec(host);
    if (!match)
        return undefined;
    const name = match[2].replace(/^\[|\]$/g, '');
    return /^(localhost|127\.\d+\.\d+\.\d+|::1)$/i.test(name) ? undefined : host;
}
/** The folder the engine did not see, from its own words (it names the source it looked for). Pure. */
function unseenFolder(said, probes) {
    if (!/bind source path does not exist|no such file or directory|not found|does not exist/i.test(said))
        return undefined;
    return (probes.find((p) => said.includes(p.source))?.folder ??
        (probes.length === 1 ? probes[0].folder : undefined));
}
/** What to say when the engine does not see a folder. Pure. */
function notSeenMessage(engine, folder, view, remote) {
    const where = `The ${engine} engine does not see the ${folder.what} ${folder.path} where the action sees it`;
    if (remote)
        return `${where}: it is a remote engine (${remote}), and a remote engine cannot see this runner's files. Nothing was created. Run the engine on the runner's machine (Docker-in-Docker beside the runner, sharing its work folder at the same path), or give the runner a local engine.`;
    const translated = view.kind === 'container' ? ` (looked for at ${(0,_host_paths_js__WEBPACK_IMPORTED_MODULE_5__/* .enginePath */ .aE)(view, folder.path)} on its side)` : '';
    const inContainer = view.kind === 'container' || view.containerized
        ? ' The action runs in a container, and the engine does not share this folder with it.'
        : '';
    return `${where}${translated}.${inContainer} Nothing was created. ${folder.fix ?? _host_paths_js__WEBPACK_IMPORTED_MODULE_5__/* .SHARED_ROOT_FIX */ .jX}.`;
}
/** Where a container sees the probe's files: on its own root file system, beside nothing of the host's. */
const PROBE_TARGET = '/.worktree-sandbox-probe';
/** A file with a random name in each folder (made with the folders above it that are missing). */
async function plantProbe(engine, folders) {
    const planted = [];
    const remove = async ({ madeToo = false } = {}) => {
        await Promise.all(planted.map((p) => node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.rm(p.file, { force: true })));
        if (madeToo)
            await Promise.all(planted.flatMap((p) => (p.made ? [node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.rm(p.made, { recursive: true, force: true })] : [])));
    };
    try {
        for (const folder of folders)
            planted.push(await plant(folder));
    }
    catch (error) {
        await remove({ madeToo: true });
        throw error;
    }
    return {
        files: planted.map((p) => p.file),
        mounts: planted.map((p, n) => ({
            type: 'bind',
            source: p.file,
            target: `${PROBE_TARGET}/${n}`,
            readonly: true,
        })),
        async unseen(said) {
            const view = await engine.hostView();
            const sources = planted.map((p) => ({ folder: p.folder, source: (0,_host_paths_js__WEBPACK_IMPORTED_MODULE_5__/* .enginePath */ .aE)(view, p.file) ?? p.file }));
            const folder = unseenFolder(said, sources);
            return folder && new _host_paths_js__WEBPACK_IMPORTED_MODULE_5__/* .HostPathError */ .mL(notSeenMessage(engine.name, folder, view, remoteEngine()));
        },
        remove,
    };
}
/**
 * Proves that the engine sees each folder where the action sees it; rejects with a HostPathError naming
 * the folder and the fix when it does not. The helper is created with `--pull never`, so a probe that
 * succeeded also proved the image there: the caller need not ask the engine about the image. When the
 * engine says the image is missing, the probe calls `imageReady` (the image check, which pulls it) and
 * asks once more (it never pulls itself); when the probe fails for anything but a folder the engine does
 * not see, the image check's error, if it has one, is the one thrown. Once it succeeded, its files are
 * removed and the helper (created, never started) stays until the caller calls `remove`, after the run:
 * that engine call then does not compete with the command container's start.
 */
async function probeEngineView(engine, image, folders, imageReady = () => Promise.resolve(), timeoutMs = PROBE_TIMEOUT_MS, 
/** Told the helper's name before the engine is asked to create it (a run saves it for its post step). */
onName) {
    const name = `worktree-sandbox-probe-${(0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomBytes)(4).toString('hex')}`;
    onName?.(name);
    const probe = await plantProbe(engine, folders);
    try {
        const run = await engine.runArgs({
            name,
            image,
            user: (0,_container_args_js__WEBPACK_IMPORTED_MODULE_3__/* .userArg */ .Q6)(),
            mounts: probe.mounts,
            labels: _labels_js__WEBPACK_IMPORTED_MODULE_6__/* .HELPER_LABELS */ .vJ,
            entrypoint: 'true',
            args: [],
        });
        // The same hardened arguments as every helper, created and never started.
        const args = ['create', '--pull', 'never', ...run.slice(1)];
        let result = await createWithin(engine, name, args, timeoutMs);
        if (result.exitCode !== 0 &&
            /no such image|image not known|not found.*image|unable to find image/i.test(result.stderr)) {
            await imageReady();
            result = await createWithin(engine, name, args, timeoutMs);
        }
        if (result.exitCode === 0) {
            // The files go at once (a created helper never reads them); the helper after the run.
            await probe.remove();
            return { remove: () => engine.removeContainer(name) };
        }
        const said = (result.stderr || result.stdout).trim();
        throw (await probe.unseen(said)) ?? engine.failure(['create', 'probe'], result);
    }
    catch (error) {
        await Promise.all([engine.removeContainer(name), probe.remove({ madeToo: true })]);
        // Anything but a folder the engine does not see: the image check's words come first (an image it
        // could not pull, an engine it cannot reach or that cannot run containers), as when it runs alone.
        if (!(error instanceof _host_paths_js__WEBPACK_IMPORTED_MODULE_5__/* .HostPathError */ .mL))
            await imageReady();
        throw error;
    }
}
/** `create`, the helper removed and the probe failed when the engine takes longer than `timeoutMs`. */
async function createWithin(engine, name, args, timeoutMs) {
    let timedOut = false;
    const timer = setTimeout(() => {
        timedOut = true;
        void engine.removeContainer(name);
    }, timeoutMs);
    try {
        // The CLI itself is killed a few seconds after the helper's removal if it has not returned by then.
        const result = await engine.exec(args, {
            limitMs: timeoutMs + 5_000,
            purpose: 'creating the engine-view probe',
        });
        if (timedOut)
            throw new _engine_error_js__WEBPACK_IMPORTED_MODULE_4__/* .EngineError */ .NJ(`The ${engine.name} engine took longer than ${timeoutMs / 1000} s to create the helper that checks what it sees; nothing was created.`);
        return result;
    }
    finally {
        clearTimeout(timer);
    }
}
/** A file with a random name in `folder`, made with the folders above it that are missing. */
async function plant(folder) {
    const made = await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.mkdir(folder.path, { recursive: true });
    const file = node_path__WEBPACK_IMPORTED_MODULE_2__.join(folder.path, `${PROBE_FILE_PREFIX}${(0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomBytes)(16).toString('hex')}`);
    try {
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.writeFile(file, '', { flag: 'wx', mode: 0o644 });
    }
    catch (error) {
        if (made)
            await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.rm(made, { recursive: true, force: true });
        throw error;
    }
    return { folder, file, made };
}
/** The names probeEngineView gives its helpers. */
const PROBE_NAME = /^worktree-sandbox-probe-[0-9a-f]{8}$/;
/** How old a never-started probe helper must be to count as left by a killed run. */
const STALE_PROBE_MS = 60 * 60_000;
/** `CreatedAt` as Docker and Podman print it (`2026-11-26 08:00:00[.123] +0000 UTC`), in epoch ms. Pure. */
function parseCreatedAt(text) {
    const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.\d+)? ([+-])(\d\d)(\d\d)/.exec(text.trim());
    if (!m)
        return undefined;
    const ms = Date.parse(`${m[1]}T${m[2]}${m[3]}${m[4]}:${m[5]}`);
    return Number.isNaN(ms) ? undefined : ms;
}
/**
 * The probe helpers that runs killed before their end left behind (created, never started, named and
 * labelled as the probe makes them, older than `olderThanMs`): removed. Returns their names.
 */
async function removeStaleProbes(engine, nowMs = Date.now(), olderThanMs = STALE_PROBE_MS) {
    const listed = await engine.exec([
        'ps',
        '--all',
        '--filter',
        'status=created',
        '--filter',
        `label=${Object.keys(_labels_js__WEBPACK_IMPORTED_MODULE_6__/* .HELPER_LABELS */ .vJ)[0]}=${Object.values(_labels_js__WEBPACK_IMPORTED_MODULE_6__/* .HELPER_LABELS */ .vJ)[0]}`,
        '--format',
        '{{.Names}}\t{{.CreatedAt}}',
    ]);
    if (listed.exitCode !== 0)
        return [];
    const stale = listed.stdout
        .split('\n')
        .map((line) => line.split('\t'))
        .filter(([name, created]) => {
        const at = parseCreatedAt(created ?? '');
        return PROBE_NAME.test(name ?? '') && at !== undefined && nowMs - at >= olderThanMs;
    })
        .map(([name]) => name);
    const removed = [];
    for (const name of stale)
        if (await engine.removeContainer(name))
            removed.push(name);
    return removed;
}


/***/ }),

/***/ 1665:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  X4: () => (/* binding */ ENGINE_ENV),
  P: () => (/* binding */ createEngine)
});

// UNUSED EXPORTS: ContainerEngine

// EXTERNAL MODULE: ./src/engine/container-args.ts
var container_args = __nccwpck_require__(5011);
// EXTERNAL MODULE: ./src/engine/engine-error.ts
var engine_error = __nccwpck_require__(389);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __nccwpck_require__(7598);
// EXTERNAL MODULE: ./src/engine/time-limits.ts
var time_limits = __nccwpck_require__(1814);
;// CONCATENATED MODULE: ./src/engine/helper-run.ts
// A helper container under its time limit: when the limit runs out, the container itself is stopped and
// removed by its name, since killing the engine CLI alone would leave it running.



/** How long the engine CLI may take to return once its container was removed, before it is killed. */
const CLI_GRACE_MS = 5_000;
/**
 * Runs a helper container under its time limit (time-limits.ts). When the limit runs out, the container
 * itself is killed and removed by its name: killing the CLI alone would leave it running. The CLI is
 * killed too if it has not returned a few seconds later, and the name is removed once more after the
 * CLI is gone (the engine may have created the container only then). Throws a TimeLimitError. A
 * container whose output went over `stdoutFile.maxBytes` is removed the same way.
 */
async function runHelperContainer(engine, spec, run, options = {}) {
    const name = spec.name ?? `worktree-sandbox-${run.work}-${(0,external_node_crypto_.randomBytes)(6).toString('hex')}`;
    const args = run.unmapped
        ? (0,container_args/* containerRunArgs */.s$)(engine.name, { ...spec, name }, await engine.bindSource())
        : await engine.runArgs({ ...spec, name });
    const limitMs = (0,time_limits/* timeLimitMs */.PI)(run.work);
    const cli = new AbortController();
    let expired = false;
    let grace;
    const timer = setTimeout(() => {
        expired = true;
        grace = setTimeout(() => cli.abort(), CLI_GRACE_MS);
        void engine.stopContainer(name);
    }, limitMs);
    try {
        const result = await engine.stream(args, { ...options, signal: cli.signal });
        if (expired)
            throw new time_limits/* TimeLimitError */.$q(run.work, run.where, limitMs, run.consequence);
        // Output over its cap killed the CLI, not the container: it goes too.
        if (result.overLimit)
            await engine.stopContainer(name);
        return result;
    }
    finally {
        clearTimeout(timer);
        clearTimeout(grace);
        if (expired)
            await removeLateContainer(engine, name);
    }
}
/** After a timeout: the container is removed until the engine no longer knows it (a few tries). */
async function removeLateContainer(engine, name) {
    for (let attempt = 0; attempt < 5; attempt++) {
        await engine.stopContainer(name);
        if ((await engine.containerExists(name)) === false)
            return;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
}

// EXTERNAL MODULE: ./src/engine/inventory.ts
var inventory = __nccwpck_require__(3190);
// EXTERNAL MODULE: ./src/engine/host-paths.ts
var host_paths = __nccwpck_require__(6387);
// EXTERNAL MODULE: ./src/engine/start-failure.ts
var start_failure = __nccwpck_require__(8557);
;// CONCATENATED MODULE: ./src/engine/mode.ts

class EngineModeError extends Error {
    constructor(message) {
        super(message);
        this.name = 'EngineModeError';
    }
}
/** The arguments that make the engine describe itself as one JSON document. */
function infoArgs(engine) {
    // Docker 20.10 has no `--format json`; `{{json .}}` works in every version.
    return engine === 'podman' ? ['info', '--format', 'json'] : ['info', '--format', '{{json .}}'];
}
/** Asks the engine once (`info`) and returns its mode. Throws EngineModeError when the engine does not answer. */
async function detectEngineMode(engine, execFn) {
    const result = await execFn(infoArgs(engine));
    if (result.exitCode !== 0) {
        const detail = (result.stderr || result.stdout).trim();
        const explained = (0,start_failure/* explainStartFailure */.u)(detail);
        throw new EngineModeError(`${engine} info failed (exit ${result.exitCode}): ` +
            (explained ? `${explained.message} ${explained.hint}` : lastLine(detail)));
    }
    return parseEngineInfo(engine, result.stdout);
}
/** The mode, from the output of `info` (infoArgs). Pure. */
function parseEngineInfo(engine, stdout) {
    let info;
    try {
        info = JSON.parse(stdout);
    }
    catch {
        throw new EngineModeError(`${engine} info did not print JSON: ${lastLine(stdout.trim())}`);
    }
    if (!isObject(info))
        throw new EngineModeError(`${engine} info printed no JSON object`);
    return engine === 'podman' ? podmanMode(info) : dockerMode(info);
}
function podmanMode(info) {
    const host = objectAt(info, 'host');
    const rootless = objectAt(host, 'security').rootless === true;
    const version = stringAt(objectAt(info, 'version'), 'Version');
    const idMappings = objectAt(host, 'idMappings');
    return {
        engine: 'podman',
        rootless,
        uidMapping: rootless ? 'keep-id' : 'none',
        version,
        keepIdOptions: versionAtLeast(version, 4, 3),
        uidMap: rootless ? idMaps(idMappings.uidmap) : [],
        gidMap: rootless ? idMaps(idMappings.gidmap) : [],
        storageDriver: stringAt(objectAt(info, 'store'), 'graphDriverName'),
    };
}
function dockerMode(info) {
    const options = Array.isArray(info.SecurityOptions) ? info.SecurityOptions : [];
    // Rootless Docker maps container root to the invoking user and has no keep-id: a container that must
    // write as that user runs as root there. Reported, not handled here.
    const rootless = options.some((o) => typeof o === 'string' && o.split(',').includes('name=rootless'));
    return {
        engine: 'docker',
        rootless,
        uidMapping: 'none',
        version: stringAt(info, 'ServerVersion'),
        keepIdOptions: false,
        uidMap: [],
        gidMap: [],
        storageDriver: stringAt(info, 'Driver'),
    };
}
/**
 * The extra `run` arguments of a container whose user must be uid:gid inside and own its files on a bind
 * mount on the host (uid:gid being the invoking user's: process.getuid()/getgid()). Keep `--user uid:gid`
 * as well. Empty for rootful engines. Pure.
 */
function userNamespaceArgs(mode, uid, gid) {
    for (const [name, id] of [
        ['uid', uid],
        ['gid', gid],
    ]) {
        if (!Number.isSafeInteger(id) || id < 0)
            throw new EngineModeError(`invalid ${name}: ${id}`);
    }
    if (mode.uidMapping !== 'keep-id')
        return [];
    // Root, with a rootless engine: the action runs in one of its containers (a job container on rootless
    // Podman), where root is the user that runs the engine, and so is root inside a container under the
    // engine's default mapping. keep-id to uid 0 is no mapping at all (Podman 4.3 with runc cannot start it).
    if (uid === 0 && gid === 0)
        return [];
    if (mode.keepIdOptions)
        return [`--userns=keep-id:uid=${uid},gid=${gid}`];
    // Before Podman 4.3 keep-id takes no options: the invoking user keeps its own ids, which must be these.
    const user = mode.uidMap.find((m) => m.containerId === 0)?.hostId;
    const group = mode.gidMap.find((m) => m.containerId === 0)?.hostId;
    if ((user !== undefined && user !== uid) || (group !== undefined && group !== gid)) {
        throw new EngineModeError(`podman ${mode.version} maps only the invoking user (${user}:${group}) with keep-id, not ${uid}:${gid}`);
    }
    return ['--userns=keep-id'];
}
function isObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function objectAt(value, key) {
    const found = value[key];
    return isObject(found) ? found : {};
}
function stringAt(value, key) {
    const found = value[key];
    return typeof found === 'string' ? found : '';
}
function idMaps(value) {
    if (!Array.isArray(value))
        return [];
    return value.filter(isObject).map((m) => ({
        containerId: Number(m.container_id),
        hostId: Number(m.host_id),
        size: Number(m.size),
    }));
}
function versionAtLeast(version, major, minor) {
    const m = /^(\d+)\.(\d+)/.exec(version);
    if (!m)
        return false;
    const [a, b] = [Number(m[1]), Number(m[2])];
    return a > major || (a === major && b >= minor);
}
function lastLine(text) {
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    return lines[lines.length - 1] ?? '(no output)';
}

// EXTERNAL MODULE: ./src/engine/proc.ts + 2 modules
var proc = __nccwpck_require__(729);
;// CONCATENATED MODULE: ./src/engine/engine.ts
// The container engine CLI (Docker, or Podman which speaks the same CLI) behind one interface
// (EngineCommands, engine-commands.ts). Argument arrays only; values that could be secrets travel in the
// child's environment (`-e NAME`), never on its command line.
// ADR 0006 (docs/adr/0006-env-never-touches-the-engine-cli.md).








/** The engine CLI's own variables: taken from the runner, never overridden for a container's sake. */
const ENGINE_ENV = [
    'PATH',
    'HOME',
    'DOCKER_HOST',
    'DOCKER_CONFIG',
    'DOCKER_CONTEXT',
    'DOCKER_CERT_PATH',
    'DOCKER_TLS_VERIFY',
    'CONTAINERS_CONF',
    'CONTAINER_HOST',
    'XDG_RUNTIME_DIR',
    'TMPDIR',
];
class ContainerEngine {
    name;
    detected;
    view;
    constructor(name = 'docker') {
        this.name = name;
    }
    /**
     * Rootless or not, from the engine itself (`podman info`), asked once. Docker is not asked: it has no
     * user-namespace option a container needs here, and start-up latency counts.
     */
    mode() {
        if (this.name !== 'podman')
            return undefined;
        this.detected ??= detectEngineMode(this.name, (args) => this.exec(args));
        return this.detected;
    }
    /**
     * Where the engine finds the action's paths (host-paths.ts), found once: no engine call on a plain host;
     * in a container of this engine, its mounts.
     */
    hostView() {
        this.view ??= (0,host_paths/* discoverHostView */.x_)((args, options) => this.stream(args, options));
        return this.view;
    }
    /** The engine's path for each bind source, for a caller of `containerRunArgs` itself. */
    async bindSource() {
        return (0,host_paths/* bindSource */.Vx)(await this.hostView());
    }
    /** The `run` arguments of a container: the one builder's, with this engine's user-namespace mapping. */
    async runArgs(spec) {
        const [mode, view] = await Promise.all([this.mode(), this.hostView()]);
        const id = (0,container_args/* currentIdentity */._c)();
        return (0,container_args/* containerRunArgs */.s$)(this.name, { ...spec, userns: mode ? userNamespaceArgs(mode, id.uid, id.gid) : [] }, (0,host_paths/* bindSource */.Vx)(view));
    }
    /**
     * The CLI's environment: the runner's engine variables (HOME, DOCKER_CONFIG, XDG_RUNTIME_DIR...), plus
     * values the CLI passes on to a container by name (`-e NAME`), which may never replace one of its own.
     */
    env(inherit = {}) {
        for (const name of Object.keys(inherit))
            if (ENGINE_ENV.includes(name))
                throw new Error(`${name} is the ${this.name} CLI's own variable.`);
        return { ...inherit, ...(0,proc/* pickEnv */.Bh)(ENGINE_ENV) };
    }
    /**
     * Runs the engine CLI under the time limit of its kind of call (`engineWork`), or a shorter one; never
     * throws for a non-zero exit, but throws a ProcTimeLimitError when the limit runs out (the CLI killed).
     */
    async exec(args, options = {}) {
        const work = (0,time_limits/* engineWork */.Au)(args);
        const limit = {
            ms: Math.min(options.limitMs ?? Infinity, (0,time_limits/* timeLimitMs */.PI)(work)),
            purpose: options.purpose ?? `the container engine's ${work.slice('engine-'.length)}`,
        };
        try {
            return await (0,proc/* runProcess */.R3)(this.name, args, { env: this.env(options.inherit), limit });
        }
        catch (error) {
            throw this.notInstalled(error);
        }
    }
    /** Runs the engine CLI with its output streamed (bounded memory: see runStreaming). */
    async stream(args, options = {}) {
        try {
            return await (0,proc/* runStreaming */.SL)(this.name, args, { ...options, env: this.env(options.inherit) });
        }
        catch (error) {
            throw this.notInstalled(error);
        }
    }
    /** Runs a helper container under its time limit (helper-run.ts). */
    runHelper(spec, run, options = {}) {
        return runHelperContainer(this, spec, run, options);
    }
    /** Kills a container (SIGKILL, not the engine's polite stop) and removes it. */
    async stopContainer(name) {
        await this.exec(['kill', '--', name]).catch(() => undefined);
        await this.exec(['rm', '--force', '--volumes', '--', name]).catch(() => undefined);
    }
    notInstalled(error) {
        if (!(error instanceof proc/* ProcError */.Nm))
            return error;
        return new engine_error/* EngineError */.NJ(`${this.name} is not installed or not on PATH: isolation needs a container engine.`);
    }
    async run(args) {
        const result = await this.exec(args);
        if (result.exitCode !== 0)
            throw this.failure(args, result);
        return result.stdout;
    }
    failure(args, result) {
        return (0,engine_error/* engineFailure */.FR)(this.name, args, result);
    }
    /** The engine's answer on `image` (ensureImage's first half). */
    inspectImage(image) {
        return this.exec(['image', 'inspect', '--format', '{{.Id}}', '--', image]);
    }
    /**
     * Makes sure `image` is present, pulling it when missing. Also the engine reachability check: one call on
     * the fast path, so that start-up stays quick.
     */
    async ensureImage(image) {
        const inspect = await this.inspectImage(image);
        if (inspect.exitCode === 0)
            return;
        const failure = this.failure(['image', 'inspect'], inspect);
        if (failure.message.includes('unreachable'))
            throw failure;
        const pull = await this.exec(['pull', '--quiet', '--', image]);
        if (pull.exitCode !== 0) {
            throw new engine_error/* EngineError */.NJ(`Image "${image}" is not present and could not be pulled: ${(0,engine_error/* firstLine */.TM)((pull.stderr || pull.stdout).trim())}`);
        }
    }
    async volumeExists(name) {
        const result = await this.exec(['volume', 'inspect', '--format', '{{.Name}}', '--', name]);
        if (result.exitCode === 0)
            return true;
        const failure = this.failure(['volume', 'inspect'], result);
        if (failure.message.includes('unreachable'))
            throw failure;
        return false;
    }
    async createVolume(name, labels) {
        const args = ['volume', 'create'];
        for (const [key, value] of Object.entries(labels))
            args.push('--label', `${key}=${value}`);
        args.push('--', name);
        await this.run(args);
    }
    /** Removes a volume; false when it is absent. Throws when it is in use or the engine fails. */
    async removeVolume(name) {
        if (!(await this.volumeExists(name)))
            return false;
        await this.run(['volume', 'rm', '--', name]);
        return true;
    }
    /** `--init` (a tiny init as PID 1: signals, zombies) where the engine always ships one. */
    get initArgs() {
        return this.name === 'docker' ? ['--init'] : [];
    }
    async containerState(name) {
        const result = await this.exec([
            'container',
            'inspect',
            '--format',
            '{{json .State.ExitCode}} {{json .State.OOMKilled}} {{json .State.Running}} {{json .State.Status}} {{json .State.StartedAt}} {{json .State.Error}}',
            '--',
            name,
        ]);
        if (result.exitCode !== 0)
            return undefined;
        const [code, oom, running, status, startedAt, error] = JSON.parse(`[${result.stdout.trim().split(' ').join(',')}]`);
        // A container that never started has StartedAt at the zero time (Docker) or empty (Podman).
        const started = !!startedAt && !startedAt.startsWith('0001-01-01') && status !== 'created';
        return { exitCode: code, oomKilled: oom, running, status, started, error: error ?? '' };
    }
    /** Whether a container exists: undefined when the engine cannot tell (unreachable). */
    async containerExists(name) {
        const result = await this.exec(['container', 'inspect', '--format', '{{.Id}}', '--', name]);
        if (result.exitCode === 0)
            return true;
        return /no such (container|object)/i.test(result.stderr) ? false : undefined;
    }
    listContainers(label) {
        return (0,inventory/* listContainers */.t)(this, label);
    }
    /** The last lines of a container's output as the engine logged it (empty when its log driver keeps none). */
    async logTail(name, lines) {
        const result = await (0,proc/* runStreaming */.SL)(this.name, ['logs', '--tail', String(lines), '--', name], {
            env: this.env(),
            onLine: () => undefined,
            timeLimitMs: (0,time_limits/* timeLimitMs */.PI)('engine-query'),
        });
        return result.exitCode === 0 ? result.outputTail : [];
    }
    /** Removes a container if it exists (running or not). */
    async removeContainer(name) {
        const result = await this.exec(['rm', '--force', '--volumes', '--', name]);
        return result.exitCode === 0;
    }
    async killContainer(name) {
        await this.exec(['kill', '--', name]);
    }
    /** Removes every container (running or not) carrying all the given labels; returns their names. */
    async removeContainersLabelled(labels) {
        const filters = Object.entries(labels).flatMap(([k, v]) => ['--filter', `label=${k}=${v}`]);
        const names = (await this.run(['ps', '--all', ...filters, '--format', '{{.Names}}']))
            .split('\n')
            .filter(Boolean);
        for (const name of names)
            await this.removeContainer(name);
        return names;
    }
}
/** The engine as the layers above engine/ hold it, the interface; a spec holds a fake. */
const createEngine = (name) => new ContainerEngine(name);


/***/ }),

/***/ 8657:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   S: () => (/* binding */ NO_EXTERNAL_DIFF),
/* harmony export */   V: () => (/* binding */ OID)
/* harmony export */ });
/** An object name as git prints it: SHA-1 (40 hex digits) or SHA-256 (64). */
const OID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
/**
 * For every diff-like command (diff, format-patch): no external diff or textconv program that a
 * repository's attributes could name, and no rename detection (its memory grows with the square of the
 * paths).
 */
const NO_EXTERNAL_DIFF = ['--no-ext-diff', '--no-textconv', '--no-renames'];


/***/ }),

/***/ 3229:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   QS: () => (/* binding */ helperGitEnv),
/* harmony export */   W0: () => (/* binding */ gitConfigEnv),
/* harmony export */   ZB: () => (/* binding */ baseGitEnv),
/* harmony export */   zz: () => (/* binding */ GIT_NETWORK_CONFIG)
/* harmony export */ });
/* unused harmony export HARDENED_GIT_CONFIG */
/* harmony import */ var _proc_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(729);
// git's hardened configuration and environment: what keeps a repository's own settings (which a container
// may have written) from running anything on the host: hooks, fsmonitor, pagers, external diffs, automatic
// gc that would prune live sandboxes. Host-side git gets it through Git; git run by the action's scripts
// inside helper containers through `helperGitEnv`.

/** Configuration applied to every host-side git command, above the repository's own configuration. */
const HARDENED_GIT_CONFIG = [
    ['core.hooksPath', '/dev/null'],
    ['core.fsmonitor', 'false'],
    ['core.untrackedCache', 'false'],
    ['core.sshCommand', 'ssh'],
    ['core.pager', 'cat'],
    ['core.quotePath', 'false'],
    ['diff.external', ''],
    // A submodule planted by the container brings its own .git and config: never run git inside one.
    ['diff.ignoreSubmodules', 'dirty'],
    ['status.submoduleSummary', 'false'],
    ['submodule.recurse', 'false'],
    ['fetch.recurseSubmodules', 'false'],
    ['push.recurseSubmodules', 'no'],
    ['protocol.ext.allow', 'never'],
    ['gc.auto', '0'],
    ['maintenance.auto', 'false'],
    ['commit.gpgSign', 'false'],
    ['tag.gpgSign', 'false'],
    ['advice.detachedHead', 'false'],
    ['init.defaultBranch', 'main'],
];
/**
 * For git talking to a remote (fetch, push): an HTTP transfer that receives nothing at all for two minutes
 * is abandoned by git itself, with git's own message, before the fetch's time limit runs out. (A server
 * that is still counting objects sends keep-alive packets, so an honest slow start is not cut.)
 */
const GIT_NETWORK_CONFIG = [
    ['http.lowSpeedLimit', '1'],
    ['http.lowSpeedTime', '120'],
];
/** Config as environment variables (GIT_CONFIG_COUNT/KEY_n/VALUE_n): also reaches git run by our scripts. */
function gitConfigEnv(extra = []) {
    const all = [...HARDENED_GIT_CONFIG, ...extra];
    const env = { GIT_CONFIG_COUNT: String(all.length) };
    all.forEach(([key, value], i) => {
        env[`GIT_CONFIG_KEY_${i}`] = key;
        env[`GIT_CONFIG_VALUE_${i}`] = value;
    });
    return env;
}
/** The same hardening for git run by the action's scripts inside helper containers (nothing secret). */
function helperGitEnv() {
    return {
        ...gitConfigEnv(),
        GIT_TERMINAL_PROMPT: '0',
        GIT_OPTIONAL_LOCKS: '0',
        GIT_CONFIG_NOSYSTEM: '1',
        HOME: '/tmp',
        LC_ALL: 'C',
    };
}
/**
 * The environment of every host-side git command: the runner's few variables git needs, no prompt, no
 * optional locks (a read must not write), no system configuration, and the hardened configuration.
 */
function baseGitEnv() {
    return {
        ...(0,_proc_js__WEBPACK_IMPORTED_MODULE_0__/* .pickEnv */ .Bh)(['PATH', 'HOME', 'XDG_CONFIG_HOME', 'SSH_AUTH_SOCK', 'GIT_SSH_COMMAND', 'TMPDIR']),
        GIT_TERMINAL_PROMPT: '0',
        GIT_OPTIONAL_LOCKS: '0',
        GIT_CONFIG_NOSYSTEM: '1',
        LC_ALL: 'C',
        ...gitConfigEnv(),
    };
}


/***/ }),

/***/ 1763:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  XS: () => (/* binding */ GitError),
  Vx: () => (/* reexport */ git_commands/* OID */.V),
  lD: () => (/* binding */ createGit)
});

// UNUSED EXPORTS: FETCH_REF_ROOT, Git, NO_EXTERNAL_DIFF

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __nccwpck_require__(7598);
// EXTERNAL MODULE: ./src/engine/git-commands.ts
var git_commands = __nccwpck_require__(8657);
// EXTERNAL MODULE: ./src/engine/git-hardening.ts
var git_hardening = __nccwpck_require__(3229);
// EXTERNAL MODULE: ./src/engine/proc.ts + 2 modules
var proc = __nccwpck_require__(729);
// EXTERNAL MODULE: ./src/engine/time-limits.ts
var time_limits = __nccwpck_require__(1814);
;// CONCATENATED MODULE: ./src/engine/git-version.ts
// Which git the action needs, checked once when the wrapper is made: an older git lacks options the
// hardening relies on.


const MIN_GIT_VERSION = [2, 31, 0];
/** Throws when git is missing or older than MIN_GIT_VERSION, saying which. */
async function checkGitVersion(env) {
    let result;
    try {
        result = await (0,proc/* runProcess */.R3)('git', ['version'], {
            env,
            limit: { ms: (0,time_limits/* timeLimitMs */.PI)('git'), purpose: 'checking that git is new enough' },
        });
    }
    catch (error) {
        if (error instanceof proc/* ProcError */.Nm) {
            throw new Error('git is not installed or not on PATH: the action needs git 2.31 or newer.', {
                cause: error,
            });
        }
        throw error;
    }
    const match = /git version (\d+)\.(\d+)\.(\d+)/.exec(result.stdout);
    if (!match)
        throw new Error(`Cannot read the git version from "${result.stdout.trim()}".`);
    const version = match.slice(1, 4).map(Number);
    if (compareVersions(version, MIN_GIT_VERSION) < 0) {
        throw new Error(`git ${version.join('.')} is too old: worktree-sandbox needs git ${MIN_GIT_VERSION.join('.')} or newer.`);
    }
}
function compareVersions(a, b) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
        const d = (a[i] ?? 0) - (b[i] ?? 0);
        if (d !== 0)
            return d;
    }
    return 0;
}

// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __nccwpck_require__(1421);
// EXTERNAL MODULE: ./src/engine/tool-path.ts
var tool_path = __nccwpck_require__(2428);
;// CONCATENATED MODULE: ./src/engine/piped-process.ts
// A long-lived program that answers one question at a time (git's `cat-file --batch`), read back in exact
// amounts. Argument arrays only, as in proc.ts.



async function startPiped(tool, args, options) {
    const child = (0,external_node_child_process_.spawn)(await (0,tool_path/* toolPath */.O)(tool), [...args], {
        cwd: options.cwd,
        env: options.env,
        stdio: ['pipe', 'pipe', 'ignore'],
    });
    const chunks = [];
    let buffered = 0;
    let ended;
    let wake;
    const notify = () => {
        const w = wake;
        wake = undefined;
        w?.();
    };
    child.stdout.on('data', (chunk) => {
        chunks.push(chunk);
        buffered += chunk.length;
        // Nobody is reading: stop the process until someone does (memory stays at one chunk or so).
        if (buffered > 1024 * 1024)
            child.stdout.pause();
        notify();
    });
    child.on('close', (code, signal) => {
        ended ??= new Error(`${tool} ended (exit ${code ?? signal})`);
        notify();
    });
    // Its own exit (not its pipes' closing, which a grandchild could hold up) ends a wait for it.
    const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 128)));
    child.on('error', (error) => {
        ended = (0,proc/* notStarted */.DY)(tool, error);
        notify();
    });
    child.stdin.on('error', () => undefined); // a killed process: the read says so
    const timer = setTimeout(() => {
        ended = new Error(`${tool} took longer than ${options.timeoutMs / 1000} s: stopped`);
        child.kill('SIGKILL');
        // A grandchild may hold stdout open after the kill: reads fail now, not when it lets go.
        notify();
    }, options.timeoutMs);
    void exited.then(() => clearTimeout(timer));
    const waitFor = async (ready) => {
        while (!ready()) {
            if (ended && !ready())
                throw ended;
            child.stdout.resume();
            await new Promise((resolve) => (wake = resolve));
        }
    };
    const take = (bytes) => {
        const out = Buffer.allocUnsafe(bytes);
        let filled = 0;
        while (filled < bytes) {
            const head = chunks[0];
            const n = Math.min(head.length, bytes - filled);
            head.copy(out, filled, 0, n);
            filled += n;
            if (n === head.length)
                chunks.shift();
            else
                chunks[0] = head.subarray(n);
        }
        buffered -= bytes;
        return out;
    };
    const newlineAt = (max) => {
        let seen = 0;
        for (const chunk of chunks) {
            const i = chunk.indexOf(10);
            if (i >= 0 && seen + i <= max)
                return seen + i;
            seen += chunk.length;
            if (seen > max)
                break;
        }
        return -1;
    };
    return {
        send: (text) => {
            if (!ended)
                child.stdin.write(text);
        },
        async readLine(maxBytes = 4096) {
            let at = -1;
            await waitFor(() => {
                at = newlineAt(maxBytes);
                if (at < 0 && buffered > maxBytes)
                    throw new Error(`${tool} printed a line over ${maxBytes} bytes`);
                return at >= 0;
            });
            const line = take(at + 1);
            return line.subarray(0, at).toString('utf8');
        },
        async read(bytes) {
            await waitFor(() => buffered >= bytes);
            return take(bytes);
        },
        async close(graceMs = 5_000) {
            child.stdin.end();
            const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
            const code = await exited;
            clearTimeout(kill);
            return code;
        },
        kill: () => child.kill('SIGKILL'),
    };
}

;// CONCATENATED MODULE: ./src/engine/git.ts
// The git CLI behind one interface (GitCommands, git-commands.ts). Every call goes through `exec`:
// argument arrays, a fixed environment, and the hardened configuration (git-hardening.ts) that keeps a
// repository's own settings from running anything on the host.


// The interface's constants, also where callers of the wrapper have always found them.






/** Where `fetchCommit` puts what it fetched, for the moment it takes to read its commit. */
const FETCH_REF_ROOT = 'refs/worktree-sandbox/fetch';
class GitError extends Error {
    args;
    result;
    constructor(args, result) {
        super(`git ${args.join(' ')} failed (exit ${result.exitCode}): ${result.stderr.trim() || result.stdout.trim()}`);
        this.args = args;
        this.result = result;
        this.name = 'GitError';
    }
}
class Git {
    env;
    constructor(env) {
        this.env = env;
    }
    /** The wrapper, once git is known to be there and new enough. */
    static async create() {
        const git = new Git((0,git_hardening/* baseGitEnv */.ZB)());
        await checkGitVersion(git.env);
        return git;
    }
    /**
     * Runs git in `cwd` under the time limit of its kind of work; never throws for a non-zero exit (see
     * `run`), but throws a ProcTimeLimitError when the limit runs out (git and everything it started, a
     * remote helper or ssh, are killed).
     */
    async exec(cwd, args, options = {}) {
        const work = options.work ?? 'git';
        const env = { ...this.env, ...options.env };
        const remote = work === 'git-fetch' || work === 'git-push';
        const config = [...(remote ? git_hardening/* GIT_NETWORK_CONFIG */.zz : []), ...(options.config ?? [])];
        if (config.length)
            Object.assign(env, (0,git_hardening/* gitConfigEnv */.W0)(config));
        const limit = { ms: (0,time_limits/* timeLimitMs */.PI)(work), purpose: options.purpose ?? `in ${cwd}` };
        return (0,proc/* runProcess */.R3)('git', args, { cwd, env, input: options.input, limit });
    }
    /** Runs git in `cwd`; throws a GitError naming the command for a non-zero exit. Returns stdout. */
    async run(cwd, args, options = {}) {
        const result = await this.exec(cwd, args, options);
        if (result.exitCode !== 0)
            throw new GitError(args, result);
        return result.stdout;
    }
    /**
     * Runs git in `cwd` with its output streamed (proc.ts's `runStreaming`: lines handed on as they come, or
     * stdout written to a file up to a limit): for output that can be as large as a sandbox makes it.
     */
    async stream(cwd, args, options = {}) {
        const { config, ...rest } = options;
        const env = { ...this.env, ...(config?.length ? (0,git_hardening/* gitConfigEnv */.W0)(config) : {}) };
        // A stream the caller does not stop itself stops at the local-command limit.
        const limitMs = rest.timeLimitMs ?? (rest.signal ? undefined : (0,time_limits/* timeLimitMs */.PI)('git'));
        return (0,proc/* runStreaming */.SL)('git', args, { ...rest, timeLimitMs: limitMs, cwd, env });
    }
    /**
     * Reads objects one at a time through two long-lived `git cat-file` processes: their size first
     * (`--batch-check`), their content only when it is within what the caller can take (`--batch`), so that
     * no object is held whole, by git or by us, unless it was asked for. Close it when done.
     */
    async objectReader(cwd, timeoutMs) {
        const env = this.env;
        const [check, batch] = await Promise.all([
            startPiped('git', ['cat-file', '--batch-check'], { cwd, env, timeoutMs }),
            startPiped('git', ['cat-file', '--batch'], { cwd, env, timeoutMs }),
        ]);
        const header = (line, oid) => {
            const [name, type, size] = line.split(' ');
            if (type === 'missing' || name !== oid)
                return undefined;
            return { type, size: Number(size) };
        };
        return {
            async info(oid) {
                check.send(`${oid}\n`);
                return header(await check.readLine(), oid);
            },
            async read(oid) {
                batch.send(`${oid}\n`);
                const head = header(await batch.readLine(), oid);
                if (!head)
                    return undefined;
                const body = await batch.read(head.size + 1); // the content and its newline
                return { type: head.type, body: body.subarray(0, head.size) };
            },
            async close() {
                await Promise.all([check.close(), batch.close()]);
            },
        };
    }
    /**
     * Small objects by name, all in one `git cat-file --batch`: each one's object name, type and content,
     * or null where git has no such object. Undefined when that cannot be done in one go (an object over
     * `maxBytes`, an answer it did not expect, git failing or running out of time): the caller then asks
     * in two steps, sizes first. No more than `maxBytes` of any one object is ever held. Names may not
     * hold a newline (one per line).
     */
    async readSmallObjects(cwd, names, maxBytes) {
        if (names.some((name) => /[\n\r\0]/.test(name)))
            return undefined;
        const batch = await startPiped('git', ['cat-file', '--batch'], {
            cwd,
            env: this.env,
            timeoutMs: (0,time_limits/* timeLimitMs */.PI)('git'),
        });
        const found = new Map();
        try {
            batch.send(names.map((name) => `${name}\n`).join(''));
            for (const name of names) {
                const header = await batch.readLine(Buffer.byteLength(name) + 100);
                if (header === `${name} missing`) {
                    found.set(name, null);
                    continue;
                }
                const [oid, type, size, ...rest] = header.split(' ');
                const bytes = Number(size);
                if (rest.length || !git_commands/* OID */.V.test(oid) || !/^\d+$/.test(size) || bytes > maxBytes)
                    return undefined;
                const body = await batch.read(bytes + 1); // the content and its newline
                found.set(name, { oid, type, body: body.subarray(0, bytes) });
            }
            return (await batch.close()) === 0 ? found : undefined;
        }
        catch {
            return undefined;
        }
        finally {
            batch.kill();
        }
    }
    /** Environment for a script that calls git itself (same hardening as `exec`). */
    scriptEnv(extra = {}) {
        return { ...this.env, ...extra };
    }
    async isValidBranchName(name) {
        if (name.startsWith('-'))
            return false;
        // Run outside any repository, so that `@{-1}` and the like expand to nothing. `@` alone passes there,
        // but names HEAD inside a repository.
        if (name === '@')
            return false;
        const result = await this.exec('/', ['check-ref-format', '--branch', name]);
        return result.exitCode === 0 && result.stdout.trim() === name;
    }
    async refExists(cwd, ref) {
        const result = await this.exec(cwd, ['show-ref', '--verify', '--quiet', '--', ref]);
        return result.exitCode === 0;
    }
    /**
     * The commits of several full ref names at once (one git process): each name that exists and points to
     * a commit (an annotated tag is peeled to its commit), in a map; names that do not are absent.
     */
    async readRefs(cwd, refs) {
        const found = new Map();
        const wanted = new Set(refs.filter((ref) => ref.startsWith('refs/')));
        if (wanted.size === 0)
            return found;
        // for-each-ref also lists refs below a pattern (`refs/heads/a` shows `refs/heads/a/b`): exact names only.
        const out = await this.run(cwd, [
            'for-each-ref',
            '--format=%(objectname) %(objecttype) %(*objectname) %(*objecttype) %(refname)',
            '--',
            ...wanted,
        ]);
        for (const line of out.split('\n')) {
            const [object, type, peeled, peeledType, ...name] = line.split(' ');
            const ref = name.join(' ');
            if (!wanted.has(ref))
                continue;
            if (type === 'commit')
                found.set(ref, object);
            else if (type === 'tag' && peeledType === 'commit')
                found.set(ref, peeled);
        }
        return found;
    }
    /** The commit a revision names, or undefined when it names none. */
    async resolveCommit(cwd, rev) {
        if (rev.startsWith('-'))
            return undefined;
        const result = await this.exec(cwd, [
            'rev-parse',
            '--verify',
            '--quiet',
            '--end-of-options',
            `${rev}^{commit}`,
        ]);
        return result.exitCode === 0 ? result.stdout.trim() : undefined;
    }
    /**
     * Fetches one ref of a remote and returns its commit, holding no lock and changing no ref anyone reads:
     * git writes the objects (safe beside any other git process) and a ref of this call's own under
     * FETCH_REF_ROOT, removed again once its commit is read; FETCH_HEAD is not written. The caller then
     * points its own ref at the commit, briefly, under the repository lock. A GitError when the remote
     * refuses (no such ref, no access); a ProcTimeLimitError when it does not answer within `git-fetch`.
     */
    async fetchCommit(cwd, remote, ref, purpose) {
        const own = `${FETCH_REF_ROOT}/${process.pid}-${(0,external_node_crypto_.randomBytes)(6).toString('hex')}`;
        try {
            await this.run(cwd, 
            // `--refmap=`: the remote's configured refspecs update no remote-tracking ref on the side.
            [
                'fetch',
                '--no-tags',
                '--quiet',
                '--no-write-fetch-head',
                '--refmap=',
                '--',
                remote,
                `+${ref}:${own}`,
            ], { work: 'git-fetch', purpose });
            return (await this.run(cwd, ['rev-parse', '--verify', '--end-of-options', `${own}^{commit}`])).trim();
        }
        finally {
            await this.exec(cwd, ['update-ref', '-d', '--', own]).catch(() => undefined);
        }
    }
    async remoteUrl(cwd, remote) {
        const result = await this.exec(cwd, ['config', '--get', `remote.${remote}.url`]);
        return result.exitCode === 0 ? result.stdout.trim() : undefined;
    }
}
/** git as the layers above engine/ hold it, the interface (Git.create); a spec holds a fake. */
const createGit = () => Git.create();


/***/ }),

/***/ 6387:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   NH: () => (/* binding */ runsInContainer),
/* harmony export */   Qe: () => (/* binding */ requireVisible),
/* harmony export */   Vx: () => (/* binding */ bindSource),
/* harmony export */   aE: () => (/* binding */ enginePath),
/* harmony export */   jX: () => (/* binding */ SHARED_ROOT_FIX),
/* harmony export */   mL: () => (/* binding */ HostPathError),
/* harmony export */   x_: () => (/* binding */ discoverHostView)
/* harmony export */ });
/* unused harmony exports INSPECT_TIMEOUT_MS, containerIdCandidates, rootIsContainerLayer, parseInspectMounts, unseenMessage */
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
// The engine's view of the paths the action mounts. On a plain host the engine and the action see one
// filesystem. When the action itself runs in a container of the same engine (a job container), the
// engine knows nothing of the paths inside it: every bind source must be the path on the engine's side,
// found through the container's own mounts, as the runner's container support does. A path under none of
// them exists only in the container's own layer, and no bind can reach it.
// Which view applies is read from this process's own mount table (no engine call on a plain host); a
// container of the engine is then looked up by id with `inspect`. What is read here is not trusted to be
// complete: the probe (engine-probe.ts) proves that the engine sees a folder where the action sees it.


class HostPathError extends Error {
    constructor(message) {
        super(message);
        this.name = 'HostPathError';
    }
}
/** How long the engine may take to say what it knows of the action's own container. */
const INSPECT_TIMEOUT_MS = 15_000;
/** The most of `inspect`'s answer read (one line of JSON: a few hundred bytes a mount). */
const INSPECT_MAX_BYTES = 1024 * 1024;
const CONTAINER_ID = /^[0-9a-f]{64}$/;
/** File systems a container's own root is made of: nothing outside the container sees into them. */
const LAYER_FILESYSTEMS = new Set(['overlay', 'fuse.fuse-overlayfs', 'aufs']);
/**
 * The ids this process's container may have, best first, from its mount table and cgroup. The engine
 * mounts `/etc/hostname` (and hosts, resolv.conf) from a file in a folder named for the container
 * (Docker: `.../containers/<id>/hostname`; Podman: `.../overlay-containers/<id>/userdata/hostname`);
 * a cgroup path may name it too (cgroup v1, or v2 without a cgroup namespace). Pure.
 */
function containerIdCandidates(mountinfo, cgroup) {
    const ids = [];
    const add = (id) => {
        if (id && CONTAINER_ID.test(id) && !ids.includes(id))
            ids.push(id);
    };
    for (const line of mountinfo.split('\n')) {
        const fields = line.split(' ');
        const [root, mountPoint] = [fields[3] ?? '', fields[4] ?? ''];
        if (!/^\/etc\/(hostname|hosts|resolv\.conf)$/.test(mountPoint))
            continue;
        add(/[/-]containers\/([0-9a-f]{64})\/(?:userdata\/)?[^/]+$/.exec(root)?.[1]);
    }
    for (const line of cgroup.split('\n'))
        add(/(?:docker[-/]|libpod-|crio-|containerd-)?([0-9a-f]{64})(?:\.scope)?$/.exec(line.trim())?.[1]);
    return ids;
}
/** Whether this process's root file system is a container's own layer (overlay...). Pure. */
function rootIsContainerLayer(mountinfo) {
    for (const line of mountinfo.split('\n')) {
        const fields = line.split(' ');
        if (fields[4] !== '/')
            continue;
        const dash = fields.indexOf('-');
        const fsType = dash >= 0 ? fields[dash + 1] : '';
        if (LAYER_FILESYSTEMS.has(fsType))
            return true;
    }
    return false;
}
let ownFacts;
/** This process's mount table and cgroup (read once: two small files, well under a millisecond). */
function readOwnFacts() {
    const read = (file) => {
        try {
            return node_fs__WEBPACK_IMPORTED_MODULE_0__.readFileSync(file, 'utf8');
        }
        catch {
            return '';
        }
    };
    ownFacts ??= { mountinfo: read('/proc/self/mountinfo'), cgroup: read('/proc/self/cgroup') };
    return ownFacts;
}
/**
 * Whether the action runs in a container of any engine (a job container, a runner pod, a runner in a
 * container): then its home is the container's own, and no other container sees it. A plain host (even
 * one whose image left `/.dockerenv` behind) has its own root file system.
 */
function runsInContainer(facts = readOwnFacts()) {
    return (rootIsContainerLayer(facts.mountinfo) || containerIdCandidates(facts.mountinfo, facts.cgroup).length > 0);
}
/** The mounts `inspect` printed (`{{json .Mounts}}`): bind and volume mounts, each with its engine path. Pure. */
function parseInspectMounts(json) {
    let parsed;
    try {
        parsed = JSON.parse(json);
    }
    catch {
        throw new HostPathError(`The engine's description of the action's container is not JSON: ${json.slice(0, 200)}`);
    }
    if (!Array.isArray(parsed))
        return [];
    const mounts = [];
    for (const entry of parsed) {
        const { Type: type, Source: source, Destination: target } = entry ?? {};
        if (typeof source !== 'string' || typeof target !== 'string')
            continue;
        if (type !== 'bind' && type !== 'volume')
            continue;
        if (!node_path__WEBPACK_IMPORTED_MODULE_1__.isAbsolute(source) || !node_path__WEBPACK_IMPORTED_MODULE_1__.isAbsolute(target))
            continue;
        mounts.push({ source: node_path__WEBPACK_IMPORTED_MODULE_1__.normalize(source), target: node_path__WEBPACK_IMPORTED_MODULE_1__.normalize(target) });
    }
    // The deepest mount wins: a mount inside another hides what lies below it.
    return mounts.sort((a, b) => b.target.length - a.target.length);
}
/**
 * Where the engine finds `file`: the same path, or the source of the mount it lies under (the deepest),
 * with the rest of the path appended; undefined when it lies under none. Pure.
 */
function enginePath(view, file) {
    if (view.kind === 'same')
        return file;
    const normal = node_path__WEBPACK_IMPORTED_MODULE_1__.resolve(file);
    for (const mount of view.mounts) {
        if (normal === mount.target)
            return mount.source;
        const prefix = mount.target === '/' ? '/' : `${mount.target}/`;
        if (normal.startsWith(prefix))
            return node_path__WEBPACK_IMPORTED_MODULE_1__.join(mount.source, normal.slice(prefix.length));
    }
    return undefined;
}
const SHARED_ROOT_FIX = "Use isolation: container, or a worktree-root inside a folder the engine shares with the action at the same path (with Actions Runner Controller in Docker-in-Docker mode: under the runner's work folder, e.g. /home/runner/_work)";
/** Why a path cannot be mounted, and what to change. Pure. */
function unseenMessage(view, unseen) {
    const shared = view.mounts.map((m) => m.target).join(', ') || 'none';
    const fix = unseen.fix ??
        'Use isolation: container, or a worktree-root inside a folder the engine shares with this container';
    return (`The ${unseen.what} ${unseen.path} is inside the action's own container (${view.id.slice(0, 12)}), under none of its mounts, so the container engine cannot see it and no container can mount it. ` +
        `Nothing was created. ${fix} (this container's mounts: ${shared}).`);
}
/** Throws (naming the first path and the fix) unless the engine sees every path. Pure. */
function requireVisible(view, paths) {
    if (view.kind === 'same')
        return;
    const unseen = paths.find((p) => enginePath(view, p.path) === undefined);
    if (unseen)
        throw new HostPathError(unseenMessage(view, unseen));
}
/** The translation the one builder of `run` arguments applies to every bind source. */
function bindSource(view) {
    if (view.kind === 'same')
        return (file) => file;
    return (file) => {
        const found = enginePath(view, file);
        if (found === undefined)
            throw new HostPathError(unseenMessage(view, { path: file, what: 'folder' }));
        return found;
    };
}
/** What the engine says of container `id`: its full id and its mounts as JSON, or undefined when it does not know it. */
async function inspectOwn(exec, id, timeLimitMs) {
    let out = '';
    const result = await exec(['container', 'inspect', '--format', '{{.Id}} {{json .Mounts}}', '--', id], {
        timeLimitMs,
        maxLineBytes: INSPECT_MAX_BYTES,
        onLine: (line, stream) => {
            if (stream === 'stdout' && out.length < INSPECT_MAX_BYTES)
                out += `${line}\n`;
        },
    });
    if (result.timedOut)
        throw new HostPathError(`The container engine did not say within ${timeLimitMs / 1000} s what it knows of the action's own container (${id.slice(0, 12)}); its CLI was stopped, and nothing was created.`);
    return result.exitCode === 0 ? out.trim() : undefined;
}
/**
 * The engine's view of this process's paths. A plain host: no engine call. In a container: each candidate
 * id is asked of the engine; one it knows is the action's own container, and its mounts say where each
 * path is on the engine's side. A container the engine does not know (a runner pod beside a
 * Docker-in-Docker engine, a container of another engine) shares folders at the same path, if at all:
 * the probe tells.
 */
async function discoverHostView(exec, facts = readOwnFacts(), timeLimitMs = INSPECT_TIMEOUT_MS) {
    const containerized = runsInContainer(facts);
    if (!containerized)
        return { kind: 'same', containerized };
    for (const id of containerIdCandidates(facts.mountinfo, facts.cgroup)) {
        const out = await inspectOwn(exec, id, timeLimitMs);
        if (out === undefined)
            continue;
        const space = out.indexOf(' ');
        if (space < 0 || out.slice(0, space) !== id)
            continue;
        return { kind: 'container', id, mounts: parseInspectMounts(out.slice(space + 1)) };
    }
    return { kind: 'same', containerized };
}


/***/ }),

/***/ 3190:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   t: () => (/* binding */ listContainers),
/* harmony export */   y: () => (/* binding */ listVolumes)
/* harmony export */ });
/** Every volume carrying `label` (key or key=value), with its labels: one engine call whatever the count. */
async function listVolumes(engine, label, labelKeys) {
    // Docker's template has .Label "key" (its .Labels is one "k=v,k=v" string, ambiguous with commas in
    // values); Podman's has .Labels as a map. Either way: one call, one JSON array per volume.
    const fields = engine.name === 'podman'
        ? '{{json .Labels}}'
        : labelKeys.map((key) => `{{json (.Label ${JSON.stringify(key)})}}`).join(',');
    const out = await engine.run([
        'volume',
        'ls',
        '--filter',
        `label=${label}`,
        '--format',
        `[{{json .Name}},${fields}]`,
    ]);
    return out
        .split('\n')
        .filter((line) => line.trim())
        .map((line) => {
        const [name, ...values] = JSON.parse(line);
        const all = typeof values[0] === 'object' && values[0] !== null ? values[0] : undefined;
        const labels = {};
        labelKeys.forEach((key, i) => {
            const value = all ? all[key] : values[i];
            if (value)
                labels[key] = value;
        });
        return { name, labels };
    });
}
/**
 * Every container (running or not; with `label`, key or key=value, only those carrying it), as
 * EngineCommands.listContainers shows them: two engine calls whatever their number (`ps` for the ids, one
 * `container inspect` for all). A container removed between the two is not listed; any other failure,
 * or an answer that cannot be read, throws (the reaper's in-use check must not miss one).
 */
async function listContainers(engine, label) {
    const ps = ['ps', '--all', '--quiet', '--no-trunc', ...(label ? ['--filter', `label=${label}`] : [])];
    const ids = (await engine.run(ps)).split('\n').filter(Boolean);
    if (ids.length === 0)
        return [];
    // One JSON array a line, whatever a name or a mount's path holds.
    const format = '[{{json .Name}},{{json .State.Status}},{{json .State.Running}},{{json .HostConfig.NetworkMode}},{{json .Mounts}}]';
    const args = ['container', 'inspect', '--format', format, '--', ...ids];
    const result = await engine.exec(args);
    // A failure is any line of stderr but "no such container" (one removed between the two calls).
    const failed = /^(?!.*no such (object|container)).*\S/im.test(result.stderr);
    if (result.exitCode !== 0 && failed)
        throw engine.failure(args, result);
    return result.stdout
        .split('\n')
        .filter((line) => line.trim())
        .map((line) => {
        const [name, status, running, networkMode, mounts] = JSON.parse(line);
        const of = (type, key) => (mounts ?? []).filter((m) => m.Type === type && m[key]).map((m) => m[key]);
        return {
            name: String(name).replace(/^\//, ''),
            status: String(status),
            running: running === true,
            networkMode: String(networkMode),
            volumes: of('volume', 'Name'),
            binds: of('bind', 'Source'),
        };
    });
}


/***/ }),

/***/ 9667:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Pf: () => (/* binding */ label),
/* harmony export */   bS: () => (/* binding */ MANAGED_LABEL),
/* harmony export */   bW: () => (/* binding */ VOLUME_LABEL_KEYS),
/* harmony export */   kV: () => (/* binding */ volumeLabels),
/* harmony export */   nX: () => (/* binding */ commandLabels),
/* harmony export */   vJ: () => (/* binding */ HELPER_LABELS),
/* harmony export */   xN: () => (/* binding */ sandboxHelperLabels)
/* harmony export */ });
/* unused harmony export LABEL_PREFIX */
// The label schema: how everything this project creates in a container engine is named and found again.
const LABEL_PREFIX = 'worktree-sandbox';
const MANAGED_LABEL = `${LABEL_PREFIX}.managed`;
const label = (key) => `${LABEL_PREFIX}.${key}`;
/** The labels every sandbox volume carries (the reaper reads them back with `volume ls`). */
const VOLUME_LABEL_KEYS = ['project', 'sandbox', 'kind', 'branch', 'parent', 'created'].map(label);
function volumeLabels(facts, now = new Date()) {
    return {
        [MANAGED_LABEL]: 'true',
        [label('project')]: facts.project,
        [label('sandbox')]: facts.name,
        [label('kind')]: facts.kind,
        [label('branch')]: facts.branch,
        [label('parent')]: facts.parentPath,
        [label('created')]: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
}
/** Labels of a command container: how a later run finds the container of a run that was killed. */
function commandLabels(sandbox) {
    return {
        [label('role')]: 'command',
        [label('project')]: sandbox.project,
        [label('sandbox')]: sandbox.name,
    };
}
const HELPER_LABELS = { [label('role')]: 'helper' };
/**
 * Labels of a helper container working on one sandbox: a step that was killed while one ran finds it
 * again (the post step removes it), and a test can tell that none was left.
 */
function sandboxHelperLabels(sandbox) {
    return { ...HELPER_LABELS, [label('project')]: sandbox.project, [label('sandbox')]: sandbox.name };
}


/***/ }),

/***/ 729:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  Nm: () => (/* binding */ ProcError),
  DY: () => (/* binding */ notStarted),
  Bh: () => (/* binding */ pickEnv),
  R3: () => (/* binding */ runProcess),
  SL: () => (/* binding */ runStreaming)
});

// UNUSED EXPORTS: ProcTimeLimitError, programName

// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __nccwpck_require__(1421);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __nccwpck_require__(3024);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __nccwpck_require__(6760);
;// CONCATENATED MODULE: ./src/engine/chunk-tail.ts
// A bounded tail of a stream's output: what error messages and reports quote of a program that may print
// without end.
/** The last chunks of a stream, at least `bytes` of them when there were that many. */
class ChunkTail {
    bytes;
    chunks = [];
    size = 0;
    constructor(bytes) {
        this.bytes = bytes;
    }
    push(chunk) {
        this.chunks.push(chunk);
        this.size += chunk.length;
        while (this.chunks.length > 1 && this.size - this.chunks[0].length >= this.bytes)
            this.size -= this.chunks.shift().length;
    }
    text() {
        const all = Buffer.concat(this.chunks);
        return all.subarray(Math.max(0, all.length - this.bytes)).toString('utf8');
    }
}

;// CONCATENATED MODULE: ./src/engine/process-group.ts
// Process groups that proc.ts starts: every program it runs under a time limit leads a group of its own,
// so that a kill reaches what it started too (git's remote helper, ssh, tar's gzip).

/** Process groups started here and still running: killed when this process exits, so none outlives it. */
const liveGroups = new Set();
let exitHook = false;
function trackGroup(pid) {
    if (!exitHook) {
        exitHook = true;
        process.once('exit', () => {
            for (const group of liveGroups)
                killGroup(group);
        });
    }
    liveGroups.add(pid);
}
function untrackGroup(pid) {
    liveGroups.delete(pid);
}
function killGroup(pid) {
    try {
        process.kill(-pid, 'SIGKILL');
    }
    catch {
        // already gone
    }
}
/**
 * How long a killed group may take to be gone. A kill is delivered at once, but a program ends only when
 * it is next scheduled (later still in an uninterruptible wait), and its pipes close before it has ended:
 * the caller's answer should not come while the programs it says were killed still run.
 */
const GROUP_END_MS = 2_000;
const GROUP_POLL_MS = 10;
/**
 * Resolves once no process of the group runs any more, or after the bound. One that has ended but is not
 * reaped yet does not count: its new parent (PID 1, which may reap late or never) decides when it goes.
 */
async function waitForGroupEnd(pid, boundMs = GROUP_END_MS) {
    const until = Date.now() + boundMs;
    while (groupRuns(pid) && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, GROUP_POLL_MS));
}
function groupRuns(pgid) {
    try {
        process.kill(-pgid, 0);
    }
    catch (error) {
        // EPERM: a member runs as another user now (not ours to kill): it is there.
        if (error.code !== 'EPERM')
            return false;
    }
    let entries;
    try {
        entries = external_node_fs_.readdirSync('/proc');
    }
    catch {
        return true; // no /proc to tell a running member from an ended one: the group is there
    }
    return entries.some((entry) => /^\d+$/.test(entry) && runsInGroup(entry, pgid));
}
/** `/proc/<pid>/stat` is `pid (comm) state ppid pgrp ...`; comm may hold anything, so read past its last `)`. */
function runsInGroup(pid, pgid) {
    let stat;
    try {
        stat = external_node_fs_.readFileSync(`/proc/${pid}/stat`, 'utf8');
    }
    catch {
        return false; // gone meanwhile
    }
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(group) === pgid && state !== 'Z' && state !== 'X';
}

// EXTERNAL MODULE: ./src/engine/time-limits.ts
var time_limits = __nccwpck_require__(1814);
// EXTERNAL MODULE: ./src/engine/tool-path.ts
var tool_path = __nccwpck_require__(2428);
;// CONCATENATED MODULE: ./src/engine/proc.ts
// Where child processes start (with piped-process.ts, for a long-lived one): run to their end, with their
// output buffered or streamed. Argument arrays only: nothing here goes through a shell.
// ADR 0007 (docs/adr/0007-streamed-output-bounded-memory.md).







/** The program could not be started (not installed, its folder gone). */
class ProcError extends Error {
    result;
    constructor(message, result) {
        super(message);
        this.result = result;
        this.name = 'ProcError';
    }
}
/** A program ran out of its time limit; it was killed with every program it started. */
class ProcTimeLimitError extends Error {
    program;
    purpose;
    limitMs;
    constructor(
    /** The program and its sub-command, `git fetch`. */
    program, purpose, limitMs) {
        super(`${program} (${purpose}) ran out of its time limit (${(0,time_limits/* formatLimit */.tW)(limitMs)}) and was killed, with every program it started.`);
        this.program = program;
        this.purpose = purpose;
        this.limitMs = limitMs;
        this.name = 'ProcTimeLimitError';
    }
}
/** `git fetch` for git's `fetch …`, `ldd` for `ldd -- …`: the program as a person names it. */
function programName(tool, args) {
    const sub = args[0];
    const base = external_node_path_.basename(tool);
    return sub && /^[a-z][a-z0-9-]{0,30}$/.test(sub) ? `${base} ${sub}` : base;
}
/**
 * How long a program may keep its output pipes open after it exited (a program it left behind holds
 * them): then its output so far is taken as all of it.
 */
const PIPES_GRACE_MS = 10_000;
/** The error for a program that could not be started. */
function notStarted(tool, error) {
    return new ProcError(`${tool} could not be started: ${error.message}`, {
        exitCode: -1,
        stdout: '',
        stderr: String(error),
    });
}
/**
 * Runs a program to its end and returns its output. It leads a process group of its own, and when
 * `limit.ms` runs out the whole group is killed (a remote helper or ssh that git started included) and a
 * ProcTimeLimitError names the program, what it was for and the limit.
 */
async function runProcess(tool, args, options) {
    let child;
    try {
        child = (0,external_node_child_process_.spawn)(await (0,tool_path/* toolPath */.O)(tool), [...args], {
            cwd: options.cwd,
            env: options.env,
            stdio: [options.input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
            detached: true,
        });
    }
    catch (error) {
        throw notStarted(tool, error);
    }
    const pid = child.pid;
    if (pid)
        trackGroup(pid);
    const stdout = [];
    const stderr = [];
    child.stdout.on('data', (chunk) => stdout.push(chunk));
    child.stderr.on('data', (chunk) => stderr.push(chunk));
    if (options.input) {
        child.stdin.on('error', () => undefined); // it exited without reading all: its exit code says why
        child.stdin.end(options.input);
    }
    let timedOut = false;
    const timer = setTimeout(() => {
        timedOut = true;
        if (pid)
            killGroup(pid);
    }, options.limit.ms);
    let grace;
    try {
        const exitCode = await new Promise((resolve, reject) => {
            child.on('error', (error) => reject(notStarted(tool, error)));
            child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
            child.on('exit', (code, signal) => {
                grace = setTimeout(() => {
                    child.stdout.destroy();
                    child.stderr.destroy();
                    resolve(code ?? (signal ? 128 : 1));
                }, PIPES_GRACE_MS);
            });
        });
        if (timedOut) {
            if (pid)
                await waitForGroupEnd(pid);
            throw new ProcTimeLimitError(programName(tool, args), options.limit.purpose, options.limit.ms);
        }
        return {
            exitCode,
            stdout: Buffer.concat(stdout).toString('utf8'),
            stderr: Buffer.concat(stderr).toString('utf8'),
        };
    }
    finally {
        clearTimeout(timer);
        clearTimeout(grace);
        if (pid)
            untrackGroup(pid);
    }
}
/** Environment variables a CLI tool legitimately needs from the parent process; everything else is dropped. */
function pickEnv(names, source = process.env) {
    const env = {};
    for (const name of names) {
        const value = source[name];
        if (value !== undefined)
            env[name] = value;
    }
    return env;
}
/** How much of the end of a process's output is kept for messages and reports. */
const TAIL_BYTES = 64 * 1024;
/**
 * Runs a process whose output may be huge or hostile: nothing is accumulated but a bounded stderr tail;
 * lines are handed on as they come (cut at `maxLineBytes`), or stdout is written to a file up to a limit,
 * past which the process is killed. Memory stays bounded whatever the process prints.
 */
async function runStreaming(tool, args, options) {
    const maxLine = options.maxLineBytes ?? 64 * 1024;
    const tailLines = options.stderrTailLines ?? 40;
    let file;
    if (options.stdoutFile)
        file = external_node_fs_.openSync(options.stdoutFile.path, 'wx', 0o600);
    let child;
    const group = options.processGroup || options.timeLimitMs !== undefined;
    try {
        child = (0,external_node_child_process_.spawn)(await (0,tool_path/* toolPath */.O)(tool), [...args], {
            cwd: options.cwd,
            env: options.env,
            stdio: ['ignore', options.outputFd ?? 'pipe', 'pipe'],
            detached: group,
        });
    }
    catch (error) {
        if (file !== undefined)
            external_node_fs_.closeSync(file);
        throw notStarted(tool, error);
    }
    let stdoutBytes = 0;
    let overLimit = false;
    let timedOut = false;
    let groupKilled = false;
    const kill = () => {
        if (group && child.pid) {
            groupKilled = true;
            killGroup(child.pid);
        }
        else
            child.kill('SIGKILL');
    };
    const onAbort = () => kill();
    if (options.signal?.aborted)
        kill();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = options.timeLimitMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            kill();
        }, options.timeLimitMs);
    // Tails are the last chunks as they came (kept by reference, never copied or decoded per chunk): lines are
    // cut out of them once, at the end.
    const stderrTailChunks = new ChunkTail(TAIL_BYTES);
    const outputTailChunks = new ChunkTail(TAIL_BYTES);
    const splitter = (stream) => {
        let pending = '';
        return {
            push(chunk) {
                outputTailChunks.push(chunk);
                if (stream === 'stderr')
                    stderrTailChunks.push(chunk);
                if (stream === 'stderr' && options.onStderrChunk)
                    return options.onStderrChunk(chunk);
                if (!options.onLine)
                    return;
                const text = pending + chunk.toString('utf8');
                let start = 0;
                let nl;
                while ((nl = text.indexOf('\n', start)) >= 0) {
                    const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
                    options.onLine(text.slice(start, end), stream);
                    start = nl + 1;
                }
                if (text.length - start > maxLine) {
                    options.onLine(`${text.slice(start, start + maxLine)} [line cut at ${maxLine} characters]`, stream);
                    pending = '';
                }
                else
                    pending = text.slice(start);
            },
            end() {
                if (pending)
                    options.onLine?.(pending, stream);
                pending = '';
            },
        };
    };
    const err = splitter('stderr');
    const out = splitter('stdout');
    const throttle = () => {
        const wait = options.backpressure?.();
        if (!wait)
            return;
        child.stdout?.pause();
        child.stderr.pause();
        void wait.then(() => {
            child.stdout?.resume();
            child.stderr.resume();
        });
    };
    child.stderr?.on('data', (chunk) => {
        err.push(chunk);
        throttle();
    });
    child.stdout?.on('data', (chunk) => {
        if (file === undefined) {
            out.push(chunk);
            return throttle();
        }
        if (overLimit)
            return;
        stdoutBytes += chunk.length;
        if (stdoutBytes > options.stdoutFile.maxBytes) {
            overLimit = true;
            kill();
            return;
        }
        external_node_fs_.writeSync(file, chunk);
    });
    const exitCode = await new Promise((resolve, reject) => {
        child.on('error', (error) => reject(notStarted(tool, error)));
        child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
    }).finally(() => {
        if (timer)
            clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        if (file !== undefined)
            external_node_fs_.closeSync(file);
    });
    // Its pipes close as the killed programs end, a moment before they are gone: answer once they are.
    if (groupKilled && child.pid)
        await waitForGroupEnd(child.pid);
    err.end();
    out.end();
    const lastLines = (tail) => tail.text().split(/\r?\n/).filter(Boolean).slice(-tailLines);
    return {
        exitCode,
        stderrTail: lastLines(stderrTailChunks),
        outputTail: lastLines(outputTailChunks),
        overLimit: overLimit || undefined,
        timedOut: timedOut || undefined,
        stdoutBytes,
    };
}


/***/ }),

/***/ 8557:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   E: () => (/* binding */ startFailureHint),
/* harmony export */   u: () => (/* binding */ explainStartFailure)
/* harmony export */ });
const NETWORK_NONE = 'Set `network: none` (CLI: `--network none`) if the command needs no network.';
/**
 * A message with a hint for the usual reasons a (rootless) container does not start, from the engine's
 * stderr; undefined when the text is none of them. Pure.
 */
function explainStartFailure(stderr) {
    // Podman's log lines escape the quotes inside msg="..." with a backslash: the patterns take both forms.
    // Before the OCI patterns: runc reports an unusable runtime folder as "OCI permission denied" (exit 126).
    let m = /XDG_RUNTIME_DIR directory \\?"([^"\\]*)\\?" is not owned by the current user/.exec(stderr);
    if (m || /path in \$XDG_RUNTIME_DIR must be writable/.test(stderr)) {
        return {
            kind: 'runtime-dir',
            message: m
                ? `Rootless Podman's runtime folder ${m[1]} (XDG_RUNTIME_DIR) is not owned by the user.`
                : `Rootless Podman's runtime folder (XDG_RUNTIME_DIR) is missing or not writable by the user.`,
            hint: 'Point XDG_RUNTIME_DIR at a folder the user owns with mode 700 (normally /run/user/<uid>, made at login by systemd-logind).',
        };
    }
    m = /\/dev\/net\/tun\\?"?\): ([A-Za-z ]+)/.exec(stderr);
    if (m) {
        return {
            kind: 'no-tun',
            message: `Rootless networking failed: slirp4netns cannot open /dev/net/tun (${m[1].trim()}).`,
            hint: `${NETWORK_NONE} Otherwise the host must give the user a readable and writable /dev/net/tun.`,
        };
    }
    m =
        /could not find (slirp4netns|pasta)/.exec(stderr) ??
            /unable to find network with name or ID (slirp4netns|pasta)/.exec(stderr);
    if (m) {
        return {
            kind: 'network-helper-missing',
            message: `Rootless networking needs ${m[1]}, which ${m[0].startsWith('could') ? 'is not installed' : 'this Podman does not know'}.`,
            hint: `${NETWORK_NONE} Otherwise install slirp4netns (or passt, for Podman 4.4 and later).`,
        };
    }
    m = /no sub([ug]id) ranges found for user \\?"([^"\\]*)\\?"/.exec(stderr);
    if (m) {
        return {
            kind: 'no-subids',
            message: `The user ${m[2]} has no subordinate ${m[1]}s: rootless Podman maps only that one id, and images with other owners fail.`,
            hint: `Add ranges to /etc/subuid and /etc/subgid (usermod --add-subuids 100000-165535 --add-subgids 100000-165535 ${m[2]}), then run \`podman system migrate\`.`,
        };
    }
    m = /(newuidmap|newgidmap)\\?": executable file not found/.exec(stderr);
    if (m) {
        return {
            kind: 'newuidmap-missing',
            message: `Rootless Podman needs ${m[1]}, which is not installed.`,
            hint: 'Install newuidmap and newgidmap (Debian and Ubuntu: the uidmap package), then run `podman system migrate`.',
        };
    }
    if (/keep-id is only supported in rootless mode/.test(stderr)) {
        return {
            kind: 'keep-id-rootful',
            message: 'Podman runs rootful here, and rootful Podman refuses --userns=keep-id.',
            hint: 'Derive the user namespace arguments from the detected engine mode (rootful: none).',
        };
    }
    // Docker's `--init` (tini) starts, then cannot exec the command: `[FATAL tini (7)] exec sh failed: No
    // such file or directory` (exit 127): the same failure, one step later.
    m =
        /exec: \\?"([^"\\]*)\\?": executable file not found in \$PATH/.exec(stderr) ??
            /\[FATAL tini \(\d+\)\] exec (\S+) failed: No such file or directory/.exec(stderr);
    if (m || /OCI runtime attempted to invoke a command that was not found/.test(stderr)) {
        const command = m?.[1];
        return {
            kind: 'command-not-found',
            message: command === 'sh'
                ? 'The image has no `sh`: the container could not start (exit 127).'
                : `The container could not start: ${command ? `\`${command}\`` : 'its command'} is not in the image (exit 127).`,
            hint: 'Use an image with `sh` and `git` (input `image`).',
        };
    }
    m = /exec: \\?"([^"\\]*)\\?": permission denied/.exec(stderr);
    if (m || /OCI permission denied/.test(stderr)) {
        return {
            kind: 'command-not-executable',
            message: `The container could not start: ${m ? `\`${m[1]}\`` : 'its command'} is not executable (exit 126).`,
            hint: 'Check the image (input `image`): the command and `sh` must be executable files in it.',
        };
    }
    // Less precise words for the same two failures, from engines and versions that say less.
    if (/\/dev\/net\/tun|slirp4netns|pasta|setting up network|netns/i.test(stderr)) {
        return {
            kind: 'network-setup',
            message: 'The engine could not set up the network.',
            hint: `With rootless Podman and no /dev/net/tun: ${NETWORK_NONE}`,
        };
    }
    if (/executable file not found|no such file or directory.*sh|"sh": /i.test(stderr)) {
        return {
            kind: 'no-shell',
            message: 'The image has no `sh`.',
            hint: 'The command runs with `sh -c`: use an image with `sh` and `git` (input `image`).',
        };
    }
    return undefined;
}
/** ` (what went wrong. What to do.)` for a known start failure, to follow the engine's words; else ''. */
function startFailureHint(stderr) {
    const explained = explainStartFailure(stderr);
    return explained ? ` (${explained.message} ${explained.hint})` : '';
}


/***/ }),

/***/ 1814:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $q: () => (/* binding */ TimeLimitError),
/* harmony export */   Au: () => (/* binding */ engineWork),
/* harmony export */   PI: () => (/* binding */ timeLimitMs),
/* harmony export */   tW: () => (/* binding */ formatLimit)
/* harmony export */ });
/* unused harmony exports TIME_LIMITS_MS, TIME_LIMITS_OVERRIDE */
// How long each of the action's own containers and host-side programs may run: one table, so that every
// limit is in one place with its reason. A limit that runs out removes the container (or kills the
// program's process group) and fails the step with an error that names what ran out, where (a
// TimeLimitError for a helper's work; proc.ts's ProcTimeLimitError for any other program on the host).
//
// The limits are generous on purpose: they exist so that a hostile sandbox or image cannot hang a run or
// the reaper forever, not to hurry honest work on a big repository. Each one is far above what the
// honest case takes on a slow runner, and far below GitHub's six-hour job limit.
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const TIME_LIMITS_MS = {
    // Creating a sandbox is `git init` and a checkout of the start commit (in a helper container, or on the
    // host for disk sandboxes). A checkout of a very large repository (several hundred thousand files) takes
    // a few minutes on a runner's disk; half an hour leaves room for a busy machine and a cold cache.
    create: 30 * MINUTE,
    // Offering origin's branch inside a reused sandbox is one `git update-ref`: well under a second, plus
    // the container's start (seconds; tens of seconds on a loaded rootless Podman).
    offer: 2 * MINUTE,
    // Capturing after the command: `git add -A` of the work tree (hashes every changed file) and a bundle of
    // the new commits, written out at most max-import-size bytes.
    capture: 10 * MINUTE,
    // The reaper's bundle of a forced sandbox's work: the same work as `capture`, but nobody waits on it
    // interactively and the sandbox may have been left with gigabytes of changes.
    'archive-capture': 30 * MINUTE,
    // One inspection helper looks at up to 48 sandboxes (signals, `git status`, `du`); `git status` of a
    // large work tree with a cold cache takes seconds each.
    inspect: 5 * MINUTE,
    // An orphan's files as a .tar.gz (a volume's in a helper container, a folder's with tar on the host),
    // capped in bytes too (archive.ts): gzip writes 20-50 MB/s on one core, so 30 minutes covers the cap.
    'archive-volume': 30 * MINUTE,
    'archive-files': 30 * MINUTE,
    // ---- programs on the host (proc.ts kills the program's whole process group: a remote helper, ssh) ----
    // Local git commands (rev-parse, rev-list, for-each-ref, update-ref, merge-base, cat-file): milliseconds
    // to seconds; a rev-list or fsck-free walk of a very large history takes a minute on a slow runner.
    git: 10 * MINUTE,
    // A fetch from origin (the branch a run asks for, a fork's pull-request head). It runs outside the
    // repository lock, so it holds up only its own run; git's own low-speed limit (gitNetworkConfig in
    // git.ts) ends a stalled HTTP transfer after a minute, and this limit ends what that cannot see (ssh, a
    // slow trickle). A first fetch of a long branch into a shallow checkout can take several minutes.
    'git-fetch': 10 * MINUTE,
    // A push of the run's commits (only the new ones travel).
    'git-push': 15 * MINUTE,
    // Fetching a sandbox's bundle (at most max-import-size) with fsck into the private store.
    'git-import': 30 * MINUTE,
    // Reading what a push or a patch carries (git's log of the commits' added lines) while it is scanned
    // for secrets (secret-gate.ts): at most 256 MiB of git's output, scanned at several MB/s.
    'secret-scan': 5 * MINUTE,
    // The engine CLI asked something (inspect, ps, info, version, logs): a second; tens of seconds on a
    // loaded rootless Podman that first sets up its user namespace.
    'engine-query': 2 * MINUTE,
    // The engine CLI changing something (kill, rm, volume create or rm): removing a volume of a large
    // sandbox deletes every file in it, minutes for millions of files.
    'engine-change': 10 * MINUTE,
    // Pulling the `image` input when it is missing: a large image over a runner's network.
    'engine-pull': 30 * MINUTE,
    // Importing an image made of the runner's own binaries (a few to tens of MB): seconds.
    'engine-import': 5 * MINUTE,
    // ldd and `git --exec-path` while such an image is made: milliseconds.
    ldd: 30 * SECOND,
};
/**
 * Tests only: `WORKTREE_SANDBOX_TEST_TIME_LIMITS=create=5,offer=3` (seconds) shortens the named limits so
 * that a test can watch one run out. It can only shorten: a value above the limit, or one that is not a
 * positive number, is ignored, so no environment can lift a limit.
 */
const TIME_LIMITS_OVERRIDE = 'WORKTREE_SANDBOX_TEST_TIME_LIMITS';
function timeLimitMs(work, env = process.env) {
    const limit = TIME_LIMITS_MS[work];
    for (const item of (env[TIME_LIMITS_OVERRIDE] ?? '').split(',')) {
        const [name, value] = item.split('=');
        const seconds = Number(value);
        if (name?.trim() === work && Number.isFinite(seconds) && seconds > 0)
            return Math.min(limit, seconds * SECOND);
    }
    return limit;
}
/** Which time limit an engine CLI call runs under: what it does decides how long it may honestly take. */
function engineWork(args) {
    const [command, sub] = args;
    if (command === 'pull')
        return 'engine-pull';
    if (command === 'import')
        return 'engine-import';
    if (['kill', 'rm', 'stop', 'create', 'rmi'].includes(command))
        return 'engine-change';
    if (['volume', 'container', 'image', 'network'].includes(command) &&
        ['create', 'rm', 'prune', 'kill', 'stop'].includes(sub))
        return 'engine-change';
    return 'engine-query';
}
/** What a time limit stopped: which work, on which sandbox(es), after how long. */
class TimeLimitError extends Error {
    work;
    where;
    limitMs;
    onHost;
    constructor(work, 
    /** Which sandbox (or sandboxes) it worked on, as a person reads it. */
    where, limitMs, 
    /** What that means for the sandbox: what was kept, what was not done. */
    consequence, 
    /** A program on the host (its process group was killed), not a helper container (removed). */
    onHost = false) {
        super(`The ${work} ${onHost ? 'program' : 'helper container'} on ${where} ran out of its time limit (${formatLimit(limitMs)}) and was ${onHost ? 'killed' : 'removed'}: ${consequence}`);
        this.work = work;
        this.where = where;
        this.limitMs = limitMs;
        this.onHost = onHost;
        this.name = 'TimeLimitError';
    }
}
function formatLimit(ms) {
    if (ms % MINUTE === 0)
        return `${ms / MINUTE} min`;
    return `${Math.round(ms / 100) / 10} s`;
}


/***/ }),

/***/ 2428:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   O: () => (/* binding */ toolPath)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
// Where a program is: its absolute path on PATH, found once per PATH value.


const toolPaths = new Map();
/**
 * The tool's absolute path, looked up once per PATH value. Searching every PATH folder (one stat after
 * another) on every call costs a few milliseconds each time, and the action makes a dozen calls before the
 * user's command starts. A failed lookup is not remembered.
 */
function toolPath(tool) {
    const key = `${process.env.PATH ?? ''}\0${tool}`;
    let found = toolPaths.get(key);
    if (!found) {
        found = findOnPath(tool, process.env.PATH ?? '');
        toolPaths.set(key, found);
        found.catch(() => toolPaths.delete(key));
    }
    return found;
}
/**
 * The first executable file named `tool` in PATH's folders, in PATH's order (a name with a slash is taken
 * as a path). Looked up synchronously: a few stat calls once per tool and PATH value, instead of a round of
 * the thread pool per folder before the first process can start. (Not @actions/io's `which`: its module,
 * with `assert`, costs the start of every step.)
 */
function findOnPath(tool, searchPath) {
    const candidates = tool.includes('/')
        ? [node_path__WEBPACK_IMPORTED_MODULE_1__.resolve(tool)]
        : searchPath
            .split(node_path__WEBPACK_IMPORTED_MODULE_1__.delimiter)
            .filter((dir) => dir)
            .map((dir) => node_path__WEBPACK_IMPORTED_MODULE_1__.join(dir, tool));
    const first = candidates.find((file) => {
        try {
            node_fs__WEBPACK_IMPORTED_MODULE_0__.accessSync(file, node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.X_OK);
            return node_fs__WEBPACK_IMPORTED_MODULE_0__.statSync(file).isFile();
        }
        catch {
            return false;
        }
    });
    if (!first)
        return Promise.reject(new Error(`Unable to locate executable file: ${tool} (not an executable file on PATH).`));
    return Promise.resolve(first);
}


/***/ }),

/***/ 4126:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  pV: () => (/* binding */ chooseRunKind),
  D_: () => (/* binding */ decideEvent),
  Ng: () => (/* binding */ describeRequest)
});

// UNUSED EXPORTS: PROGRESS_MARKER

;// CONCATENATED MODULE: ./src/github/request.ts
// What the pull-request bot reads from an event and the request it makes of it: the shared types and
// the defensive payload readers of event.ts and issue-event.ts (any field may be missing or of the wrong
// type, and then the event starts nothing). Pure.

/**
 * The trigger must be the comment's first word, whole (`/fixed` is not `/fix`; case is ignored). The
 * rest of the comment, without the blank space that separates it, is the argument text (CRLF read as LF).
 * A first line indented as a Markdown code block (a tab, or four spaces) is code, not a request.
 */
function parseTrigger(body, trigger) {
    if (!trigger)
        return undefined;
    const unixBody = body.replace(/\r\n/g, '\n');
    if (/^(?:[ \t]*\n)*(?: {0,3}\t| {4})/.test(unixBody))
        return undefined;
    const text = unixBody.replace(/^\s+/, '');
    const end = text.search(/\s/);
    const word = end < 0 ? text : text.slice(0, end);
    if (word.toLowerCase() !== trigger.toLowerCase())
        return undefined;
    return { args: end < 0 ? '' : text.slice(end).trim() };
}
function record(value) {
    return value && typeof value === 'object' ? value : {};
}
function request_text(value) {
    return typeof value === 'string' ? value : '';
}
function positive(value) {
    return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}
function user(value, association, eventNeedsWrite = false) {
    const u = record(value);
    const login = request_text(u.login);
    if (!login)
        return undefined;
    return {
        login,
        type: request_text(u.type) || 'User',
        association: request_text(association) || undefined,
        eventNeedsWrite,
    };
}
function ignore(reason) {
    return { run: false, reason };
}

// EXTERNAL MODULE: ./src/run/progress-data.ts
var progress_data = __nccwpck_require__(5183);
// EXTERNAL MODULE: ./src/github/permissions.ts
var permissions = __nccwpck_require__(5435);
;// CONCATENATED MODULE: ./src/github/issue-event.ts


/** What `issues` events may start a run: only with the input that names their label or login. */
function issueTriggers(trigger) {
    return [...(trigger.labelTrigger ? ['labeled'] : []), ...(trigger.assigneeTrigger ? ['assigned'] : [])];
}
/** `issue_comment` on an issue that is not a pull request. */
function decideIssueComment(event, trigger) {
    const comment = record(event.comment);
    const body = request_text(comment.body);
    if (body.trimStart().startsWith(progress_data/* PROGRESS_MARKER */.b))
        return ignore('the comment is a progress comment of this action');
    const parsed = parseTrigger(body, trigger.command);
    if (!parsed)
        return ignore(`the comment does not start with ${trigger.command}`);
    const issue = readIssue(event, 'comment');
    if ('reason' in issue)
        return ignore(issue.reason);
    issue.commentBody = body;
    const id = positive(comment.id);
    const requester = user(comment.user, comment.author_association);
    if (!id || !requester)
        return ignore('the comment payload lacks the comment id or author');
    return {
        run: true,
        request: {
            event: 'issue_comment',
            requester,
            comment: { id, trigger: trigger.command, args: parsed.args },
            issue,
        },
    };
}
/** `issues`: `labeled` with `label-trigger`, `assigned` with `assignee-trigger`; nothing else. */
function decideIssues(event, trigger) {
    const action = request_text(event.action);
    let issueRequest;
    if (action === 'labeled' && trigger.labelTrigger) {
        const label = request_text(record(event.label).name);
        if (label !== trigger.labelTrigger)
            return ignore(`the label added is not ${trigger.labelTrigger} (label-trigger)`);
        issueRequest = readIssue(event, 'label');
        if (!('reason' in issueRequest))
            issueRequest.label = label;
    }
    else if (action === 'assigned' && trigger.assigneeTrigger) {
        const login = request_text(record(event.assignee).login);
        if ((0,permissions/* botName */.hO)(login) !== (0,permissions/* botName */.hO)(trigger.assigneeTrigger))
            return ignore(`the issue was not assigned to ${trigger.assigneeTrigger} (assignee-trigger)`);
        issueRequest = readIssue(event, 'assignment');
    }
    else {
        const served = issueTriggers(trigger);
        return ignore(`issues action '${action}' starts no run (${served.length ? served.join(' and ') : 'none'} do, with label-trigger and assignee-trigger)`);
    }
    if ('reason' in issueRequest)
        return ignore(issueRequest.reason);
    // The payload carries no association for the sender: labelling and assigning need triage access at
    // least, and the run asks the API for the sender's write access as for everyone.
    const requester = user(event.sender, undefined, true);
    if (!requester)
        return ignore('the issues payload lacks its sender');
    return { run: true, request: { event: 'issues', requester, issue: issueRequest } };
}
function readIssue(event, how) {
    const issue = record(event.issue);
    const number = positive(issue.number);
    if (!number)
        return { reason: 'the payload lacks the issue number' };
    if (issue.pull_request)
        return { reason: `#${number} is a pull request, not an issue` };
    if (issue.locked === true)
        return { reason: `issue #${number} is locked` };
    if (request_text(issue.state) !== 'open')
        return { reason: `issue #${number} is ${request_text(issue.state) || 'not open'}` };
    const labels = Array.isArray(issue.labels)
        ? issue.labels.map((l) => request_text(record(l).name)).filter(Boolean)
        : [];
    return { number, title: request_text(issue.title), body: request_text(issue.body), labels, how };
}

;// CONCATENATED MODULE: ./src/github/review-event.ts

function decideReview(event, trigger) {
    if (event.action !== 'submitted')
        return ignore(`the review was ${request_text(event.action) || 'changed'}, not submitted`);
    if (!trigger.command)
        return ignore("review events need the 'trigger' input (such as /fix)");
    const review = record(event.review);
    const body = request_text(review.body);
    if (body.trimStart().startsWith(progress_data/* PROGRESS_MARKER */.b))
        return ignore('the review is a progress note of this action');
    const parsed = parseTrigger(body, trigger.command);
    if (!parsed)
        return ignore(`the review's body does not start with ${trigger.command}`);
    const number = positive(record(event.pull_request).number);
    const id = positive(review.id);
    const requester = user(review.user, review.author_association);
    if (!number || !id || !requester)
        return ignore('the review payload lacks the pull request number, review id or author');
    return {
        run: true,
        request: {
            event: 'pull_request_review',
            prNumber: number,
            requester,
            comment: { id, trigger: trigger.command, args: parsed.args },
            review: { id, body, state: request_text(review.state).toLowerCase(), commitId: request_text(review.commit_id) },
        },
    };
}

;// CONCATENATED MODULE: ./src/github/event.ts




const BOT_EVENTS = ['pull_request', 'pull_request_target', 'push'];
/**
 * Events a bot workflow subscribes to that this bot does not serve: with a trigger input set, the step
 * fails naming the event, rather than running the command in plain run mode on the default branch.
 */
const UNSERVED_BOT_EVENTS = ['discussion', 'discussion_comment', 'commit_comment'];
/** Events whose comment (or review's body) starts a run with the `trigger` input. */
const COMMENT_EVENTS = ['issue_comment', 'pull_request_review_comment', 'pull_request_review'];
const PULL_REQUEST_ACTIONS = ['opened', 'synchronize', 'reopened', 'ready_for_review'];
/**
 * Plain run mode or the pull-request bot, from what the workflow asked for (cheap: no payload, no API).
 * Throws when the workflow asked for the bot on an event the bot cannot serve: better a red step than a
 * run that silently does something else.
 */
function chooseRunKind(eventName, trigger) {
    const event = eventName || 'this event';
    if (COMMENT_EVENTS.includes(event)) {
        if (trigger.command)
            return { bot: true, why: `${event} with trigger ${trigger.command}` };
        if (trigger.pullRequestBot)
            throw new Error(`pull-request-bot: true on an ${event} event needs the 'trigger' input (such as /fix): the comment's first word that starts a run.`);
        return { bot: false, why: `${event} without trigger: plain run mode` };
    }
    if (UNSERVED_BOT_EVENTS.includes(event) && (trigger.command || trigger.pullRequestBot))
        throw new Error(`The pull-request bot does not serve ${event} events (it serves ${COMMENT_EVENTS.join(', ')} with 'trigger', issues with 'label-trigger' or 'assignee-trigger', ${BOT_EVENTS.join(', ')} with 'pull-request-bot', workflow_dispatch with 'pr-number'): remove ${event} from the workflow's 'on:'.`);
    if (eventName === 'issues') {
        const actions = issueTriggers(trigger);
        if (actions.length)
            return { bot: true, why: `issues with ${actions.join(' and ')} triggers` };
        if (trigger.pullRequestBot)
            throw new Error("pull-request-bot: true on an issues event needs 'label-trigger' or 'assignee-trigger': the label or the login that starts a run.");
        return { bot: false, why: 'issues without label-trigger or assignee-trigger: plain run mode' };
    }
    if (eventName === 'workflow_dispatch') {
        if (trigger.prNumber)
            return { bot: true, why: `workflow_dispatch with pr-number ${trigger.prNumber}` };
        if (trigger.pullRequestBot)
            throw new Error("pull-request-bot: true on a workflow_dispatch event needs the 'pr-number' input: the pull request to work on.");
        return { bot: false, why: 'workflow_dispatch without pr-number: plain run mode' };
    }
    if (BOT_EVENTS.includes(eventName ?? '')) {
        if (trigger.pullRequestBot)
            return { bot: true, why: `${event} with pull-request-bot: true` };
        return {
            bot: false,
            why: `${event} without pull-request-bot: plain run mode`,
            warning: trigger.command
                ? `'trigger' is read on ${COMMENT_EVENTS.join(' and ')} events only: this ${event} event is plain run mode (pull-request-bot: true asks for the bot).`
                : undefined,
        };
    }
    if (trigger.pullRequestBot)
        throw new Error(`pull-request-bot: true on ${event}: the pull-request bot serves ${BOT_EVENTS.join(', ')} (${COMMENT_EVENTS.join(' and ')} with 'trigger', issues with 'label-trigger' or 'assignee-trigger', workflow_dispatch with 'pr-number'). Set it only for those events, e.g. pull-request-bot: \${{ github.event_name == 'push' }}.`);
    return { bot: false, why: `${event}: plain run mode` };
}
/** `ownCommitterEmail`: the committer of this action's own commits (`committer`); pushes of them start nothing. */
function decideEvent(eventName, payload, trigger, ownCommitterEmail) {
    const event = record(payload);
    switch (eventName) {
        case 'issue_comment':
            return decideComment(event, trigger);
        case 'pull_request_review_comment':
            return decideReviewComment(event, trigger);
        case 'pull_request_review':
            return decideReview(event, trigger);
        case 'issues':
            return decideIssues(event, trigger);
        case 'pull_request':
        case 'pull_request_target':
            return decidePullRequest(eventName, event);
        case 'workflow_dispatch':
            return decideDispatch(event, trigger);
        case 'push':
            return decidePush(event, ownCommitterEmail);
        default:
            return ignore(`${eventName || 'this event'} is not a pull-request event (issue_comment, pull_request_review_comment, pull_request_review, issues, pull_request, pull_request_target, workflow_dispatch with pr-number, push)`);
    }
}
function decideComment(event, trigger) {
    if (event.action !== 'created')
        return ignore(`the comment was ${request_text(event.action) || 'changed'}, not created`);
    const issue = record(event.issue);
    const comment = record(event.comment);
    const body = request_text(comment.body);
    if (!trigger.command)
        return ignore("comment events need the 'trigger' input (such as /fix)");
    if (!issue.pull_request)
        return decideIssueComment(event, trigger);
    if (body.trimStart().startsWith(progress_data/* PROGRESS_MARKER */.b))
        return ignore('the comment is a progress comment of this action');
    const parsed = parseTrigger(body, trigger.command);
    if (!parsed)
        return ignore(`the comment does not start with ${trigger.command}`);
    const number = positive(issue.number);
    const id = positive(comment.id);
    const requester = user(comment.user, comment.author_association);
    if (!number || !id || !requester)
        return ignore('the comment payload lacks the issue number, comment id or author');
    return {
        run: true,
        request: {
            event: 'issue_comment',
            prNumber: number,
            requester,
            comment: { id, trigger: trigger.command, args: parsed.args },
        },
    };
}
function decideReviewComment(event, trigger) {
    if (event.action !== 'created')
        return ignore(`the review comment was ${request_text(event.action) || 'changed'}, not created`);
    const comment = record(event.comment);
    const body = request_text(comment.body);
    if (!trigger.command)
        return ignore("comment events need the 'trigger' input (such as /fix)");
    if (body.trimStart().startsWith(progress_data/* PROGRESS_MARKER */.b))
        return ignore('the comment is a progress reply of this action');
    const parsed = parseTrigger(body, trigger.command);
    if (!parsed)
        return ignore(`the review comment does not start with ${trigger.command}`);
    const number = positive(record(event.pull_request).number);
    const id = positive(comment.id);
    const requester = user(comment.user, comment.author_association);
    if (!number || !id || !requester)
        return ignore('the review comment payload lacks the pull request number, comment id or author');
    const line = positive(comment.line) ?? null;
    return {
        run: true,
        request: {
            event: 'pull_request_review_comment',
            prNumber: number,
            requester,
            comment: { id, trigger: trigger.command, args: parsed.args },
            reviewComment: {
                id,
                threadId: positive(comment.in_reply_to_id) ?? id,
                path: request_text(comment.path),
                line,
                startLine: positive(comment.start_line) ?? null,
                side: request_text(comment.side) || null,
                commitId: request_text(comment.commit_id),
                // GitHub drops the position (and the line) of a comment whose line left the diff.
                outdated: comment.position === null || comment.position === undefined || line === null,
                diffHunk: request_text(comment.diff_hunk),
            },
        },
    };
}
function decidePullRequest(eventName, event) {
    const action = request_text(event.action);
    if (!PULL_REQUEST_ACTIONS.includes(action))
        return ignore(`pull request action '${action}' starts no run (${PULL_REQUEST_ACTIONS.join(', ')} do)`);
    const pr = record(event.pull_request);
    const number = positive(pr.number) ?? positive(event.number);
    // Whose code runs in the sandbox: the pull request's author.
    const requester = user(pr.user, pr.author_association);
    if (!number || !requester)
        return ignore('the pull request payload lacks its number or author');
    return { run: true, request: { event: eventName, prNumber: number, requester } };
}
function decideDispatch(event, trigger) {
    if (!trigger.prNumber)
        return ignore('workflow_dispatch needs the pr-number input');
    const requester = user(event.sender, undefined, true);
    if (!requester)
        return ignore('the workflow_dispatch payload lacks its sender');
    return { run: true, request: { event: 'workflow_dispatch', prNumber: trigger.prNumber, requester } };
}
function decidePush(event, ownCommitterEmail) {
    const ref = request_text(event.ref);
    if (!ref.startsWith('refs/heads/'))
        return ignore(`${ref || 'the pushed ref'} is not a branch`);
    if (event.deleted === true || /^0+$/.test(request_text(event.after)))
        return ignore(`${ref} was deleted`);
    // Our own commits pushed with a token that does start workflows (PAT, App) must not start us again.
    const committer = record(record(event.head_commit).committer);
    if (ownCommitterEmail && request_text(committer.email).toLowerCase() === ownCommitterEmail.toLowerCase())
        return ignore('the pushed commit was made by worktree-sandbox itself');
    const requester = user(event.sender, undefined, true);
    if (!requester)
        return ignore('the push payload lacks its sender');
    return {
        run: true,
        request: { event: 'push', pushedBranch: ref.slice('refs/heads/'.length), requester },
    };
}
/** One line for the debug log: who asked, about what. */
function describeRequest(request) {
    const { login, type, association } = request.requester;
    const parts = [`requester @${login} (${type}, association ${association ?? 'none in this event'})`];
    if (request.prNumber)
        parts.push(`pull request #${request.prNumber}`);
    if (request.issue)
        parts.push(`issue #${request.issue.number} by ${request.issue.how}`);
    if (request.pushedBranch)
        parts.push(`pushed branch ${request.pushedBranch}`);
    if (request.comment)
        parts.push(`comment ${request.comment.id} with ${request.comment.trigger}`);
    if (request.review)
        parts.push(`a review (${request.review.state || 'no state'})`);
    if (request.reviewComment)
        parts.push(`on a line of the diff${request.reviewComment.outdated ? ' (outdated)' : ''}, thread ${request.reviewComment.threadId}`);
    return parts.join(', ');
}


/***/ }),

/***/ 5435:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Yj: () => (/* binding */ checkPermission),
/* harmony export */   dF: () => (/* binding */ needsPermissionCheck),
/* harmony export */   hO: () => (/* binding */ botName),
/* harmony export */   lJ: () => (/* binding */ checkRequester)
/* harmony export */ });
/* unused harmony exports WRITE_ROLES, isBot */
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


/***/ }),

/***/ 1434:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   S8: () => (/* binding */ reportLeftNetworkContainers),
/* harmony export */   a9: () => (/* binding */ removeLeftNetworkContainers),
/* harmony export */   fg: () => (/* binding */ sidecarName)
/* harmony export */ });
/* unused harmony export leftByKilledRuns */
/* harmony import */ var _engine_labels_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(9667);

const SIDECAR_SUFFIX = '-net';
/** The sidecar of the command's container `command` (a command's name ends in hex, never in this). */
function sidecarName(command) {
    return `${command}${SIDECAR_SUFFIX}`;
}
/** States in which no process of the container runs, nor is about to. */
const ENDED = new Set(['exited', 'dead', 'stopped']);
/**
 * A command's container in these states with no running sidecar can never run: it joins the sidecar's
 * network, which the engine needs running to start it (a run killed between `create` and `start`).
 */
const NOT_RUNNING = new Set([...ENDED, 'created', 'configured']);
/**
 * The names to remove, in the order they go: the commands' containers first (Podman keeps a sidecar that
 * one still joins), then the sidecars. A sidecar that ended is one whose forwarder ended: its proxy was
 * gone, or it is being removed by its own run already.
 */
function leftByKilledRuns(containers) {
    const running = new Set(containers.filter((c) => !NOT_RUNNING.has(c.status)).map((c) => c.name));
    const isSidecar = (c) => c.name.endsWith(SIDECAR_SUFFIX);
    const commands = containers.filter((c) => !isSidecar(c) &&
        NOT_RUNNING.has(c.status) &&
        c.networkMode.startsWith('container:') &&
        !running.has(sidecarName(c.name)));
    const sidecars = containers.filter((c) => isSidecar(c) && ENDED.has(c.status));
    return [...commands, ...sidecars].map((c) => c.name);
}
/**
 * Removes what killed runs with an allow-list left (leftByKilledRuns); returns the names removed. Never
 * throws: a run or a reap goes on whatever the engine says here.
 */
async function removeLeftNetworkContainers(engine) {
    try {
        const removed = [];
        for (const name of leftByKilledRuns(await engine.listContainers(`${(0,_engine_labels_js__WEBPACK_IMPORTED_MODULE_0__/* .label */ .Pf)('role')}=command`)))
            if (await engine.removeContainer(name))
                removed.push(name);
        return removed;
    }
    catch {
        return [];
    }
}
/** removeLeftNetworkContainers, said in one line when it removed anything. */
async function reportLeftNetworkContainers(engine, ui) {
    const removed = await removeLeftNetworkContainers(engine);
    if (removed.length)
        ui.info(`Removed ${removed.length} container(s) that killed runs with a network allow-list left: ${removed.join(', ')}.`);
}


/***/ }),

/***/ 7936:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  Q6: () => (/* binding */ MODEL_APIS),
  SF: () => (/* binding */ budgetAnswer),
  mE: () => (/* binding */ classifyRequest),
  k: () => (/* binding */ modelApi)
});

// UNUSED EXPORTS: routedPath

;// CONCATENATED MODULE: ./src/network/apis/api.ts
// What the proxy knows of one model API, as one record (anthropic.ts, openai.ts, gemini.ts): how its
// requests are recognised, where its answers report their usage, what the proxy answers once the budget is
// spent, and the hosts of its preset. model-apis.ts lists the records and holds what they share; adding
// an API is one record and its spec. ADR 0009, docs/network.md.
/** Why a path spends tokens unread, from a list of [routed path, what it is]. */
function unreadableBy(paths, path) {
    const found = paths.find(([re]) => re.test(path));
    return found && `${found[1]} reports no usage the proxy can read`;
}

;// CONCATENATED MODULE: ./src/network/apis/anthropic.ts
// Anthropic's Messages API (`/v1/messages`, under any gateway prefix): usage at `message_start` and in each
// `message_delta` of a stream, cache reads and writes counted apart from `input_tokens`. Its batches and
// the legacy Text Completions API report no usage the proxy can read.

const UNREADABLE = [
    [/\/v1\/messages\/batches$/, 'a message batch'],
    [/\/v1\/complete$/, 'the legacy Text Completions API'],
];
const anthropic = {
    name: 'anthropic',
    presetHosts: ['api.anthropic.com'],
    free: [/\/v1\/messages\/count_tokens$/],
    readable: (path, origin) => (path.endsWith('/v1/messages') ? { path: origin } : undefined),
    unreadable: (path) => unreadableBy(UNREADABLE, path),
    namedBy: (header) => header === 'anthropic-version' || header === 'x-api-key',
    fields: ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'],
    usage(f) {
        if (!f.has('input_tokens', 'output_tokens'))
            return undefined;
        const cacheRead = f.get('cache_read_input_tokens');
        const cacheWrite = f.get('cache_creation_input_tokens');
        // Anthropic counts cached input apart from input_tokens; the others count it within.
        return {
            input: f.get('input_tokens') + cacheRead + cacheWrite,
            output: f.get('output_tokens'),
            cacheRead,
            cacheWrite,
        };
    },
    budgetError: (message) => ({ type: 'error', error: { type: 'rate_limit_error', message } }),
};

;// CONCATENATED MODULE: ./src/network/apis/gemini.ts
const GENERATE = /\/(?:tuned)?models\/([^/:]+):(stream)?generatecontent$/;
const ACTION = /\/(?:tuned)?models\/[^/:]+:([a-z]+)$/;
const RETRY_INFO = { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '86400s' };
/** The target with `alt` (or `$alt`) set to `sse` for a stream and `json` otherwise, unless it is one. */
function readableTarget(target, stream) {
    const q = target.indexOf('?');
    if (q === -1)
        return target;
    const params = new URLSearchParams(target.slice(q + 1));
    const alts = [...params.getAll('alt'), ...params.getAll('$alt')].map((a) => a.toLowerCase());
    if (alts.every((a) => a === 'json' || a === 'sse'))
        return target;
    params.delete('alt');
    params.delete('$alt');
    params.set('alt', stream ? 'sse' : 'json');
    return `${target.slice(0, q)}?${params.toString()}`;
}
const gemini = {
    name: 'gemini',
    presetHosts: ['generativelanguage.googleapis.com'],
    free: [/:counttokens$/],
    readable(path, origin) {
        const generate = GENERATE.exec(path);
        if (!generate)
            return undefined;
        return { pathModel: generate[1].slice(0, 200), path: readableTarget(origin, generate[2] !== undefined) };
    },
    unreadable(path) {
        const action = ACTION.exec(path);
        return action ? `Gemini's :${action[1]} reports no usage the proxy can read` : undefined;
    },
    namedBy: (header) => header === 'x-goog-api-key',
    fields: [
        'promptTokenCount',
        'candidatesTokenCount',
        'cachedContentTokenCount',
        'thoughtsTokenCount',
        'toolUsePromptTokenCount',
    ],
    usage(f) {
        if (!f.has('promptTokenCount', 'candidatesTokenCount'))
            return undefined;
        return {
            input: f.get('promptTokenCount') + f.get('toolUsePromptTokenCount'),
            output: f.get('candidatesTokenCount') + f.get('thoughtsTokenCount'),
            cacheRead: f.get('cachedContentTokenCount'),
            cacheWrite: 0,
        };
    },
    budgetError: (message) => ({
        error: { code: 429, message, status: 'RESOURCE_EXHAUSTED', details: [RETRY_INFO] },
    }),
};

;// CONCATENATED MODULE: ./src/network/apis/openai.ts
// OpenAI's Chat Completions, Completions, Responses and Embeddings (and Azure's and gateways' paths to
// them): usage as `prompt_tokens`/`completion_tokens` or `input_tokens`/`output_tokens`. A (chat)
// completions stream reports it only when asked (`stream_options.include_usage`), which the proxy adds.
// Assistants runs, images, batches and audio report no usage the proxy can read. Its error format is the
// one gateways speak, so a request no record recognises is refused in it.

const openai_UNREADABLE = [
    [/\/(?:threads\/runs|threads\/[^/]+\/runs)$/, 'an Assistants run'],
    [/\/images\/(?:generations|edits|variations)$/, 'the Images API'],
    [/\/batches$/, 'a batch'],
    [/\/audio\/(?:speech|transcriptions|translations)$/, 'the Audio API'],
];
const openai = {
    name: 'openai',
    presetHosts: ['api.openai.com'],
    free: [/\/responses\/input_tokens$/],
    readable(path, origin) {
        if (/\/(?:chat\/completions|completions)$/.test(path))
            return { path: origin, rewrite: 'include-usage' };
        return /\/(?:responses|embeddings)$/.test(path) ? { path: origin } : undefined;
    },
    unreadable: (path) => unreadableBy(openai_UNREADABLE, path),
    namedBy: () => false,
    fields: [
        'prompt_tokens',
        'completion_tokens',
        'prompt_tokens_details.cached_tokens',
        'input_tokens',
        'output_tokens',
        'input_tokens_details.cached_tokens',
    ],
    usage(f) {
        if (f.has('prompt_tokens'))
            return {
                input: f.get('prompt_tokens'),
                output: f.get('completion_tokens'),
                cacheRead: f.get('prompt_tokens_details.cached_tokens'),
                cacheWrite: 0,
            };
        if (f.has('input_tokens', 'output_tokens'))
            return {
                input: f.get('input_tokens'),
                output: f.get('output_tokens'),
                cacheRead: f.get('input_tokens_details.cached_tokens'),
                cacheWrite: 0,
            };
        return undefined;
    },
    budgetError: (message) => ({
        error: { message, type: 'insufficient_quota', param: null, code: 'insufficient_quota' },
    }),
};

;// CONCATENATED MODULE: ./src/network/model-apis.ts
// What a request to a model API is, for the budget: free (it spends no tokens), metered with a usage the
// meter can read (and, where the proxy must change the request to make it readable, how), or metered with
// a usage it cannot read. Known by the request's method and path, so that gateways (a prefix before the
// path) and test fakes on any host work; on a host the proxy meters (one with a credential), every other
// POST counts too, whatever its path, and its usage is unreadable. Each API is one record (apis/); this
// module lists them and asks them in turn. Pure. ADR 0009, docs/network.md.



/** The model APIs the proxy knows, in the order they are asked. */
const MODEL_APIS = [anthropic, openai, gemini];
/** Each API's record by its name. */
const modelApi = (name) => MODEL_APIS.find((api) => api.name === name) ?? openai;
/** A request target's path as a server routes it: dot segments resolved, escapes decoded, `//` and case folded. */
function routedPath(target) {
    let url;
    try {
        // Origin form is joined by hand: `//x/...` would otherwise be read as a host.
        url = new URL(target.startsWith('/') ? `http://path.invalid${target}` : target);
    }
    catch {
        return undefined;
    }
    let pathname = url.pathname;
    try {
        pathname = decodeURIComponent(pathname);
    }
    catch {
        // an escape that does not decode: matched as written
    }
    const path = pathname
        .replace(/\/{2,}/g, '/')
        .replace(/\/+$/, '')
        .toLowerCase();
    return { path, search: url.search };
}
/** The family a request of an unknown path is for, by its headers (else OpenAI's), for the refusal's format. */
function apiByHeaders(headers) {
    for (let i = 0; i < headers.length; i += 2) {
        const name = headers[i].toLowerCase();
        const api = MODEL_APIS.find((a) => a.namedBy(name));
        if (api)
            return api.name;
    }
    return openai.name;
}
/**
 * What a request is for the budget, or undefined when it is not a model API's: every method but POST, and
 * the records' free paths, are free; a POST a record reads is metered and read; one a record names
 * unreadable, and with `everyPost` (a host the proxy meters) every other POST, is metered but unreadable.
 * `target` is the request target as sent (origin form or absolute); `headers` raw, for the family.
 */
function classifyRequest(method, target, headers = [], everyPost = false) {
    const routed = routedPath(target);
    const post = (method ?? '').toUpperCase() === 'POST';
    if (!post)
        return everyPost ? { kind: 'free' } : undefined;
    const origin = target.startsWith('/') ? target : routed ? new URL(target).pathname + routed.search : target;
    const unreadable = (api, why) => ({
        kind: 'unreadable',
        api,
        path: origin,
        why,
    });
    if (!routed)
        return everyPost
            ? unreadable(apiByHeaders(headers), 'a request target the proxy cannot read')
            : undefined;
    const p = routed.path;
    if (MODEL_APIS.some((api) => api.free.some((re) => re.test(p))))
        return { kind: 'free' };
    for (const api of MODEL_APIS) {
        const call = api.readable(p, origin);
        if (call)
            return { kind: 'metered', api: api.name, ...call };
    }
    for (const api of MODEL_APIS) {
        const why = api.unreadable(p);
        if (why)
            return unreadable(api.name, why);
    }
    return everyPost
        ? unreadable(apiByHeaders(headers), 'a POST to a path whose usage the proxy cannot read')
        : undefined;
}
/**
 * The proxy's own answer to a metered request it refuses: status 429 with an error body in that API's own
 * format, so that its official SDK raises its usual rate-limit error. `x-should-retry: false` is the header
 * the Anthropic and OpenAI SDKs obey before their own retry rule for 429; Gemini CLI ignores it and obeys
 * Google's RetryInfo instead. The budget does not come back within the run: a retry would be refused again.
 */
function budgetAnswer(api, message) {
    return {
        statusCode: 429,
        headers: { 'content-type': 'application/json', 'x-should-retry': 'false', connection: 'close' },
        body: JSON.stringify(modelApi(api).budgetError(`worktree-sandbox: ${message}`)),
    };
}


/***/ }),

/***/ 3977:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  pn: () => (/* binding */ PolicyError),
  LD: () => (/* binding */ decide),
  S7: () => (/* binding */ isProxied),
  cS: () => (/* binding */ normalizeHost),
  gu: () => (/* binding */ parseCredentials),
  MO: () => (/* binding */ parseNetwork),
  yl: () => (/* binding */ proposeAllowList)
});

// UNUSED EXPORTS: DEFAULT_PORTS, isHostName, parsePattern

// EXTERNAL MODULE: external "node:net"
var external_node_net_ = __nccwpck_require__(7030);
// EXTERNAL MODULE: ./src/network/model-apis.ts + 4 modules
var model_apis = __nccwpck_require__(7936);
;// CONCATENATED MODULE: ./src/network/presets.ts
// The presets a `network` allow-list may name (`@github`...): the one list of their hosts. docs/network.md
// lists them for users; a preset's hosts take the default ports (443 and 80) unless written with one. Each
// model API's preset is in its record (apis/).

const PRESETS = {
    // git over HTTPS, the API, raw content, release and artifact downloads, the container registry.
    github: [
        'github.com',
        'api.github.com',
        'codeload.github.com',
        'raw.githubusercontent.com',
        'objects.githubusercontent.com',
        'release-assets.githubusercontent.com',
        'uploads.github.com',
        'ghcr.io',
        'pkg-containers.githubusercontent.com',
    ],
    npm: ['registry.npmjs.org', 'registry.yarnpkg.com'],
    pypi: ['pypi.org', 'files.pythonhosted.org'],
    debian: ['deb.debian.org', 'security.debian.org'],
    ...Object.fromEntries(model_apis/* MODEL_APIS */.Q6.map((api) => [api.name, api.presetHosts])),
};
const PRESET_NAMES = Object.keys(PRESETS);

;// CONCATENATED MODULE: ./src/network/policy.ts
// The network policy: what `network` and `credentials` say, parsed, and the one decision the proxy asks
// for every CONNECT and every request (`decide`). Pure: no sockets, no DNS.


function isProxied(policy) {
    return policy.mode === 'audit' || policy.mode === 'allow';
}
const DEFAULT_PORTS = [443, 80];
/** Why a value was refused: what the settings layer puts in its InputError. */
class PolicyError extends Error {
    input;
    value;
    accepted;
    constructor(input, value, accepted) {
        super(`${input}: ${JSON.stringify(value)}: ${accepted}`);
        this.input = input;
        this.value = value;
        this.accepted = accepted;
        this.name = 'PolicyError';
    }
}
// A DNS name: labels of letters, digits and hyphens (not at either end), the last one not all digits (so
// that `127.1` or `2130706433`, which resolvers read as addresses, are never taken for names).
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const NAME = new RegExp(`^(?:${LABEL}\\.)*${LABEL}$`);
function isHostName(host) {
    if (host.length > 253 || !NAME.test(host))
        return false;
    const last = host.slice(host.lastIndexOf('.') + 1);
    return !/^\d+$/.test(last) && !/^0x[0-9a-f]*$/.test(last);
}
/** Lower case, one trailing dot dropped, IPv6 brackets removed: how the proxy compares names. */
function normalizeHost(host) {
    let h = host.trim().toLowerCase();
    if (h.startsWith('[') && h.endsWith(']'))
        h = h.slice(1, -1);
    if (h.endsWith('.'))
        h = h.slice(0, -1);
    return h;
}
const PATTERN_HELP = 'bridge, none, audit, or an allow-list: host names (api.example.com), subdomains (*.example.com), each ' +
    `with an optional :port (default 443 and 80), and presets (${PRESET_NAMES.map((p) => `@${p}`).join(' ')}), ` +
    'one per line or separated by commas';
/** `network`: bridge, none, audit, or an allow-list (without credentials: see parseCredentials). */
function parseNetwork(raw) {
    const text = raw.trim();
    const lower = text.toLowerCase();
    if (lower === 'bridge' || lower === 'none')
        return { mode: lower };
    if (lower === 'audit')
        return { mode: 'audit', credentials: [] };
    const entries = text
        .split(/[\n,]/)
        .map((e) => e.trim())
        .filter(Boolean);
    if (entries.length === 0)
        throw new PolicyError('network', raw, PATTERN_HELP);
    const rules = [];
    for (const entry of entries)
        rules.push(...parseEntry(entry));
    return { mode: 'allow', rules: dedupe(rules), credentials: [] };
}
function parseEntry(entry) {
    if (['bridge', 'none', 'audit'].includes(entry.toLowerCase()))
        throw new PolicyError('network', entry, `${entry} stands alone; it cannot be part of an allow-list`);
    if (entry.startsWith('@')) {
        const name = entry.slice(1).toLowerCase();
        const hosts = PRESETS[name];
        if (!hosts)
            throw new PolicyError('network', entry, `an unknown preset; the presets are ${PRESET_NAMES.map((p) => `@${p}`).join(', ')}`);
        return hosts.map((host) => ({ host, wildcard: false, ports: DEFAULT_PORTS }));
    }
    return [parsePattern(entry)];
}
function parsePattern(entry) {
    const bad = (why) => new PolicyError('network', entry, why);
    if (/\s/.test(entry))
        throw bad(`one host pattern per entry (no spaces); ${PATTERN_HELP}`);
    if (/[/@]/.test(entry))
        throw bad(`a malformed pattern: a host name, not a URL or path; ${PATTERN_HELP}`);
    let hostPart = entry;
    let ports = DEFAULT_PORTS;
    const bracketed = /^\[([0-9a-fA-F:.]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) {
        hostPart = bracketed[1];
        if (bracketed[2] !== undefined)
            ports = [port(bracketed[2], entry)];
    }
    else if ((entry.match(/:/g) ?? []).length === 1) {
        const at = entry.lastIndexOf(':');
        hostPart = entry.slice(0, at);
        ports = [port(entry.slice(at + 1), entry)];
    }
    else if (entry.includes(':') && !external_node_net_.isIPv6(entry)) {
        throw bad(`a malformed pattern; ${PATTERN_HELP}`);
    }
    const host = normalizeHost(hostPart);
    if (host === '*' || host === '*.')
        throw bad('a bare * would allow every host: use `network: audit` to record what a run needs, or `bridge`');
    if (host.startsWith('*.')) {
        const suffix = host.slice(2);
        if (!isHostName(suffix) || !suffix.includes('.'))
            throw bad(`a malformed pattern: * stands only for the leftmost labels of a domain such as *.example.com`);
        return { host: suffix, wildcard: true, ports };
    }
    if (external_node_net_.isIP(host))
        return { host, wildcard: false, ports };
    // Docker's own network names: someone who writes them means the engine's network, which this is not.
    if (['host', 'default', 'private'].includes(host))
        throw bad(`${host} is one of Docker's network modes, which this action does not offer; ${PATTERN_HELP}`);
    if (!isHostName(host))
        throw bad(`a malformed pattern; ${PATTERN_HELP}`);
    return { host, wildcard: false, ports };
}
function port(text, entry) {
    const value = Number(text);
    if (!/^\d{1,5}$/.test(text) || value < 1 || value > 65535)
        throw new PolicyError('network', entry, 'a port from 1 to 65535 after the colon');
    return value;
}
function dedupe(rules) {
    const seen = new Map();
    for (const rule of rules) {
        const key = `${rule.wildcard ? '*.' : ''}${rule.host}`;
        const had = seen.get(key);
        seen.set(key, had ? { ...had, ports: [...new Set([...had.ports, ...rule.ports])] } : rule);
    }
    return [...seen.values()];
}
/**
 * `credentials`: one `<host> <Header-Name>: <value>` a line. Only with an allow-list or audit (the proxy is
 * what sets them); each host is allowed implicitly on the default ports. The header is set over TLS only,
 * unless the line names its scheme as `http://host[:port]` (then on plain HTTP only, port 80 by default).
 */
function parseCredentials(raw, policy) {
    const lines = raw
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean);
    if (lines.length === 0)
        return policy;
    // The value is a secret: errors show the host and header name at most, never the line.
    if (!isProxied(policy))
        throw new PolicyError('credentials', `(${lines.length} line(s))`, `credentials need an allow-list or audit in network (it is ${policy.mode}): the proxy is what sets them`);
    const credentials = [];
    const implicit = [];
    for (const [i, line] of lines.entries()) {
        const m = /^(\S+)\s+([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*)$/.exec(line);
        const first = parseCredentialHost(line.split(/\s/)[0]);
        const host = first?.host ?? '';
        if (!m || !m[3].trim()) {
            throw new PolicyError('credentials', `line ${i + 1}${host ? ` (${host})` : ''}`, 'one `<host> <Header-Name>: <value>` a line, such as api.anthropic.com x-api-key: <the key> (from a secret); ' +
                '`http://<host>[:port] <Header-Name>: <value>` sends it in clear, to an internal service');
        }
        if (!first)
            throw new PolicyError('credentials', `line ${i + 1}`, 'a host name, with an optional :port (no pattern, no address) and an optional http:// or https:// before it, first on each line');
        credentials.push({ host, scheme: first.scheme, ports: first.ports, header: m[2], value: m[3].trim() });
        implicit.push({ host, wildcard: false, ports: first.ports });
    }
    return policy.mode === 'allow'
        ? { ...policy, rules: dedupe([...policy.rules, ...implicit]), credentials }
        : { ...policy, credentials };
}
/**
 * A credential line's host: a name, with an optional port that is allowed, and an optional scheme. Without
 * one (or with `https://`) the header goes inside TLS, on the line's ports (443 and 80 unless it names one);
 * `http://` means plain HTTP, on port 80 unless the line names another.
 */
function parseCredentialHost(text) {
    const scheme = /^(https?):\/\//i.exec(text);
    const plain = scheme?.[1].toLowerCase() === 'http';
    try {
        const rule = parsePattern(scheme ? text.slice(scheme[0].length) : text);
        if (rule.wildcard || external_node_net_.isIP(rule.host))
            return undefined;
        const ports = plain && rule.ports === DEFAULT_PORTS ? [80] : rule.ports;
        return { ...rule, ports, scheme: plain ? 'http' : 'https' };
    }
    catch {
        return undefined;
    }
}
/** Whether the proxy lets a connection to `host:port` through (`host` as the client wrote it). */
function decide(policy, rawHost, port) {
    const host = normalizeHost(rawHost);
    const literal = external_node_net_.isIP(host) !== 0;
    if (!literal && !isHostName(host))
        return { allowed: false, reason: 'not a host name' };
    if (policy.mode === 'audit')
        return { allowed: true };
    const rule = policy.rules.find((r) => r.wildcard ? !literal && host.endsWith(`.${r.host}`) : r.host === host);
    if (!rule)
        return { allowed: false, reason: literal ? 'an IP address that is not listed' : 'not in the allow-list' };
    if (!rule.ports.includes(port))
        return { allowed: false, reason: `port ${port} is not allowed for this host` };
    return { allowed: true };
}
/** The `network:` value that would have let these hosts through (audit's proposal). */
function proposeAllowList(reached) {
    const byHost = new Map();
    for (const { host, port } of reached) {
        const h = normalizeHost(host);
        byHost.set(h, (byHost.get(h) ?? new Set()).add(port));
    }
    const presetFor = (host) => PRESET_NAMES.find((p) => PRESETS[p].includes(host));
    const presets = new Set();
    const entries = [];
    for (const [host, ports] of [...byHost].sort(([a], [b]) => a.localeCompare(b))) {
        const preset = presetFor(host);
        const defaultOnly = [...ports].every((p) => DEFAULT_PORTS.includes(p));
        if (preset && defaultOnly)
            presets.add(`@${preset}`);
        else if (defaultOnly)
            entries.push(host.includes(':') ? `[${host}]` : host);
        else
            for (const p of [...ports].sort((a, b) => a - b))
                entries.push(host.includes(':') ? `[${host}]:${p}` : `${host}:${p}`);
    }
    return [...[...presets].sort(), ...entries].join(', ');
}


/***/ }),

/***/ 7564:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   IB: () => (/* binding */ networkMarkdown),
/* harmony export */   KI: () => (/* binding */ shownHost),
/* harmony export */   Ow: () => (/* binding */ networkWarnings),
/* harmony export */   dk: () => (/* binding */ networkOutputs)
/* harmony export */ });
/* unused harmony exports NETWORK_SECTION_MAX_BYTES, NETWORK_OUTPUT_MAX_BYTES, auditProposal */
/* harmony import */ var _ui_markdown_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(8561);
/* harmony import */ var _ui_untrusted_markdown_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(8912);
/* harmony import */ var _network_policy_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(3977);
// What the proxy saw, for people and for later steps: a job-summary section, one warning per refused
// host, the `network-allowed` / `network-denied` outputs, and, in audit, the `network:` value that would
// have let the run through. Host names and reasons come from the sandbox (a CONNECT line or a Host header
// is the command's text): shown only through `shownHost` (untrustedInline), and within byte bounds, because
// a command that names hundreds of long hosts would otherwise fill the job summary (GitHub drops a step
// summary over 1 MiB whole, the run's own report with it) and the outputs.



const MAX_WARNINGS = 20;
/**
 * The characters, as written (entities included), of one host name or reason shown: a DNS name has at most
 * 253, and a few take 7 more each where autolinks are broken. The rest is counted.
 */
const SHOWN_MAX = 1_000;
/**
 * The network section's share of the job summary. About two hundred rows of the longest host names: more
 * than anyone reads, and small beside GitHub's 1 MiB for the whole summary, which the run's own report
 * (up to a 64 KiB diff stat) shares. Rows past it are counted, not shown.
 */
const NETWORK_SECTION_MAX_BYTES = 64 * 1024;
/** The audit's proposal is shown when it is at most this long; past it, the outputs have the hosts. */
const PROPOSAL_MAX_BYTES = 16 * 1024;
/**
 * Each network output's bound. GitHub holds an output to 1 MB and a job's outputs together to 1 MB: the
 * two network outputs and the diff stat fit in that. Rows past it are left out, and a warning counts them.
 */
const NETWORK_OUTPUT_MAX_BYTES = 400_000;
/** A host name as the command gave it: JSON-quoted, inert in Markdown and in a log line. */
function shownHost(host) {
    return (0,_ui_untrusted_markdown_js__WEBPACK_IMPORTED_MODULE_1__/* .untrustedInline */ .qm)(host, SHOWN_MAX, true);
}
/** Why the proxy refused: its own words, but they may name a host the command gave. */
const shownReason = (reason) => (0,_ui_untrusted_markdown_js__WEBPACK_IMPORTED_MODULE_1__/* .untrustedInline */ .qm)(reason, SHOWN_MAX);
function bytes(n) {
    if (n < 1024)
        return `${n} B`;
    if (n < 1024 ** 2)
        return `${(n / 1024).toFixed(1)} KiB`;
    if (n < 1024 ** 3)
        return `${(n / 1024 ** 2).toFixed(1)} MiB`;
    return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}
const OUTPUT_ROWS = { 'network-allowed': 'allowed', 'network-denied': 'denied' };
function networkOutputs(report) {
    return {
        'network-allowed': (0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_0__/* .jsonRows */ .GN)(report.allowed, NETWORK_OUTPUT_MAX_BYTES).json,
        'network-denied': (0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_0__/* .jsonRows */ .GN)(report.denied, NETWORK_OUTPUT_MAX_BYTES).json,
    };
}
function networkWarnings(report) {
    const lines = report.denied
        .slice(0, MAX_WARNINGS)
        .map((d) => `Network: the proxy refused ${shownHost(d.host)} port ${d.port} ${d.requests} time(s): ${shownReason(d.reason)}.`);
    if (report.denied.length > MAX_WARNINGS)
        lines.push(`Network: ${report.denied.length - MAX_WARNINGS} more refused host(s): see the job summary.`);
    if (report.uncounted > 0)
        lines.push(`Network: ${report.uncounted} connection(s) to further hosts were handled but not counted (the report keeps 500 rows).`);
    for (const [output, key] of Object.entries(OUTPUT_ROWS)) {
        const { omitted } = (0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_0__/* .jsonRows */ .GN)(report[key], NETWORK_OUTPUT_MAX_BYTES);
        if (omitted > 0)
            lines.push(`Network: the ${output} output lists the first rows only: ${omitted} more did not fit in its ${(0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_0__/* .thousands */ .oh)(NETWORK_OUTPUT_MAX_BYTES)} bytes.`);
    }
    return lines;
}
/** The `network:` value an audit proposes (empty when nothing was reached). */
function auditProposal(report) {
    return (0,_network_policy_js__WEBPACK_IMPORTED_MODULE_2__/* .proposeAllowList */ .yl)(report.allowed);
}
function proposalText(report) {
    const proposal = auditProposal(report);
    if (!proposal)
        return 'The run reached no host: `network: none` would have let it through.';
    // Its hosts are the command's (in audit, whatever it reached): in a block nothing in them can leave.
    const shown = (0,_ui_untrusted_markdown_js__WEBPACK_IMPORTED_MODULE_1__/* .untrustedBlock */ .C9)(`network: '${proposal}'`, PROPOSAL_MAX_BYTES, {
        lang: 'yaml',
        // Presets (`@npm`) to copy as they are; a host name holds no `@`.
        keepMentions: true,
    });
    const block = `The allow-list this run needed:\n\n${shown.markdown}`;
    // Whole or not at all: part of an allow-list is a wrong one.
    if (!shown.leftOut && (0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_0__/* .byteLength */ .dp)(block) <= PROPOSAL_MAX_BYTES)
        return block;
    const entries = proposal.split(', ').length;
    return `The allow-list this run needed has ${entries} entries, too long to show here: the \`network-allowed\` output lists the hosts.`;
}
/** Room kept for the sentence that counts the rows left out. */
const CUT_NOTE_BYTES = 400;
/** The job summary's network section: at most NETWORK_SECTION_MAX_BYTES, the rows left out counted. */
function networkMarkdown(report, policy) {
    const heading = `### Network (${policy.mode === 'audit' ? 'audit: every host let through' : 'allow-list'})`;
    const row = (r, mark, ...rest) => (0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_0__/* .tableRow */ .jD)([`${mark} ${shownHost(r.host)}`, String(r.port), String(r.requests), ...rest]);
    const rows = [
        ...report.allowed.map((r) => row(r, '✅', bytes(r.bytesSent), bytes(r.bytesReceived))),
        ...report.denied.map((r) => row(r, '⛔', `refused: ${shownReason(r.reason)}`, '')),
    ];
    const after = [];
    if (report.uncounted > 0)
        after.push(`${report.uncounted} connection(s) to further hosts were not counted.`);
    if (policy.mode === 'audit')
        after.push(proposalText(report));
    const header = (0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_0__/* .tableHead */ .PP)(['Host', 'Port', 'Requests', 'Sent', 'Received']);
    let room = NETWORK_SECTION_MAX_BYTES - (0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_0__/* .byteLength */ .dp)([heading, header, ...after].join('\n\n')) - CUT_NOTE_BYTES;
    const shown = [];
    for (const row of rows) {
        room -= (0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_0__/* .byteLength */ .dp)(row) + 1;
        if (room < 0)
            break;
        shown.push(row);
    }
    const parts = [heading];
    if (rows.length === 0)
        parts.push('The command reached no host and was refused none.');
    else
        parts.push([header, ...shown].join('\n'));
    if (shown.length < rows.length)
        parts.push(`${rows.length - shown.length} more host(s) not shown: this section keeps to ${NETWORK_SECTION_MAX_BYTES / 1024} KiB of the job summary. The \`network-allowed\` and \`network-denied\` outputs list them.`);
    return `\n${[...parts, ...after].join('\n\n')}\n`;
}


/***/ }),

/***/ 3936:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.r(__webpack_exports__);
/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   MAX_COMMENT: () => (/* binding */ MAX_COMMENT),
/* harmony export */   MAX_REPLY_IN_COMMENT: () => (/* binding */ MAX_REPLY_IN_COMMENT),
/* harmony export */   failed: () => (/* binding */ failed),
/* harmony export */   finished: () => (/* binding */ finished),
/* harmony export */   fitComment: () => (/* binding */ fitComment),
/* harmony export */   formatDuration: () => (/* binding */ formatDuration),
/* harmony export */   issuePullRequestBody: () => (/* binding */ issuePullRequestBody),
/* harmony export */   pullRequestLine: () => (/* binding */ pullRequestLine),
/* harmony export */   running: () => (/* binding */ running),
/* harmony export */   stopped: () => (/* binding */ stopped)
/* harmony export */ });
/* harmony import */ var _run_progress_data_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(5183);
/* harmony import */ var _ui_markdown_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(8561);
/* harmony import */ var _ui_untrusted_markdown_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(8912);
/* harmony import */ var _run_summary_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(6075);
/* harmony import */ var _usage_report_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(2335);
// The progress comment on the pull request (github/feedback.ts posts it: one comment, created when the run
// starts and rewritten in place when it ends, or by the post step when the job stopped first), and the body
// of the pull request an issue's run opens. Pure rendering of progress-data.ts's data.
// Everything the command produced (log, file names, commit subjects, patch, branch and push reason) is
// untrusted: it goes through the one renderer of such text (ui/untrusted-markdown.ts), where Markdown,
// HTML and @mentions do nothing, with known secrets redacted (the run's one redaction, run/redaction.ts:
// here before each part is cut, and again as the API sends it). The comment is made of whole sections, each
// bounded, and cut only between them, so that no cut leaves a block open.





/** GitHub refuses comments over 65,536 characters. */
const MAX_COMMENT = 65_000;
const MAX_LINE = 300;
const MAX_FILES = 100;
const MAX_INLINE_PATCH = 30_000;
// The characters each section of untrusted text takes at most, as written (entities included).
const MAX_FILES_CHARS = 8_000;
const MAX_TAIL_CHARS = 8_000;
const MAX_COMMITS_CHARS = 12_000;
const MAX_SUBJECT_CHARS = 2_000;
const MAX_FAILURE_CHARS = 4_000;
/** The most characters of the command's reply in the comment (the job summary has more). */
const MAX_REPLY_IN_COMMENT = 20_000;
function running(ctx) {
    return [
        _run_progress_data_js__WEBPACK_IMPORTED_MODULE_4__/* .PROGRESS_MARKER */ .b,
        `### ⏳ \`${ctx.what}\` is running`,
        '',
        `${requestLine(ctx)} The sandbox works on ${branchLine(ctx)}; this comment is updated when the run ends.`,
    ].join('\n');
}
function finished(ctx, run, clean) {
    const status = run.timedOut
        ? `⏱ \`${ctx.what}\` timed out`
        : run.oomKilled
            ? `💥 \`${ctx.what}\` ran out of memory`
            : run.exitCode !== 0
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
    const usage = run.modelUsage && (0,_usage_report_js__WEBPACK_IMPORTED_MODULE_3__/* .modelUsageTotals */ .s6)(run.modelUsage);
    if (usage)
        rows.push(['Model usage', usage]);
    if (run.patch)
        rows.push(['Patch', `saved as ${(0,_ui_untrusted_markdown_js__WEBPACK_IMPORTED_MODULE_1__/* .untrustedCode */ .C2)(run.patch.path)} (output \`patch-path\`)`]);
    const sections = [
        `${_run_progress_data_js__WEBPACK_IMPORTED_MODULE_4__/* .PROGRESS_MARKER */ .b}\n### ${status}`,
        `${requestLine(ctx)} Branch: ${branchLine(ctx)}.`,
        // Every cell is the action's own words, or untrusted text made inert (a `|` is `&#124;`).
        (0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_0__/* .table */ .tp)(['', ''], rows),
    ];
    const reply = (0,_run_summary_js__WEBPACK_IMPORTED_MODULE_2__/* .replyMarkdown */ .iz)(run.reply, {
        heading: "**The command's reply**",
        maxChars: MAX_REPLY_IN_COMMENT,
        redact: clean,
        elsewhere: 'the job summary and the output `reply` have the rest',
    });
    if (reply)
        sections.push(reply);
    if (run.commits.length)
        sections.push(commitsList(run, clean));
    if (run.filesChanged.length) {
        const shown = run.filesChanged.slice(0, MAX_FILES).map(clean);
        if (run.filesChangedCount > shown.length)
            shown.push(`… and ${run.filesChangedCount - shown.length} more`);
        const stat = run.diffStat ? clean(run.diffStat) : shown.join('\n');
        sections.push((0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_0__/* .details */ .zH)('Files changed', block(stat, MAX_FILES_CHARS)));
    }
    if (run.tail.length)
        sections.push((0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_0__/* .details */ .zH)('Last lines of the log', block(tailText(run.tail.map(clean)), MAX_TAIL_CHARS)));
    const body = fitComment(sections);
    // The pull request an issue's run opened comes last, past any cut.
    const opened = run.pullRequest ? `\n\n${pullRequestLine(run.pullRequest)}` : '';
    if (run.patch && run.patch.text.length <= MAX_INLINE_PATCH) {
        // Whole or not at all: half a patch is no patch to apply.
        const patch = (0,_ui_untrusted_markdown_js__WEBPACK_IMPORTED_MODULE_1__/* .untrustedBlock */ .C9)(clean(run.patch.text), 2 * MAX_INLINE_PATCH, { lang: 'diff' });
        const withPatch = `${body}\n\n${(0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_0__/* .details */ .zH)('Patch (apply with <code>git am</code>)', patch.markdown)}`;
        if (!patch.leftOut && withPatch.length <= MAX_COMMENT)
            return withPatch + opened;
    }
    return body + opened;
}
const pullRequestLine = (pr) => `Pull request: [#${pr.number}](${pr.htmlUrl}).`;
const CUT_NOTE = '… (cut: too long for a comment; the job summary and the workflow run have the rest)';
/** The sections joined, as many whole ones as fit in MAX_COMMENT; a note says when any were left out. */
function fitComment(sections, max = MAX_COMMENT) {
    const all = sections.join('\n\n');
    if (all.length <= max)
        return all;
    let kept = sections[0];
    for (const section of sections.slice(1)) {
        if (kept.length + section.length + CUT_NOTE.length + 4 > max)
            break;
        kept += `\n\n${section}`;
    }
    return `${kept}\n\n${CUT_NOTE}`;
}
/** The commits, newest last, each subject inert; as many as fit in MAX_COMMITS_CHARS, the rest counted. */
function commitsList(run, clean) {
    const lines = [run.pushed ? '**Commits pushed**' : '**Commits (not pushed)**', ''];
    if (run.moreCommits)
        lines.push(`- … older commits left out: only the newest ${run.commits.length} are listed`);
    let size = 0;
    for (const [i, c] of run.commits.entries()) {
        const sha = c.url ? `[\`${c.sha.slice(0, 7)}\`](${c.url})` : (0,_ui_untrusted_markdown_js__WEBPACK_IMPORTED_MODULE_1__/* .untrustedCode */ .C2)(c.sha.slice(0, 7));
        const line = `- ${sha} ${(0,_ui_untrusted_markdown_js__WEBPACK_IMPORTED_MODULE_1__/* .untrustedCode */ .C2)(clean(c.subject), MAX_SUBJECT_CHARS)}`;
        size += line.length + 1;
        if (size > MAX_COMMITS_CHARS) {
            lines.push(`- … ${run.commits.length - i} more not listed here`);
            break;
        }
        lines.push(line);
    }
    return lines.join('\n');
}
/** Untrusted text as a `<pre>` block of at most `max` characters, the cut said after it. */
const block = (text, max) => (0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_0__/* .blockWithCut */ .aB)(text, max, (n) => `… ${n} more characters not shown here.`);
/** The main step failed before the run could end (an error, not the command's exit code). */
function failed(ctx, message, clean) {
    return [
        _run_progress_data_js__WEBPACK_IMPORTED_MODULE_4__/* .PROGRESS_MARKER */ .b,
        `### ❌ \`${ctx.what}\` could not run`,
        '',
        `${requestLine(ctx)} Branch: ${branchLine(ctx)}.`,
        '',
        block(clean(message), MAX_FAILURE_CHARS),
    ].join('\n');
}
/** The job ended before the main step finished the comment: cancelled, timed out or killed. */
function stopped(ctx) {
    const what = ctx ? `\`${ctx.what}\`` : 'The run';
    return [
        _run_progress_data_js__WEBPACK_IMPORTED_MODULE_4__/* .PROGRESS_MARKER */ .b,
        `### 🛑 ${what} stopped before it finished`,
        '',
        ...(ctx ? [`${requestLine(ctx)} Branch: ${branchLine(ctx)}.`, ''] : []),
        'The job was cancelled, timed out or failed while the run was in progress: nothing more was pushed.' +
            (ctx ? ` The [workflow run](${ctx.runUrl}) has the details.` : ''),
    ].join('\n');
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
        return `${n} pushed to ${(0,_ui_untrusted_markdown_js__WEBPACK_IMPORTED_MODULE_1__/* .untrustedCode */ .C2)(run.pushedTo ?? '', 500)}`;
    // git's reason may quote a branch name the pull request chose.
    const reason = run.pushReason && (0,_ui_untrusted_markdown_js__WEBPACK_IMPORTED_MODULE_1__/* .untrustedInline */ .qm)(run.pushReason, 1_000);
    if (!run.commits.length)
        return reason ? `none (${reason})` : 'none';
    return reason ? `${n}, not pushed: ${reason}` : `${n}, not pushed`;
}
function requestLine(ctx) {
    return `Requested by @${ctx.requester} · [workflow run](${ctx.runUrl}).`;
}
function branchLine(ctx) {
    // The branch is the pull request's (a fork's may be named anything git allows, backticks included).
    const branch = (0,_ui_untrusted_markdown_js__WEBPACK_IMPORTED_MODULE_1__/* .untrustedCode */ .C2)(ctx.branch, 500);
    return ctx.headSha ? `${branch} at ${(0,_ui_untrusted_markdown_js__WEBPACK_IMPORTED_MODULE_1__/* .untrustedCode */ .C2)(ctx.headSha.slice(0, 12))}` : branch;
}
function tailText(lines) {
    // Cut between characters (a code point each), never inside a surrogate pair.
    return lines
        .map((l) => (l.length > MAX_LINE ? `${Array.from(l).slice(0, MAX_LINE).join('')}…` : l))
        .join('\n');
}
/** The body of the pull request an issue's run opens: it closes the issue and holds the reply, inert. */
function issuePullRequestBody(issueNumber, run, clean) {
    const reply = (0,_run_summary_js__WEBPACK_IMPORTED_MODULE_2__/* .replyMarkdown */ .iz)(run.reply, {
        heading: "**The command's reply**",
        maxChars: MAX_REPLY_IN_COMMENT,
        redact: clean,
    });
    return [`Closes #${issueNumber}`, ...(reply ? ['', reply] : [])].join('\n');
}


/***/ }),

/***/ 6075:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Iu: () => (/* binding */ outcomeMarkdown),
/* harmony export */   iz: () => (/* binding */ replyMarkdown)
/* harmony export */ });
/* unused harmony exports BOUNDARY_SENTENCE, outcomeRows, filesChanged, outcomeText */
/* harmony import */ var _sandbox_git_traps_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(622);
/* harmony import */ var _sandbox_layout_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(9601);
/* harmony import */ var _ui_markdown_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(8561);
/* harmony import */ var _ui_untrusted_markdown_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(8912);
/* harmony import */ var _run_reply_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(5489);
// The job summary and the plain-text report: one table a person reads at a glance; and the reply as a
// section of Markdown, for the summary and the progress comment alike.





/** Why nothing outside the sandbox can have changed, in one sentence. */
const BOUNDARY_SENTENCE = "Nothing outside the sandbox could change: the command's container could write only its sandbox (the parent's objects were mounted read-only, its .git hidden), and its work came back as a git bundle that git checked as it fetched it.";
// A branch (in a value, and in the key of the parent's branch), a sandbox's place, git's reason for a
// refused push: text that may come from the sandbox or a pull request, inert in the table (no cell end,
// no link, no HTML).
const esc = (text) => (0,_ui_untrusted_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .untrustedInline */ .qm)(text);
function outcomeRows(outcome) {
    const { sandbox, command, report, push } = outcome;
    const status = command.timedOut
        ? `⏱ timed out (exit ${command.exitCode})`
        : command.oomKilled
            ? `💥 out of memory (exit ${command.exitCode})`
            : command.exitCode === 0
                ? '✅ exit 0'
                : `❌ exit ${command.exitCode}`;
    const rows = [
        ['Command', status],
        ['Duration', `${(command.durationMs / 1000).toFixed(1)} s`],
        ['Sandbox', `${sandbox.name} (${sandbox.kind}, ${sandbox.reused ? 'reused' : 'new'})`],
        ['Branch', sandbox.branch || `detached at ${sandbox.startSha.slice(0, 12)}`],
        ['Where', (0,_sandbox_layout_js__WEBPACK_IMPORTED_MODULE_1__/* .whereIs */ .ie)(sandbox)],
        ['Files changed', filesChanged(report)],
        ['New commits', `${report.commitsAtLeast ? 'at least ' : ''}${report.commits}`],
        ['HEAD', report.headSha.slice(0, 12)],
    ];
    if (push)
        rows.push(['Pushed', push.pushed ? 'yes' : `no: ${push.reason}`]);
    if (report.branchUpdate)
        rows.push([`Parent's ${sandbox.branch}`, report.branchUpdate]);
    // Named by the helpers that removed them (git-traps.ts): a few entries, each path escaped and bounded.
    if (outcome.trapsCleared?.length)
        rows.push(['Removed from .git', (0,_sandbox_git_traps_js__WEBPACK_IMPORTED_MODULE_0__/* .describeCleared */ .e)(outcome.trapsCleared)]);
    rows.push(['Boundary', BOUNDARY_SENTENCE]);
    return rows;
}
/** The count of changed files; "at least" when counting stopped at its bounds (the reason follows). */
function filesChanged(report) {
    const n = (0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .thousands */ .oh)(report.changedCount);
    return report.countsStopped ? `at least ${n} (counting stopped: ${report.countsStopped})` : n;
}
// Size: the table is a few hundred bytes of the action's own text and names it chose; the diff stat is at
// most STAT_MAX_BYTES (report.ts: 64 KiB) and says what it left out, and at most STAT_MAX_CHARS once
// escaped; the reply at most REPLY_MAX_BYTES (reply.ts: 64 KiB), and twice that once escaped. The whole
// stays below the runner's 1 MiB limit for one step's summary (step-summary.ts holds it there).
function outcomeMarkdown(outcome) {
    const rows = outcomeRows(outcome).map(([k, v]) => [esc(k), esc(v)]);
    // The diff stat (file names from the sandbox) in a block nothing in it can leave, its cut said.
    const { diffStat } = outcome.report;
    const cut = (n) => `${n} more characters of the diff stat are not shown.`;
    const stat = diffStat ? `\n\n${(0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .details */ .zH)('Diff stat', (0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .blockWithCut */ .aB)(diffStat, STAT_MAX_CHARS, cut))}` : '';
    const reply = replyMarkdown(outcome.command.reply, {
        heading: "### The command's reply",
        maxChars: 2 * _run_reply_js__WEBPACK_IMPORTED_MODULE_4__/* .REPLY_MAX_BYTES */ .qV,
    });
    return `## worktree-sandbox: run\n\n${(0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .table */ .tp)(['', ''], rows)}${reply ? `\n\n${reply}` : ''}${stat}\n`;
}
/** The diff stat's characters as written (64 KiB of names, some written as entities). */
const STAT_MAX_CHARS = 200_000;
function outcomeText(outcome) {
    const rows = outcomeRows(outcome);
    const width = Math.max(...rows.map(([k]) => k.length));
    return [
        ...rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`),
        outcome.report.diffStat ? `\n${outcome.report.diffStat}` : '',
    ]
        .join('\n')
        .trimEnd();
}
/**
 * The reply as a section of Markdown (the job summary, the progress comment): a heading, the text in a
 * block nothing in it can escape (untrusted-markdown.ts), the images it would show as links, and what was
 * cut. Empty when there is no reply. `redact` takes known secrets out of the text first.
 */
function replyMarkdown(read, options) {
    const reply = read?.reply;
    if (!reply && read?.warning)
        return `${options.heading}\n\n${(0,_ui_untrusted_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inlineText */ .ln)(read.warning)}`;
    if (!reply || !reply.text.trim())
        return '';
    const text = options.redact ? options.redact(reply.text) : reply.text;
    const block = (0,_ui_untrusted_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .untrustedBlock */ .C9)(text, options.maxChars);
    const notes = [];
    if (reply.cut)
        notes.push((0,_run_reply_js__WEBPACK_IMPORTED_MODULE_4__/* .cutSentence */ .q9)(reply));
    if (block.leftOut > 0)
        notes.push(`${(0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .thousands */ .oh)(block.leftOut)} more characters are left out here${options.elsewhere ? `: ${options.elsewhere}` : ''}.`);
    const said = notes.length ? `\n\n_${notes.join(' ')}_` : '';
    const images = (0,_ui_untrusted_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .imageLinks */ .XS)(text);
    return `${options.heading}\n\n${block.markdown}${images ? `\n\n${images}` : ''}${said}`;
}


/***/ }),

/***/ 2700:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Sy: () => (/* binding */ writeSummary)
/* harmony export */ });
/* unused harmony exports SUMMARY_MAX_BYTES, cutAtLine, closeBlocks, fitSummary */
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(7710);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _ui_bounded_text_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(6323);
/* harmony import */ var _ui_markdown_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(8561);
// The one place the action writes the job summary (run, reap and the pull-request bot alike), under a hard
// cap: GitHub drops a step summary over 1 MiB whole, so one section grown too long (a report of many
// sandboxes, a command that named thousands of hosts) would take everything else with it, the run's own
// report included. Sections come in order of importance; the last ones are cut first, and what was cut
// is said. GitHub masks nothing in a summary: every section passes the run's one redaction
// (run/redaction.ts) before it is cut and written.




/**
 * The most bytes a step's summary file holds. The runner drops a file over 1 MiB (1,048,576 bytes), as it
 * is on disk: counted here the same way (the file's size, then UTF-8 bytes), with a round margin below the
 * limit for anything else that appends to the step's file.
 */
const SUMMARY_MAX_BYTES = 1_000_000;
/** Room kept for the sentence that says what was cut. */
const CUT_NOTE_BYTES = 300;
/** `text` cut to at most `maxBytes` of UTF-8, at the end of a line when there is one, never inside a character. */
function cutAtLine(text, maxBytes) {
    const buf = Buffer.from(text, 'utf8');
    if (buf.length <= maxBytes)
        return text;
    if (maxBytes <= 0)
        return '';
    // A newline byte never occurs inside a multi-byte character.
    const newline = buf.lastIndexOf(0x0a, maxBytes - 1);
    return newline >= 0 ? buf.subarray(0, newline + 1).toString('utf8') : (0,_ui_bounded_text_js__WEBPACK_IMPORTED_MODULE_3__/* .cutToBytes */ .z)(text, maxBytes).text;
}
const opened = (text, tag) => (text.match(new RegExp(`<${tag}[\\s>]`, 'g')) ?? []).length -
    (text.match(new RegExp(`</${tag}>`, 'g')) ?? []).length;
/**
 * A cut section's `<pre>` block and `<details>` closed, so that the sentence after it is not swallowed by
 * them. Only the action writes these tags: untrusted text in the summary has its `<` as an entity
 * (ui/untrusted-markdown.ts), so counting them is exact.
 */
function closeBlocks(text) {
    const pre = opened(text, 'pre') > 0 ? '\n</pre>' : '';
    return `${text}${pre}${'\n</details>'.repeat(Math.max(0, opened(text, 'details')))}`;
}
/**
 * What to append to a summary that holds `used` bytes already: `sections` whole while they fit under
 * `max`, the first that does not cut at a line and the rest dropped, with a sentence that says how much
 * was left out. Nothing at all when not even that sentence fits.
 */
function fitSummary(sections, used, max = SUMMARY_MAX_BYTES) {
    const total = sections.reduce((n, s) => n + (0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .byteLength */ .dp)(s), 0);
    if (used + total <= max)
        return sections.join('');
    const room = max - used - CUT_NOTE_BYTES;
    if (room < 0)
        return '';
    let kept = '';
    for (const section of sections) {
        const fits = cutAtLine(section, room - (0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .byteLength */ .dp)(kept));
        kept += fits;
        if (fits !== section)
            break;
    }
    const left = total - (0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .byteLength */ .dp)(kept);
    return `${closeBlocks(kept)}\n\n**${(0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .thousands */ .oh)(left)} bytes of this summary are not shown**: GitHub drops a step summary over 1 MiB whole.\n`;
}
/** Appends `sections` (the most important first), redacted, within SUMMARY_MAX_BYTES in all. */
async function writeSummary(redaction, ...sections) {
    const file = process.env.GITHUB_STEP_SUMMARY;
    const used = file
        ? await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.stat(file).then((s) => s.size, () => 0)
        : 0;
    const text = fitSummary(sections.map(redaction.redact), used);
    if (text)
        await _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .summary */ .z.addRaw(text).write();
}


/***/ }),

/***/ 2335:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   U5: () => (/* binding */ modelUsageMarkdown),
/* harmony export */   cx: () => (/* binding */ modelUsageOutput),
/* harmony export */   mW: () => (/* binding */ modelUsageWarnings),
/* harmony export */   s6: () => (/* binding */ modelUsageTotals)
/* harmony export */ });
/* unused harmony export budgetSentence */
/* harmony import */ var _ui_markdown_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(8561);
/* harmony import */ var _network_summary_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(7564);


const n = _ui_markdown_js__WEBPACK_IMPORTED_MODULE_0__/* .thousands */ .oh;
function modelUsageOutput(report) {
    return { 'model-usage': JSON.stringify(report) };
}
/** The budget's verdict in one sentence, or '' when no limit refused a request. */
function budgetSentence(report) {
    const { stopped, limits } = report;
    if (!stopped)
        return '';
    const limit = stopped.by === 'max-model-requests' ? limits.maxRequests : limits.maxTokens;
    return (`The model budget stopped the agent: \`${stopped.by}\` ${n(limit)} was reached at ${n(stopped.requests)} ` +
        `request(s) and ${n(stopped.tokens)} token(s); the proxy answered ${n(report.refused)} further ` +
        `request(s) itself (429).`);
}
function modelUsageWarnings(report) {
    const lines = [];
    const sentence = budgetSentence(report);
    if (sentence)
        lines.push(sentence.replace(/`/g, ''));
    if (report.refusedUnreadable > 0)
        lines.push(`Model usage: ${report.refusedUnreadable} request(s) were refused because their usage could not be read (see the job summary).`);
    if (report.totals.unmetered > 0)
        lines.push(`Model usage: ${report.totals.unmetered} answer(s) gave no usage the proxy could read (see the job summary).`);
    return lines;
}
function modelUsageMarkdown(report) {
    const { rows, totals, limits } = report;
    if (totals.requests === 0 && report.refused === 0 && !limits.maxRequests && !limits.maxTokens)
        return '';
    const parts = ['### Model usage'];
    if (rows.length === 0)
        parts.push('The command made no request to a model API the proxy meters.');
    else {
        const cache = rows.some((r) => r.cacheReadTokens > 0 || r.cacheWriteTokens > 0);
        const head = ['Host', 'Model', 'Requests', 'Input tokens', 'Output tokens'];
        if (cache)
            head.push('Cache read', 'Cache write');
        const cells = rows.map((r) => [
            `${(0,_network_summary_js__WEBPACK_IMPORTED_MODULE_1__/* .shownHost */ .KI)(r.host)}:${r.port}`,
            r.model ? (0,_network_summary_js__WEBPACK_IMPORTED_MODULE_1__/* .shownHost */ .KI)(r.model) : '(none named)',
            n(r.requests),
            n(r.inputTokens),
            n(r.outputTokens),
            ...(cache ? [n(r.cacheReadTokens), n(r.cacheWriteTokens)] : []),
        ]);
        cells.push(['**Total**', '', n(totals.requests), n(totals.inputTokens), n(totals.outputTokens)]);
        if (cache)
            cells[cells.length - 1].push('', '');
        parts.push((0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_0__/* .table */ .tp)(head, cells));
    }
    if (totals.unmetered > 0)
        parts.push(`${n(totals.unmetered)} answer(s) gave no usage the proxy could read (none in the answer, such as a ` +
            'batch or a stream cut short, or an answer or event over 16 MiB): their tokens are not counted.');
    if (report.refusedUnreadable > 0)
        parts.push(`${n(report.refusedUnreadable)} request(s) were refused because their usage could not be read ` +
            '(under `max-model-tokens`, a request whose tokens the proxy cannot count is not sent).');
    if (report.uncounted > 0)
        parts.push(`${n(report.uncounted)} answer(s) for further models were counted in the total only.`);
    const set = [
        `\`max-model-requests\` ${n(limits.maxRequests)} requests`,
        `\`max-model-tokens\` ${n(limits.maxTokens)} tokens`,
    ].filter((_, i) => (i === 0 ? limits.maxRequests : limits.maxTokens) > 0);
    const verdict = budgetSentence(report) || (report.refused > 0 ? '' : 'It refused no request.');
    if (set.length)
        parts.push(`Budget: ${set.join(', ')}. ${verdict}`);
    return `\n${parts.join('\n\n')}\n`;
}
/** The model usage row: requests, tokens, the budget's verdict; '' when no model API was metered. */
function modelUsageTotals(report) {
    const { totals } = report;
    if (totals.requests === 0 && report.refused === 0)
        return '';
    const parts = [
        `${n(totals.requests)} request(s)`,
        `${n(totals.inputTokens)} input and ${n(totals.outputTokens)} output tokens`,
    ];
    if (report.stopped)
        parts.push(`stopped by \`${report.stopped.by}\` (${n(report.refused)} refused)`);
    return parts.join(', ');
}


/***/ }),

/***/ 4111:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   im: () => (/* binding */ captureSandbox),
/* harmony export */   ro: () => (/* binding */ ImportLimitError)
/* harmony export */ });
/* unused harmony export CAPTURE_SCRIPT */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(8161);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__nccwpck_require__.n(node_os__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_3__);
/* harmony import */ var _sandbox_bookkeeping_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(9503);
/* harmony import */ var _sandbox_git_traps_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(622);
/* harmony import */ var _sandbox_layout_js__WEBPACK_IMPORTED_MODULE_6__ = __nccwpck_require__(9601);
/* harmony import */ var _ui_sandbox_text_js__WEBPACK_IMPORTED_MODULE_7__ = __nccwpck_require__(9633);








/**
 * $1 work tree, $2 branch (empty: transient), $3 commit leftovers (1/0), $4 message, $5 this run's token
 * for framed lines on stderr, $6 commits the parent has (hex, space separated). Positional only.
 */
const CAPTURE_SCRIPT = `set -eu
${_sandbox_git_traps_js__WEBPACK_IMPORTED_MODULE_5__/* .TRAP_GUARD */ .YV}
wt="$1"; branch="$2"; commit="$3"; message="$4"; token="$5"; exclude="$6"
cd -- "$wt"
# What git opens to write (and then delete) the snapshot's ref is cleared of traps first (git-traps.ts).
clear_git_traps "$token" ${_sandbox_bookkeeping_js__WEBPACK_IMPORTED_MODULE_4__/* .SNAPSHOT_REF */ .fW} ${_sandbox_bookkeeping_js__WEBPACK_IMPORTED_MODULE_4__/* .SNAPSHOT_REF */ .fW}.lock logs/${_sandbox_bookkeeping_js__WEBPACK_IMPORTED_MODULE_4__/* .SNAPSHOT_REF */ .fW} packed-refs packed-refs.lock
git rev-parse --verify --quiet HEAD >/dev/null || { echo "worktree-sandbox: the sandbox has no commit at HEAD" >&2; exit 3; }
# A run is activity, whether or not it changed anything: the reaper reads the work tree folder's time.
touch -c -- "$wt" 
head_ref=$(git symbolic-ref --quiet HEAD || true)
# Everything is staged into an index of our own, never through the sandbox's: a lock a killed command
# left there (index.lock, HEAD.lock) stops neither the snapshot nor the real commit.
index=$(mktemp /tmp/worktree-sandbox-index.XXXXXX)
real_index=$(git rev-parse --git-path index)
if [ -f "$real_index" ]; then cp -- "$real_index" "$index"; else rm -f -- "$index"; fi
GIT_INDEX_FILE="$index" git add -A >&2
tree=$(GIT_INDEX_FILE="$index" git write-tree)
committed=0
stale=0
if [ "$commit" = 1 ] && [ -n "$branch" ] && [ "$head_ref" = "refs/heads/$branch" ] &&
   [ "$tree" != "$(git rev-parse --verify HEAD^{tree})" ]; then
  # So is what moving the branch opens: its lock and log, HEAD's (the branch is HEAD's), the index's copy.
  clear_git_traps "$token" HEAD.lock logs/HEAD "refs/heads/$branch.lock" "logs/refs/heads/$branch" index.worktree-sandbox
  old=$(git rev-parse --verify HEAD)
  # Moving the branch locks it and HEAD (its reflog). No git can run in the sandbox while the helper does:
  # a lock there now was left by a killed git, and would stop the commit the run was asked for.
  for lock in "$(git rev-parse --git-path HEAD.lock)" "$(git rev-parse --git-path "refs/heads/$branch.lock")"; do
    if [ -e "$lock" ]; then rm -f -- "$lock"; stale=$((stale + 1)); fi
  done
  new=$(git commit-tree "$tree" -p "$old" -m "$message")
  git update-ref -m "worktree-sandbox: commit of uncommitted work" "refs/heads/$branch" "$new" "$old"
  # The work tree is the new commit now: so is the sandbox's index (replaced in one step; a stale
  # index.lock is left for the command's git).
  cp -- "$index" "$real_index.worktree-sandbox" && mv -f -- "$real_index.worktree-sandbox" "$real_index"
  committed=1
fi
rm -f -- "$index"
snapshot=$(git commit-tree "$tree" -p HEAD -m 'worktree-sandbox: snapshot of uncommitted work')
git update-ref ${_sandbox_bookkeeping_js__WEBPACK_IMPORTED_MODULE_4__/* .SNAPSHOT_REF */ .fW} "$snapshot"
printf '%s head-ref %s\\n' "$token" "$head_ref" >&2
printf '%s head %s\\n' "$token" "$(git rev-parse --verify HEAD)" >&2
if [ -n "$branch" ]; then printf '%s branch %s\\n' "$token" "$(git rev-parse --verify --quiet "refs/heads/$branch" || true)" >&2; fi
printf '%s committed %s\\n' "$token" "$committed" >&2
printf '%s stale-locks %s\\n' "$token" "$stale" >&2
set -- HEAD ${_sandbox_bookkeeping_js__WEBPACK_IMPORTED_MODULE_4__/* .SNAPSHOT_REF */ .fW}
if [ -n "$branch" ] && git show-ref --verify --quiet "refs/heads/$branch"; then set -- "$@" "refs/heads/$branch"; fi
for sha in $exclude; do set -- "$@" "^$sha"; done
status=0
git bundle create --quiet - "$@" || status=$?
git update-ref -d ${_sandbox_bookkeeping_js__WEBPACK_IMPORTED_MODULE_4__/* .SNAPSHOT_REF */ .fW} || true
exit $status
`;
class ImportLimitError extends Error {
    constructor(message) {
        super(message);
        this.name = 'ImportLimitError';
    }
}
async function captureSandbox(engine, sandbox, options) {
    for (const sha of options.exclude)
        if (!/^[0-9a-f]{40,64}$/.test(sha))
            throw new Error(`Not a commit id: ${sha}`);
    const token = (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomBytes)(16).toString('hex');
    const traps = new _sandbox_git_traps_js__WEBPACK_IMPORTED_MODULE_5__/* .ClearedTraps */ .XL(options.work === 'capture' ? 'capture' : 'archive', token);
    const name = `worktree-sandbox-capture-${(0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomBytes)(4).toString('hex')}`;
    const dir = await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.mkdtemp(node_path__WEBPACK_IMPORTED_MODULE_3__.join(process.env.RUNNER_TEMP || node_os__WEBPACK_IMPORTED_MODULE_2__.tmpdir(), 'worktree-sandbox-import-'));
    const bundle = node_path__WEBPACK_IMPORTED_MODULE_3__.join(dir, 'sandbox.bundle');
    const framed = new Map();
    const { author, committer } = options;
    const spec = (0,_sandbox_layout_js__WEBPACK_IMPORTED_MODULE_6__/* .sandboxHelper */ .Ap)(sandbox, options.image, {
        name: 'capture',
        text: CAPTURE_SCRIPT,
        args: [
            sandbox.worktreePath,
            sandbox.branch,
            options.commit ? '1' : '0',
            options.commit?.message ?? '',
            token,
            options.exclude.join(' '),
        ],
    }, {
        name,
        workdir: sandbox.worktreePath,
        env: {
            GIT_AUTHOR_NAME: author.name,
            GIT_AUTHOR_EMAIL: author.email,
            GIT_COMMITTER_NAME: committer.name,
            GIT_COMMITTER_EMAIL: committer.email,
        },
    });
    try {
        const result = await engine.runHelper(spec, {
            work: options.work,
            where: `${sandbox.name} (${(0,_sandbox_layout_js__WEBPACK_IMPORTED_MODULE_6__/* .whereIs */ .ie)(sandbox)})`,
            consequence: options.work === 'capture'
                ? 'nothing was imported; the sandbox is kept as it is'
                : 'nothing was archived; the sandbox is kept as it is',
        }, {
            stdoutFile: { path: bundle, maxBytes: options.maxBytes },
            onLine: (line, stream) => {
                if (stream !== 'stderr' || !line.startsWith(`${token} `) || traps.take(line))
                    return;
                const [key, ...rest] = line.slice(token.length + 1).split(' ');
                if (!framed.has(key))
                    framed.set(key, rest.join(' '));
            },
        });
        if (result.overLimit) {
            // runHelper removed the container.
            throw new ImportLimitError(`The sandbox's changes are larger than max-import-size (${options.maxBytes} bytes): nothing was imported into the parent repository, and the sandbox ${sandbox.name} is kept as it is.`);
        }
        if (result.exitCode !== 0) {
            // The helper's last words: git's, and whatever the sandbox's own filters or hooks printed before
            // them (on the same line when they printed no newline), so escaped and bounded.
            const said = (0,_ui_sandbox_text_js__WEBPACK_IMPORTED_MODULE_7__/* .sandboxText */ .dX)(result.stderrTail
                .filter((l) => !l.startsWith(token))
                .slice(-3)
                .join(' ')
                .trim());
            throw new Error(await captureFailure(sandbox, result.exitCode, said));
        }
        return {
            bundle,
            dir,
            headRef: framed.get('head-ref') ?? '',
            headSha: framed.get('head') ?? '',
            branchSha: framed.get('branch') ?? '',
            exclude: options.exclude,
            committed: framed.get('committed') === '1',
            staleLocks: Number(framed.get('stale-locks')) || 0,
            cleared: traps.list,
            bytes: result.stdoutBytes,
        };
    }
    catch (error) {
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.rm(dir, { recursive: true, force: true });
        throw error;
    }
}
/**
 * git only says it could not write an object: the snapshot of uncommitted work is written in the sandbox
 * itself, so say where (its folder or volume), how much room is left, and that nothing was lost.
 */
async function captureFailure(sandbox, exitCode, said) {
    const failed = `Could not capture the changes of ${sandbox.name} (exit ${exitCode}): ${said}`;
    if (!/no space left|disk quota exceeded|unable to write|short write|write error/i.test(said))
        return failed;
    const stats = sandbox.isolation === 'disk' ? await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.statfs(sandbox.hostPath).catch(() => undefined) : undefined;
    const free = stats ? `, ${Math.floor((stats.bavail * stats.bsize) / 1024)} KiB free` : '';
    return `Capturing the changes of ${sandbox.name} needs room in ${(0,_sandbox_layout_js__WEBPACK_IMPORTED_MODULE_6__/* .whereIs */ .ie)(sandbox)} for a snapshot of its uncommitted work, and writing it failed (No space left on device?${free}): nothing was imported; the sandbox is kept as it is, its commits included. Free some room there and run again. (git, exit ${exitCode}: ${said})`;
}


/***/ }),

/***/ 5136:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   vl: () => (/* binding */ changedPaths)
/* harmony export */ });
/* unused harmony exports REPORT_PATH_BOUNDS, parseTree */
/* harmony import */ var _engine_git_commands_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(8657);
// Which files differ between two commits, in bounded memory and time whatever the commits hold.
//
// `git diff` queues every changed path before it prints the first one: a commit whose three small trees
// name 150,000 paths of 600 bytes (a pack of a few kilobytes) makes it hold hundreds of megabytes, more
// with `--stat`, before anything can be cut. So the trees are walked here instead, through
// `git cat-file` (which holds one object at a time):
//  - the first `maxPaths` changed paths are listed, in git's tree order;
//  - all of them are counted, each pair of trees once (a tree named 1,600 times is counted once and
//    multiplied), so that a tree bomb costs its distinct trees, not its paths;
//  - at most `maxTreeBytes` of tree objects are read, no tree larger than `maxTreeBytes / 4` is read at all,
//    and the walk stops after `timeoutMs`: past any of these the count is a lower bound (`exact: false`).
// Memory: the trees read (at most `maxTreeBytes`, ~3x that once parsed), the listed paths, and one number
// per pair of trees counted.

/** What the report keeps of a run's paths: 1,000 names, 64 MiB of trees, a minute. */
const REPORT_PATH_BOUNDS = {
    maxPaths: 1_000,
    maxTreeBytes: 64 * 1024 * 1024,
    timeoutMs: 60_000,
};
class Stop extends Error {
}
/** Reads and parses trees within the byte budget and the time limit. */
class Trees {
    reader;
    bounds;
    deadline;
    bytesRead = 0;
    constructor(reader, bounds, deadline) {
        this.reader = reader;
        this.bounds = bounds;
        this.deadline = deadline;
    }
    async entries(oid) {
        if (!oid)
            return [];
        if (!_engine_git_commands_js__WEBPACK_IMPORTED_MODULE_0__/* .OID */ .V.test(oid))
            throw new Error(`Not an object id: ${JSON.stringify(oid)}`);
        if (Date.now() > this.deadline)
            throw new Stop(`it took longer than ${this.bounds.timeoutMs / 1000} s`);
        const info = await this.reader.info(oid);
        if (!info || info.type !== 'tree')
            throw new Error(`${oid} is not a tree`);
        if (info.size > this.bounds.maxTreeBytes / 4)
            throw new Stop(`a tree of ${info.size} bytes is larger than ${this.bounds.maxTreeBytes / 4} bytes`);
        if (this.bytesRead + info.size > this.bounds.maxTreeBytes)
            throw new Stop(`the trees are larger than ${this.bounds.maxTreeBytes} bytes`);
        this.bytesRead += info.size;
        const object = await this.reader.read(oid);
        if (!object || object.type !== 'tree')
            throw new Error(`${oid} is not a tree`);
        return parseTree(object.body, oid.length / 2);
    }
}
/** A tree object's entries: `<mode> <name>\0<binary id>`, in git's order. */
function parseTree(body, idBytes) {
    const entries = [];
    let at = 0;
    while (at < body.length) {
        const space = body.indexOf(32, at);
        const nul = body.indexOf(0, space + 1);
        if (space < 0 || nul < 0 || nul + 1 + idBytes > body.length)
            throw new Error('a malformed tree');
        const mode = body.toString('latin1', at, space);
        entries.push({
            mode,
            name: body.toString('utf8', space + 1, nul),
            oid: body.toString('hex', nul + 1, nul + 1 + idBytes),
            tree: mode === '40000',
        });
        at = nul + 1 + idBytes;
    }
    return entries;
}
/** git's order of a tree's entries: by name's bytes, a tree's name as if it ended in `/`. */
const orderKey = (e) => Buffer.from(e.tree ? `${e.name}/` : e.name);
/** The entries that differ between two trees, paired by name, in git's order. */
function pair(a, b) {
    const byName = new Map();
    for (const e of a)
        byName.set(e.name, { a: e });
    for (const e of b) {
        const side = byName.get(e.name);
        if (side)
            side.b = e;
        else
            byName.set(e.name, { b: e });
    }
    return [...byName.values()]
        .filter((s) => !s.a || !s.b || s.a.oid !== s.b.oid || s.a.mode !== s.b.mode)
        .sort((x, y) => Buffer.compare(orderKey((x.a ?? x.b)), orderKey((y.a ?? y.b))));
}
/** The changed paths between two trees (undefined: the empty tree), listed and counted within `bounds`. */
async function changedPaths(git, cwd, from, to, bounds = REPORT_PATH_BOUNDS) {
    const reader = await git.objectReader(cwd, bounds.timeoutMs + 10_000);
    try {
        const trees = new Trees(reader, bounds, Date.now() + bounds.timeoutMs);
        // One question at a time: the reader's answers come back in order on one pipe.
        const fromTree = await treeOf(reader, from);
        const toTree = await treeOf(reader, to);
        const paths = [];
        let listedAll = true;
        try {
            listedAll = await list(trees, fromTree, toTree, '', paths, bounds.maxPaths);
        }
        catch (error) {
            if (!(error instanceof Stop))
                throw error;
            return { paths, count: paths.length, exact: false, stopped: error.message };
        }
        if (listedAll)
            return { paths, count: paths.length, exact: true };
        const counter = new Counter(trees);
        try {
            return { paths, count: await counter.count(fromTree, toTree), exact: true };
        }
        catch (error) {
            if (!(error instanceof Stop))
                throw error;
            return { paths, count: Math.max(paths.length, counter.partial), exact: false, stopped: error.message };
        }
    }
    finally {
        await reader.close();
    }
}
/** The tree of a commit (or a tree), by id. */
async function treeOf(reader, oid) {
    if (!oid)
        return undefined;
    if (!_engine_git_commands_js__WEBPACK_IMPORTED_MODULE_0__/* .OID */ .V.test(oid))
        throw new Error(`Not an object id: ${JSON.stringify(oid)}`);
    const info = await reader.info(oid);
    if (info?.type === 'tree')
        return oid;
    if (info?.type !== 'commit' || info.size > 1024 * 1024)
        throw new Error(`${oid} is not a commit`);
    const commit = await reader.read(oid);
    const tree = /^tree ([0-9a-f]+)$/m.exec(commit?.body.toString('latin1', 0, 200) ?? '')?.[1];
    if (!tree)
        throw new Error(`${oid} names no tree`);
    return tree;
}
/** Lists changed paths in order until `max` are listed; true when there were no more. */
async function list(trees, a, b, prefix, out, max) {
    const ea = await trees.entries(a);
    const eb = await trees.entries(b);
    for (const { a: x, b: y } of pair(ea, eb)) {
        const name = prefix + (x ?? y).name;
        // A file on one side: one path (a tree on the other side adds its own below).
        if ((x && !x.tree) || (y && !y.tree)) {
            if (out.length >= max)
                return false;
            out.push(name);
        }
        const subA = x?.tree ? x.oid : undefined;
        const subB = y?.tree ? y.oid : undefined;
        if ((subA || subB) && !(await list(trees, subA, subB, `${name}/`, out, max)))
            return false;
    }
    return true;
}
/** Counts changed paths, each pair of trees once. */
class Counter {
    trees;
    known = new Map();
    /** What was counted before the walk stopped (a lower bound). */
    partial = 0;
    constructor(trees) {
        this.trees = trees;
    }
    async count(a, b) {
        const key = `${a ?? ''}:${b ?? ''}`;
        const known = this.known.get(key);
        if (known !== undefined) {
            this.partial += known;
            return known;
        }
        const ea = await this.trees.entries(a);
        const eb = await this.trees.entries(b);
        let n = 0;
        for (const { a: x, b: y } of pair(ea, eb)) {
            if ((x && !x.tree) || (y && !y.tree)) {
                n += 1;
                this.partial += 1;
            }
            const subA = x?.tree ? x.oid : undefined;
            const subB = y?.tree ? y.oid : undefined;
            if (subA || subB)
                n += await this.count(subA, subB);
        }
        this.known.set(key, n);
        return n;
    }
}


/***/ }),

/***/ 527:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  K: () => (/* binding */ collectChanges)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __nccwpck_require__(1455);
// EXTERNAL MODULE: ./src/run/capture.ts
var capture = __nccwpck_require__(4111);
// EXTERNAL MODULE: ./src/engine/git-commands.ts
var git_commands = __nccwpck_require__(8657);
// EXTERNAL MODULE: ./src/sandbox/bookkeeping.ts
var bookkeeping = __nccwpck_require__(9503);
// EXTERNAL MODULE: ./src/sandbox/lock.ts
var lock = __nccwpck_require__(6856);
;// CONCATENATED MODULE: ./src/run/import.ts
// The host's side of the crossing: a bundle is data. Its header is read here, bounded, and must name only
// the refs the capture script writes; git then fetches it with `transfer.fsckObjects` into the sandbox's
// private store (host-made and host-configured), and from there only the sandbox's committed history
// moves into the parent, under the parent's bookkeeping ref. The snapshot of uncommitted work stays in
// the private store: every sandbox borrows the parent's store, so nothing uncommitted may go there.
// The parent's branch moves by fast-forward only.
// ADR 0003, ADR 0004 (docs/adr/).






const HEADER_MAX = 64 * 1024;
const MAX_BUNDLE_REFS = 8;
const FSCK = [
    ['transfer.fsckObjects', 'true'],
    ['fetch.fsckObjects', 'true'],
];
/** Reads a bundle's header (v2 or v3) as data, at most 64 KiB of it, and nothing else of the file. */
async function readBundleHeader(file) {
    const handle = await promises_.open(file, 'r');
    let text;
    try {
        const buffer = Buffer.alloc(HEADER_MAX);
        const { bytesRead } = await handle.read(buffer, 0, HEADER_MAX, 0);
        const end = buffer.subarray(0, bytesRead).indexOf('\n\n');
        if (end < 0)
            throw new Error('The bundle from the sandbox has no header end within 64 KiB: refused.');
        text = buffer.subarray(0, end).toString('latin1');
    }
    finally {
        await handle.close();
    }
    const [signature, ...lines] = text.split('\n');
    if (signature !== '# v2 git bundle' && signature !== '# v3 git bundle')
        throw new Error('What came back from the sandbox is not a git bundle: refused.');
    const header = { refs: [], prerequisites: [] };
    for (const line of lines) {
        if (line.startsWith('@'))
            continue; // v3 capabilities
        if (line.startsWith('-')) {
            header.prerequisites.push(line.slice(1).split(' ')[0]);
            continue;
        }
        const space = line.indexOf(' ');
        const sha = line.slice(0, space);
        if (!git_commands/* OID */.V.test(sha))
            throw new Error('The bundle from the sandbox has a malformed header: refused.');
        header.refs.push({ sha, name: line.slice(space + 1) });
    }
    return header;
}
/** The refs a bundle of this sandbox may carry; anything else, or too many, is refused whole. */
function checkBundleRefs(header, branch) {
    if (header.refs.length > MAX_BUNDLE_REFS)
        throw new capture/* ImportLimitError */.ro(`The bundle from the sandbox names ${header.refs.length} refs (at most ${MAX_BUNDLE_REFS}): nothing was imported.`);
    const allowed = new Set(['HEAD', bookkeeping/* SNAPSHOT_REF */.fW, ...(branch ? [`refs/heads/${branch}`] : [])]);
    for (const ref of header.refs)
        if (!allowed.has(ref.name))
            throw new Error(`The bundle from the sandbox names a ref it may not (${JSON.stringify(ref.name)}): nothing was imported.`);
    if (!header.refs.some((r) => r.name === bookkeeping/* SNAPSHOT_REF */.fW))
        throw new Error('The bundle from the sandbox lacks the snapshot: nothing was imported.');
}
/**
 * git leaves a ref out of a bundle when it points at a commit the bundle stops at: such a ref (HEAD, the
 * branch) is one of the commits the parent has, and only then is the helper's word for it taken.
 */
function commitOutsideBundle(captured, said, what) {
    if (!said)
        return undefined;
    if (!captured.exclude.includes(said))
        throw new Error(`The sandbox's ${what} is neither in its bundle nor a commit the parent has: nothing was imported.`);
    return said;
}
async function importBundle(git, sandbox, captured) {
    const { parent } = sandbox;
    const header = await readBundleHeader(captured.bundle);
    checkBundleRefs(header, sandbox.branch);
    const store = (0,bookkeeping/* privateStorePath */.Ay)(parent, sandbox);
    const inBundle = (name) => header.refs.some((r) => r.name === name);
    const hasBranch = inBundle(`refs/heads/${sandbox.branch}`);
    const headOutside = inBundle('HEAD') ? undefined : commitOutsideBundle(captured, captured.headSha, 'HEAD');
    if (!inBundle('HEAD') && !headOutside)
        throw new Error('The bundle from the sandbox lacks HEAD: nothing was imported.');
    const branchOutside = sandbox.branch && !hasBranch
        ? commitOutsideBundle(captured, captured.branchSha, `branch ${sandbox.branch}`)
        : undefined;
    return (0,lock/* withRepositoryLock */.aZ)(parent.gitDir, async () => {
        await (0,bookkeeping/* ensurePrivateStore */.Vp)(git, parent, store);
        const specs = [`+${bookkeeping/* SNAPSHOT_REF */.fW}:refs/run/snapshot`];
        if (!headOutside)
            specs.push('+HEAD:refs/run/head');
        if (hasBranch)
            specs.push(`+refs/heads/${sandbox.branch}:refs/run/branch`);
        await git.run(store, ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--', captured.bundle, ...specs], {
            config: FSCK,
            work: 'git-import',
            purpose: "fetching the sandbox's bundle, checked, into its private store",
        });
        const pin = [
            ...(headOutside ? [`update refs/run/head ${headOutside}`] : []),
            ...(branchOutside ? [`update refs/run/branch ${branchOutside}`] : []),
            ...(sandbox.branch && !hasBranch && !branchOutside ? ['delete refs/run/branch'] : []),
        ];
        if (pin.length)
            await git.run(store, ['update-ref', '--stdin'], { input: Buffer.from(pin.join('\n') + '\n') });
        const refs = (0,bookkeeping/* sandboxRefs */.yB)(sandbox);
        // Persistent sandboxes bring their branch (whatever HEAD is); transient ones what HEAD holds.
        const source = sandbox.branch
            ? hasBranch || branchOutside
                ? 'refs/run/branch'
                : undefined
            : 'refs/run/head';
        // What the store holds now is what the header named (the fetch took the refs at those commits, or
        // failed), or the commit the parent has that the helper named; the parent's record gets the source's.
        const named = (ref) => header.refs.find((r) => r.name === ref)?.sha;
        const head = commit(headOutside ?? named('HEAD'));
        const snapshot = commit(named(bookkeeping/* SNAPSHOT_REF */.fW));
        let tip;
        if (source) {
            await git.run(parent.path, ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--', store, `+${source}:${refs.head}`], { config: FSCK, work: 'git-import', purpose: "fetching the run's commits, checked, into the parent" });
            tip =
                source === 'refs/run/head' ? head : commit(branchOutside ?? named(`refs/heads/${sandbox.branch}`));
        }
        else
            tip = commit(await resolve(git, parent.path, refs.head));
        const branchUpdate = sandbox.branch ? await fastForwardBranch(git, sandbox, tip) : undefined;
        return { tip, head, snapshot, store, branchUpdate };
    });
}
function commit(sha) {
    if (!sha || !git_commands/* OID */.V.test(sha))
        throw new Error('The import named no commit.');
    return sha;
}
/** The parent's branch follows the sandbox's by fast-forward only; never when the parent has it checked out. */
async function fastForwardBranch(git, sandbox, tip) {
    const { parent, branch } = sandbox;
    const ref = `refs/heads/${branch}`;
    const [current, holder] = await Promise.all([
        git.resolveCommit(parent.path, ref),
        checkedOutIn(git, parent.path, ref),
    ]);
    if (current === tip)
        return 'up to date';
    if (holder)
        return `not moved: ${branch} is checked out in ${holder}`;
    if (!current) {
        await git.run(parent.path, ['update-ref', '-m', 'worktree-sandbox: import', '--', ref, tip, '']);
        return 'created';
    }
    const ff = await git.exec(parent.path, ['merge-base', '--is-ancestor', '--end-of-options', current, tip]);
    if (ff.exitCode !== 0)
        return `not moved: ${branch} in the parent is not an ancestor of the sandbox's (no fast-forward)`;
    await git.run(parent.path, [
        'update-ref',
        '-m',
        'worktree-sandbox: import (fast-forward)',
        '--',
        ref,
        tip,
        current,
    ]);
    return 'fast-forwarded';
}
/** The work tree of the parent (its own, or a linked one) that has `ref` checked out, if any. */
async function checkedOutIn(git, parentPath, ref) {
    // Without -z (git 2.36): the action supports git 2.31.
    const list = await git.run(parentPath, ['worktree', 'list', '--porcelain']);
    let current = '';
    for (const field of list.split('\n')) {
        if (field.startsWith('worktree '))
            current = field.slice('worktree '.length);
        else if (field === `branch ${ref}`)
            return current;
    }
    return undefined;
}
async function resolve(git, cwd, ref) {
    const sha = await git.resolveCommit(cwd, ref);
    if (!sha)
        throw new Error(`${ref} is missing in ${cwd} after the import.`);
    return sha;
}

// EXTERNAL MODULE: ./src/run/report.ts
var report = __nccwpck_require__(7119);
;// CONCATENATED MODULE: ./src/run/collect.ts




/** Capture in a helper, import on the host, report from the parent. */
async function collectChanges(git, engine, sandbox, settings, commitMessage) {
    const parentBranch = sandbox.branch
        ? await git.resolveCommit(sandbox.parent.path, `refs/heads/${sandbox.branch}`)
        : undefined;
    const captured = await (0,capture/* captureSandbox */.im)(engine, sandbox, {
        image: settings.image,
        commit: commitMessage !== undefined ? { message: commitMessage } : undefined,
        author: settings.author,
        committer: settings.committer,
        exclude: [...new Set([sandbox.startSha, ...(parentBranch ? [parentBranch] : [])])],
        maxBytes: settings.maxImportBytes,
        work: 'capture',
    });
    try {
        const imported = await importBundle(git, sandbox, captured);
        return await (0,report/* buildReport */.FK)(git, sandbox.parent.path, sandbox.startSha, imported, captured);
    }
    finally {
        await promises_.rm(captured.dir, { recursive: true, force: true });
    }
}


/***/ }),

/***/ 5183:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   b: () => (/* binding */ PROGRESS_MARKER)
/* harmony export */ });
/** Starts every progress comment, so that the bot never takes its own comment for a request. */
const PROGRESS_MARKER = '<!-- worktree-sandbox:progress -->';


/***/ }),

/***/ 7064:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   X9: () => (/* binding */ redactionFor),
/* harmony export */   ki: () => (/* binding */ Redaction),
/* harmony export */   v5: () => (/* binding */ MASK)
/* harmony export */ });
/* unused harmony export MIN_PIECE */
/* harmony import */ var _secret_values_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(8620);
// One list of the step's known secrets and one redaction for everything the action writes where GitHub masks
// nothing: comments and pull-request bodies (every API call, github/api.ts), the job summary and the
// outputs. GitHub masks registered values in the log only. The list is the scan's (secret-values.ts): the
// token, the values of `credentials`, secret-named `env` values, each in every form the scan knows.
// One pass over the text (Aho-Corasick over all forms at once): its cost grows with the text, not with the
// number of forms. Where two forms overlap, all of both goes. A cut (`…`, or the end of the text: a
// line or a reply cut short) that leaves the start of a form, 4 characters or more, masks that start too.
// Not covered: the end of a form at the start of a text; forms the scan does not know. Pure.

const MASK = '***';
/** The character the action's cuts end with: what stands before it may be the start of a secret. */
const CUT = '…'.charCodeAt(0);
/** The shortest start of a form masked at a cut: shorter ones tell nothing and would blank out text. */
const MIN_PIECE = 4;
class Redaction {
    static none = new Redaction([]);
    /** The known secrets of a run's settings, in every form. */
    static of(secrets) {
        return new Redaction((0,_secret_values_js__WEBPACK_IMPORTED_MODULE_0__/* .allForms */ .Hm)(secrets));
    }
    // The automaton: node 0 is the root; a node is the prefix of a form that leads to it.
    next = [new Map()];
    fail = [0];
    depth = [0];
    /** The longest form that ends at the node (its own, or one its fail links reach); 0: none. */
    longest = [0];
    /** That form's name (`env API_KEY (base64)`). */
    rule = [''];
    constructor(needles) {
        for (const { text, rule } of needles) {
            let node = 0;
            for (let i = 0; i < text.length; i++) {
                const c = text.charCodeAt(i);
                let child = this.next[node].get(c);
                if (child === undefined) {
                    child = this.next.length;
                    this.next.push(new Map());
                    this.fail.push(0);
                    this.depth.push(this.depth[node] + 1);
                    this.longest.push(0);
                    this.rule.push('');
                    this.next[node].set(c, child);
                }
                node = child;
            }
            if (text.length > this.longest[node])
                [this.longest[node], this.rule[node]] = [text.length, rule];
        }
        // Fail links, breadth first: a node's link is the longest proper suffix of its prefix that is a node.
        const queue = [...this.next[0].values()];
        for (let q = 0; q < queue.length; q++) {
            const node = queue[q];
            for (const [c, child] of this.next[node]) {
                let f = this.fail[node];
                while (f !== 0 && !this.next[f].has(c))
                    f = this.fail[f];
                const to = this.next[f].get(c);
                this.fail[child] = to !== undefined && to !== child ? to : 0;
                if (this.longest[this.fail[child]] > this.longest[child])
                    [this.longest[child], this.rule[child]] = [
                        this.longest[this.fail[child]],
                        this.rule[this.fail[child]],
                    ];
                queue.push(child);
            }
        }
    }
    /** How many forms' characters the automaton holds (0: nothing to redact). */
    get size() {
        return this.next.length - 1;
    }
    /** `text` with every known form of every secret, and every start of one at a cut, replaced by `***`. */
    redact = (text) => {
        if (this.size === 0 || !text)
            return text;
        const { starts, ends } = this.scan(text);
        if (!starts.length)
            return text;
        let out = '';
        let at = 0;
        for (let i = 0; i < starts.length; i++) {
            out += text.slice(at, starts[i]) + MASK;
            at = ends[i];
        }
        return out + text.slice(at);
    };
    /** The names of the forms found whole in `text` (`credentials for api.example.com (base64)`), each once. */
    namesIn(text) {
        return this.size === 0 || !text ? [] : [...this.scan(text).names];
    }
    /** The spans to mask, in order and apart (overlapping and touching ones merged), and the forms found. */
    scan(text) {
        const starts = [];
        const ends = [];
        const names = new Set();
        // Spans come in order of their ends; a new one swallows those it covers and joins one it touches.
        const add = (start, end) => {
            while (starts.length && starts[starts.length - 1] >= start) {
                starts.pop();
                end = Math.max(end, ends.pop());
            }
            if (ends.length && ends[ends.length - 1] >= start)
                ends[ends.length - 1] = Math.max(ends[ends.length - 1], end);
            else {
                starts.push(start);
                ends.push(end);
            }
        };
        let node = 0;
        for (let i = 0; i < text.length; i++) {
            const c = text.charCodeAt(i);
            if (c === CUT && this.depth[node] >= MIN_PIECE)
                add(i - this.depth[node], i);
            while (node !== 0 && !this.next[node].has(c))
                node = this.fail[node];
            node = this.next[node].get(c) ?? 0;
            const length = this.longest[node];
            if (length) {
                add(i + 1 - length, i + 1);
                names.add(this.rule[node]);
            }
        }
        if (this.depth[node] >= MIN_PIECE)
            add(text.length - this.depth[node], text.length);
        return { starts, ends, names };
    }
}
/** The redaction of a run: its token, its credentials' values and its secret-named env values. */
function redactionFor(settings) {
    return Redaction.of((0,_secret_values_js__WEBPACK_IMPORTED_MODULE_0__/* .knownSecrets */ .xU)(settings));
}


/***/ }),

/***/ 5489:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Rz: () => (/* binding */ removeReplyFolder),
/* harmony export */   Xw: () => (/* binding */ readReply),
/* harmony export */   b4: () => (/* binding */ offerReplyFolder),
/* harmony export */   lc: () => (/* binding */ reportReply),
/* harmony export */   q9: () => (/* binding */ cutSentence),
/* harmony export */   qV: () => (/* binding */ REPLY_MAX_BYTES)
/* harmony export */ });
/* unused harmony exports REPLY_CONTAINER_DIR, REPLY_FILE_NAME, makeReplyFolder */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_3__);
/* harmony import */ var _ui_markdown_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(8561);
/* harmony import */ var _ui_sandbox_text_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(9633);
// The command's reply: a file it may write (SANDBOX_REPLY_FILE), outside its sandbox so that it is never
// committed, and read back by the host as data once the container is gone. The folder is the run's own,
// under RUNNER_TEMP, bind-mounted read-write at a fixed path; the container can plant anything there (a
// link to the runner's files, a FIFO, a folder, a sparse file of terabytes), so the host opens the file
// without following links and without blocking, reads on only when the open descriptor is a regular file,
// and reads at most REPLY_MAX_BYTES of it. Anything else is no reply and a warning, never a hang.






/** The most bytes of a reply that the host reads; a longer reply is cut, and the cut is said. */
const REPLY_MAX_BYTES = 64 * 1024;
/** Where the command finds its reply folder, whatever the isolation. */
const REPLY_CONTAINER_DIR = '/run/worktree-sandbox/reply';
const REPLY_FILE_NAME = 'reply.md';
/**
 * A fresh folder for the reply, private to the runner's user (the command runs as that user, or is mapped
 * to it: engine/mode.ts), under `tempRoot/worktree-sandbox`.
 */
async function makeReplyFolder(tempRoot) {
    const base = node_path__WEBPACK_IMPORTED_MODULE_3__.join(tempRoot, 'worktree-sandbox');
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.mkdir(base, { recursive: true, mode: 0o755 });
    const hostDir = node_path__WEBPACK_IMPORTED_MODULE_3__.join(base, `reply-${(0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomBytes)(6).toString('hex')}`);
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.mkdir(hostDir, { mode: 0o700 });
    return {
        hostDir,
        mount: { type: 'bind', source: hostDir, target: REPLY_CONTAINER_DIR },
        env: { SANDBOX_REPLY_FILE: `${REPLY_CONTAINER_DIR}/${REPLY_FILE_NAME}` },
    };
}
/**
 * The reply folder for a command container, or why there is none: the engine must see the folder where
 * the action made it (in a job container, RUNNER_TEMP is under the job's shared work folder).
 */
async function offerReplyFolder(bindSource, tempRoot) {
    let folder;
    try {
        folder = await makeReplyFolder(tempRoot);
        (await bindSource())(folder.hostDir);
        return folder;
    }
    catch (error) {
        if (folder)
            await removeReplyFolder(folder.hostDir);
        return { warning: `SANDBOX_REPLY_FILE was not offered: ${error.message}` };
    }
}
/** What a non-regular file is, for the warning. */
function kindOf(stat) {
    if (stat.isDirectory())
        return 'a folder';
    if (stat.isFIFO())
        return 'a FIFO';
    if (stat.isSocket())
        return 'a socket';
    return 'a device or other special file';
}
/** Reads the reply the command left in `hostDir` (call once its container is gone). Never throws. */
async function readReply(hostDir, maxBytes = REPLY_MAX_BYTES) {
    const file = node_path__WEBPACK_IMPORTED_MODULE_3__.join(hostDir, REPLY_FILE_NAME);
    let handle;
    try {
        // O_NOFOLLOW: a link there is refused (ELOOP), not followed to the runner's files; O_NONBLOCK: a
        // FIFO with no writer opens at once instead of waiting for one.
        handle = await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.open(file, node_fs__WEBPACK_IMPORTED_MODULE_1__.constants.O_RDONLY | node_fs__WEBPACK_IMPORTED_MODULE_1__.constants.O_NOFOLLOW | node_fs__WEBPACK_IMPORTED_MODULE_1__.constants.O_NONBLOCK | node_fs__WEBPACK_IMPORTED_MODULE_1__.constants.O_NOCTTY);
    }
    catch (error) {
        const code = error.code;
        if (code === 'ENOENT')
            return {};
        if (code === 'ELOOP')
            return { warning: 'The reply file is a symbolic link: not followed, no reply.' };
        return {
            warning: `The reply file could not be opened (${(0,_ui_sandbox_text_js__WEBPACK_IMPORTED_MODULE_5__/* .sandboxText */ .dX)(String(code ?? error))}): no reply.`,
        };
    }
    try {
        const stat = await handle.stat();
        if (!stat.isFile())
            return { warning: `The reply file is ${kindOf(stat)}, not a plain file: not read, no reply.` };
        const buffer = Buffer.alloc(maxBytes + 1);
        let filled = 0;
        while (filled < buffer.length) {
            const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
            if (bytesRead === 0)
                break;
            filled += bytesRead;
        }
        const cut = filled > maxBytes;
        return {
            reply: { text: decode(buffer.subarray(0, Math.min(filled, maxBytes)), cut), bytes: stat.size, cut },
        };
    }
    catch (error) {
        return {
            warning: `The reply file could not be read (${(0,_ui_sandbox_text_js__WEBPACK_IMPORTED_MODULE_5__/* .sandboxText */ .dX)(error.message)}): no reply.`,
        };
    }
    finally {
        await handle.close().catch(() => undefined);
    }
}
/** UTF-8, invalid bytes replaced; a character split by the cut dropped; NUL (refused by the API) replaced. */
function decode(bytes, cut) {
    // Streaming: a sequence the cut left incomplete is held back, not replaced.
    const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes, { stream: cut });
    return text.replace(/\0/g, '\uFFFD');
}
/**
 * Removes the reply folder, whatever the command left in it: the container may have taken the runner's
 * permissions away from the folder or from folders it made there. Returns an error message, or undefined.
 */
async function removeReplyFolder(hostDir) {
    try {
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rm(hostDir, { recursive: true, force: true });
        return undefined;
    }
    catch {
        // Folders made unreadable: made readable again (chmod never follows a link), then removed.
        try {
            await makeWritable(hostDir, 0);
            await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rm(hostDir, { recursive: true, force: true });
            return undefined;
        }
        catch (error) {
            return `The reply folder ${hostDir} could not be removed: ${(0,_ui_sandbox_text_js__WEBPACK_IMPORTED_MODULE_5__/* .sandboxText */ .dX)(error.message)}`;
        }
    }
}
/** Bounds of the walk that gives folders back to the runner: deeper or further, RUNNER_TEMP's own clean-up. */
const MAX_DEPTH = 64;
const MAX_FOLDERS = 10_000;
async function makeWritable(dir, depth, budget = { folders: MAX_FOLDERS }) {
    if (depth > MAX_DEPTH || budget.folders-- <= 0)
        return;
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.chmod(dir, 0o700);
    for (const entry of await node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.readdir(dir, { withFileTypes: true }))
        if (entry.isDirectory())
            await makeWritable(node_path__WEBPACK_IMPORTED_MODULE_3__.join(dir, entry.name), depth + 1, budget);
}
/** The log's part: the reply through the escaping of sandbox text and fenced, the cut or the warning. */
function reportReply(ui, read) {
    if (read?.warning)
        ui.warning(read.warning);
    const reply = read?.reply;
    if (!reply || !reply.text.trim())
        return;
    ui.info(`The command's reply ($SANDBOX_REPLY_FILE, ${(0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_4__/* .thousands */ .oh)(reply.bytes)} bytes):`);
    ui.fenced((0,_ui_sandbox_text_js__WEBPACK_IMPORTED_MODULE_5__/* .logLines */ .OG)(reply.text));
    if (reply.cut)
        ui.warning(cutSentence(reply));
}
/** What the log and the Markdown say of a reply read only in part. */
function cutSentence(reply) {
    return `The reply was cut: its file had ${(0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_4__/* .thousands */ .oh)(reply.bytes)} bytes, and only the first ${(0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_4__/* .thousands */ .oh)(REPLY_MAX_BYTES)} were read.`;
}


/***/ }),

/***/ 7119:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   FK: () => (/* binding */ buildReport),
/* harmony export */   Ww: () => (/* binding */ holdsWork),
/* harmony export */   hy: () => (/* binding */ commitsNotIn)
/* harmony export */ });
/* unused harmony exports STAT_MAX_PATHS, STAT_MAX_BYTES, leftOut */
/* harmony import */ var _engine_git_commands_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(8657);
/* harmony import */ var _changed_paths_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(5136);
/* harmony import */ var _sandbox_saved_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(7180);
/* harmony import */ var _ui_markdown_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(8561);
// What a run changed, computed on the host from repositories only the host configures: the parent (for
// commits) and the sandbox's private store (for the snapshot of its work tree). Nothing is read from the
// sandbox itself. File names here came from the sandbox: they are printed fenced or escaped.




/** Up to this many changed paths, the diff stat is git's (with line counts); above, a list of the first. */
const STAT_MAX_PATHS = 1_000;
/** The most paths a list in place of a stat names. */
const STAT_LISTED_PATHS = 100;
/** The most bytes of diff stat kept (the job summary, the `diff-stat` output). */
const STAT_MAX_BYTES = 64 * 1024;
// Bounds (so that nothing a sandbox holds can make the host's git or this process hold it all): the
// changed and uncommitted files are listed (at most 1,000 each) and counted by walking trees
// (changed-paths.ts: at most 64 MiB of trees, one minute); git's own diff runs only for the stat, and only
// when at most STAT_MAX_PATHS paths changed, without rename detection (quadratic) and with files over
// 1 MiB taken as binary (never loaded whole); its output is streamed and cut at STAT_MAX_BYTES.
async function buildReport(git, parentPath, startSha, imported, capture) {
    const { store, snapshot, head, tip } = imported;
    const changedSinceStart = (0,_changed_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .changedPaths */ .vl)(git, store, startSha, snapshot);
    const [commits, changed, dirty, unpushed] = await Promise.all([
        (0,_sandbox_saved_js__WEBPACK_IMPORTED_MODULE_2__/* .countCommits */ .Wt)(git, parentPath, [`${startSha}..${tip}`]),
        changedSinceStart,
        // With no new commit, what is uncommitted is what changed since the start: one walk answers both
        // (two git processes fewer).
        head === startSha ? changedSinceStart : (0,_changed_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .changedPaths */ .vl)(git, store, head, snapshot),
        (0,_sandbox_saved_js__WEBPACK_IMPORTED_MODULE_2__/* .savedRefs */ .EY)(git, parentPath).then((saved) => (0,_sandbox_saved_js__WEBPACK_IMPORTED_MODULE_2__/* .countUnsaved */ .C3)(git, parentPath, [tip], saved)),
    ]);
    if (!commits)
        throw new Error(`git could not count the commits from ${startSha} to ${tip}`);
    const stopped = changed.stopped ?? dirty.stopped;
    return {
        headSha: head,
        tip,
        currentBranch: capture.headRef.replace(/^refs\/heads\//, ''),
        commits: commits.count,
        ...(commits.atLeast || unpushed?.atLeast ? { commitsAtLeast: true } : {}),
        changedFiles: changed.paths,
        changedCount: changed.count,
        uncommitted: dirty.paths,
        uncommittedCount: dirty.count,
        uncommittedExact: dirty.exact,
        ...(stopped ? { countsStopped: stopped } : {}),
        diffStat: await diffStat(git, store, startSha, snapshot, changed),
        // git could not say: counted as one, so that work is never taken for none
        unpushedCommits: unpushed?.count ?? 1,
        committed: capture.committed,
        staleLocks: capture.staleLocks,
        ...(capture.cleared?.length ? { trapsCleared: capture.cleared } : {}),
        branchUpdate: imported.branchUpdate,
    };
}
/** git's `--stat` for a bounded number of paths; otherwise the first paths and how many were left out. */
async function diffStat(git, store, from, to, changed) {
    if (changed.count === 0 && changed.exact)
        return '';
    if (!changed.exact || changed.count > STAT_MAX_PATHS)
        return pathsInsteadOfStat(changed);
    const lines = [];
    let bytes = 0;
    let cut = 0;
    const result = await git.stream(store, ['diff', ..._engine_git_commands_js__WEBPACK_IMPORTED_MODULE_3__/* .NO_EXTERNAL_DIFF */ .S, '--stat=120', from, to, '--'], {
        config: [
            ['diff.renames', 'false'],
            ['core.bigFileThreshold', '1m'],
        ],
        maxLineBytes: 4096,
        onLine: (line, stream) => {
            if (stream !== 'stdout')
                return;
            if (bytes + line.length + 1 > STAT_MAX_BYTES)
                cut++;
            else {
                lines.push(line);
                bytes += line.length + 1;
            }
        },
    });
    if (result.exitCode !== 0)
        return pathsInsteadOfStat(changed);
    if (cut)
        lines.push(`… ${cut} more line(s) of the stat left out (over ${STAT_MAX_BYTES} bytes)`);
    return lines.join('\n').trimEnd();
}
function pathsInsteadOfStat(changed) {
    const shown = changed.paths.slice(0, STAT_LISTED_PATHS);
    let bytes = 0;
    const lines = [];
    for (const p of shown) {
        if (bytes + p.length + 2 > STAT_MAX_BYTES / 2)
            break;
        lines.push(` ${p}`);
        bytes += p.length + 2;
    }
    lines.push(leftOut(changed, lines.length));
    return lines.join('\n');
}
/** "… and 152,600 more paths" for a list that names `shown` of `changed`'s paths. */
function leftOut(changed, shown) {
    const more = changed.count - shown;
    const total = `${changed.exact ? '' : 'at least '}${(0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_1__/* .thousands */ .oh)(changed.count)}`;
    const why = changed.exact ? '' : ` (counting stopped: ${changed.stopped})`;
    return `… and ${changed.exact ? '' : 'at least '}${(0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_1__/* .thousands */ .oh)(more)} more path(s): ${total} changed${why}; no line counts over ${(0,_ui_markdown_js__WEBPACK_IMPORTED_MODULE_1__/* .thousands */ .oh)(STAT_MAX_PATHS)} paths`;
}
/**
 * Commits reachable from `tip` and from none of `not` (commits, refs or `--remotes`), in the parent, up to
 * MAX_COUNTED_COMMITS; 1 when git cannot say, so that work is never taken for none.
 */
async function commitsNotIn(git, parentPath, tip, not) {
    return (await (0,_sandbox_saved_js__WEBPACK_IMPORTED_MODULE_2__/* .countCommits */ .Wt)(git, parentPath, [tip, '--not', ...not]))?.count ?? 1;
}
/** Uncommitted files or commits no remote has; a count that stopped at its bounds is taken for work. */
function holdsWork(report) {
    return report.uncommittedCount > 0 || !report.uncommittedExact || report.unpushedCommits > 0;
}


/***/ }),

/***/ 8439:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  F: () => (/* binding */ runSandbox)
});

// EXTERNAL MODULE: ./src/engine/engine.ts + 2 modules
var engine_engine = __nccwpck_require__(1665);
// EXTERNAL MODULE: ./src/engine/host-paths.ts
var host_paths = __nccwpck_require__(6387);
// EXTERNAL MODULE: ./src/engine/git.ts + 2 modules
var engine_git = __nccwpck_require__(1763);
// EXTERNAL MODULE: ./src/sandbox/naming.ts
var naming = __nccwpck_require__(2375);
// EXTERNAL MODULE: ./src/sandbox/lock.ts
var lock = __nccwpck_require__(6856);
;// CONCATENATED MODULE: ./src/sandbox/branch.ts



/** The protocol itself, as a pure decision. */
function planBranch(facts, newTransientName = naming/* transientSandboxName */.j6) {
    if (!facts.branch) {
        return {
            kind: 'transient',
            sandbox: newTransientName(),
            branch: '',
            source: 'detached',
            startPoint: facts.baseCommit,
        };
    }
    const sandbox = (0,naming/* persistentSandboxName */.ey)(facts.branch);
    if (facts.localExists)
        return { kind: 'persistent', sandbox, branch: facts.branch, source: 'local', startPoint: facts.branch };
    if (facts.remoteExists) {
        return {
            kind: 'persistent',
            sandbox,
            branch: facts.branch,
            source: 'remote',
            startPoint: `origin/${facts.branch}`,
        };
    }
    return { kind: 'persistent', sandbox, branch: facts.branch, source: 'new', startPoint: facts.baseCommit };
}
/**
 * Asks origin for the branch; when it has it, `origin/<branch>` is set to its commit. The wait on the
 * network holds no lock (git.ts `fetchCommit`), so a slow or hung origin holds up this run only, never
 * another run of the same parent; only the ref update takes the repository lock, for a moment. False
 * when origin refuses (no such branch); a remote that does not answer in time fails the run, naming
 * the fetch, rather than start the branch anew beside one origin may have.
 */
async function fetchOriginBranch(git, parent, branch) {
    let commit;
    try {
        commit = await git.fetchCommit(parent.path, 'origin', `refs/heads/${branch}`, `asking origin for branch ${JSON.stringify(branch)}`);
    }
    catch (error) {
        if (error instanceof engine_git/* GitError */.XS)
            return false;
        throw error;
    }
    await (0,lock/* withRepositoryLock */.aZ)(parent.gitDir, () => git.run(parent.path, [
        'update-ref',
        '-m',
        'worktree-sandbox: fetched from origin',
        '--',
        `refs/remotes/origin/${branch}`,
        commit,
    ]));
    return true;
}
/** A branch's two refs: the local one, and origin's. */
function branchRefNames(branch) {
    return [`refs/heads/${branch}`, `refs/remotes/origin/${branch}`];
}
/**
 * Gathers the facts from the parent repository (fetching the branch from origin when it is not known
 * yet). Reading refs needs no lock: git replaces each one in one step, and the sandbox is made from what
 * is read again under the lock (create.ts). The parent is the host's alone: no container can write its
 * refs. `head`, when given, is the parent's HEAD commit as just read: the start when `base` is empty.
 */
async function resolveBranch(git, parent, branch, base) {
    const parentPath = parent.path;
    const [local, remote] = branchRefNames(branch);
    // One git process for both branch refs; the base only costs one more when it is named.
    const [baseCommit, refs] = await Promise.all([
        !base && parent.head ? parent.head : git.resolveCommit(parentPath, base || 'HEAD'),
        branch ? git.readRefs(parentPath, [local, remote]) : new Map(),
    ]);
    if (!baseCommit)
        throw new Error(`Invalid input 'base': ${JSON.stringify(base)} names no commit in ${parentPath}.`);
    if (!branch)
        return planBranch({ branch, localExists: false, remoteExists: false, baseCommit });
    const localExists = refs.has(local);
    let remoteExists = false;
    if (!localExists) {
        remoteExists = refs.has(remote);
        // actions/checkout fetches one ref only: ask origin whether the branch exists before creating it anew.
        if (!remoteExists && (await git.remoteUrl(parentPath, 'origin')))
            remoteExists = await fetchOriginBranch(git, parent, branch);
    }
    return planBranch({ branch, localExists, remoteExists, baseCommit });
}

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __nccwpck_require__(1455);
// EXTERNAL MODULE: ./src/sandbox/bookkeeping.ts
var bookkeeping = __nccwpck_require__(9503);
// EXTERNAL MODULE: ./src/sandbox/layout.ts
var layout = __nccwpck_require__(9601);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __nccwpck_require__(6760);
// EXTERNAL MODULE: ./src/engine/container-args.ts
var container_args = __nccwpck_require__(5011);
// EXTERNAL MODULE: ./src/engine/labels.ts
var labels = __nccwpck_require__(9667);
// EXTERNAL MODULE: ./src/engine/proc.ts + 2 modules
var proc = __nccwpck_require__(729);
// EXTERNAL MODULE: ./src/engine/start-failure.ts
var start_failure = __nccwpck_require__(8557);
// EXTERNAL MODULE: ./src/engine/time-limits.ts
var time_limits = __nccwpck_require__(1814);
// EXTERNAL MODULE: ./src/sandbox/remove.ts
var remove = __nccwpck_require__(4299);
;// CONCATENATED MODULE: ./src/sandbox/make-repository.ts
// Making a sandbox's repository: one script, run on the host in a folder made just for it (no container
// has written there yet), or in a helper container inside a fresh volume. The new repository borrows the
// parent's object store (`objects/info/alternates`): nothing is copied.
// ADR 0001 (docs/adr/0001-sandbox-is-a-repository-of-its-own.md).










/**
 * Makes the repository: $1 work tree, $2 home, $3 start commit, $4 branch (empty: detached), $5 upstream
 * commit (may be empty), $6 origin URL (may be empty), $7 the object store to borrow. Positional
 * arguments only: nothing is spliced into the script. The checkout is git's own, sequential: its parallel
 * workers (`checkout.workers=0`) did not pay here and took twice the CPU (ADR 0011).
 */
const INIT_SCRIPT = `set -eu
wt="$1"; home="$2"; start="$3"; branch="$4"; upstream="$5"; origin="$6"; store="$7"
mkdir -p -- "$home"
git init --quiet --template= -- "$wt"
printf '%s\\n' "$store" > "$wt/.git/objects/info/alternates"
cd -- "$wt"
git config gc.auto 0
if [ -n "$origin" ]; then
  git config remote.origin.url "$origin"
  git config remote.origin.fetch '+refs/heads/*:refs/remotes/origin/*'
fi
if [ -n "$branch" ]; then
  git update-ref "refs/heads/$branch" "$start"
  git symbolic-ref HEAD "refs/heads/$branch"
  if [ -n "$upstream" ]; then
    git update-ref "refs/remotes/origin/$branch" "$upstream"
    git config "branch.$branch.remote" origin
    git config "branch.$branch.merge" "refs/heads/$branch"
  fi
else
  git update-ref --no-deref HEAD "$start"
fi
git reset --hard --quiet
`;
function initArgs(sandbox, seed) {
    return [
        sandbox.worktreePath,
        sandbox.homePath,
        seed.start,
        sandbox.branch,
        seed.upstream ?? '',
        seed.originUrl,
        sandbox.parent.objectStores[0],
    ];
}
/** The project folder and its note of the parent, then the sandbox's new, empty folder (repository lock held). */
async function makeDiskFolder(sandbox, recover) {
    const projectDir = external_node_path_.dirname(sandbox.hostPath);
    await promises_.mkdir(projectDir, { recursive: true });
    await (0,bookkeeping/* writeParentNote */.iC)(projectDir, sandbox.parent);
    if (recover)
        await (0,remove/* removeDiskFolders */.dG)(sandbox);
    // The folder is new (mkdir fails if anything appeared meanwhile, and then nothing is removed): no
    // container has written in it yet. What is made from here on is ours to remove if it fails.
    await promises_.mkdir(sandbox.hostPath);
}
/** The init script on the host, in the folder makeDiskFolder made; the caller removes it if this throws. */
async function createOnDisk(git, sandbox, seed) {
    const projectDir = external_node_path_.dirname(sandbox.hostPath);
    const limitMs = (0,time_limits/* timeLimitMs */.PI)('create');
    const result = await (0,proc/* runStreaming */.SL)('sh', ['-c', INIT_SCRIPT, 'init-sandbox', ...initArgs(sandbox, seed)], {
        cwd: projectDir,
        // The runner's own git configuration stays out too: the checkout applies no filter it defines (a
        // start commit may hold a sandbox's work, .gitattributes and all).
        env: git.scriptEnv({ GIT_CONFIG_GLOBAL: '/dev/null', XDG_CONFIG_HOME: '/nonexistent' }),
        timeLimitMs: limitMs,
    });
    if (result.timedOut)
        throw new time_limits/* TimeLimitError */.$q('create', (0,layout/* whereIs */.ie)(sandbox), limitMs, NOT_CREATED, true);
    if (result.exitCode === 0)
        return;
    throw new Error(await creationFailure(projectDir, result.stderrTail.join('\n')));
}
const NOT_CREATED = 'the sandbox was not created, and what was made of it is removed';
/** As root only to hand the fresh volume to the runner's user; then the same script as that user. */
const VOLUME_SCRIPT = `set -eu
uid="$1"; gid="$2"; recover="$3"; init="$4"; wt="$5"; shift 5
as_user() {
  if [ "$uid" = 0 ]; then "$@"
  elif command -v setpriv >/dev/null 2>&1; then setpriv --reuid="$uid" --regid="$gid" --clear-groups "$@"
  else chroot --userspec="$uid:$gid" / "$@"; fi
}
chown "$uid:$gid" /sandbox
if [ -e "$wt" ] || [ -L "$wt" ]; then
  if [ "$recover" = 1 ] || [ -z "$(ls -A "$wt")" ]; then
    rm -rf -- "$wt"
  else
    echo "worktree-sandbox: $wt holds files but the parent repository has no record of it; refusing to overwrite them" >&2
    exit 3
  fi
fi
as_user sh -c "$init" init-sandbox "$wt" "$@"
`;
async function createInVolume(engine, sandbox, seed, image, recover, 
/** Whether the volume is there (create.ts asked the engine, under this run's sandbox lock). */
present) {
    if (!present)
        await engine.createVolume(sandbox.volume, (0,labels/* volumeLabels */.kV)({ ...sandbox, parentPath: sandbox.parent.path }));
    const id = (0,container_args/* currentIdentity */._c)();
    const [wt, ...rest] = initArgs(sandbox, seed);
    const result = await engine.runHelper((0,layout/* sandboxHelper */.Ap)(sandbox, image, {
        name: 'create-sandbox',
        text: VOLUME_SCRIPT,
        args: [String(id.uid), String(id.gid), recover ? '1' : '0', INIT_SCRIPT, wt, ...rest],
    }, { user: '0:0', capAdd: ['CHOWN', 'SETUID', 'SETGID', 'SYS_CHROOT', 'DAC_OVERRIDE', 'FOWNER'] }), { work: 'create', where: `${sandbox.name} (${(0,layout/* whereIs */.ie)(sandbox)})`, consequence: NOT_CREATED });
    if (result.exitCode !== 0) {
        const said = (result.stderrTail.length ? result.stderrTail : result.outputTail).join('\n').trim();
        // A helper that never started (an image without `sh`, ...): the engine's words, then what to do.
        throw new Error(`Could not create the sandbox in volume ${sandbox.volume}: ${said || `exit ${result.exitCode}`}${(0,start_failure/* startFailureHint */.E)(said)}`);
    }
}
/** git only says it could not write a file: say where, and how much room is left once it cleaned up. */
async function creationFailure(dir, message) {
    if (!/unable to write|no space left|write error|short write|could not write/i.test(message))
        return `Could not create the sandbox: ${message.trim()}`;
    const stats = await promises_.statfs(dir).catch(() => undefined);
    const free = stats ? `, ${Math.floor((stats.bavail * stats.bsize) / 1024)} KiB free now` : '';
    return `Writing the sandbox under ${dir} failed (No space left on device?${free}): the sandbox was not created.`;
}

// EXTERNAL MODULE: ./src/sandbox/ref-files.ts
var ref_files = __nccwpck_require__(3976);
;// CONCATENATED MODULE: ./src/sandbox/create.ts
// Creating a sandbox, or reusing it exactly as it is (uncommitted files and all). A new sandbox is a
// repository of its own whose object store borrows the parent's, made by make-repository.ts. The parent's
// records are written last: a sandbox whose `creating` record is still there was half-made by a killed
// run, and is made again.
// ADR 0001 (docs/adr/0001-sandbox-is-a-repository-of-its-own.md).







class SandboxConflictError extends Error {
}
async function prepareSandbox(git, engine, sandbox, plan, 
/**
 * The image helpers run; `ready` settles once the engine has it and is known to see the folders, and is
 * called only before something is written (a reused sandbox does not wait for it).
 */
image, log) {
    const { name: imageName, ready: checksDone } = typeof image === 'string' ? { name: image, ready: () => Promise.resolve() } : image;
    const { parent } = sandbox;
    const refs = (0,bookkeeping/* sandboxRefs */.yB)(sandbox);
    // A sandbox that is there is taken without the repository lock: only the holder of the sandbox's lock
    // (this run; the reaper and `rm` take it too) writes its records. Anything else is decided again, and
    // recorded, under the repository lock.
    const found = await lookUp(git, engine, sandbox, refs);
    if (found.reused)
        return found.reused;
    // Nothing is written before the image is known to be there and the engine to see the folders; a pull
    // is never waited for under the lock.
    await checksDone();
    // The repository lock is held for the parent's bookkeeping only (records, the project folder), never
    // while a sandbox is written: a container or a checkout that hangs must not stop other sandboxes of the
    // same parent. While the sandbox is written, this run's sandbox lock keeps every other run, the reaper
    // and `rm` away from it, and its `creating` record says it is half-made if this run dies.
    const begun = await (0,lock/* withRepositoryLock */.aZ)(parent.gitDir, () => beginCreation(git, engine, sandbox, plan, log, found.present));
    if ('reused' in begun)
        return begun.reused;
    const { seed } = begun;
    try {
        if (sandbox.isolation === 'disk')
            await createOnDisk(git, sandbox, seed);
        else
            await createInVolume(engine, sandbox, seed, imageName, begun.recover, begun.present);
    }
    catch (error) {
        // What was made here goes; a volume that was there before is kept.
        if (sandbox.isolation === 'disk')
            await (0,remove/* removeDiskFolders */.dG)(sandbox).catch(() => undefined);
        else if (!begun.volumeWasThere)
            await engine.removeVolume(sandbox.volume).catch(() => undefined);
        await (0,lock/* withRepositoryLock */.aZ)(parent.gitDir, () => (0,bookkeeping/* dropRecords */.gE)(git, parent, refs));
        throw error;
    }
    const records = [`update ${refs.head} ${seed.start}`, `delete ${refs.creating}`];
    if (seed.upstream)
        records.push(`update ${refs.offered} ${seed.upstream}`);
    await (0,lock/* withRepositoryLock */.aZ)(parent.gitDir, () => git.run(parent.path, ['update-ref', '--stdin'], { input: Buffer.from(records.join('\n') + '\n') }));
    return { ...sandbox, reused: false, startSha: seed.start };
}
/**
 * Under the repository lock: decides again (the records may have changed), drops the records of a
 * sandbox that is gone, refuses a folder nobody recorded, reads the seed, writes the `creating` record,
 * and for a disk sandbox makes its (empty) folder, so that the project folder is never removed from under
 * it by the removal of the project's last other sandbox (which happens under this lock too).
 */
async function beginCreation(git, engine, sandbox, plan, log, 
/** Whether the volume is there, as the engine said before the repository lock. */
volumePresent) {
    const { parent } = sandbox;
    const refs = (0,bookkeeping/* sandboxRefs */.yB)(sandbox);
    const { head, creating, present, reused } = await lookUp(git, engine, sandbox, refs, volumePresent);
    if (reused)
        return { reused };
    if (head && !creating) {
        log.info(`Sandbox ${sandbox.name} (${(0,layout/* whereIs */.ie)(sandbox)}) is gone: its records in the parent are dropped.`);
        await (0,bookkeeping/* dropRecords */.gE)(git, parent, refs);
    }
    if (creating)
        log.info(`Recovering ${(0,layout/* whereIs */.ie)(sandbox)}: a run was killed while creating it.`);
    // A folder nobody recorded is refused before anything is written: it may be someone's work.
    else if (sandbox.isolation === 'disk')
        await refuseForeignFolder(sandbox);
    const seed = await readSeed(git, parent, plan);
    await git.run(parent.path, [
        'update-ref',
        '-m',
        'worktree-sandbox: creating',
        '--',
        refs.creating,
        seed.start,
    ]);
    try {
        if (sandbox.isolation === 'disk')
            await makeDiskFolder(sandbox, creating);
    }
    catch (error) {
        await (0,bookkeeping/* dropRecords */.gE)(git, parent, refs);
        throw error;
    }
    return { seed, recover: creating, present, volumeWasThere: present && !creating };
}
/**
 * The sandbox's records, whether it is there, and so whether it is reused as it is. The records are read
 * again under the repository lock; the engine's word on the volume is asked once (`volumePresent`): only a
 * holder of the sandbox's lock (this run; the post step, the reaper and `rm` take it too) removes the
 * volume, so it cannot change in between.
 */
async function lookUp(git, engine, sandbox, refs, volumePresent) {
    const upstreamRef = sandbox.branch ? `refs/remotes/origin/${sandbox.branch}` : '';
    const [recorded, present] = await Promise.all([
        readRecords(git, sandbox.parent, refs, upstreamRef),
        sandbox.isolation === 'container'
            ? (volumePresent ?? engine.volumeExists(sandbox.volume))
            : (0,bookkeeping/* pathExists */.s0)(sandbox.hostPath),
    ]);
    const head = recorded.get(refs.head);
    const creating = recorded.has(refs.creating);
    if (!head || creating || !present)
        return { head, creating, present };
    const upstream = recorded.get(upstreamRef);
    const upstreamNew = upstream && upstream !== recorded.get(refs.offered) ? upstream : undefined;
    return { head, creating, present, reused: { ...sandbox, reused: true, startSha: head, upstreamNew } };
}
/**
 * The sandbox's records and what origin has of the branch (start-up latency counts). The records are the
 * action's own refs, each a commit it wrote: read from the parent's files as data where that answer is
 * sure (ref-files.ts), as long as origin's branch is absent or the one offered last, which is then not
 * used. Otherwise in one git process, which also checks that each names a commit.
 */
async function readRecords(git, parent, refs, upstreamRef) {
    const names = [refs.head, refs.creating, refs.offered, ...(upstreamRef ? [upstreamRef] : [])];
    const read = (0,ref_files/* readRefsAsData */.DC)(parent.gitDir, names);
    const upstream = upstreamRef ? read?.get(upstreamRef) : undefined;
    if (read && (upstream === undefined || upstream === read.get(refs.offered)))
        return read;
    return git.readRefs(parent.path, names);
}
async function readSeed(git, parent, plan) {
    const rev = plan.source === 'local'
        ? `refs/heads/${plan.branch}`
        : plan.source === 'remote'
            ? `refs/remotes/origin/${plan.branch}`
            : plan.startPoint;
    const [start, upstream, url] = await Promise.all([
        git.resolveCommit(parent.path, rev),
        plan.branch ? git.resolveCommit(parent.path, `refs/remotes/origin/${plan.branch}`) : undefined,
        git.remoteUrl(parent.path, 'origin'),
    ]);
    if (!start)
        throw new Error(`${rev} names no commit in ${parent.path} any more: the sandbox was not created.`);
    return { start, upstream, originUrl: withoutCredentials(url ?? '') };
}
/** A URL's user and password never reach a sandbox's config. */
function withoutCredentials(url) {
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url))
        return url;
    try {
        const parsed = new URL(url);
        parsed.username = '';
        parsed.password = '';
        return parsed.toString().replace(/\/$/, url.endsWith('/') ? '/' : '');
    }
    catch {
        return '';
    }
}
/** An empty folder where the sandbox goes is removed; one holding files nobody recorded is refused. */
async function refuseForeignFolder(sandbox) {
    if (!(await (0,bookkeeping/* pathExists */.s0)(sandbox.hostPath)))
        return;
    if ((await promises_.readdir(sandbox.hostPath)).length > 0)
        throw new SandboxConflictError(`${sandbox.hostPath} exists and holds files, but ${sandbox.parent.path} has no record of a sandbox there: it is not touched. Move it away or remove it, then run again.`);
    await promises_.rmdir(sandbox.hostPath);
}

// EXTERNAL MODULE: ./src/engine/engine-probe.ts
var engine_probe = __nccwpck_require__(6269);
;// CONCATENATED MODULE: ./src/sandbox/engine-view.ts
// What a run mounts from the action's side, for the engine-view checks (engine/host-paths.ts,
// engine/engine-probe.ts): every bind source layout.ts gives a container, named for a person, with what to
// change when the engine cannot see it; and how a run proves that the engine sees them.



const WORKSPACE_FIX = 'Check the repository out inside a folder the engine shares with the action (the workspace, $GITHUB_WORKSPACE)';
/** Every folder and file a run binds into a container: the parent, its object stores, the disk root, extra files. */
function mountedPaths(parent, isolation, worktreeRoot, readOnlyFiles = []) {
    const paths = [
        { path: parent.path, what: 'parent repository', fix: WORKSPACE_FIX },
        ...parent.objectStores.map((dir) => ({ path: dir, what: 'object store', fix: WORKSPACE_FIX })),
    ];
    if (isolation === 'disk')
        paths.push({ path: worktreeRoot, what: 'worktree-root', fix: host_paths/* SHARED_ROOT_FIX */.jX });
    for (const file of readOnlyFiles)
        paths.push({
            path: file,
            what: 'file',
            fix: 'Keep RUNNER_TEMP inside a folder the engine shares with the action',
        });
    return paths;
}
/**
 * The folders the probe writes its file in: the parent's git folder (the parent and its object store are
 * mounted from beside it) and, for a disk sandbox, the root it is made under.
 */
function probedFolders(parent, isolation, worktreeRoot) {
    const folders = [{ path: parent.gitDir, what: 'parent repository', fix: WORKSPACE_FIX }];
    if (isolation === 'disk')
        folders.push({ path: external_node_path_.resolve(worktreeRoot), what: 'worktree-root', fix: host_paths/* SHARED_ROOT_FIX */.jX });
    return folders;
}
/**
 * The folders the probe writes its file in when a sandbox that is there is proved by its command's
 * container: the parent's git folder and, for a disk sandbox, its project folder (which holds the
 * sandbox and its home; the reaper takes what starts with a dot there for the action's own).
 */
function reusedProbeFolders(sandbox) {
    const folders = [
        { path: sandbox.parent.gitDir, what: 'parent repository', fix: WORKSPACE_FIX },
    ];
    if (sandbox.isolation === 'disk')
        folders.push({ path: external_node_path_.dirname(sandbox.hostPath), what: 'sandbox folder', fix: host_paths/* SHARED_ROOT_FIX */.jX });
    return folders;
}
/**
 * How a run proves that the engine sees its folders where the action sees them (engine/engine-probe.ts),
 * one of two ways. Before a sandbox is made, or a helper runs on it: a helper the engine creates (never
 * starts). For a sandbox taken as it is, straight to its command: the command's own
 * container binds the probe's files, and the engine refuses to create it when it does not find them, so
 * nothing in it starts with an empty or a wrong folder; that costs no engine call of its own.
 */
class EngineViewProof {
    engine;
    image;
    folders;
    imageReady;
    onHelper;
    helper;
    proved;
    planted;
    removed;
    constructor(engine, image, folders, 
    /** The image check (it pulls), asked by the helper's proof only when the engine lacks the image. */
    imageReady, 
    /**
     * Told the helper's name before the engine creates it, and undefined once `remove` removed it: a run
     * saves it for its post step, which removes a helper that a killed main step (or an engine that did
     * not answer) left.
     */
    onHelper) {
        this.engine = engine;
        this.image = image;
        this.folders = folders;
        this.imageReady = imageReady;
        this.onHelper = onHelper;
    }
    /**
     * Proves it with a helper, started now unless it already was; rejects naming what the engine does not
     * see. Once it resolved, the engine has the image too (the helper is created with `--pull never`).
     */
    byHelper() {
        if (!this.proved) {
            this.helper = (0,engine_probe/* probeEngineView */.Gn)(this.engine, this.image, this.folders, this.imageReady, undefined, this.onHelper);
            this.proved = this.helper.then(() => undefined);
            // Awaited by whoever needs it; a rejection before then is not an unhandled one (which would end
            // the process), and the await still throws it.
            for (const promise of [this.helper, this.proved])
                promise.catch(() => undefined);
        }
        return this.proved;
    }
    /** Whether a helper proves it (or is proving it). */
    get helperStarted() {
        return this.helper !== undefined;
    }
    /** The probe's files in the folders of `sandbox`, for its command's container to bind. */
    forCommand(sandbox) {
        this.planted ??= (0,engine_probe/* plantProbe */.CC)(this.engine, reusedProbeFolders(sandbox));
        return this.planted;
    }
    /** What the proof made that is still there (the helper, files) goes; once, whoever asks again. */
    remove() {
        this.removed ??= this.removeNow();
        return this.removed;
    }
    async removeNow() {
        await Promise.all([
            // A helper the engine did not remove (or that a failed probe could not) stays named for the post
            // step, which tries again.
            this.helper
                ?.then(async (p) => {
                if (await p.remove())
                    this.onHelper?.(undefined);
            })
                .catch(() => undefined),
            this.planted?.then((p) => p.remove()).catch(() => undefined),
        ]);
    }
}

// EXTERNAL MODULE: ./src/sandbox/repository.ts
var repository = __nccwpck_require__(1151);
// EXTERNAL MODULE: ./src/sandbox/git-traps.ts
var git_traps = __nccwpck_require__(622);
;// CONCATENATED MODULE: ./src/sandbox/reuse.ts



/**
 * $1 work tree, $2 branch, $3 commit, $4 token for the guard's lines. What `update-ref` opens on the way
 * (the ref, its lock, its log, and packed-refs, read to see that the name is free) is cleared of traps
 * first (git-traps.ts).
 */
const OFFER_SCRIPT = `set -eu
${git_traps/* TRAP_GUARD */.YV}
cd -- "$1"
ref="refs/remotes/origin/$2"
clear_git_traps "$4" "$ref" "$ref.lock" "logs/$ref" packed-refs
git update-ref "$ref" "$3"
`;
async function offerUpstream(git, engine, sandbox, image) {
    const upstream = sandbox.upstreamNew;
    if (!sandbox.reused || !sandbox.branch || !upstream)
        return { cleared: [] };
    const { parent } = sandbox;
    const refs = (0,bookkeeping/* sandboxRefs */.yB)(sandbox);
    const traps = new git_traps/* ClearedTraps */.XL('offer');
    // A FIFO where the helper's git writes is removed before it starts; one where git only reads (HEAD,
    // config) would still make it hang: the helper runs under its time limit, and running out fails the
    // run with a TimeLimitError naming the sandbox.
    const result = await engine.runHelper((0,layout/* sandboxHelper */.Ap)(sandbox, image, {
        name: 'offer',
        text: OFFER_SCRIPT,
        args: [sandbox.worktreePath, sandbox.branch, upstream, traps.token],
    }), {
        work: 'offer',
        where: `${sandbox.name} (${(0,layout/* whereIs */.ie)(sandbox)})`,
        consequence: `origin/${sandbox.branch} was not offered inside, and the sandbox is left as it is`,
    }, { onLine: (line, stream) => void (stream === 'stderr' && traps.take(line)) });
    // A failure is the sandbox's own business (its repository may be broken).
    if (result.exitCode !== 0)
        return { cleared: traps.list };
    await git.run(parent.path, ['update-ref', '-m', 'worktree-sandbox: offered', '--', refs.offered, upstream]);
    return { offered: upstream, cleared: traps.list };
}

// EXTERNAL MODULE: ./src/settings/settings.ts + 5 modules
var settings_settings = __nccwpck_require__(9109);
// EXTERNAL MODULE: ./src/run/collect.ts + 1 modules
var collect = __nccwpck_require__(527);
// EXTERNAL MODULE: ./src/network/leftovers.ts
var leftovers = __nccwpck_require__(1434);
// EXTERNAL MODULE: ./src/network/policy.ts + 1 modules
var network_policy = __nccwpck_require__(3977);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __nccwpck_require__(7598);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __nccwpck_require__(8161);
// EXTERNAL MODULE: ./src/engine/engine-error.ts
var engine_error = __nccwpck_require__(389);
// EXTERNAL MODULE: ./src/run/reply.ts
var run_reply = __nccwpck_require__(5489);
;// CONCATENATED MODULE: ./src/run/command.ts
// Runs the user's command in a container that sees its sandbox read-write and nothing else writable of
// the host (layout.ts `commandMounts`). Output is streamed line by line and never accumulated (a bounded
// tail is kept for reports); the runner's environment stays out but for the variables named in `env`;
// the command is stopped when the timeout passes; a container that never started is an error, not exit 0.
// ADR 0005, ADR 0006, ADR 0007 (docs/adr/).












const TIMEOUT_EXIT_CODE = 124;
const TAIL_LINES = 40;
const TAIL_LINE_CHARS = 1000;
function containerName(sandbox) {
    return `worktree-sandbox-${sandbox.slice(0, 60).replace(/[^A-Za-z0-9_.-]/g, '-')}-${(0,external_node_crypto_.randomBytes)(3).toString('hex')}`;
}
/** The action's own variables (nothing secret): who commits, where the sandbox and its home are. */
function actionEnv(sandbox, spec) {
    return {
        HOME: sandbox.homePath,
        GIT_AUTHOR_NAME: spec.author.name,
        GIT_AUTHOR_EMAIL: spec.author.email,
        GIT_COMMITTER_NAME: spec.committer.name,
        GIT_COMMITTER_EMAIL: spec.committer.email,
        SANDBOX_NAME: sandbox.name,
        SANDBOX_KIND: sandbox.kind,
        SANDBOX_BRANCH: sandbox.branch,
        SANDBOX_WORKTREE: sandbox.worktreePath,
        SANDBOX_PARENT: sandbox.parent.path,
        ...spec.reply?.env,
        ...spec.extraEnv,
    };
}
/**
 * The `env` input's values never appear on a command line and never change the engine CLI's own
 * environment: one-line values go through a file only the runner can read (removed afterwards); values
 * of several lines, which that file cannot hold, are handed to the CLI by name (`-e NAME`).
 */
async function userEnv(entries) {
    const inherit = {};
    const lines = [];
    for (const { name, value } of entries) {
        if (/[\r\n]/.test(value))
            inherit[name] = value;
        else
            lines.push(`${name}=${value}`);
    }
    if (lines.length === 0)
        return { inherit };
    const dir = await promises_.mkdtemp(external_node_path_.join(process.env.RUNNER_TEMP || external_node_os_.tmpdir(), 'worktree-sandbox-env-'));
    const file = external_node_path_.join(dir, 'env');
    await promises_.writeFile(file, `${lines.join('\n')}\n`, { mode: 0o600, flag: 'wx' });
    return { file, dir, inherit };
}
function commandContainer(sandbox, spec, name, env) {
    const extra = (spec.readOnlyFiles ?? []).map((file) => ({
        type: 'bind',
        source: file,
        target: file,
        readonly: true,
    }));
    return {
        name,
        init: true,
        image: spec.image,
        user: (0,container_args/* userArg */.Q6)(),
        mounts: [
            ...(spec.viewProof?.mounts ?? []),
            ...(0,layout/* commandMounts */.iu)(sandbox, spec.worktreeRoot),
            ...extra,
            ...(spec.reply ? [spec.reply.mount] : []),
        ],
        labels: (0,labels/* commandLabels */.nX)(sandbox),
        limits: spec.limits,
        workdir: sandbox.worktreePath,
        env: actionEnv(sandbox, spec),
        envFile: env.file,
        inheritEnv: Object.keys(env.inherit),
        entrypoint: 'sh',
        args: ['-c', spec.command],
    };
}
/**
 * The network of the command container `name`: the proxy and its sidecar (src/network/session.ts). Its
 * code is loaded on demand, a chunk of its own: the proxy library is no part of a run without one.
 */
async function startCommandNetwork(engine, policy, sandbox, name) {
    const { startNetwork } = await Promise.all(/* import() */[__nccwpck_require__.e(830), __nccwpck_require__.e(472), __nccwpck_require__.e(54)]).then(__nccwpck_require__.bind(__nccwpck_require__, 6054));
    return startNetwork(engine, policy, { name, labels: (0,labels/* commandLabels */.nX)(sandbox) });
}
async function runCommand(engine, sandbox, given, hooks = {}) {
    const name = given.containerName ?? containerName(sandbox.name);
    const env = await userEnv(given.env);
    const offered = await (0,run_reply/* offerReplyFolder */.b4)(() => engine.bindSource(), process.env.RUNNER_TEMP || external_node_os_.tmpdir());
    const reply = 'hostDir' in offered ? offered : undefined;
    const spec = { ...given, reply };
    hooks.onStart?.(name);
    let timedOut = false;
    const timer = spec.timeoutMinutes > 0
        ? setTimeout(() => {
            timedOut = true;
            void engine.killContainer(name);
        }, spec.timeoutMinutes * 60_000)
        : undefined;
    const started = Date.now();
    const note = (0,lock/* containerNotePath */.NJ)(sandbox.parent.gitDir, sandbox.name);
    const network = spec.network;
    let outcome;
    try {
        await promises_.mkdir(external_node_path_.dirname(note), { recursive: true });
        await promises_.writeFile(note, `${name}\n`);
        let container = commandContainer(sandbox, spec, name, env);
        if (network) {
            const joined = {
                ...spec,
                extraEnv: { ...spec.extraEnv, ...network.env },
                readOnlyFiles: [...(spec.readOnlyFiles ?? []), ...network.readOnlyFiles],
            };
            container = { ...commandContainer(sandbox, joined, name, env), joinNetworkOf: network.joinNetworkOf };
        }
        await hooks.ready?.();
        const result = await engine.stream(await engine.runArgs(container), {
            inherit: env.inherit,
            backpressure: hooks.drained,
            outputFd: hooks.outputFd,
            onStderrChunk: hooks.onStderrChunk,
            onLine: hooks.onLine,
            stderrTailLines: TAIL_LINES,
        });
        const durationMs = Date.now() - started;
        // With the output written straight to the step's log, its last lines are the engine's log of the
        // container: asked beside its state when the tail is wanted (one wait), else only when the command did
        // not run, for what the engine said (each question is an engine CLI start; docs/benchmarks.md).
        const logged = hooks.outputFd !== undefined;
        const [asked, state] = await Promise.all([
            logged && hooks.tail ? engine.logTail(name, TAIL_LINES) : undefined,
            engine.containerState(name),
        ]);
        const ranBadly = !state || !state.started || !!state.error || state.exitCode === 127;
        const lines = !logged
            ? result.outputTail
            : (asked ?? (ranBadly ? await engine.logTail(name, TAIL_LINES) : []));
        const tail = lines.map((l) => (l.length > TAIL_LINE_CHARS ? `${l.slice(0, TAIL_LINE_CHARS)}…` : l));
        // What the engine said last: its stderr, or (output written straight to the step's log) its log of
        // the container; an engine error from before the container existed is in the step's log above.
        const engineSaid = [...result.stderrTail, ...(hooks.outputFd === undefined ? [] : lines)];
        const said = engineSaid.slice(-3).join(' ').trim();
        if (state)
            hooks.onCreated?.();
        if (!state) {
            // The engine refused a probe file: it does not see the sandbox's folders where the action does.
            const unseen = await spec.viewProof?.unseen(engineSaid.join('\n'));
            if (unseen)
                throw unseen;
            if ((await engine.containerExists(name)) === undefined)
                throw new engine_error/* EngineError */.NJ(`The ${engine.name} engine became unreachable while the command ran (exit ${result.exitCode}): the sandbox is kept as it is; run again once the engine is back.`);
            throw new engine_error/* EngineError */.NJ(`The container did not start (${engine.name} exit ${result.exitCode}): ${said}`);
        }
        if (!state.started || state.error)
            throw new engine_error/* EngineError */.NJ(`The container was created but did not start (${engine.name} exit ${result.exitCode}): ${state.error || said}${(0,start_failure/* startFailureHint */.E)(state.error || said)}`);
        // Docker's init (tini) started, but the command itself could not: it never ran.
        const initFailed = engineSaid.find((line) => /^\[FATAL tini \(\d+\)\] exec /.test(line));
        if (!timedOut && state.exitCode === 127 && engine.name === 'docker' && initFailed)
            throw new engine_error/* EngineError */.NJ(`The container started but its command did not (${engine.name} exit 127): ${initFailed}${(0,start_failure/* startFailureHint */.E)(initFailed)}`);
        const exitCode = timedOut ? TIMEOUT_EXIT_CODE : state.exitCode;
        outcome = { exitCode, timedOut, oomKilled: state.oomKilled, durationMs, tail };
        return outcome;
    }
    finally {
        if (timer)
            clearTimeout(timer);
        if (await engine.removeContainer(name))
            await promises_.rm(note, { force: true });
        // The proxy and its sidecar stop with the command, after its container is gone (Podman keeps a
        // container that another one still joins); what the proxy counted is complete only then.
        if (network) {
            const report = await network.stop();
            if (outcome)
                outcome.network = report;
        }
        if (env.dir)
            await promises_.rm(env.dir, { recursive: true, force: true });
        // Read once the container is gone (nothing writes the folder any more), then the folder goes.
        if (reply) {
            const read = outcome ? await (0,run_reply/* readReply */.Xw)(reply.hostDir) : {};
            const left = await (0,run_reply/* removeReplyFolder */.Rz)(reply.hostDir);
            if (outcome)
                outcome.reply = left ? { ...read, warning: [read.warning, left].filter(Boolean).join(' ') } : read;
        }
        else if (outcome && 'warning' in offered)
            outcome.reply = offered;
    }
}
/** Containers of the sandbox that a killed run left (its note says there may be some): removed. */
async function removeLeftContainers(engine, sandbox) {
    const note = (0,lock/* containerNotePath */.NJ)(sandbox.parent.gitDir, sandbox.name);
    if (!(await (0,bookkeeping/* pathExists */.s0)(note)))
        return [];
    const removed = await engine.removeContainersLabelled((0,labels/* commandLabels */.nX)(sandbox));
    await promises_.rm(note, { force: true });
    return removed;
}

// EXTERNAL MODULE: ./src/sandbox/saved.ts
var saved = __nccwpck_require__(7180);
// EXTERNAL MODULE: ./src/run/report.ts
var run_report = __nccwpck_require__(7119);
// EXTERNAL MODULE: ./src/run/secret-gate.ts + 2 modules
var secret_gate = __nccwpck_require__(2735);
;// CONCATENATED MODULE: ./src/run/push.ts




function authConfig(url, token) {
    if (!token || !/^https?:\/\//i.test(url))
        return [];
    const basic = Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64');
    const { protocol, host } = new URL(url);
    return [[`http.${protocol}//${host}/.extraheader`, `AUTHORIZATION: basic ${basic}`]];
}
async function pushBranch(git, parent, originUrl, branch, sha, token, options = {}) {
    const trackingRef = options.trackingRef ?? `refs/remotes/origin/${branch}`;
    const label = options.label ?? `origin/${branch}`;
    const result = await git.exec(parent.path, ['push', '--porcelain', '--no-verify', '--', originUrl, `${sha}:refs/heads/${branch}`], {
        config: authConfig(originUrl, token),
        work: 'git-push',
        purpose: `pushing the run's commits to ${label}`,
    });
    if (result.exitCode === 0) {
        // The remote-tracking ref now names what origin has, so that the pushed commits count as on a remote.
        await (0,lock/* withRepositoryLock */.aZ)(parent.gitDir, async () => {
            await git.exec(parent.path, ['update-ref', '-m', 'worktree-sandbox: pushed', '--', trackingRef, sha]);
        });
        return { pushed: true };
    }
    const text = `${result.stdout}\n${result.stderr}`;
    const rejected = /\[rejected\]|non-fast-forward|fetch first|\[remote rejected\]/.test(text);
    const reason = rejected
        ? `${label} has moved on since the sandbox started: the push was rejected (nothing is ever force-pushed). Rebase or rerun.`
        : `git push failed: ${result.stderr.trim().split('\n').slice(-2).join(' ')}`;
    return { pushed: false, rejected, reason };
}
/** A run's push: its branch tip, to `to`, once the secret scan lets the commits go. */
async function pushSandbox(git, sandbox, report, to, token, ui, gate) {
    if (!sandbox.branch)
        return { pushed: false, reason: 'a transient sandbox has no branch to push' };
    // What is pushed is the branch tip the parent recorded from the bundle, and only while HEAD was on it.
    if (report.currentBranch !== sandbox.branch || report.headSha !== report.tip) {
        return {
            pushed: false,
            reason: `the sandbox is no longer on its branch (HEAD: ${report.currentBranch ? 'another branch' : 'detached'}); nothing pushed`,
        };
    }
    if ('withheld' in to) {
        if (report.commits === 0)
            return { pushed: false, reason: 'no new commits' };
        ui.info(`Nothing pushed: ${to.withheld}.`);
        return { pushed: false, reason: to.withheld };
    }
    // Counted against the destination, not against this run's start: a run killed before its push
    // completed left commits that the next run must still push.
    const parentPath = sandbox.parent.path;
    const tracking = (await git.refExists(parentPath, to.trackingRef)) ? [to.trackingRef] : ['--remotes'];
    const unpushed = await (0,run_report/* commitsNotIn */.hy)(git, parentPath, report.tip, tracking);
    if (unpushed === 0)
        return { pushed: false, reason: `no commits that ${to.label} does not have` };
    await (0,secret_gate/* checkCommits */.TK)(git, parentPath, [report.tip, '--not', ...tracking], gate, `the push to ${to.label}`);
    const result = await pushBranch(git, sandbox.parent, to.url, to.branch, report.tip, token, {
        trackingRef: to.trackingRef,
        label: to.label,
    });
    const atLeast = unpushed >= saved/* MAX_COUNTED_COMMITS */.RM ? 'at least ' : '';
    if (result.pushed)
        ui.info(`Pushed ${atLeast}${unpushed} commit(s) to ${to.label}.`);
    else
        ui.warning(result.reason ?? 'push failed');
    return result;
}

;// CONCATENATED MODULE: ./src/run/run-log.ts
// What a run says in the log about its sandbox and its command, in words a person reads.

function describeSandbox(ui, sandbox, source, offered) {
    const what = sandbox.branch
        ? `branch ${sandbox.branch} (${sandbox.reused ? 'reused' : source})`
        : `detached at ${sandbox.startSha.slice(0, 12)}`;
    ui.info(`${sandbox.reused ? 'Reusing' : 'Created'} ${sandbox.name}: ${what}; ${(0,layout/* whereIs */.ie)(sandbox)}.`);
    if (offered)
        ui.info(`origin/${sandbox.branch} moved to ${offered.slice(0, 12)}: offered inside as origin/${sandbox.branch} (the work tree is left as it is).`);
}
function reportCommand(ui, command) {
    const seconds = (command.durationMs / 1000).toFixed(1);
    if (command.timedOut)
        ui.warning(`The command was stopped by timeout-minutes after ${seconds}s (exit code ${command.exitCode}).`);
    else if (command.oomKilled)
        ui.warning(`The command was killed by the memory limit (exit code ${command.exitCode}).`);
    else
        ui.info(`The command exited with code ${command.exitCode} after ${seconds}s.`);
}
/** A command's first line, at most 80 characters: the title of its log group. */
function firstLine(text) {
    const line = text.trim().split('\n')[0];
    return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

// EXTERNAL MODULE: ./src/run/secret-values.ts
var secret_values = __nccwpck_require__(8620);
;// CONCATENATED MODULE: ./src/run/run.ts
// Run mode, as the steps of docs/run-mode.md, each awaited in order: the parent repository, the branch,
// the sandbox's name and place, the sandbox (under its lock), the run, the import and the report, the
// push. Each long step is a log group. Start-up devices (questions asked early, guesses at reuse) went
// where they did not measurably pay (ADR 0011; docs/benchmarks.md).






















async function runSandbox(settings, deps) {
    const { ui } = deps;
    maskSecrets(settings, ui);
    const engine = (0,engine_engine/* createEngine */.P)(settings.engine);
    const git = await (0,engine_git/* createGit */.lD)();
    // 1. The parent repository (a bad branch name is the error reported whenever it is one).
    await (0,settings_settings/* validateBranchNames */.N6)(settings, (name) => git.isValidBranchName(name));
    const { head, ...parent } = await (0,repository/* findParentRepository */.a)(git, settings.repositoryPath);
    if (parent.resolvedFrom)
        ui.info(`${parent.resolvedFrom} is a linked worktree: working from its parent ${parent.path}.`);
    // A path the engine cannot see is refused before anything is created, naming it and the fix.
    const worktreeRoot = settings.isolation === 'disk' ? await (0,layout/* realRoot */.dU)(settings.worktreeRoot) : settings.worktreeRoot;
    const readOnlyFiles = deps.command?.readOnlyFiles;
    (0,host_paths/* requireVisible */.Qe)(await engine.hostView(), mountedPaths(parent, settings.isolation, worktreeRoot, readOnlyFiles));
    // 2. The branch; 3. the sandbox's name and place.
    const plan = await resolveBranch(git, { ...parent, head }, settings.branch, settings.base);
    ui.debug(`Branch plan: ${JSON.stringify(plan)}`);
    const location = (0,layout/* locateSandbox */.Iw)(plan, parent, settings.isolation, worktreeRoot, settings.volumePrefix);
    ui.debug(`Sandbox plan: ${location.name} (${location.kind}, ${location.isolation}) at ${(0,layout/* whereIs */.ie)(location)}; work tree ${location.worktreePath}, home ${location.homePath}; records under ${(0,bookkeeping/* sandboxRefs */.yB)(location).prefix}.`);
    const originUrl = settings.push ? await git.remoteUrl(parent.path, 'origin') : undefined;
    if (settings.push && !originUrl && !deps.pushTo)
        throw new Error(`push: true needs a remote named origin in ${parent.path}.`);
    // The proof that the engine sees the folders where the action sees them, before anything is written or
    // run: by a helper the engine creates (it also proves the image there), or, for a sandbox taken as it
    // is, by its command's own container (EngineViewProof).
    const proof = new EngineViewProof(engine, settings.image, probedFolders(parent, settings.isolation, worktreeRoot), () => engine.ensureImage(settings.image), 
    // Saved before the engine creates it: a main step killed before `proof.remove` leaves its post step
    // the name (cleanup.ts, removeLeftProbe).
    (name) => deps.save({ probe: name ? { engine: settings.engine, name } : undefined }));
    try {
        const wait = settings.lockTimeoutMinutes * 60_000;
        const release = await (0,lock/* lockSandbox */.rj)(parent.gitDir, location.name, wait, (m) => ui.info(m));
        deps.onSandboxLock?.(true);
        try {
            return await runLocked(settings, deps, { engine, git, plan, location, proof, worktreeRoot, originUrl });
        }
        finally {
            deps.onSandboxLock?.(false);
            await release();
        }
    }
    finally {
        // What the probe made goes, if the command's end did not start that (runLocked); never on the way
        // to the command.
        await proof.remove();
    }
}
/** The token, the credentials' values and secret-named env values are masked before anything could print them. */
function maskSecrets(settings, ui) {
    if (settings.token)
        ui.mask(settings.token);
    // A credential's value is the proxy's alone.
    if (settings.network.mode === 'allow' || settings.network.mode === 'audit')
        for (const { value } of settings.network.credentials)
            ui.mask(value);
    for (const { value } of (0,secret_values/* knownSecrets */.xU)(settings))
        if (value)
            ui.mask(value);
}
/** 4. to 6., with the sandbox's lock held: the sandbox, the run, the import and the report, the push. */
async function runLocked(settings, deps, planned) {
    const { ui } = deps;
    const { engine, git, location, proof, originUrl } = planned;
    const prepared = await ui.group(`Sandbox ${location.name} (${location.kind}, ${location.isolation})`, () => sandboxReady(settings, deps, planned));
    const { sandbox, offerCleared } = prepared;
    const commandName = containerName(sandbox.name);
    // With an allow-list or audit, the proxy and its sidecar: stopped with the command, or below if the
    // command never ran.
    const policy = settings.network;
    const network = (0,network_policy/* isProxied */.S7)(policy)
        ? await startCommandNetwork(engine, policy, sandbox, commandName)
        : undefined;
    try {
        // The command's container carries the probe's files: until the engine has created it, the post step
        // knows the engine's view unproven, and touches nothing of the sandbox (RunState.viewProof).
        const viewProof = proof.helperStarted ? undefined : await proof.forCommand(sandbox);
        deps.save({
            ready: true,
            startSha: sandbox.startSha,
            ...(viewProof ? { viewProof: { files: viewProof.files } } : {}),
        });
        const command = await ui.group(`Run: ${firstLine(settings.command)}`, () => ui.untrusted((write) => runCommand(engine, sandbox, {
            command: settings.command,
            image: settings.image,
            env: settings.env,
            limits: settings.limits,
            timeoutMinutes: settings.timeoutMinutes,
            author: settings.author,
            committer: settings.committer,
            worktreeRoot: planned.worktreeRoot,
            readOnlyFiles: deps.command?.readOnlyFiles,
            extraEnv: deps.command?.extraEnv,
            containerName: commandName,
            network,
            viewProof,
        }, {
            onStart: (container) => deps.save({ container }),
            onCreated: viewProof ? () => deps.save({ viewProof: undefined }) : undefined,
            onLine: write,
            outputFd: write.fd,
            ready: write.flush,
            onStderrChunk: write.raw,
            drained: write.drained,
            tail: deps.tail,
        })));
        deps.save({ container: undefined, exitCode: command.exitCode });
        // What the probe made goes while the work is imported, not after it: runSandbox awaits it at the end.
        void proof.remove();
        reportCommand(ui, command);
        // The reply is scanned before it is shown anywhere: with `block`, a secret in it fails the step here,
        // before the work is imported or pushed, and the sandbox keeps everything for a person to look at.
        const gate = (0,secret_gate/* secretGate */._D)(settings, ui, () => deps.save({ secretsFound: true }));
        const replyText = command.reply?.reply?.text;
        if (replyText)
            await ui.group('Secret scan: the reply', () => (0,secret_gate/* checkReply */.xk)(replyText, gate));
        (0,run_reply/* reportReply */.lc)(ui, command.reply);
        const wantsCommit = settings.push && !!sandbox.branch;
        const report = await ui.group('Import', async () => {
            const r = await (0,collect/* collectChanges */.K)(git, engine, sandbox, settings, wantsCommit ? settings.commitMessage : undefined);
            if (r.staleLocks)
                ui.info(`Removed ${r.staleLocks} stale git lock(s) (HEAD's, the branch's) a killed git left in ${sandbox.name}, to commit its leftovers.`);
            (0,git_traps/* reportCleared */.DB)(ui, sandbox.name, r.trapsCleared ?? []);
            ui.fenced(r.diffStat || 'No changes.');
            if (r.countsStopped)
                ui.warning(`The changed files were not all counted: ${r.countsStopped}.`);
            if (r.branchUpdate)
                ui.info(`The parent's ${sandbox.branch}: ${r.branchUpdate}.`);
            return r;
        });
        deps.save({
            report: {
                uncommittedCount: report.uncommittedCount,
                uncommittedExact: report.uncommittedExact,
                currentBranch: report.currentBranch.slice(0, 256),
            },
        });
        let push;
        if (settings.push) {
            const to = deps.pushTo ?? {
                url: originUrl,
                branch: sandbox.branch,
                trackingRef: `refs/remotes/origin/${sandbox.branch}`,
                label: `origin/${sandbox.branch}`,
            };
            push = await ui.group('Push', () => pushSandbox(git, sandbox, report, to, settings.token, ui, gate));
        }
        const trapsCleared = [...offerCleared, ...(report.trapsCleared ?? [])];
        return { sandbox, command, report, push, ...(trapsCleared.length ? { trapsCleared } : {}) };
    }
    finally {
        await network?.stop().catch(() => undefined);
    }
}
/**
 * 4. The sandbox: what killed runs left goes, the sandbox is made or taken as it is, and a reused one is
 * offered origin's new commits. What the post step needs is saved once the engine has the image and is
 * known to see the folders (or, for a sandbox proved by its command's container, is to be shown so), and
 * before anything is written: a run that fails either check leaves the post step nothing to do.
 */
async function sandboxReady(settings, deps, { engine, git, plan, location, proof }) {
    const { ui } = deps;
    const saveForPost = () => deps.save({
        engine: settings.engine,
        image: settings.image,
        cleanup: settings.cleanup,
        location,
        collect: {
            author: settings.author,
            committer: settings.committer,
            maxImportBytes: settings.maxImportBytes,
        },
    });
    let checked;
    const checks = () => (checked ??= proof.byHelper().then(saveForPost));
    // We hold the sandbox lock, so a command container still there belongs to a run that was killed; and,
    // whatever their sandbox, what killed runs with an allow-list left ended on this engine. One engine
    // question each, overlapping the sandbox's records (docs/benchmarks.md).
    const [sandbox, ...left] = await Promise.all([
        prepareSandbox(git, engine, location, plan, { name: settings.image, ready: checks }, ui),
        removeLeftContainers(engine, location),
        (0,leftovers/* removeLeftNetworkContainers */.a9)(engine),
    ]);
    const orphans = left.flat();
    if (orphans.length)
        ui.info(`Removed container(s) left by a run that was killed: ${orphans.join(', ')}.`);
    // A sandbox taken as it is, with no helper to run on it first, is proved by its command's container.
    if (sandbox.reused && !sandbox.upstreamNew && !proof.helperStarted) {
        await engine.ensureImage(settings.image);
        saveForPost();
    }
    else
        await checks();
    const offer = await offerUpstream(git, engine, sandbox, settings.image);
    describeSandbox(ui, sandbox, plan.source, offer.offered);
    (0,git_traps/* reportCleared */.DB)(ui, sandbox.name, offer.cleared);
    return { sandbox, offerCleared: offer.cleared };
}


/***/ }),

/***/ 2735:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  aM: () => (/* binding */ SecretScanBlocked),
  TK: () => (/* binding */ checkCommits),
  xk: () => (/* binding */ checkReply),
  _D: () => (/* binding */ secretGate)
});

// UNUSED EXPORTS: MAX_SCAN_BYTES, describeFinding, scanLogArgs

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __nccwpck_require__(7598);
// EXTERNAL MODULE: ./src/engine/git-commands.ts
var git_commands = __nccwpck_require__(8657);
// EXTERNAL MODULE: ./src/engine/time-limits.ts
var time_limits = __nccwpck_require__(1814);
// EXTERNAL MODULE: ./src/ui/sandbox-text.ts
var sandbox_text = __nccwpck_require__(9633);
;// CONCATENATED MODULE: ./src/run/raw-commit.ts
/** Header names shown as they are in a finding; any other header's name is sandbox text, not shown. */
const KNOWN_HEADERS = new Set(['tree', 'parent', 'encoding', 'gpgsig', 'gpgsig-sha256', 'mergetag']);
/** The place of a header named `name` (as the object spells it) in `commit`. */
function headerPlace(name, commit) {
    if (name === 'author' || name === 'committer')
        return { kind: name, commit };
    return { kind: 'header', name: KNOWN_HEADERS.has(name) ? name : undefined, commit };
}
/**
 * The lines of commit `commit`'s raw object: each header line (a continuation line, which starts with a
 * space, counts in the header it continues), then the message: its bytes read as UTF-8 with NULs taken
 * out (UTF-16 text then reads as its characters, as an added line's does), and, when an `encoding` header
 * names another encoding that the runtime can decode, the message decoded that way too (what `git log`
 * shows).
 */
function rawCommitLines(commit, body) {
    const out = [];
    const blank = body.indexOf('\n\n');
    const headEnd = blank < 0 ? body.length : blank;
    let place;
    let line = 0;
    let encoding;
    for (const text of body.subarray(0, headEnd).toString('utf8').split('\n')) {
        if (text.startsWith(' ') && place) {
            out.push({ place, line: ++line, text: text.slice(1) });
            continue;
        }
        const space = text.indexOf(' ');
        const name = space < 0 ? text : text.slice(0, space);
        if (name === 'encoding')
            encoding = text.slice(space + 1).trim();
        place = headerPlace(name, commit);
        line = 1;
        out.push({ place, line, text });
    }
    if (blank < 0)
        return out;
    const message = body.subarray(blank + 2);
    const messagePlace = { kind: 'message', commit };
    const stored = withoutNuls(message).toString('utf8').split('\n');
    stored.forEach((text, i) => out.push({ place: messagePlace, line: i + 1, text }));
    const decoded = decodeAs(encoding, message);
    if (decoded !== undefined)
        decoded.split('\n').forEach((text, i) => {
            if (text !== stored[i])
                out.push({ place: messagePlace, line: i + 1, text });
        });
    return out;
}
function withoutNuls(bytes) {
    return bytes.includes(0) ? Buffer.from(bytes.filter((b) => b !== 0)) : bytes;
}
/** The message decoded as its `encoding` header says, when that is not UTF-8 and the runtime knows it. */
function decodeAs(encoding, bytes) {
    if (!encoding || /^utf-?8$/i.test(encoding))
        return undefined;
    try {
        return new TextDecoder(encoding).decode(bytes);
    }
    catch {
        return undefined; // a name the runtime does not know: the bytes as stored were read above
    }
}
const ESCAPES = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
/**
 * A path as git's diff output prints it, back to the name git stores: `"…"` with C escapes (`\t`, `\"`,
 * `\\`, octal bytes) is unquoted and its bytes read as UTF-8; a path git did not quote is as it is.
 */
function unquotePath(printed) {
    if (!(printed.length >= 2 && printed.startsWith('"') && printed.endsWith('"')))
        return printed;
    const inner = printed.slice(1, -1);
    const bytes = [];
    for (let i = 0; i < inner.length; i++) {
        const c = inner[i];
        if (c !== '\\') {
            bytes.push(...Buffer.from(c, 'utf8'));
            continue;
        }
        const next = inner[i + 1] ?? '';
        const octal = /^[0-7]{3}/.exec(inner.slice(i + 1, i + 4));
        if (octal) {
            bytes.push(parseInt(octal[0], 8) & 0xff);
            i += 3;
        }
        else if (next in ESCAPES) {
            bytes.push(ESCAPES[next]);
            i += 1;
        }
        else
            bytes.push(92); // not an escape git writes: kept as it reads
    }
    return Buffer.from(bytes).toString('utf8');
}
/**
 * The path a `--raw` line of `git log` names (`:100644 100644 <old> <new> M\t<path>`), or undefined for
 * a line that is not one, or one whose path is deleted (its name is in the parent already).
 */
function rawDiffPath(line) {
    if (!line.startsWith(':'))
        return undefined;
    const tab = line.indexOf('\t');
    if (tab < 0)
        return undefined;
    const status = line.slice(0, tab).split(' ').pop() ?? '';
    if (status.startsWith('D'))
        return undefined;
    return unquotePath(line.slice(tab + 1));
}

;// CONCATENATED MODULE: ./src/run/secret-objects.ts

/**
 * Feeds the lines of each commit in `commits` to `scanner`, raw. Returns why it could not read them all
 * (then the scan is a finding of its own), or undefined when it did.
 */
async function readRawCommits(git, repo, commits, scanner, budget) {
    if (!commits.length)
        return undefined;
    const outOfTime = `reading it ran out of the scan's time limit (${Math.round(budget.limitMs / 1000)} s)`;
    const left = budget.deadline - Date.now();
    if (left <= 0)
        return outOfTime;
    const reader = await git.objectReader(repo, left);
    try {
        for (const commit of commits) {
            const info = await reader.info(commit);
            if (info?.type !== 'commit')
                return `git has no commit ${commit.slice(0, 12)} to read raw`;
            budget.bytes += info.size;
            if (budget.bytes > budget.maxBytes)
                return `what it carries is larger than the scan's bound (commit ${commit.slice(0, 12)} goes past ${budget.maxBytes} bytes)`;
            const object = await reader.read(commit);
            if (!object)
                return `git has no commit ${commit.slice(0, 12)} to read raw`;
            for (const { place, line, text } of rawCommitLines(commit, object.body)) {
                const wait = scanner.add(place, line, text);
                if (wait)
                    await wait;
            }
        }
        return undefined;
    }
    catch (error) {
        if (Date.now() >= budget.deadline)
            return outOfTime;
        return `git could not read the commits raw (${error.message.slice(0, 200)})`;
    }
    finally {
        await reader.close().catch(() => undefined);
    }
}

// EXTERNAL MODULE: ./src/run/secret-scan.ts
var secret_scan = __nccwpck_require__(4415);
// EXTERNAL MODULE: ./src/run/secret-values.ts
var secret_values = __nccwpck_require__(8620);
;// CONCATENATED MODULE: ./src/run/secret-gate.ts
// `secret-scan`: the check before each way out of a run (a push, a saved patch, a posted reply). What a push
// or a patch carries is read on the host, from the parent's checked objects, through the hardened git
// wrapper: every added line of every commit that leaves (a secret added in one commit and removed in the
// next still leaves in the first), every path name those commits add, and every commit object as git
// stores it (secret-objects.ts: headers, `gpgsig`, the message's bytes), bounded in bytes and time. With
// `block` a finding stops that way out and fails the step, naming each finding by place and rule, never by
// value; with `warn` the findings are warnings. A read that could not be finished (too large, out of time,
// git failing) is a finding of its own: nothing passes unscanned under `block`.








/** The most of git's output read for one scan (the diff with its added and removed lines, raw commits). */
const MAX_SCAN_BYTES = 256 * 1024 * 1024;
/** The step fails with this when `block` found something: what was found, where, and what was held back. */
class SecretScanBlocked extends Error {
    findings;
    constructor(message, findings) {
        super(message);
        this.findings = findings;
        this.name = 'SecretScanBlocked';
    }
}
/** The gate of a run: its mode, the known secrets' forms (each masked in the log from now on). */
function secretGate(settings, ui, onBlocked) {
    const secrets = (0,secret_values/* knownSecrets */.xU)(settings);
    const needles = (0,secret_values/* needlesOf */.en)(secrets);
    for (const { value } of secrets)
        if (value)
            ui.mask(value);
    for (const { text } of needles)
        ui.mask(text);
    return { mode: settings.secretScan, needles, short: (0,secret_values/* shortSecrets */._9)(secrets), ui, onBlocked };
}
/**
 * Scans the commits `revs` names (commit ids, then `--not` and refs or `--remotes`, as rev-list takes
 * them) in `repo`: `what` says where they were going (`the push to origin/feature`). Returns when they may
 * leave; throws SecretScanBlocked when they may not.
 */
async function checkCommits(git, repo, revs, gate, what) {
    if (gate.mode === 'off')
        return;
    for (const rev of revs)
        if (rev.startsWith('-') ? !['--not', '--remotes'].includes(rev) : !git_commands/* OID */.V.test(rev) && !rev.startsWith('refs/'))
            throw new Error(`Internal error: ${JSON.stringify(rev)} is not a revision the secret scan takes.`);
    sayShort(gate);
    const scanner = new secret_scan/* SecretScanner */.Jq(gate.needles, await (0,secret_scan/* loadLint */.o7)());
    const limitMs = (0,time_limits/* timeLimitMs */.PI)('secret-scan');
    const budget = {
        maxBytes: gate.maxBytes ?? MAX_SCAN_BYTES,
        bytes: 0,
        deadline: Date.now() + limitMs,
        limitMs,
    };
    const read = await readCommits(git, repo, revs, scanner, budget);
    // The commits themselves, as stored: after the diff, so that no piece mixes the two.
    if (!read.incomplete)
        read.incomplete = await readRawCommits(git, repo, read.oids, scanner, budget);
    await scanner.finish();
    const scanned = `${read.oids.length} commit(s) with their headers, ${read.paths} path name(s), ${read.lines} added line(s)`;
    verdict(gate, scanner, what, scanned, read.incomplete);
}
/** Scans a reply before it is posted (`where`: "reply"). Throws SecretScanBlocked when it may not go. */
async function checkReply(text, gate) {
    if (gate.mode === 'off')
        return;
    sayShort(gate);
    const scanner = new secret_scan/* SecretScanner */.Jq(gate.needles, await (0,secret_scan/* loadLint */.o7)());
    const max = gate.maxBytes ?? MAX_SCAN_BYTES;
    const over = Buffer.byteLength(text) > max;
    const lines = (over ? text.slice(0, max) : text).split(/\r?\n/);
    const place = { kind: 'reply' };
    for (let i = 0; i < lines.length; i++)
        await scanner.add(place, i + 1, lines[i]);
    await scanner.finish();
    const incomplete = over ? `the reply is larger than the scan's bound (${mib(max)})` : undefined;
    verdict(gate, scanner, 'the reply', `${lines.length} line(s)`, incomplete);
}
function sayShort(gate) {
    if (!gate.short.length)
        return;
    gate.ui.warning(`secret-scan: ${gate.short.join(', ')} ${gate.short.length > 1 ? 'are' : 'is'} shorter than ${secret_values/* MIN_SECRET_LENGTH */.vb} characters: not searched for.`);
    gate.short = [];
}
/**
 * What the scan reads of the diff: each commit's changed paths (`--raw`, folders too: `-t`) and its added
 * lines, every file as text whatever git's guess or the repository's attributes (`-diff`, `binary`) say
 * (a secret in a generated file or a binary blob leaves as surely as one in source), no external diff or
 * textconv, merges against their first parent. A path a commit adds is new to its first parent, so every
 * name of every new tree is listed by the commit that brought it in (or is on origin already).
 */
function scanLogArgs(format, revs) {
    return [
        'log',
        '--no-color',
        '--no-show-signature',
        '--no-ext-diff',
        '--no-textconv',
        '--no-renames',
        '--text',
        '--diff-merges=first-parent',
        '--raw',
        '-t',
        '--patch',
        '--unified=0',
        '--src-prefix=a/',
        '--dst-prefix=b/',
        format,
        ...revs,
        '--',
    ];
}
/**
 * One `git log -p -U0 --raw -t` of the commits, read line by line: each commit's id (after a marker of this
 * call's own, which no commit can know), the paths it changes (every name it adds, folders too), then its
 * added lines with their file and line number. A merge is compared with its first parent, so that what it
 * brings in is scanned too.
 */
async function readCommits(git, repo, revs, scanner, budget) {
    const marker = `wts-scan-${(0,external_node_crypto_.randomBytes)(12).toString('hex')}`;
    const read = { oids: [], paths: 0, lines: 0 };
    let state = 'header';
    let commit = '';
    let names = { kind: 'path', commit };
    let file;
    let newLine = 0;
    let wait;
    const stop = new AbortController();
    const { maxBytes } = budget;
    const onLine = (line, stream) => {
        if (stream !== 'stdout' || stop.signal.aborted)
            return;
        budget.bytes += line.length + 1;
        if (budget.bytes > maxBytes) {
            read.incomplete = `what it carries is larger than the scan's bound (over ${mib(maxBytes)} of diff)`;
            stop.abort();
            return;
        }
        if (line.startsWith(`${marker} `)) {
            commit = line.slice(marker.length + 1);
            if (!git_commands/* OID */.V.test(commit)) {
                read.incomplete = 'git listed a commit id it should not';
                stop.abort();
                return;
            }
            read.oids.push(commit);
            names = { kind: 'path', commit };
            file = undefined;
            state = 'raw';
        }
        else if (state === 'raw' && line.startsWith(':')) {
            const name = rawDiffPath(line);
            if (name === undefined)
                return;
            read.paths++;
            // One place for all of a commit's names, line 0: a finding names the commit, never the path.
            wait = scanner.add(names, 0, name) ?? wait;
        }
        else if (line.startsWith('diff --git ')) {
            state = 'header';
            file = undefined;
        }
        else if (state === 'header') {
            if (line.startsWith('+++ '))
                file = pathOf(line.slice(4), commit);
            else if (line.startsWith('@@ ')) {
                newLine = Number(/^@@ -\d+(?:,\d+)? \+(\d+)/.exec(line)?.[1] ?? 1);
                state = 'hunk';
            }
        }
        else if (line.startsWith('@@ '))
            newLine = Number(/^@@ -\d+(?:,\d+)? \+(\d+)/.exec(line)?.[1] ?? 1);
        else if (line.startsWith('+') && file) {
            read.lines++;
            // NULs out: UTF-16 text then reads as its characters, and a blob's printable runs as text.
            const text = line.includes('\0') ? line.slice(1).replace(/\0/g, '') : line.slice(1);
            wait = scanner.add(file, newLine++, text) ?? wait;
        }
    };
    const limitMs = Math.max(1, budget.deadline - Date.now());
    const result = await git.stream(repo, scanLogArgs(`--format=${marker} %H`, revs), {
        onLine,
        // A line is never cut (a secret past the cut would pass): the byte bound above stops a long one.
        maxLineBytes: maxBytes + 1,
        // While a piece is scanned, git waits (its output is not read on meanwhile).
        backpressure: () => {
            const w = wait;
            wait = undefined;
            return w;
        },
        signal: stop.signal,
        timeLimitMs: limitMs,
    });
    if (!read.incomplete && result.timedOut)
        read.incomplete = `reading it ran out of the scan's time limit (${Math.round(budget.limitMs / 1000)} s)`;
    else if (!read.incomplete && result.exitCode !== 0)
        read.incomplete = `git could not list it (${(0,sandbox_text/* sandboxText */.dX)(result.stderrTail.slice(-2).join(' '), 300)})`;
    return read;
}
/** A `+++` line's path: `b/name`, `"b/na\tme"` (git's quoting kept, for the eye only), or /dev/null. */
function pathOf(raw, commit) {
    const name = raw.endsWith('\t') ? raw.slice(0, -1) : raw;
    if (name === '/dev/null')
        return undefined;
    const quoted = name.startsWith('"') && name.endsWith('"');
    const inner = quoted ? name.slice(1, -1) : name;
    return { kind: 'file', path: inner.startsWith('b/') ? inner.slice(2) : inner, commit };
}
function verdict(gate, scanner, what, scanned, incomplete) {
    const { ui } = gate;
    if (!scanner.findings.length && !incomplete) {
        ui.info(`Secret scan of ${what}: nothing found (${scanned}).`);
        return;
    }
    // A path name with a finding holds the secret, and any later commit may touch that file: no path shown.
    const hidePaths = scanner.findings.some((f) => f.place.kind === 'path');
    const lines = scanner.findings.map((finding) => describeFinding(finding, hidePaths));
    if (scanner.more)
        lines.push(`… and ${scanner.more} more report(s)`);
    if (incomplete)
        lines.push(`not scanned whole: ${incomplete}`);
    const count = scanner.findings.length + scanner.more;
    const head = `Secret scan of ${what}: ${count} finding(s)${incomplete ? ', and it could not be scanned whole' : ''} (${scanned})`;
    if (gate.mode === 'warn') {
        ui.warning(`${head}; secret-scan: warn lets it go on:\n${lines.map((l) => `  ${l}`).join('\n')}`);
        return;
    }
    gate.onBlocked?.();
    throw new SecretScanBlocked(`${head}. Nothing of it left (secret-scan: block); the sandbox keeps the work for a person to look at. Values are never shown:\n${lines.map((l) => `  ${l}`).join('\n')}`, scanner.findings);
}
/**
 * `added line in src/app.js:12 of 0123456789ab: env API_KEY`, `author of 0123456789ab: token`: the place
 * and the rule, never the value. A path is sandbox text (escaped); a path name with a finding is not shown
 * (it holds the secret), and with `hidePaths` (some path name had a finding) no path is.
 */
function describeFinding(finding, hidePaths = false) {
    const { place, line, rule } = finding;
    if (place.kind === 'reply')
        return `reply, line ${line}: ${rule}`;
    const of = place.commit.slice(0, 12);
    let where;
    switch (place.kind) {
        case 'file':
            where = hidePaths
                ? `added line ${line} of ${of}, in a file whose path is not shown (a path name has a finding)`
                : `added line in ${(0,sandbox_text/* sandboxText */.dX)(place.path, 300)}:${line} of ${of}`;
            break;
        case 'message':
            where = `message of ${of}, line ${line}`;
            break;
        case 'author':
        case 'committer':
            where = `${place.kind} of ${of}`;
            break;
        case 'header':
            where = `${place.name ? `header ${place.name}` : 'an extra header'} of ${of}, line ${line}`;
            break;
        case 'path':
            where = `path name in ${of}`;
            break;
    }
    return `${where}: ${rule}`;
}
function mib(bytes) {
    return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
}


/***/ }),

/***/ 4415:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Jq: () => (/* binding */ SecretScanner),
/* harmony export */   o7: () => (/* binding */ loadLint)
/* harmony export */ });
/* unused harmony exports PIECE_CHARS, MAX_FINDINGS, RULE_ALLOWS */
/** Each piece handed to secretlint holds about this many characters (whole lines). */
const PIECE_CHARS = 1 << 20;
/** The lines of one piece that the next piece starts with again: a PEM private key is about 50 lines. */
const OVERLAP_LINES = 100;
/** Findings kept (the rest are counted): the failure names each one, and a log line has its limits. */
const MAX_FINDINGS = 200;
/** The comment filter lets text switch the scan off (`secretlint-disable`): the text here is hostile. */
const IGNORED_RULES = new Set(['@secretlint/secretlint-rule-filter-comments']);
/**
 * Text that a rule of the preset matches but that is no secret, passed to the rule as its own `allows`
 * option (strings match literally; `/…/` are patterns). secretlint already does the same for AWS's
 * documented example keys and for placeholder passwords; these two follow the same two ideas where its
 * lists stop short.
 */
const RULE_ALLOWS = {
    // The example keys of Shopify's changelog, which the Shopify rule's own source quotes (and so every
    // bundle that carries secretlint carries them too), like AWS's AKIAIOSFODNN7EXAMPLE.
    '@secretlint/secretlint-rule-shopify': [
        ['shpss', 'QlRSJy5AXX1cILNjVatTsEIhFxuPF5ex'].join('_'),
        ['shpat', 'r8TRc9ZXAvcVvcrmtr7qoVw69WeeY1ex'].join('_'),
        ['shpca', '7jqbg9cupMkZRxJKXWz3v8BvS8QBa7hMdJfAex'].join('_'),
        ['shppa', '7jqbg9cupMkZRxJKXWz3v8BvS8QBa7hMdJfAex'].join('_'),
    ],
    // The basic-auth rule takes a password containing "password" for a placeholder; so is the word spelt
    // with digits for letters (pa55word, passw0rd, p4ssw0rd). The pattern reads only the password: the
    // part between the user's colon and the `@` (the URL's scheme is followed by `//`, not a name).
    '@secretlint/secretlint-rule-basicauth': ['/:[-\\w]*p[a4][s5][s5]w[o0]rd[-\\w]*@/i'],
};
const emptyPiece = () => ({ text: '', starts: [], places: [], numbers: [] });
let lintLoaded;
/** secretlint and its recommended rules, loaded once, on the first scan (the bundle keeps them apart). */
function loadLint() {
    return (lintLoaded ??= (async () => {
        const [{ lintSource }, { rules }, { secretLintProfiler }] = await Promise.all([
            Promise.all(/* import() */[__nccwpck_require__.e(830), __nccwpck_require__.e(707)]).then(__nccwpck_require__.bind(__nccwpck_require__, 6707)),
            __nccwpck_require__.e(/* import() */ 577).then(__nccwpck_require__.bind(__nccwpck_require__, 1577)),
            __nccwpck_require__.e(/* import() */ 806).then(__nccwpck_require__.bind(__nccwpck_require__, 806)),
        ]);
        // Its profiler keeps a performance mark per rule and piece for as long as the process lives.
        secretLintProfiler.setEnabled(false);
        const config = {
            rules: rules
                .filter((rule) => !IGNORED_RULES.has(rule.meta.id))
                .map((rule) => {
                const allows = RULE_ALLOWS[rule.meta.id];
                return allows
                    ? { id: rule.meta.id, rule, options: { allows: [...allows] } }
                    : { id: rule.meta.id, rule };
            }),
        };
        return async (content) => {
            const result = await lintSource({
                // No file name: no rule reads a file of that name from the disk (the GCP rule reads `.p12`
                // files), and the npm rules look for their tokens in any text. (secretlint wants a name or an
                // extension: a neutral one.)
                source: { content, filePath: '', ext: '.txt', contentType: 'text' },
                options: { config, maskSecrets: true, noPhysicFilePath: true },
            });
            return result.messages.map((m) => ({
                ruleId: m.ruleId,
                messageId: m.messageId,
                line: m.loc.start.line,
                range: m.range,
            }));
        };
    })());
}
/**
 * Lines in, findings out. `add` returns a promise while a piece is being scanned: the reader waits for it
 * before it reads on (backpressure), so at most two pieces are held.
 */
class SecretScanner {
    needles;
    lint;
    findings = [];
    /** Reports past MAX_FINDINGS, counted only. */
    more = 0;
    piece = emptyPiece();
    seen = new Set();
    placeIds = new Map();
    busy;
    failure;
    constructor(needles, lint) {
        this.needles = needles;
        this.lint = lint;
    }
    /** A line of `place`; a promise when the caller should wait before it adds more. */
    add(place, line, text) {
        const piece = this.piece;
        piece.starts.push(piece.text.length);
        piece.text += `${text}\n`;
        piece.places.push(place);
        piece.numbers.push(line);
        if (piece.text.length >= PIECE_CHARS && !this.busy) {
            // The next piece starts with the last lines of this one.
            const keep = Math.min(OVERLAP_LINES, piece.starts.length);
            const from = piece.starts[piece.starts.length - keep];
            this.piece = {
                text: piece.text.slice(from),
                starts: piece.starts.slice(-keep).map((start) => start - from),
                places: piece.places.slice(-keep),
                numbers: piece.numbers.slice(-keep),
            };
            this.busy = this.scanPiece(piece)
                .catch((error) => {
                this.failure = error;
            })
                .finally(() => {
                this.busy = undefined;
            });
        }
        return this.busy;
    }
    /** Scans what is left; throws when a piece could not be scanned. */
    async finish() {
        await this.busy;
        if (this.piece.starts.length)
            await this.scanPiece(this.piece);
        this.piece = emptyPiece();
        if (this.failure)
            throw this.failure;
    }
    async scanPiece(piece) {
        const { text, starts, places, numbers } = piece;
        for (const needle of this.needles) {
            for (let at = text.indexOf(needle.text); at >= 0; at = text.indexOf(needle.text, at + 1))
                this.report(places, numbers, lineAt(starts, at), needle.rule);
        }
        for (const message of await this.lint(text)) {
            const index = Math.min(Math.max(message.line - 1, 0), starts.length - 1);
            this.report(places, numbers, index, `${message.ruleId} (${message.messageId})`);
        }
    }
    report(places, numbers, index, rule) {
        const at = { place: places[index], line: numbers[index] };
        let id = this.placeIds.get(at.place);
        if (id === undefined)
            this.placeIds.set(at.place, (id = this.placeIds.size));
        // Past the kept findings, only counted (a line of the overlap may then count twice).
        if (this.findings.length >= MAX_FINDINGS) {
            this.more++;
            return;
        }
        // A line in the overlap of two pieces is scanned twice: reported once.
        const key = `${id}:${at.line}:${rule}`;
        if (this.seen.has(key))
            return;
        this.seen.add(key);
        this.findings.push({ place: at.place, line: at.line, rule });
    }
}
/** The index of the line that holds `offset`, by binary search over the lines' starts. */
function lineAt(starts, offset) {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (starts[mid] <= offset)
            low = mid;
        else
            high = mid - 1;
    }
    return low;
}


/***/ }),

/***/ 8620:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Hm: () => (/* binding */ allForms),
/* harmony export */   _9: () => (/* binding */ shortSecrets),
/* harmony export */   en: () => (/* binding */ needlesOf),
/* harmony export */   vb: () => (/* binding */ MIN_SECRET_LENGTH),
/* harmony export */   xU: () => (/* binding */ knownSecrets)
/* harmony export */ });
/* unused harmony exports SECRET_ENV_NAME, base64Forms */
/** `env` names that say their value is secret: `*_KEY`, `*_TOKEN`, `*_SECRET`, `*_PASSWORD` (any case). */
const SECRET_ENV_NAME = /(^|_)(KEY|TOKEN|SECRET|PASSWORD)$/i;
/**
 * Values shorter than this are not searched for: a four-letter "secret" is found in every diff, and so
 * blocks every push. The step says so (`shortSecrets`).
 */
const MIN_SECRET_LENGTH = 8;
function knownSecrets(settings) {
    const found = [];
    if (settings.token)
        found.push({ name: 'token', value: settings.token });
    if (settings.network.mode === 'allow' || settings.network.mode === 'audit')
        for (const credential of settings.network.credentials) {
            // `Bearer <token>`, `token <token>`: the part after the scheme is the secret, and every form of the
            // whole value holds a form of that part (base64 at one of its alignments): it alone is searched.
            const scheme = /^[A-Za-z][A-Za-z0-9-]*\s+(\S.*)$/.exec(credential.value);
            found.push({
                name: `credentials for ${credential.host}`,
                value: scheme ? scheme[1] : credential.value,
            });
        }
    for (const entry of settings.env)
        if (SECRET_ENV_NAME.test(entry.name))
            found.push({ name: `env ${entry.name}`, value: entry.value });
    return found;
}
/** The secrets too short to be searched for (their names only). */
function shortSecrets(secrets) {
    const names = secrets.filter((s) => s.value.length > 0 && s.value.length < MIN_SECRET_LENGTH);
    return [...new Set(names.map((s) => s.name))];
}
/**
 * Every form of every secret long enough, each once (the first name that has it), and none that holds
 * another: text that holds the longer one holds the shorter one too, and each costs a pass over the text.
 */
function needlesOf(secrets) {
    const all = allForms(secrets);
    return all.filter((n) => !all.some((m) => m !== n && m.text.length < n.text.length && n.text.includes(m.text)));
}
/** Every form of every secret long enough, each once: what the redaction (redaction.ts) masks. */
function allForms(secrets) {
    const seen = new Set();
    const needles = [];
    const add = (rule, text) => {
        if (text.length < MIN_SECRET_LENGTH || seen.has(text))
            return;
        seen.add(text);
        needles.push({ rule, text });
    };
    for (const { name, value } of secrets) {
        if (value.length < MIN_SECRET_LENGTH)
            continue;
        add(name, value);
        add(`${name} (URL-encoded)`, encodeURIComponent(value));
        add(`${name} (JSON-escaped)`, JSON.stringify(value).slice(1, -1));
        const bytes = Buffer.from(value, 'utf8');
        add(`${name} (hex)`, bytes.toString('hex'));
        for (const text of base64Forms(bytes)) {
            add(`${name} (base64)`, text);
            add(`${name} (base64)`, text.replace(/\+/g, '-').replace(/\//g, '_'));
        }
    }
    return needles;
}
/**
 * The base64 text that `bytes` always produce inside a longer encoded text, at each alignment: encoded
 * after 0, 1 or 2 other bytes, the characters that mix in a neighbour's bits are left out at both ends.
 */
function base64Forms(bytes) {
    const forms = [];
    for (const pad of [0, 1, 2]) {
        const encoded = Buffer.concat([Buffer.alloc(pad), bytes])
            .toString('base64')
            .replace(/=+$/, '');
        const start = Math.ceil((pad * 8) / 6);
        const end = Math.floor(((pad + bytes.length) * 8) / 6);
        if (end > start)
            forms.push(encoded.slice(start, end));
    }
    return forms;
}


/***/ }),

/***/ 9503:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Ay: () => (/* binding */ privateStorePath),
/* harmony export */   Dw: () => (/* binding */ REF_ROOT),
/* harmony export */   Vp: () => (/* binding */ ensurePrivateStore),
/* harmony export */   dG: () => (/* binding */ nameFromComponent),
/* harmony export */   fW: () => (/* binding */ SNAPSHOT_REF),
/* harmony export */   gE: () => (/* binding */ dropRecords),
/* harmony export */   iC: () => (/* binding */ writeParentNote),
/* harmony export */   o8: () => (/* binding */ PARENT_NOTE),
/* harmony export */   s0: () => (/* binding */ pathExists),
/* harmony export */   yB: () => (/* binding */ sandboxRefs)
/* harmony export */ });
/* unused harmony exports isolationWord, refComponent */
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
// The parent's record of its sandboxes, kept where no container can write (the parent's `.git`, which
// containers never see but for its object store):
//  - refs `refs/worktree-sandbox/<disk|volume>/<name>/head`: the sandbox's commit as last imported (at
//    first, the commit it started from); keeps every object the sandbox borrows alive across `git gc`;
//  - `.../offered`: the upstream commit last offered inside the sandbox as `origin/<branch>`;
//  - `.../creating`: present only while the sandbox is being created (a killed run is recognised by it);
//  - a private store per sandbox (`<gitDir>/worktree-sandbox/stores/...`), created and configured only by
//    the host, for what was never committed (the snapshot of uncommitted work): never the parent's store,
//    which every sandbox borrows and could read.
// ADR 0002, ADR 0004 (docs/adr/).


const REF_ROOT = 'refs/worktree-sandbox';
/** Where the capture helper names the sandbox's work as a commit, for the bundle (run/capture.ts). */
const SNAPSHOT_REF = `${REF_ROOT}/snapshot`;
function isolationWord(isolation) {
    return isolation === 'disk' ? 'disk' : 'volume';
}
/**
 * A sandbox name as one ref component. Names are [A-Za-z0-9._-] with `..` before a hash (naming.ts), which
 * git forbids in refs: each dot followed by a dot gets a `%` after it (and a trailing `.lock` one too).
 * `%` never occurs in a name, so the encoding is reversible and two names never share a component.
 */
function refComponent(name) {
    const encoded = name.replace(/\.(?=\.)/g, '.%');
    return encoded.endsWith('.lock') ? `${encoded}%` : encoded;
}
function nameFromComponent(component) {
    return component.replace(/%/g, '');
}
function sandboxRefs(sandbox) {
    const prefix = `${REF_ROOT}/${isolationWord(sandbox.isolation)}/${refComponent(sandbox.name)}`;
    return { prefix, head: `${prefix}/head`, offered: `${prefix}/offered`, creating: `${prefix}/creating` };
}
function privateStorePath(parent, sandbox) {
    return node_path__WEBPACK_IMPORTED_MODULE_1__.join(parent.gitDir, 'worktree-sandbox', 'stores', isolationWord(sandbox.isolation), `${sandbox.name}.git`);
}
/**
 * Creates the private store when missing: a bare repository that borrows the parent's objects. Its
 * alternates name the parent's store by absolute path: when the parent was moved since, they are pointed
 * at where the parent's store is now (else every git command in the store fails).
 */
async function ensurePrivateStore(git, parent, store) {
    const alternates = node_path__WEBPACK_IMPORTED_MODULE_1__.join(store, 'objects', 'info', 'alternates');
    const wanted = `${parent.objectStores[0]}\n`;
    if (!(await pathExists(node_path__WEBPACK_IMPORTED_MODULE_1__.join(store, 'HEAD')))) {
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.mkdir(node_path__WEBPACK_IMPORTED_MODULE_1__.dirname(store), { recursive: true });
        await git.run(parent.gitDir, ['init', '--quiet', '--bare', '--template=', '--', store]);
    }
    else if ((await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile(alternates, 'utf8').catch(() => '')) === wanted)
        return;
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.writeFile(alternates, wanted);
}
/** Deletes every bookkeeping ref of a sandbox, in one git process. */
async function dropRecords(git, parent, refs) {
    const names = (await git.run(parent.path, ['for-each-ref', '--format=%(refname)', '--', `${refs.prefix}/`]))
        .split('\n')
        .filter(Boolean);
    if (names.length === 0)
        return;
    const input = Buffer.from(names.map((n) => `delete ${n}\n`).join(''));
    await git.run(parent.path, ['update-ref', '--stdin'], { input });
}
/** The project folder's note of its parent, for the reaper (`<root>/<project>/.parent`, host-only). */
const PARENT_NOTE = '.parent';
async function writeParentNote(projectDir, parent) {
    const file = node_path__WEBPACK_IMPORTED_MODULE_1__.join(projectDir, PARENT_NOTE);
    if ((await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile(file, 'utf8').catch(() => '')).trim() === parent.path)
        return;
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.writeFile(file, `${parent.path}\n`);
}
/** Whether anything (a link too) is at `p`. */
async function pathExists(p) {
    return node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.lstat(p).then(() => true, () => false);
}


/***/ }),

/***/ 622:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   DB: () => (/* binding */ reportCleared),
/* harmony export */   XL: () => (/* binding */ ClearedTraps),
/* harmony export */   YV: () => (/* binding */ TRAP_GUARD),
/* harmony export */   e: () => (/* binding */ describeCleared)
/* harmony export */ });
/* unused harmony export MAX_CLEARED */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _ui_sandbox_text_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(9633);
// Traps in a sandbox's git folder, cleared before a helper's git writes there. The command can leave,
// where the next helper's git opens a file, something that is not a file: a FIFO (git blocks opening it,
// and so did every later run of that sandbox until its helper's time limit), a socket or a device, or a
// symbolic link (git would write through it, or find a lock taken for good). Such an entry holds no work:
// it is the sandbox's own bookkeeping, in its `.git` folder, and it is removed, never opened or followed.
//
// The removal happens where the helper runs, in its container, in the shell before its git starts: for
// a volume that container is the only one that sees the files, and for a disk sandbox the host never
// looks (no host-side read could be fooled by a link the container planted). Each helper names the paths
// its own git writes; the work tree is never touched. What git only reads (HEAD, config, info/exclude)
// and a branch's own ref (it holds the work's tip) are left as they are: removing them would not heal the
// sandbox, and the helper's time limit still ends a git that blocks there.


/**
 * `clear_git_traps TOKEN PATH...`, run in the work tree: each PATH is relative to its `.git` folder. Each
 * component of a path is looked at without following it (`-L` first): a symbolic link, FIFO, socket or
 * device is removed and named on stderr as `TOKEN trap KIND PATH`, and nothing below it is looked at; a
 * folder is walked into; a regular file, or nothing, ends the path. A `.git` that is a link or not a
 * folder is left alone: it is not the folder this action made, and git's own errors speak for it.
 */
const TRAP_GUARD = `clear_git_traps() {
  _gt_token="$1"; shift
  if [ -L .git ] || [ ! -d .git ]; then return 0; fi
  for _gt_rel in "$@"; do
    _gt_path=.git; _gt_rest="$_gt_rel"
    while [ -n "$_gt_rest" ]; do
      _gt_path="$_gt_path/\${_gt_rest%%/*}"
      case "$_gt_rest" in */*) _gt_rest="\${_gt_rest#*/}" ;; *) _gt_rest= ;; esac
      if [ -L "$_gt_path" ]; then _gt_kind=link
      elif [ -d "$_gt_path" ]; then continue
      elif [ ! -e "$_gt_path" ] || [ -f "$_gt_path" ]; then break
      elif [ -p "$_gt_path" ]; then _gt_kind=fifo
      elif [ -S "$_gt_path" ]; then _gt_kind=socket
      elif [ -b "$_gt_path" ] || [ -c "$_gt_path" ]; then _gt_kind=device
      else _gt_kind=other; fi
      if rm -f -- "$_gt_path" 2>/dev/null; then
        printf '%s trap %s %s\\n' "$_gt_token" "$_gt_kind" "\${_gt_path#.git/}" >&2
      fi
      break
    done
  done
}
`;
const KINDS = new Map([
    ['fifo', 'FIFO'],
    ['socket', 'socket'],
    ['device', 'device'],
    ['link', 'symbolic link'],
    ['other', 'special file'],
]);
/**
 * The most entries kept of one helper's report: each helper names a handful of paths, and each path
 * yields one removal at most, so more than this is not the guard's report.
 */
const MAX_CLEARED = 16;
/** The most characters of one path kept. */
const PATH_MAX_CHARS = 300;
/** Collects a helper's `TOKEN trap KIND PATH` lines (stderr), bounded in count and length. */
class ClearedTraps {
    helper;
    token;
    list = [];
    constructor(helper, 
    /** What begins the guard's lines: a fresh random token unless the helper has one for its own lines. */
    token = (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomBytes)(16).toString('hex')) {
        this.helper = helper;
        this.token = token;
    }
    /** Takes the line if it is one of the guard's (true), else leaves it to the caller. */
    take(line) {
        const prefix = `${this.token} trap `;
        if (!line.startsWith(prefix))
            return false;
        const rest = line.slice(prefix.length);
        const space = rest.indexOf(' ');
        const kind = space > 0 ? KINDS.get(rest.slice(0, space)) : undefined;
        if (!kind)
            return true;
        if (this.list.length < MAX_CLEARED)
            this.list.push({ kind, path: (0,_ui_sandbox_text_js__WEBPACK_IMPORTED_MODULE_1__/* .sandboxText */ .dX)(rest.slice(space + 1), PATH_MAX_CHARS), helper: this.helper });
        return true;
    }
}
/** The removals in one line of text (escaped already; the job summary escapes its own characters too). */
function describeCleared(cleared, shown = MAX_CLEARED) {
    const named = cleared.slice(0, shown).map((t) => `${t.kind} .git/${t.path} (${t.helper})`);
    const more = cleared.length - named.length;
    return named.join('; ') + (more > 0 ? `; and ${more} more` : '');
}
/** Tells the log what was removed from the sandbox's git folder, and why. */
function reportCleared(ui, sandboxName, cleared) {
    if (!cleared.length)
        return;
    ui.warning(`Removed from the git folder of ${sandboxName} what its git would have blocked on or written through (left there since the last run, not work): ${describeCleared(cleared)}.`);
}


/***/ }),

/***/ 9601:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Ap: () => (/* binding */ sandboxHelper),
/* harmony export */   Iw: () => (/* binding */ locateSandbox),
/* harmony export */   Ps: () => (/* binding */ HOME_FOLDER),
/* harmony export */   Tl: () => (/* binding */ objectStoreMounts),
/* harmony export */   dU: () => (/* binding */ realRoot),
/* harmony export */   ie: () => (/* binding */ whereIs),
/* harmony export */   iu: () => (/* binding */ commandMounts)
/* harmony export */ });
/* unused harmony exports sandboxMounts, helperMounts */
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _engine_container_args_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(5011);
/* harmony import */ var _engine_git_hardening_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(3229);
/* harmony import */ var _engine_labels_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(9667);
/* harmony import */ var _naming_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(2375);
// Where a sandbox lives and what a container sees of it. A sandbox is a repository of its own (its own
// `.git` folder) that borrows the parent's objects read-only through `objects/info/alternates`, plus a home
// for the command. Disk and volume sandboxes are one discriminated union.
//
//   disk:    <root>/<project>/<name>/        the work tree and its .git
//            <root>/<project>/.home/<name>/  the command's HOME
//   volume:  <prefix>-<project>-<name>, mounted at /sandbox: /sandbox/<name>/ and /sandbox/.home/
// ADR 0001, ADR 0005 (docs/adr/).






const HOME_FOLDER = '.home';
function locateSandbox(plan, parent, isolation, worktreeRoot, volumePrefix) {
    const project = (0,_naming_js__WEBPACK_IMPORTED_MODULE_5__/* .projectName */ .j1)(parent.path);
    const common = { name: plan.sandbox, kind: plan.kind, project, branch: plan.branch, parent };
    if (isolation === 'disk') {
        const hostPath = (0,_naming_js__WEBPACK_IMPORTED_MODULE_5__/* .diskWorktreePath */ .gG)(worktreeRoot, project, plan.sandbox);
        const homePath = node_path__WEBPACK_IMPORTED_MODULE_1__.join(node_path__WEBPACK_IMPORTED_MODULE_1__.dirname(hostPath), HOME_FOLDER, plan.sandbox);
        return { ...common, isolation, hostPath, worktreePath: hostPath, homePath };
    }
    return {
        ...common,
        isolation,
        volume: (0,_naming_js__WEBPACK_IMPORTED_MODULE_5__/* .volumeName */ .EH)(volumePrefix, project, plan.sandbox),
        worktreePath: `${_naming_js__WEBPACK_IMPORTED_MODULE_5__/* .VOLUME_MOUNT */ .f7}/${plan.sandbox}`,
        homePath: `${_naming_js__WEBPACK_IMPORTED_MODULE_5__/* .VOLUME_MOUNT */ .f7}/${HOME_FOLDER}`,
    };
}
/** What the sandbox is, for a person: the volume or the folder. */
function whereIs(sandbox) {
    return sandbox.isolation === 'disk' ? sandbox.hostPath : `volume ${sandbox.volume}`;
}
/**
 * The parent's object store, read-only at its host path, with every store it borrows from in turn: what
 * a sandbox's `objects/info/alternates` names.
 */
function objectStoreMounts(parent) {
    return parent.objectStores.map((dir) => ({ type: 'bind', source: dir, target: dir, readonly: true }));
}
/** The sandbox itself, read-write: its work tree and its home (one volume, or two host folders). */
function sandboxMounts(sandbox) {
    if (sandbox.isolation === 'container')
        return [{ type: 'volume', source: sandbox.volume, target: _naming_js__WEBPACK_IMPORTED_MODULE_5__/* .VOLUME_MOUNT */ .f7 }];
    return [
        { type: 'bind', source: sandbox.hostPath, target: sandbox.hostPath },
        { type: 'bind', source: sandbox.homePath, target: sandbox.homePath },
    ];
}
/**
 * What the user's command sees: its sandbox read-write; the parent's work tree read-only with the
 * parent's `.git` hidden, except its object store, read-only; nothing else of the host. A disk root
 * inside the parent's work tree is hidden too, so that no other sandbox shows through.
 */
function commandMounts(sandbox, worktreeRoot) {
    const { parent } = sandbox;
    const mounts = [
        { type: 'bind', source: parent.path, target: parent.path, readonly: true },
        { type: 'tmpfs', target: parent.gitDir },
        ...objectStoreMounts(parent),
    ];
    if (sandbox.isolation === 'disk') {
        const inside = (dir) => dir.startsWith(parent.path + node_path__WEBPACK_IMPORTED_MODULE_1__.sep);
        const root = worktreeRoot ?? node_path__WEBPACK_IMPORTED_MODULE_1__.dirname(node_path__WEBPACK_IMPORTED_MODULE_1__.dirname(sandbox.hostPath));
        if (inside(root))
            mounts.push({ type: 'tmpfs', target: root });
        else if (inside(sandbox.hostPath))
            mounts.push({ type: 'tmpfs', target: node_path__WEBPACK_IMPORTED_MODULE_1__.dirname(sandbox.hostPath) });
    }
    return [...mounts, ...sandboxMounts(sandbox)];
}
/** What the action's helper containers see: the sandbox read-write and the objects it borrows. */
function helperMounts(sandbox) {
    return [...objectStoreMounts(sandbox.parent), ...sandboxMounts(sandbox)];
}
/**
 * A helper container on one sandbox: one of the action's scripts run by `sh -c` with positional
 * arguments only, as the runner's user unless `extra` says otherwise, seeing the sandbox and the objects
 * it borrows, git hardened (`extra.env` adds to it), labelled as a helper of this sandbox, removed when
 * it exits.
 */
function sandboxHelper(sandbox, image, script, extra = {}) {
    return {
        remove: true,
        image,
        user: (0,_engine_container_args_js__WEBPACK_IMPORTED_MODULE_2__/* .userArg */ .Q6)(),
        mounts: helperMounts(sandbox),
        labels: (0,_engine_labels_js__WEBPACK_IMPORTED_MODULE_4__/* .sandboxHelperLabels */ .xN)(sandbox),
        entrypoint: 'sh',
        args: ['-c', script.text, script.name, ...script.args],
        ...extra,
        env: { ...(0,_engine_git_hardening_js__WEBPACK_IMPORTED_MODULE_3__/* .helperGitEnv */ .QS)(), ...extra.env },
    };
}
/** The real path of a folder that may not exist yet (its nearest existing ancestor resolved), creating nothing. */
async function realRoot(root) {
    const rest = [];
    let current = node_path__WEBPACK_IMPORTED_MODULE_1__.resolve(root);
    for (;;) {
        try {
            return node_path__WEBPACK_IMPORTED_MODULE_1__.join(await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.realpath(current), ...rest.reverse());
        }
        catch {
            const up = node_path__WEBPACK_IMPORTED_MODULE_1__.dirname(current);
            if (up === current)
                return node_path__WEBPACK_IMPORTED_MODULE_1__.resolve(root);
            rest.push(node_path__WEBPACK_IMPORTED_MODULE_1__.basename(current));
            current = up;
        }
    }
}


/***/ }),

/***/ 6856:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Kw: () => (/* binding */ tryLockSandbox),
/* harmony export */   LP: () => (/* binding */ LOCK_STALE_MS),
/* harmony export */   NJ: () => (/* binding */ containerNotePath),
/* harmony export */   XB: () => (/* binding */ LockTimeoutError),
/* harmony export */   aZ: () => (/* binding */ withRepositoryLock),
/* harmony export */   rj: () => (/* binding */ lockSandbox),
/* harmony export */   up: () => (/* binding */ isSandboxLocked)
/* harmony export */ });
/* unused harmony exports loadLocking, lockDirectory, withLockFile */
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(8161);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__nccwpck_require__.n(node_os__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_3__);
// Cross-process locks (proper-lockfile: an atomic mkdir whose mtime the holder refreshes, so a lock whose
// holder was killed goes stale and is taken over instead of blocking everyone forever).
//  - the repository lock serializes every change to a parent's worktree metadata;
//  - a sandbox lock is held by the run using that sandbox, so two runs never share one silently.




let lockfileLoaded;
/**
 * proper-lockfile, loaded on first use rather than at every start: it brings graceful-fs, which patches
 * `fs` as it loads. A run starts loading it (loadLocking) while it waits for its first git and engine
 * answers, so that it is ready by the time the run takes its sandbox's lock.
 */
function loadLocking() {
    lockfileLoaded ??= __nccwpck_require__.e(/* import() */ 648).then(__nccwpck_require__.t.bind(__nccwpck_require__, 3648, 23)).then((loaded) => loaded.default ?? loaded);
    return lockfileLoaded;
}
const LOCK_STALE_MS = 10_000;
const LOCK_UPDATE_MS = 2_000;
function lockDirectory(gitDir) {
    return node_path__WEBPACK_IMPORTED_MODULE_3__.join(gitDir, 'worktree-sandbox', 'locks');
}
function lockPath(gitDir, name) {
    return node_path__WEBPACK_IMPORTED_MODULE_3__.join(lockDirectory(gitDir), `${name}.lock`);
}
class LockTimeoutError extends Error {
    holder;
    constructor(message, 
    /** Who holds the lock, as its note says (process, host, run, job, since); empty when unknown. */
    holder = '') {
        super(message);
        this.holder = holder;
        this.name = 'LockTimeoutError';
    }
}
async function acquire(file, waitMs, describe, onWait) {
    const dir = node_path__WEBPACK_IMPORTED_MODULE_3__.dirname(file);
    await makeLockDirectory(dir);
    const deadline = Date.now() + waitMs;
    let announced = false;
    let remade = false;
    for (;;) {
        try {
            const release = await (await loadLocking()).lock(file, {
                realpath: false,
                lockfilePath: file,
                stale: LOCK_STALE_MS,
                update: LOCK_UPDATE_MS,
                retries: 0,
                onCompromised: () => {
                    /* Another process took the lock over as stale: the holder was too slow; keep going. */
                },
            });
            const owner = {
                pid: process.pid,
                host: node_os__WEBPACK_IMPORTED_MODULE_2__.hostname(),
                since: new Date().toISOString(),
                run: process.env.GITHUB_RUN_ID,
                attempt: process.env.GITHUB_RUN_ATTEMPT,
                job: process.env.GITHUB_JOB,
                workflow: process.env.GITHUB_WORKFLOW,
            };
            // The note, a few bytes, is written and removed synchronously: an answer of the thread pool waits
            // for the main thread, which a reap keeps busy looking at the next parents while it takes hundreds
            // of locks. The note only names the holder in messages: one that cannot be written is left out.
            ignoreError(() => node_fs__WEBPACK_IMPORTED_MODULE_0__.writeFileSync(`${file}.owner`, JSON.stringify(owner)));
            return async () => {
                ignoreError(() => node_fs__WEBPACK_IMPORTED_MODULE_0__.unlinkSync(`${file}.owner`));
                await release().catch(() => undefined);
            };
        }
        catch (error) {
            // The lock folder went since this process made it: made again, once.
            if (error.code === 'ENOENT' && !remade && lockDirectoriesMade.delete(dir)) {
                remade = true;
                await makeLockDirectory(dir);
                continue;
            }
            if (error.code !== 'ELOCKED')
                throw error;
            const owner = await readOwner(file);
            if (Date.now() >= deadline)
                throw new LockTimeoutError(describe(owner), holderText(owner));
            if (!announced && onWait) {
                onWait(`Waiting: ${describe(owner)}`);
                announced = true;
            }
            await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 150));
        }
    }
}
function ignoreError(fn) {
    try {
        fn();
    }
    catch {
        /* see the caller */
    }
}
/**
 * Lock folders this process made: each is made once (the reaper takes a lock per sandbox, hundreds in one
 * parent). One that went since is made again: a lock that fails because its folder is gone drops it here.
 */
const lockDirectoriesMade = new Set();
/**
 * The lock folder `<gitDir>/worktree-sandbox/locks`, made inside a `.git` that exists: never the repository
 * itself (a post step whose parent was deleted must not bring its path back).
 */
async function makeLockDirectory(dir) {
    if (lockDirectoriesMade.has(dir))
        return;
    const gitDir = node_path__WEBPACK_IMPORTED_MODULE_3__.dirname(node_path__WEBPACK_IMPORTED_MODULE_3__.dirname(dir));
    const stat = await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.stat(gitDir).catch(() => undefined);
    if (!stat?.isDirectory())
        throw Object.assign(new Error(`${gitDir} does not exist: there is no repository to lock`), {
            code: 'ENOENT',
        });
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.mkdir(dir, { recursive: true });
    lockDirectoriesMade.add(dir);
}
async function readOwner(file) {
    try {
        return JSON.parse(await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.readFile(`${file}.owner`, 'utf8'));
    }
    catch {
        return undefined;
    }
}
/** `process 12 on host-1, run 345 (attempt 1), job build of workflow "CI", since <time>`; empty when unknown. */
function holderText(owner) {
    if (!owner)
        return '';
    // Our own note, but written by whichever run held the lock: its strings are quoted, never printed raw.
    const text = (value) => (typeof value === 'string' ? value : String(value)).slice(0, 200);
    const parts = [`process ${text(owner.pid)} on ${JSON.stringify(text(owner.host))}`];
    if (owner.run)
        parts.push(`run ${text(owner.run)}${owner.attempt ? ` (attempt ${text(owner.attempt)})` : ''}`);
    if (owner.job)
        parts.push(`job ${JSON.stringify(text(owner.job))}`);
    if (owner.workflow)
        parts.push(`workflow ${JSON.stringify(text(owner.workflow))}`);
    parts.push(`since ${text(owner.since)}`);
    return parts.join(', ');
}
function ownerText(owner) {
    const holder = holderText(owner);
    return holder ? ` (${holder})` : '';
}
/** Runs `fn` holding the lock `file` (a folder proper-lockfile makes); `what` names what it protects. */
async function withLockFile(file, what, fn, waitMs = 120_000) {
    const release = await acquire(file, waitMs, (owner) => `${what} is locked by another run${ownerText(owner)}`);
    try {
        return await fn();
    }
    finally {
        await release();
    }
}
/**
 * Runs `fn` holding the parent repository's metadata lock. Every change the action makes to the parent's
 * shared metadata (worktree registrations, refs, config) and every check of the git guard happens under it.
 */
async function withRepositoryLock(gitDir, fn, waitMs = 120_000) {
    return withLockFile(lockPath(gitDir, 'repository'), `the worktree metadata of ${node_path__WEBPACK_IMPORTED_MODULE_3__.dirname(gitDir)}`, fn, waitMs);
}
async function lockSandbox(gitDir, sandbox, waitMs, onWait) {
    return acquire(lockPath(gitDir, `sandbox-${sandbox}`), waitMs, (owner) => `sandbox ${sandbox} is in use by another run${ownerText(owner)}; two runs never share a sandbox`, onWait);
}
/**
 * The sandbox's lock, when no run holds it now (never waits): its release, or why it could not be had
 * (a run that holds it, or takes it first, wins: the sandbox is then in use).
 */
async function tryLockSandbox(gitDir, sandbox) {
    try {
        return { release: await lockSandbox(gitDir, sandbox, 0) };
    }
    catch (error) {
        return {
            refused: error instanceof LockTimeoutError
                ? `in use: a run holds its lock${error.holder ? ` (${error.holder})` : ''}`
                : `its lock could not be taken: ${error.message}`,
        };
    }
}
/**
 * A note beside the sandbox's lock, host-only: a command container of the sandbox may exist. Written
 * before one is started, removed once it is gone; a run that finds the note (its writer was killed)
 * looks for the containers it left, and only then: asking the engine costs every run start-up time.
 */
function containerNotePath(gitDir, sandbox) {
    return node_path__WEBPACK_IMPORTED_MODULE_3__.join(lockDirectory(gitDir), `sandbox-${sandbox}.container`);
}
/** True while a live run holds the sandbox's lock (a lock whose holder died is not counted). */
async function isSandboxLocked(gitDir, sandbox) {
    const file = lockPath(gitDir, `sandbox-${sandbox}`);
    try {
        return await (await loadLocking()).check(file, { realpath: false, lockfilePath: file, stale: LOCK_STALE_MS });
    }
    catch {
        return false;
    }
}


/***/ }),

/***/ 2375:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Ce: () => (/* binding */ classifyName),
/* harmony export */   EH: () => (/* binding */ volumeName),
/* harmony export */   ey: () => (/* binding */ persistentSandboxName),
/* harmony export */   f7: () => (/* binding */ VOLUME_MOUNT),
/* harmony export */   gG: () => (/* binding */ diskWorktreePath),
/* harmony export */   j1: () => (/* binding */ projectName),
/* harmony export */   j6: () => (/* binding */ transientSandboxName)
/* harmony export */ });
/* unused harmony exports TRANSIENT_PREFIX, shortHash */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
// Names of sandboxes, projects and volumes. Pure functions: the same branch always maps to the same
// sandbox, and two different branches never do.


const TRANSIENT_PREFIX = 'exploration-';
const SLUG_MAX = 80;
function shortHash(text, length = 8) {
    return (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256').update(text).digest('hex').slice(0, length);
}
function transientSandboxName(random = () => (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomBytes)(4)) {
    return TRANSIENT_PREFIX + random().toString('hex').slice(0, 8).padEnd(8, '0');
}
/**
 * The folder-safe slug of a branch: `/` and anything outside [A-Za-z0-9._-] become `-`. When that loses
 * information (or the name could pass for a transient sandbox, or is too long) a hash of the full branch
 * name is appended after `..`, which git forbids in branch names: so a lossy slug can never equal the
 * slug of another branch, lossy or not.
 */
function persistentSandboxName(branch) {
    let slug = branch.replace(/[^A-Za-z0-9._-]/g, '-');
    let lossy = slug !== branch;
    if (slug.toLowerCase().startsWith(TRANSIENT_PREFIX)) {
        slug = `b-${slug}`;
        lossy = true;
    }
    if (slug.length > SLUG_MAX) {
        slug = slug.slice(0, SLUG_MAX);
        lossy = true;
    }
    slug = slug.replace(/^[.-]+/, '');
    return lossy ? `${slug}..${shortHash(branch)}` : slug;
}
function classifyName(sandbox) {
    return sandbox.startsWith(TRANSIENT_PREFIX) ? 'transient' : 'persistent';
}
/** A project is the parent repository: its folder name, plus a hash of its path so two clones never share. */
function projectName(parentPath) {
    const base = node_path__WEBPACK_IMPORTED_MODULE_1__.basename(parentPath)
        .replace(/[^A-Za-z0-9._-]/g, '-')
        .replace(/^[.-]+/, '')
        .slice(0, 40) || 'repo';
    return `${base}-${shortHash(parentPath, 6)}`;
}
function volumeName(prefix, project, sandbox) {
    return `${prefix}-${project}-${sandbox}`;
}
/** Where a volume sandbox's worktree is, inside every container that mounts it. */
const VOLUME_MOUNT = '/sandbox';
function diskWorktreePath(root, project, sandbox) {
    return node_path__WEBPACK_IMPORTED_MODULE_1__.join(root, project, sandbox);
}


/***/ }),

/***/ 3976:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   CB: () => (/* binding */ readBounded),
/* harmony export */   DC: () => (/* binding */ readRefsAsData),
/* harmony export */   P_: () => (/* binding */ parseLooseRef),
/* harmony export */   Sg: () => (/* binding */ readRefTips),
/* harmony export */   _b: () => (/* binding */ parsePackedRefs),
/* harmony export */   oK: () => (/* binding */ LOOSE_REF_MAX),
/* harmony export */   ww: () => (/* binding */ parseHead)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _engine_git_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(1763);
// A repository's refs read from its files as data, the way git's files backend keeps them: a loose ref
// file (`<git folder>/refs/...`) over its line in `packed-refs`. Bounded, and never through a symbolic
// link: the reaper reads sandboxes' git folders with these (a container wrote them), and the host reads
// a parent's own refs with them where the answer is sure, instead of starting git. Anything unexpected
// (another ref storage, a symbolic ref, a malformed `packed-refs`) leaves the answer to git.



/** A ref name as git writes them (no spaces, no control characters, no `..` component). */
const REF_NAME = /^refs\/(?:[^\s\0\\/:?*[~^]+\/)*[^\s\0\\/:?*[~^]+$/;
const LOOSE_REF_MAX = 1024;
/** `packed-refs` larger than this is not read to look up a few refs: git answers. */
const PACKED_LOOKUP_MAX = 1024 * 1024;
/** HEAD's content: `ref: refs/...` or a commit name. */
function parseHead(text) {
    const line = text.replace(/\n$/, '');
    if (_engine_git_js__WEBPACK_IMPORTED_MODULE_2__/* .OID */ .Vx.test(line))
        return { oid: line };
    const ref = /^ref: (.+)$/.exec(line)?.[1];
    if (ref && REF_NAME.test(ref) && !ref.split('/').includes('..'))
        return { ref };
    return { error: `HEAD is neither a commit nor a ref: ${JSON.stringify(line.slice(0, 80))}` };
}
/** A loose ref file: an object name, or a symbolic ref (`ref: ...`), which names no object itself. */
function parseLooseRef(text) {
    const head = parseHead(text);
    if ('oid' in head)
        return head;
    if ('ref' in head)
        return { symbolic: head.ref };
    return { error: 'a ref file holds neither an object name nor a ref' };
}
/**
 * `packed-refs`: `<oid> <name>` lines, `^<oid>` for a peeled tag (the ref just above it: `peeledOf`),
 * `#` comments.
 */
function parsePackedRefs(text) {
    const refs = new Map();
    const peeled = [];
    const peeledOf = new Map();
    let last;
    for (const line of text.split('\n')) {
        if (!line || line.startsWith('#'))
            continue;
        if (line.startsWith('^')) {
            if (!_engine_git_js__WEBPACK_IMPORTED_MODULE_2__/* .OID */ .Vx.test(line.slice(1)))
                return { error: 'packed-refs has a malformed line' };
            peeled.push(line.slice(1));
            if (last !== undefined)
                peeledOf.set(last, line.slice(1));
            continue;
        }
        const space = line.indexOf(' ');
        const oid = line.slice(0, space);
        const name = line.slice(space + 1);
        if (space < 0 || !_engine_git_js__WEBPACK_IMPORTED_MODULE_2__/* .OID */ .Vx.test(oid) || !REF_NAME.test(name))
            return { error: 'packed-refs has a malformed line' };
        refs.set(name, oid);
        last = name;
    }
    return { refs, peeled, peeledOf };
}
/** A regular file, never through a symbolic link, at most `max` bytes (more: an error). */
function readBounded(file, max) {
    let fd;
    try {
        fd = node_fs__WEBPACK_IMPORTED_MODULE_0__.openSync(file, node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_RDONLY | node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_NOFOLLOW | node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_NONBLOCK);
    }
    catch (error) {
        const code = error.code;
        if (code === 'ENOENT')
            return { absent: true };
        if (code === 'ELOOP')
            return { error: `${node_path__WEBPACK_IMPORTED_MODULE_1__.basename(file)} is a symbolic link` };
        return { error: `cannot read ${node_path__WEBPACK_IMPORTED_MODULE_1__.basename(file)} (${code})` };
    }
    try {
        const st = node_fs__WEBPACK_IMPORTED_MODULE_0__.fstatSync(fd);
        if (!st.isFile())
            return { error: `${node_path__WEBPACK_IMPORTED_MODULE_1__.basename(file)} is not a regular file` };
        if (st.size > max)
            return { error: `${node_path__WEBPACK_IMPORTED_MODULE_1__.basename(file)} is larger than ${max} bytes` };
        const data = Buffer.alloc(st.size);
        let read = 0;
        while (read < st.size) {
            const n = node_fs__WEBPACK_IMPORTED_MODULE_0__.readSync(fd, data, read, st.size - read, read);
            if (n === 0)
                break;
            read += n;
        }
        return { data: data.subarray(0, read) };
    }
    finally {
        node_fs__WEBPACK_IMPORTED_MODULE_0__.closeSync(fd);
    }
}
/**
 * Each of `refs` looked up: a loose ref file over its line in `packed-refs` (read only when some ref has
 * no loose file, and only within PACKED_LOOKUP_MAX). A ref is surely absent only where the repository
 * keeps its refs in these files (no reftable, no `commondir` naming another folder's refs).
 */
function lookUpRefs(gitDir, refs) {
    const found = new Map();
    const other = ['reftable', 'commondir'].find((name) => node_fs__WEBPACK_IMPORTED_MODULE_0__.existsSync(node_path__WEBPACK_IMPORTED_MODULE_1__.join(gitDir, name)));
    const unpacked = [];
    for (const ref of refs) {
        if (!REF_NAME.test(ref) || ref.split('/').includes('..')) {
            found.set(ref, { unsure: 'not a ref name' });
            continue;
        }
        const file = readBounded(node_path__WEBPACK_IMPORTED_MODULE_1__.join(gitDir, ref), LOOSE_REF_MAX);
        if ('absent' in file)
            unpacked.push(ref);
        else if ('error' in file)
            found.set(ref, { unsure: file.error });
        else {
            const loose = parseLooseRef(file.data.toString('utf8'));
            found.set(ref, 'oid' in loose ? { oid: loose.oid } : { unsure: 'not an object name' });
        }
    }
    if (!unpacked.length)
        return found;
    const packedFile = readBounded(node_path__WEBPACK_IMPORTED_MODULE_1__.join(gitDir, 'packed-refs'), PACKED_LOOKUP_MAX);
    const packed = 'data' in packedFile ? parsePackedRefs(packedFile.data.toString('utf8')) : undefined;
    for (const ref of unpacked) {
        const oid = packed && !('error' in packed) ? packed.refs.get(ref) : undefined;
        if (oid)
            found.set(ref, { oid });
        else if (other)
            found.set(ref, { unsure: `the repository has a ${other}` });
        else if ('absent' in packedFile || (packed && !('error' in packed)))
            found.set(ref, { absent: true });
        else
            found.set(ref, { unsure: 'packed-refs cannot be read' });
    }
    return found;
}
/**
 * The objects some of a repository's refs name, read as data: only the answers that are sure. A ref found
 * neither way, or found as anything but an object name (a symbolic ref, a folder, a link, a `packed-refs`
 * with a malformed line or past PACKED_LOOKUP_MAX, another ref storage) is left out, for git to answer.
 */
function readRefTips(gitDir, refs) {
    const tips = new Map();
    for (const [ref, found] of lookUpRefs(gitDir, refs))
        if ('oid' in found)
            tips.set(ref, found.oid);
    return tips;
}
/**
 * The objects `refs` name, each ref that exists in the map; undefined unless every answer is sure (the
 * absence of a ref included): then git answers. The object's type is not known here.
 */
function readRefsAsData(gitDir, refs) {
    const tips = new Map();
    try {
        for (const [ref, found] of lookUpRefs(gitDir, refs)) {
            if ('unsure' in found)
                return undefined;
            if ('oid' in found)
                tips.set(ref, found.oid);
        }
    }
    catch {
        return undefined; // a read that failed midway (EIO...): git answers
    }
    return tips;
}


/***/ }),

/***/ 4299:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Jf: () => (/* binding */ forgetSandboxes),
/* harmony export */   Ur: () => (/* binding */ removeSandbox),
/* harmony export */   dG: () => (/* binding */ removeDiskFolders),
/* harmony export */   ih: () => (/* binding */ removeEmptyProjectDir)
/* harmony export */ });
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _bookkeeping_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(9503);
/* harmony import */ var _layout_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(9601);
/* harmony import */ var _lock_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(6856);
// Removing a sandbox: its volume or folders, then every record the parent keeps of it (refs and private
// store). Nothing else.





async function removeSandbox(git, engine, sandbox) {
    const { parent } = sandbox;
    await (0,_lock_js__WEBPACK_IMPORTED_MODULE_4__/* .withRepositoryLock */ .aZ)(parent.gitDir, async () => {
        if (sandbox.isolation === 'container')
            await engine.removeVolume(sandbox.volume);
        else {
            await removeDiskFolders(sandbox);
            await removeEmptyProjectDir(node_path__WEBPACK_IMPORTED_MODULE_1__.dirname(sandbox.hostPath));
        }
        await dropAllRecords(git, sandbox);
    });
}
/** A disk sandbox's two folders: its repository and its command's home. */
async function removeDiskFolders(sandbox) {
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm(sandbox.hostPath, { recursive: true, force: true });
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm(sandbox.homePath, { recursive: true, force: true });
}
/**
 * The records of many sandboxes whose folders are gone, a parent at a time: one lock, one `for-each-ref`
 * (none where `listRecords`, given, reads their names as data) and one `update-ref --stdin` per parent,
 * however many sandboxes (the reaper removes thousands).
 */
async function forgetSandboxes(git, sandboxes, 
/** The names of every ref under REF_ROOT in a parent's git folder; undefined: git lists them. */
listRecords) {
    const byParent = new Map();
    for (const s of sandboxes)
        byParent.set(s.parent.gitDir, [...(byParent.get(s.parent.gitDir) ?? []), s]);
    for (const group of byParent.values()) {
        const { parent } = group[0];
        await (0,_lock_js__WEBPACK_IMPORTED_MODULE_4__/* .withRepositoryLock */ .aZ)(parent.gitDir, async () => {
            const all = listRecords?.(parent.gitDir) ??
                (await git.run(parent.path, ['for-each-ref', '--format=%(refname)', '--', `${_bookkeeping_js__WEBPACK_IMPORTED_MODULE_2__/* .REF_ROOT */ .Dw}/`]))
                    .split('\n')
                    .filter(Boolean);
            const prefixes = group.map((s) => `${(0,_bookkeeping_js__WEBPACK_IMPORTED_MODULE_2__/* .sandboxRefs */ .yB)(s).prefix}/`);
            const doomed = all.filter((ref) => prefixes.some((p) => ref.startsWith(p)));
            if (doomed.length)
                await git.run(parent.path, ['update-ref', '--stdin'], {
                    input: Buffer.from(doomed.map((ref) => `delete ${ref}\n`).join('')),
                });
            await Promise.all(group.map((s) => node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm((0,_bookkeeping_js__WEBPACK_IMPORTED_MODULE_2__/* .privateStorePath */ .Ay)(parent, s), { recursive: true, force: true })));
        });
    }
}
async function dropAllRecords(git, sandbox) {
    await (0,_bookkeeping_js__WEBPACK_IMPORTED_MODULE_2__/* .dropRecords */ .gE)(git, sandbox.parent, (0,_bookkeeping_js__WEBPACK_IMPORTED_MODULE_2__/* .sandboxRefs */ .yB)(sandbox));
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm((0,_bookkeeping_js__WEBPACK_IMPORTED_MODULE_2__/* .privateStorePath */ .Ay)(sandbox.parent, sandbox), { recursive: true, force: true });
}
/** `<root>/<project>` goes with its last sandbox (its note of the parent and empty home folder too). */
async function removeEmptyProjectDir(projectDir) {
    const names = await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readdir(projectDir).catch(() => undefined);
    if (!names)
        return;
    const homes = node_path__WEBPACK_IMPORTED_MODULE_1__.join(projectDir, _layout_js__WEBPACK_IMPORTED_MODULE_3__/* .HOME_FOLDER */ .Ps);
    if (names.some((n) => n !== _bookkeeping_js__WEBPACK_IMPORTED_MODULE_2__/* .PARENT_NOTE */ .o8 && n !== _layout_js__WEBPACK_IMPORTED_MODULE_3__/* .HOME_FOLDER */ .Ps))
        return;
    if ((await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readdir(homes).catch(() => [])).length > 0)
        return;
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm(homes, { recursive: true, force: true });
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm(node_path__WEBPACK_IMPORTED_MODULE_1__.join(projectDir, _bookkeeping_js__WEBPACK_IMPORTED_MODULE_2__/* .PARENT_NOTE */ .o8), { force: true });
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rmdir(projectDir).catch(() => undefined);
}


/***/ }),

/***/ 1151:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   a: () => (/* binding */ findParentRepository),
/* harmony export */   u: () => (/* binding */ objectStores)
/* harmony export */ });
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
// The parent repository: the main work tree whose object store and metadata every sandbox shares.


async function findParentRepository(git, given) {
    const start = await realDirectory(given);
    // One git call for all four answers (start-up latency counts): outside a work tree it prints `false`
    // or fails, and --show-toplevel fails there in any case; in a repository without commits the first
    // three lines are printed and HEAD fails. `--` keeps a file named like the revision out of it.
    const found = await git.exec(start, [
        'rev-parse',
        '--is-inside-work-tree',
        '--path-format=absolute',
        '--git-common-dir',
        '--show-toplevel',
        'HEAD^{commit}',
        '--',
    ]);
    const [inside, commonDir, toplevel, ...rest] = found.stdout.trim().split('\n');
    if (inside !== 'true' || !commonDir || !toplevel) {
        throw new Error(`repository-path ${given} is not a git work tree (git says: ${found.stderr.trim() || found.stdout.trim()}).`);
    }
    const gitDir = await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.realpath(commonDir);
    if (node_path__WEBPACK_IMPORTED_MODULE_1__.basename(gitDir) !== '.git') {
        throw new Error(`repository-path ${given} uses a git directory at ${gitDir}: only a normal clone (a work tree with its .git folder) can be a sandbox parent.`);
    }
    const head = rest.find((line) => /^[0-9a-f]{40,64}$/.test(line));
    if (found.exitCode !== 0 || !head) {
        throw new Error(`repository-path ${given} has no commits yet: a sandbox needs at least one commit to start from.`);
    }
    const parentPath = node_path__WEBPACK_IMPORTED_MODULE_1__.dirname(gitDir);
    const top = await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.realpath(toplevel);
    return {
        path: parentPath,
        gitDir,
        head,
        objectStores: await objectStores(node_path__WEBPACK_IMPORTED_MODULE_1__.join(gitDir, 'objects')),
        resolvedFrom: top !== parentPath ? top : undefined,
    };
}
/** A store and the stores it borrows from (its `info/alternates`, followed as git does, five deep). */
async function objectStores(store, depth = 0) {
    const stores = [store];
    if (depth >= 5)
        return stores;
    const text = await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile(node_path__WEBPACK_IMPORTED_MODULE_1__.join(store, 'info', 'alternates'), 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
        const entry = line.trim();
        if (!entry || entry.startsWith('#'))
            continue;
        const real = await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.realpath(node_path__WEBPACK_IMPORTED_MODULE_1__.resolve(store, entry)).catch(() => undefined);
        if (!real)
            continue;
        for (const found of await objectStores(real, depth + 1))
            if (!stores.includes(found))
                stores.push(found);
    }
    return stores;
}
async function realDirectory(given) {
    try {
        const real = await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.realpath(given);
        if (!(await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.stat(real)).isDirectory())
            throw new Error('not a directory');
        return real;
    }
    catch {
        throw new Error(`repository-path ${given} does not exist or is not a directory.`);
    }
}


/***/ }),

/***/ 7180:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   C3: () => (/* binding */ countUnsaved),
/* harmony export */   Du: () => (/* binding */ ALWAYS_SAVING),
/* harmony export */   EY: () => (/* binding */ savedRefs),
/* harmony export */   I: () => (/* binding */ describeUnsaved),
/* harmony export */   RM: () => (/* binding */ MAX_COUNTED_COMMITS),
/* harmony export */   W0: () => (/* binding */ branchOf),
/* harmony export */   Wt: () => (/* binding */ countCommits)
/* harmony export */ });
/**
 * What saves a commit in every parent, with a remote or without: its remote-tracking refs and tags. A
 * commit these reach is saved whatever the parent's configuration says, so a check may walk from them
 * first and read the configuration only when something is left unsaved (the reaper does: parent-check.ts).
 */
const ALWAYS_SAVING = ['--remotes', '--tags'];
/**
 * The parent's saved refs, from its configuration: any `remote.<name>.url` makes it a parent with a
 * remote. The parent is the host's own repository. When its configuration cannot be read, it is taken to
 * have a remote (the stricter answer: its branches do not count).
 */
async function savedRefs(git, parentPath) {
    const out = await git.exec(parentPath, ['config', '--get-regexp', '^remote\\..+\\.url$']);
    // `git config --get-regexp` exits 1 when nothing matches; anything else is an answer or a failure.
    const hasRemote = out.exitCode !== 1;
    return { revs: hasRemote ? ALWAYS_SAVING : [...ALWAYS_SAVING, '--branches'], hasRemote };
}
/**
 * Counting commits stops here (`rev-list --count --max-count`): a sandbox's history of millions of commits
 * costs a walk of this many, not of all; a count that reaches it is said as "at least".
 */
const MAX_COUNTED_COMMITS = 100_000;
/** `rev-list --count` of `revs`, stopped at MAX_COUNTED_COMMITS; undefined when git cannot say. */
async function countCommits(git, parentPath, revs, max = MAX_COUNTED_COMMITS) {
    const out = await git.exec(parentPath, ['rev-list', '--count', `--max-count=${max}`, ...revs, '--']);
    const count = Number(out.stdout.trim());
    if (out.exitCode !== 0 || !Number.isInteger(count))
        return undefined;
    return { count, atLeast: count >= max };
}
/**
 * How many commits `tips` reach that the parent has not saved, in one git process; undefined when git
 * cannot say (the caller counts that as work, never as none); `atLeast` when counting stopped.
 */
async function countUnsaved(git, parentPath, tips, saved) {
    if (tips.length === 0)
        return { count: 0, atLeast: false };
    return countCommits(git, parentPath, [...tips, '--not', ...saved.revs]);
}
/**
 * For a person: `3 commit(s) on branch "feature/x" on no remote`. The branch may come from a sandbox: it is
 * quoted and escaped, never printed raw.
 */
function describeUnsaved(unsaved) {
    const count = `${unsaved.atLeast ? 'at least ' : ''}${unsaved.count} commit(s)`;
    const on = unsaved.branch === undefined ? 'a detached HEAD' : `branch ${JSON.stringify(unsaved.branch)}`;
    const missing = unsaved.hasRemote ? 'on no remote' : 'on no branch or tag of the parent';
    return `${count} on ${on} ${missing}`;
}
/** `refs/heads/x` to `x`; anything else (a detached HEAD, another ref) to undefined. */
function branchOf(headRef) {
    return headRef?.startsWith('refs/heads/') ? headRef.slice('refs/heads/'.length) : undefined;
}


/***/ }),

/***/ 9109:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  P$: () => (/* binding */ parseSettings),
  N6: () => (/* binding */ validateBranchNames)
});

// UNUSED EXPORTS: ASSOCIATIONS, CHOICES, InputError, RESERVED_ENV, defaultWorktreeRoot, withDefaults

// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __nccwpck_require__(8161);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __nccwpck_require__(6760);
// EXTERNAL MODULE: ./src/engine/host-paths.ts
var host_paths = __nccwpck_require__(6387);
// EXTERNAL MODULE: ./src/engine/engine.ts + 2 modules
var engine = __nccwpck_require__(1665);
// EXTERNAL MODULE: ./src/action-defaults.ts
var action_defaults = __nccwpck_require__(7616);
;// CONCATENATED MODULE: ./src/settings/inputs.ts
// Reading one input: the runner's text (or action.yml's default) into a typed value, or an InputError that
// names the input and what it accepts. Pure.


class InputError extends Error {
    constructor(input, value, accepted) {
        super(`Invalid input '${input}': ${JSON.stringify(value)}. Accepted: ${accepted}.`);
        this.name = 'InputError';
    }
}
/**
 * An input as the runner hands it over: empty means action.yml's default (the runner fills defaults in
 * for the action; the CLI and tests get them here, from the one place they are written).
 */
function withDefaults(read) {
    return (name) => {
        const raw = read(name);
        return raw.trim() ? raw : (action_defaults/* ACTION_DEFAULTS */.O[name] ?? '');
    };
}
/** The inputs that take one of a few words, written once: the settings check them, the CLI offers them. */
const CHOICES = {
    mode: ['run', 'reap'],
    engine: ['docker', 'podman'],
    isolation: ['container', 'disk'],
    cleanup: ['auto', 'always', 'never'],
    'secret-scan': ['block', 'warn', 'off'],
};
function oneOf(read, name) {
    const raw = read(name).trim();
    const found = CHOICES[name].find((v) => v === raw.toLowerCase());
    if (!found)
        throw new InputError(name, raw, CHOICES[name].join(', '));
    return found;
}
function inputs_boolean(read, name) {
    const raw = read(name).trim();
    if (!raw)
        return false;
    if (/^true$/i.test(raw))
        return true;
    if (/^false$/i.test(raw))
        return false;
    throw new InputError(name, raw, 'true or false');
}
function number(read, name, rule) {
    const raw = read(name).trim();
    if (!raw)
        return 0; // an input whose default is empty: none
    const pattern = rule.integer ? /^\d+$/ : /^(\d+(\.\d+)?|\.\d+)$/;
    const value = Number(raw);
    if (!pattern.test(raw) || !Number.isFinite(value) || value < rule.min || value > 1e9) {
        const kind = rule.integer ? 'a whole number' : 'a number';
        throw new InputError(name, raw, `${kind} ≥ ${rule.min}`);
    }
    return value;
}
const UNITS = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };
function size(read, name) {
    const raw = read(name).trim();
    const match = /^(\d+(?:\.\d+)?)([bkmg]?)$/i.exec(raw);
    const value = match ? Math.floor(Number(match[1]) * UNITS[match[2].toLowerCase()]) : NaN;
    if (!match || !Number.isFinite(value) || value < 1024)
        throw new InputError(name, raw, 'a size of at least 1k, such as 512m or 2g');
    return value;
}
function optionalPattern(read, name, pattern, accepted) {
    const raw = read(name).trim();
    if (!raw)
        return undefined;
    if (!pattern.test(raw))
        throw new InputError(name, raw, accepted);
    return raw;
}
function list(read, name) {
    const raw = read(name).trim();
    if (!raw)
        return [];
    return raw
        .split(/[\s,]+/)
        .map((s) => s.trim())
        .filter(Boolean);
}
// eslint-disable-next-line no-control-regex -- control characters are exactly what this rejects
const CONTROL = /[\u0000-\u001f\u007f]/;
function pathInput(read, name) {
    const raw = read(name);
    if (!raw.trim())
        return undefined;
    if (CONTROL.test(raw))
        throw new InputError(name, raw, 'a path without control characters (newlines, tabs, NUL)');
    return external_node_path_.resolve(raw.trim());
}
/** Input `name`, trimmed, when it matches `pattern` (or is empty and `optional`). */
function matching(read, name, pattern, accepted, optional = false) {
    const raw = read(name).trim();
    if ((optional && !raw) || pattern.test(raw))
        return raw;
    throw new InputError(name, raw, accepted);
}
const inputs_image = (read) => matching(read, 'image', /^(?=.{1,512}$)[A-Za-z0-9][A-Za-z0-9._\-/:@]*$/, 'an image reference such as debian:bookworm or ghcr.io/owner/image:tag');
const volumePrefix = (read) => matching(read, 'volume-prefix', /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, 'letters, digits, _ . - (starting with a letter or digit, at most 63 characters)');
/** A first, pure check of a branch name; git's own rules are applied by `validateBranchNames`. */
function branchInput(read, name) {
    const raw = read(name);
    const value = raw.trim();
    if (!value)
        return '';
    if (CONTROL.test(raw) || value.startsWith('-') || value.length > 255 || value.includes('\ufffd')) {
        throw new InputError(name, raw, "a branch name valid for 'git check-ref-format --branch' (at most 255 characters)");
    }
    return value.replace(/^refs\/heads\//, '');
}
function revisionInput(read, name) {
    const raw = read(name);
    const value = raw.trim();
    if (!value)
        return '';
    if (CONTROL.test(raw) || value.startsWith('-') || value.length > 255) {
        throw new InputError(name, raw, 'a commit, branch or tag name');
    }
    return value;
}
const triggerCommand = (read) => matching(read, 'trigger', /^\/?[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'one word such as /fix', true);
/** `label-trigger`: a label's name as GitHub allows it (one line, at most 50 characters). */
function labelTrigger(read) {
    const raw = read('label-trigger').trim();
    if (raw && (CONTROL.test(raw) || raw.length > 50))
        throw new InputError('label-trigger', raw, 'a label name of at most 50 characters, such as fix-me');
    return raw;
}
/** `assignee-trigger`: a GitHub login (a bot's with or without `[bot]`). */
const assigneeTrigger = (read) => matching(read, 'assignee-trigger', /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/, 'a GitHub login such as fix-bot', true);
/** `issue-branch-prefix`: the start of a branch name (the issue's number completes it). */
function issueBranchPrefix(read) {
    const raw = read('issue-branch-prefix').trim();
    if (!raw ||
        raw.length > 200 ||
        raw.startsWith('-') ||
        raw.startsWith('/') ||
        CONTROL.test(raw) ||
        /[\s~^:?*[\\]|\.\.|@\{|\/\/|\.lock\//.test(raw))
        throw new InputError('issue-branch-prefix', raw, 'the start of a branch name (at most 200 characters, no spaces, no ~ ^ : ? * [ \\ or ..), such as worktree-sandbox/issue-');
    return raw;
}

;// CONCATENATED MODULE: ./src/settings/env-input.ts
// The `env` input: the variables the command's container gets from the step, and nothing else. Pure.


const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Variables the action sets itself in the container; a user entry may not override them. */
const RESERVED_ENV = [
    'SANDBOX_NAME',
    'SANDBOX_KIND',
    'SANDBOX_BRANCH',
    'SANDBOX_WORKTREE',
    'SANDBOX_PARENT',
    'SANDBOX_PROMPT_FILE',
];
function envEntries(read, env) {
    const entries = [];
    for (const line of read('env').split(/\r?\n/)) {
        if (!line.trim() || line.trim().startsWith('#'))
            continue;
        const eq = line.indexOf('=');
        const name = (eq < 0 ? line : line.slice(0, eq)).trim();
        if (!ENV_NAME.test(name))
            throw new InputError('env', line, 'lines of NAME or NAME=value, NAME made of letters, digits and _');
        if (RESERVED_ENV.includes(name))
            throw new InputError('env', line, `a name other than ${RESERVED_ENV.join(', ')} (set by the action)`);
        if (entries.some((e) => e.name === name))
            throw new InputError('env', line, 'each NAME at most once');
        const value = eq < 0 ? (env[name] ?? '') : line.slice(eq + 1);
        // A value of several lines reaches the container by name through the engine CLI's environment, where
        // it may never stand in for one of the CLI's own variables.
        if (/[\r\n]/.test(value) && engine/* ENGINE_ENV */.X4.includes(name))
            throw new InputError('env', name, `a name other than ${engine/* ENGINE_ENV */.X4.join(', ')} for a value of several lines`);
        entries.push({ name, value });
    }
    return entries;
}

;// CONCATENATED MODULE: ./src/settings/identity.ts
// Who commits: a git identity written `Name <email>`, as git and create-pull-request write it. Pure.
// The default is the Actions bot. Its no-reply address lives on the server's own `users.noreply` domain,
// so it is derived from GITHUB_SERVER_URL; the numeric id prefix is the bot's account id on github.com
// only, and is left out elsewhere (an address without it is still the bot's).
const BOT_LOGIN = 'github-actions[bot]';
const BOT_ID_ON_GITHUB_COM = 41898282;
function defaultBotIdentity(serverUrl) {
    const host = hostOf(serverUrl);
    const local = host === 'github.com' ? `${BOT_ID_ON_GITHUB_COM}+${BOT_LOGIN}` : BOT_LOGIN;
    return { name: BOT_LOGIN, email: `${local}@users.noreply.${host}` };
}
function hostOf(serverUrl) {
    try {
        const host = new URL(serverUrl || 'https://github.com').hostname.toLowerCase();
        return host || 'github.com';
    }
    catch {
        return 'github.com';
    }
}
// eslint-disable-next-line no-control-regex -- control characters are exactly what this rejects
const identity_CONTROL = /[\u0000-\u001f\u007f]/;
/** `Name <email>`; undefined when the text is not one (no name, no address, stray brackets, newlines). */
function parseIdentity(text) {
    const match = /^([^<>]+?)\s*<([^<>\s]+)>$/.exec(text.trim());
    if (!match || identity_CONTROL.test(text))
        return undefined;
    const [, name, email] = match;
    if (!/^[^@]+@[^@]+$/.test(email) || name.length > 200 || email.length > 254)
        return undefined;
    return { name: name.trim(), email };
}
function formatIdentity(identity) {
    return `${identity.name} <${identity.email}>`;
}

// EXTERNAL MODULE: ./src/network/policy.ts + 1 modules
var network_policy = __nccwpck_require__(3977);
;// CONCATENATED MODULE: ./src/settings/network-input.ts
// `network`, `credentials` and the model budget, read together: the allow-list, its presets, the
// credentials the proxy sets and the limits it enforces (src/network/policy.ts parses; this turns its
// refusals into InputErrors naming the input). The budget is the proxy's: without one, it is refused.


const LIMITS = ['max-model-requests', 'max-model-tokens'];
function networkInput(read) {
    let policy;
    try {
        policy = (0,network_policy/* parseCredentials */.gu)(read('credentials'), (0,network_policy/* parseNetwork */.MO)(read('network')));
    }
    catch (error) {
        if (error instanceof network_policy/* PolicyError */.pn)
            throw new InputError(error.input, error.value, error.accepted);
        throw error;
    }
    const [maxRequests, maxTokens] = LIMITS.map((name) => number(read, name, { min: 0, integer: true }));
    if (maxRequests === 0 && maxTokens === 0)
        return policy;
    if (policy.mode === 'bridge' || policy.mode === 'none') {
        const set = maxRequests > 0 ? LIMITS[0] : LIMITS[1];
        throw new InputError(set, read(set).trim(), `0 (no limit), or a limit with an allow-list or audit in network (it is ${policy.mode}): the proxy is what counts`);
    }
    return { ...policy, modelLimits: { maxRequests, maxTokens } };
}

;// CONCATENATED MODULE: ./src/settings/pull-request-input.ts
// The pull-request inputs (`pull-request`, its title, body, draft and labels). Pure.

function pullRequestInputs(read) {
    const open = inputs_boolean(read, 'pull-request');
    if (open && !inputs_boolean(read, 'push'))
        throw new InputError('pull-request', 'true', 'true only with push: true (a pull request needs a pushed branch)');
    const title = read('pull-request-title').trim();
    if (CONTROL.test(title) || title.length > 256)
        throw new InputError('pull-request-title', title, 'one line of at most 256 characters');
    const body = read('pull-request-body');
    if (body.length > 60000)
        throw new InputError('pull-request-body', `${body.slice(0, 40)}...`, 'at most 60000 characters');
    const labels = read('pull-request-labels')
        .split(/[,\n]/)
        .map((l) => l.trim())
        .filter(Boolean);
    for (const label of labels)
        if (CONTROL.test(label) || label.length > 50)
            throw new InputError('pull-request-labels', label, 'label names of at most 50 characters, separated by commas or newlines');
    return {
        open,
        title,
        body,
        draft: inputs_boolean(read, 'pull-request-draft'),
        labels: [...new Set(labels)],
    };
}

;// CONCATENATED MODULE: ./src/settings/settings.ts
// Every input is read and validated here, once, into typed settings. Nothing past this module reads an
// input. An error names the input and what it accepts, and is raised before anything is created.










const ASSOCIATIONS = [
    'OWNER',
    'MEMBER',
    'COLLABORATOR',
    'CONTRIBUTOR',
    'FIRST_TIMER',
    'FIRST_TIME_CONTRIBUTOR',
    'MANNEQUIN',
    'NONE',
];
function parseSettings(given, env = process.env) {
    const read = withDefaults(given);
    const mode = oneOf(read, 'mode');
    const common = {
        engine: oneOf(read, 'engine'),
        worktreeRoot: pathInput(read, 'worktree-root') ?? defaultWorktreeRoot(env),
        volumePrefix: volumePrefix(read),
        token: read('token').trim(),
    };
    return mode === 'run' ? { ...common, ...parseRun(read, env) } : { ...common, ...parseReap(read) };
}
function parseRun(read, env) {
    const command = read('command');
    if (!command.trim())
        throw new InputError('command', command, 'a shell command (required in run mode)');
    const network = networkInput(read);
    return {
        mode: 'run',
        command,
        image: inputs_image(read),
        isolation: oneOf(read, 'isolation'),
        branch: branchInput(read, 'branch'),
        base: revisionInput(read, 'base'),
        repositoryPath: pathInput(read, 'repository-path') ?? external_node_path_.resolve(env.GITHUB_WORKSPACE || process.cwd()),
        cleanup: oneOf(read, 'cleanup'),
        env: envEntries(read, env),
        timeoutMinutes: number(read, 'timeout-minutes', { min: 0, integer: false }),
        lockTimeoutMinutes: number(read, 'lock-timeout-minutes', { min: 0, integer: false }),
        allowFailure: inputs_boolean(read, 'allow-failure'),
        push: inputs_boolean(read, 'push'),
        commitMessage: read('commit-message').trim(),
        secretScan: oneOf(read, 'secret-scan'),
        limits: {
            memory: optionalPattern(read, 'memory', /^\d+(\.\d+)?[bkmg]?$/i, 'a size such as 512m or 2g'),
            cpus: optionalPattern(read, 'cpus', /^(\d+(\.\d+)?|\.\d+)$/, 'a positive number such as 1.5'),
            pidsLimit: number(read, 'pids-limit', { min: 1, integer: true }),
            network: network.mode === 'bridge' ? 'bridge' : 'none',
            readOnlyRootfs: inputs_boolean(read, 'read-only-rootfs'),
        },
        network,
        maxImportBytes: size(read, 'max-import-size'),
        author: identity(read, 'author', env),
        committer: identity(read, 'committer', env),
        trigger: {
            command: triggerCommand(read),
            allowedAssociations: list(read, 'allowed-associations').map((a) => {
                const upper = a.toUpperCase();
                if (!ASSOCIATIONS.includes(upper))
                    throw new InputError('allowed-associations', a, ASSOCIATIONS.join(', '));
                return upper;
            }),
            allowedBots: list(read, 'allowed-bots'),
            prNumber: number(read, 'pr-number', { min: 1, integer: true }),
            pullRequestBot: inputs_boolean(read, 'pull-request-bot'),
            labelTrigger: labelTrigger(read),
            assigneeTrigger: assigneeTrigger(read),
            issueBranchPrefix: issueBranchPrefix(read),
        },
        pullRequest: pullRequestInputs(read),
    };
}
function identity(read, name, env) {
    const raw = read(name);
    if (!raw.trim())
        return defaultBotIdentity(env.GITHUB_SERVER_URL);
    const parsed = parseIdentity(raw);
    if (!parsed)
        throw new InputError(name, raw, 'Name <email>, such as Fix Bot <fix-bot@example.com>');
    return parsed;
}
function parseReap(read) {
    const days = (name) => number(read, name, { min: 1, integer: true });
    const branchExpiryDays = days('branch-expiry-days');
    const orphanExpiryDays = days('orphan-expiry-days');
    if (orphanExpiryDays < branchExpiryDays) {
        throw new InputError('orphan-expiry-days', String(orphanExpiryDays), `whole days ≥ branch-expiry-days (${branchExpiryDays}): orphans are never removed sooner than persistent sandboxes`);
    }
    return {
        mode: 'reap',
        headlessExpiryDays: days('headless-expiry-days'),
        branchExpiryDays,
        orphanExpiryDays,
        dryRun: inputs_boolean(read, 'dry-run'),
        maxRemovals: number(read, 'max-removals', { min: 0, integer: true }),
        force: inputs_boolean(read, 'force'),
        archiveDir: pathInput(read, 'archive-dir') ?? '',
        image: inputs_image(read),
    };
}
/**
 * The default root of disk sandboxes: the user's cache folder; but when the action runs in a container
 * (a job container, a runner pod beside a Docker-in-Docker engine), that folder is the container's own and
 * the engine does not see it (or, in a job container, it lies under RUNNER_TEMP, emptied after each job):
 * then a folder beside the workspaces in the runner's work folder (`<work>/_worktree-sandbox/worktrees`,
 * RUNNER_TEMP being `<work>/_temp`), which the engine is given and which outlives the job for the reaper.
 */
function defaultWorktreeRoot(env, inContainer = (0,host_paths/* runsInContainer */.NH)()) {
    if (inContainer && env.RUNNER_TEMP && external_node_path_.isAbsolute(env.RUNNER_TEMP))
        return external_node_path_.join(external_node_path_.dirname(external_node_path_.resolve(env.RUNNER_TEMP)), '_worktree-sandbox', 'worktrees');
    const cache = env.XDG_CACHE_HOME && external_node_path_.isAbsolute(env.XDG_CACHE_HOME)
        ? env.XDG_CACHE_HOME
        : external_node_path_.join(env.HOME || external_node_os_.homedir(), '.cache');
    return external_node_path_.join(cache, 'worktree-sandbox', 'worktrees');
}
/** Applies git's own branch-name rules (`git check-ref-format --branch`) once git is at hand. */
async function validateBranchNames(settings, isValid) {
    if (settings.branch && !(await isValid(settings.branch))) {
        throw new InputError('branch', settings.branch, "a branch name valid for 'git check-ref-format --branch'");
    }
}


/***/ }),

/***/ 6323:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   I: () => (/* binding */ keepNewest),
/* harmony export */   z: () => (/* binding */ cutToBytes)
/* harmony export */ });
// Untrusted text of any size held within bounds in bytes, for a file a command reads (the context file):
// cut between characters, never inside one, and of a list the newest items first, saying what was left out.
/** The longest prefix of `text` within `maxBytes` of UTF-8 that splits no character. */
function cutToBytes(text, maxBytes) {
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length <= maxBytes)
        return { text, cut: false };
    let end = Math.max(0, maxBytes);
    // Back to the first byte of a character: a continuation byte is 10xxxxxx.
    while (end > 0 && (bytes[end] & 0xc0) === 0x80)
        end--;
    return { text: bytes.subarray(0, end).toString('utf8'), cut: true };
}
/**
 * The newest of `items` first (the latest word matters most), at most `maxCount`, within `maxBytes` in
 * all: each one's body and the bytes `charged` for its other fields (already bounded). The last one kept
 * may have its body cut short. Returned newest first, with the count of older ones left out.
 */
function keepNewest(items, maxCount, maxBytes, charged = () => 0) {
    const kept = [];
    let room = maxBytes;
    let bodiesCut = 0;
    for (let i = items.length - 1; i >= 0 && kept.length < maxCount && !bodiesCut; i--) {
        room -= charged(items[i]);
        if (room <= 0)
            break;
        const body = cutToBytes(items[i].body, room);
        kept.push({ ...items[i], body: body.text });
        room -= Buffer.byteLength(body.text, 'utf8');
        if (body.cut)
            bodiesCut = 1;
    }
    return { kept, leftOut: items.length - kept.length, bodiesCut };
}


/***/ }),

/***/ 8561:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   GN: () => (/* binding */ jsonRows),
/* harmony export */   PP: () => (/* binding */ tableHead),
/* harmony export */   aB: () => (/* binding */ blockWithCut),
/* harmony export */   dp: () => (/* binding */ byteLength),
/* harmony export */   jD: () => (/* binding */ tableRow),
/* harmony export */   oh: () => (/* binding */ thousands),
/* harmony export */   tp: () => (/* binding */ table),
/* harmony export */   zH: () => (/* binding */ details)
/* harmony export */ });
/* harmony import */ var _untrusted_markdown_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(8912);
// The action's own structure around what it shows (the job summary, the bot's comments, the outputs):
// tables, collapsed sections, cut notes, bounded JSON. Its inputs come inert (untrusted-markdown.ts). Not
// `core.summary.addTable`/`addDetails`: under cmark-gfm they render otherwise (see the spec).

/** One table line; an empty cell is one space. */
const tableRow = (cells) => `|${cells.map((c) => (c ? ` ${c} ` : ' ')).join('|')}|`;
/** A table's head: its cells, then the delimiter row (columns in `right` aligned right). */
function tableHead(head, right = []) {
    return `${tableRow(head)}\n|${head.map((_, i) => (right.includes(i) ? '---:' : '---')).join('|')}|`;
}
/** A whole table, one line a row. */
function table(head, rows) {
    return [tableHead(head), ...rows.map(tableRow)].join('\n');
}
/** A collapsed section: the body (a `<pre>` block too) starts a block of its own after a blank line. */
function details(summary, body) {
    return `<details><summary>${summary}</summary>\n\n${body}\n</details>`;
}
/** Untrusted text as a `<pre>` block of at most `max` characters; `cut` says, after it, how many were left out. */
function blockWithCut(text, max, cut) {
    const { markdown, leftOut } = (0,_untrusted_markdown_js__WEBPACK_IMPORTED_MODULE_0__/* .untrustedBlock */ .C9)(text, max);
    return leftOut ? `${markdown}\n\n${cut(thousands(leftOut))}` : markdown;
}
const byteLength = (text) => Buffer.byteLength(text, 'utf8');
/**
 * A whole number as `toLocaleString('en-US')` writes it (12,345), without its cost: the first call loads
 * ICU's number formats, 20–30 ms of a run's step.
 */
function thousands(n) {
    return Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+$)/g, ',') : n.toLocaleString('en-US');
}
/** A JSON array of the first rows that fit in `maxBytes` (UTF-8, as GitHub bounds an output); `omitted` counts the others. */
function jsonRows(rows, maxBytes) {
    const parts = [];
    let size = 2;
    for (const row of rows) {
        const text = JSON.stringify(row);
        const n = byteLength(text) + (parts.length ? 1 : 0);
        if (size + n > maxBytes)
            break;
        parts.push(text);
        size += n;
    }
    return { json: `[${parts.join(',')}]`, omitted: rows.length - parts.length };
}


/***/ }),

/***/ 9633:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   OG: () => (/* binding */ logLines),
/* harmony export */   dX: () => (/* binding */ sandboxText)
/* harmony export */ });
/* unused harmony export SANDBOX_TEXT_MAX */
// Text that came from a sandbox (file names, ref names, commit subjects, what a helper or git printed about
// its data) made safe to print on one log line. The Actions runner reads every line of a step's output
// for workflow commands (`::error::`, `::set-output …`, `##[…]`), and it breaks lines at `\n`, `\r\n` and
// a lone `\r`; @actions/core escapes line breaks in warnings and errors but not in `core.info`. So such
// text is printed only through this module (or inside a `::stop-commands::` fence): every control
// character is written as a visible escape, a line cannot start a command, and the length is bounded.
// In Markdown (the job summary, a pull-request comment) such text goes through untrusted-markdown.ts.
/** The most characters of one piece of sandbox text that a message carries. */
const SANDBOX_TEXT_MAX = 2_000;
// C0 controls, DEL, C1 controls (U+0085 NEL breaks lines for some readers) and the Unicode line and
// paragraph separators: each becomes a visible escape.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const NAMED = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
/** What opens a workflow command at the start of a line (the runner trims leading blanks first). */
const COMMAND_START = /^(\s*)(::|##\[)/;
function escapeControls(text) {
    return text.replace(CONTROL, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
/** A line that would open a workflow command gets a backslash before it: `\::error::x` is only text. */
function disarmStart(line) {
    return line.replace(COMMAND_START, '$1\\$2');
}
/**
 * Sandbox text as one printable line: control characters (`\r`, `\n`, ESC, …) escaped, a leading `::` or
 * `##[` disarmed, and at most `max` characters of it (the rest counted, not shown).
 */
function sandboxText(text, max = SANDBOX_TEXT_MAX) {
    const raw = String(text);
    const cut = raw.length > max ? raw.slice(0, max) : raw;
    const more = raw.length - cut.length;
    return disarmStart(escapeControls(cut)) + (more > 0 ? `… (${more} more characters)` : '');
}
/**
 * A whole log message, whatever it holds, made safe line by line: it keeps its own `\n` line breaks, but
 * no line of it can start a workflow command, and every other control character (a lone `\r` above all)
 * is escaped. The last guard of the action's log functions; sandbox text inside a message still goes
 * through `sandboxText` where the message is made, so that it stays on one line and bounded.
 */
function logLines(message) {
    return String(message)
        .split(/\r?\n/)
        .map((line) => disarmStart(escapeControls(line)))
        .join('\n');
}


/***/ }),

/***/ 5750:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   k: () => (/* binding */ streamLineWriter),
/* harmony export */   y: () => (/* binding */ silentUi)
/* harmony export */ });
/**
 * Lines to a stream that may be a pipe (the runner's, a pager): the lines of one chunk of output are
 * written in one call when the producer asks whether it may go on (`drained`), and a pipe that cannot
 * take them yet makes it wait. Memory stays bounded however much is printed, and a gigabyte of short lines
 * costs one write per chunk, not one per line. `drained()` also flushes: call it once at the end.
 */
function streamLineWriter(stream, format, options = {}) {
    let batch = [];
    let full = false;
    let endsLine = true;
    const put = (data) => {
        if (data.length === 0)
            return;
        if (!stream.write(data))
            full = true;
        endsLine = typeof data === 'string' ? data.endsWith('\n') : data[data.length - 1] === 10;
    };
    const write = ((line) => {
        batch.push(format(line));
    });
    if (options.raw) {
        write.fd = 1;
        write.raw = put;
    }
    write.drained = () => {
        if (batch.length)
            put(batch.join(''));
        batch = [];
        if (!full)
            return undefined;
        return new Promise((resolve) => stream.once('drain', () => {
            full = false;
            resolve();
        }));
    };
    write.flush = async () => {
        await write.drained();
        // Whatever the stream still queues reaches the descriptor before anyone else writes to it.
        if (stream.writableLength)
            await new Promise((resolve) => stream.once('drain', () => resolve()));
    };
    write.end = () => {
        void write.drained();
        // After direct output nobody knows how it ended: a line of its own for what follows.
        if (!endsLine || options.raw)
            put('\n');
    };
    return write;
}
const silentUi = {
    info: () => undefined,
    debug: () => undefined,
    debugging: false,
    warning: () => undefined,
    group: (_title, fn) => fn(),
    untrusted: (fn) => fn(() => undefined),
    fenced: () => undefined,
    mask: () => undefined,
};


/***/ }),

/***/ 8912:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   C2: () => (/* binding */ untrustedCode),
/* harmony export */   C9: () => (/* binding */ untrustedBlock),
/* harmony export */   XS: () => (/* binding */ imageLinks),
/* harmony export */   ln: () => (/* binding */ inlineText),
/* harmony export */   qm: () => (/* binding */ untrustedInline)
/* harmony export */ });
/* unused harmony exports neutraliseMentions, plainLines, INLINE_MAX, MAX_IMAGE_LINKS */
// The one renderer of text the action did not write (a reply, a log tail, file names, commit subjects, a
// patch, host and model names) into Markdown that GitHub renders: the job summary and the pull-request
// bot's comments. GitHub renders with cmark-gfm, which takes at most 255 backticks as a fence and makes
// no code span longer than 80, so neither a fence "longer than any in the text" nor a code span can hold
// any text (docs/adr/0012-untrusted-text-in-pre-blocks.md). Here nothing depends on what the text holds:
// - a block is an HTML `<pre>` block with `&`, `<` and `>` written as entities. cmark-gfm ends such a
//   block only at a line that holds `</pre>`, which the text can no longer spell; blank lines, fences,
//   `<!--`, `</details>` and images inside it are only characters;
// - inline text (a table cell, a list item, a sentence) has every character Markdown or HTML reads as
//   markup written as a character reference, which cmark-gfm decodes to a literal character and never to
//   markup, and the places GitHub's autolinks start at (`https:`, `www.`, `@`, `#`) broken.
// Both make mentions inert, show control and bidirectional characters as visible escapes, take `\r` as a
// line break (as Markdown and the runner do), replace half a surrogate pair, and are bounded in the
// characters they write: the text is cut between characters before it is escaped, counted after, and what
// was left out is counted (a cut never falls inside a character, nor inside an entity made here).
/** After an `@`, so that `@name` and `@org/team` are no mention and link nobody. */
const MENTION_BREAK = '\u200D';
// C0 controls but tab and line feed, DEL, C1 controls, the line and paragraph separators, and the
// bidirectional marks, overrides and isolates that would show the text in another order than it is.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const NAMED = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
/** Half of a surrogate pair with no other half: shown as U+FFFD, as a decoder shows a broken sequence. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** `@` that starts a user or team name (GitHub's names: letters, digits, hyphens; we take `_` too). */
const MENTION = /@(?=[A-Za-z0-9_-])/g;
/** Every `@name` and `@org/team` made inert; nothing else changes. */
function neutraliseMentions(text) {
    return text.replace(MENTION, `@${MENTION_BREAK}`);
}
const visible = (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
/** Line breaks as `\n` alone (a lone `\r` is a line break to Markdown and to the runner), controls escaped. */
function plainLines(text) {
    return String(text)
        .replace(LONE_SURROGATE, '\uFFFD')
        .replace(/\r\n?/g, '\n')
        .replace(new RegExp(HIDDEN.source, 'g'), visible);
}
/**
 * The escaped forms of `pieces` (whole characters, or a few that escape together), as many from the start
 * as fit in `max` characters of output: the cut falls between pieces, never inside one or its escape.
 */
function fit(pieces, escape, max) {
    let shown = '';
    let i = 0;
    for (; i < pieces.length; i++) {
        const out = escape(pieces[i]);
        if (shown.length + out.length > max)
            break;
        shown += out;
    }
    let leftOut = 0;
    for (let j = i; j < pieces.length; j++)
        leftOut += [...pieces[j]].length;
    return { shown, leftOut };
}
const HTML_ENTITY = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
/**
 * Untrusted text as one `<pre>` block that nothing in it can end or escape, shown as written (line breaks,
 * indentation, blank lines), mentions inert, at most `maxChars` characters between the tags (counted as
 * written, entities included; the rest left out and counted). `lang` (`diff`) only names the language for
 * GitHub's highlighting; `keepMentions` is for text to copy whose `@` are the action's own (`@npm`), and
 * safe anyway: GitHub links no mention inside `<pre>`. The block starts and ends a line; put a blank line
 * before and after it.
 */
function untrustedBlock(text, maxChars, options = {}) {
    const { lang = '' } = options;
    const safe = options.keepMentions ? plainLines(text) : neutraliseMentions(plainLines(text));
    const { shown, leftOut } = fit(Array.from(safe), (c) => HTML_ENTITY[c] ?? c, Math.max(0, maxChars));
    const open = lang ? `<pre lang="${lang.replace(/[^a-z0-9+-]/gi, '')}">` : '<pre>';
    // HTML drops one line break right after `<pre>`: the text's first line is its own.
    return { markdown: `${open}\n${shown}\n</pre>`, leftOut };
}
// What Markdown or HTML reads as markup (written as character references), and what autolinks start at.
// A colon before a space starts no link: it stays as it is (`holds work: 2 files`).
const INLINE_PIECE = /www\.|: |[\s\S]/giu;
const MARKUP = /^[\\`*_~[\]<>|&!$]$/;
/**
 * Nothing a reader sees, written between the characters that GitHub's autolinks look for: `https://`,
 * `www.`, `user@host`, `@mention` and `#123` are no longer those strings, in the Markdown source or in
 * the text GitHub's renderer decodes from it. A reference, not the character, so that it is visible in a
 * log line.
 */
const BREAK = '&#8203;';
function inlinePiece(piece) {
    if (piece === ': ')
        return piece;
    if (piece.length > 1 && piece.toLowerCase() === 'www.')
        return `${piece[0]}${BREAK}${piece.slice(1)}`;
    if (piece === ':')
        return `:${BREAK}`;
    if (piece === '@' || piece === '#')
        return `${BREAK}&#${piece.charCodeAt(0)};${BREAK}`;
    if (HIDDEN.test(piece) || piece === '\n' || piece === '\r' || piece === '\t')
        return `&#92;${visible(piece).slice(1)}`;
    if (MARKUP.test(piece))
        return `&#${piece.charCodeAt(0)};`;
    return piece;
}
/**
 * Untrusted text inside Markdown (a table cell, a list item, a sentence) or a warning: shown as the same
 * characters and nothing else, on one line. Control and bidirectional characters shown as escapes, every
 * markup character (`|`, `<`, `[`, `` ` ``, `*`, `&`, …) a character reference, autolinks and mentions
 * broken, so that no link, image, HTML, code span, table cell or mention can come of it. At most `max`
 * characters as written (entities included), then how many characters were left out. `quote` shows the
 * text JSON-quoted (where it starts and ends, and its escapes).
 */
function untrustedInline(text, max = INLINE_MAX, quote = false) {
    const raw = String(text).replace(LONE_SURROGATE, '\uFFFD');
    const { shown, leftOut } = fit((quote ? JSON.stringify(raw) : raw).match(INLINE_PIECE) ?? [], inlinePiece, max);
    return shown + (leftOut > 0 ? ` … (${leftOut} more characters)` : '');
}
/** The most characters of one piece of inline text, as written. */
const INLINE_MAX = 2_000;
/** Untrusted inline text shown as code (monospace): `untrustedInline` inside `<code>` tags. */
function untrustedCode(text, max = INLINE_MAX) {
    return `<code>${untrustedInline(text, max)}</code>`;
}
/** The action's own sentence that may quote untrusted text: one line, inert (untrustedInline). */
function inlineText(text) {
    return untrustedInline(text, 4 * INLINE_MAX);
}
/** Images listed as links, at most. */
const MAX_IMAGE_LINKS = 10;
/** An image's address: http(s), and nothing that could end the link or the line around it. */
const IMAGE_URL = String.raw `https?:\/\/[^\s<>()"'\x60\\]{1,2000}`;
/** `![alt](url "title")`, and `<img … src="url" …>`: bounded at every repetition, read in one pass each. */
const MARKDOWN_IMAGE = new RegExp(String.raw `!\[([^\]\n]{0,200})\]\(\s{0,10}<?(${IMAGE_URL})`, 'g');
const HTML_IMAGE = new RegExp(String.raw `<img\b[^>]{0,500}?\bsrc\s{0,10}=\s{0,10}["']?(${IMAGE_URL})`, 'gi');
/**
 * The images that untrusted text would show, as one line of links (the image is never loaded: a reader
 * opens it if they choose), in the order of the text; empty when there are none. Every host is an outside
 * host here: the text is shown in a `<pre>` block, so none of its images is rendered anyway.
 */
function imageLinks(text) {
    const found = [];
    for (const match of text.matchAll(MARKDOWN_IMAGE))
        found.push({ at: match.index, alt: match[1].trim(), url: match[2] });
    for (const match of text.matchAll(HTML_IMAGE))
        found.push({ at: match.index, alt: '', url: match[1] });
    if (!found.length)
        return '';
    found.sort((a, b) => a.at - b.at);
    const links = found
        .slice(0, MAX_IMAGE_LINKS)
        .map(({ alt, url }) => `[${untrustedInline(alt || 'image', 1_000)}](${url})`);
    const more = found.length > MAX_IMAGE_LINKS ? `, and ${found.length - MAX_IMAGE_LINKS} more` : '';
    return `Images in the reply, not shown here: ${links.join(', ')}${more}.`;
}


/***/ }),

/***/ 2613:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("assert");

/***/ }),

/***/ 181:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("buffer");

/***/ }),

/***/ 5317:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("child_process");

/***/ }),

/***/ 9140:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("constants");

/***/ }),

/***/ 6982:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("crypto");

/***/ }),

/***/ 2250:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("dns");

/***/ }),

/***/ 4434:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("events");

/***/ }),

/***/ 9896:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("fs");

/***/ }),

/***/ 8611:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("http");

/***/ }),

/***/ 5692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("https");

/***/ }),

/***/ 9278:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("net");

/***/ }),

/***/ 4589:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:assert");

/***/ }),

/***/ 6698:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:async_hooks");

/***/ }),

/***/ 4573:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:buffer");

/***/ }),

/***/ 1421:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:child_process");

/***/ }),

/***/ 7540:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:console");

/***/ }),

/***/ 7598:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");

/***/ }),

/***/ 3053:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:diagnostics_channel");

/***/ }),

/***/ 610:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:dns");

/***/ }),

/***/ 8474:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:events");

/***/ }),

/***/ 3024:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");

/***/ }),

/***/ 1455:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs/promises");

/***/ }),

/***/ 7067:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http");

/***/ }),

/***/ 2467:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http2");

/***/ }),

/***/ 4708:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:https");

/***/ }),

/***/ 7030:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:net");

/***/ }),

/***/ 8161:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");

/***/ }),

/***/ 6760:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");

/***/ }),

/***/ 643:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:perf_hooks");

/***/ }),

/***/ 1792:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:querystring");

/***/ }),

/***/ 7075:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:stream");

/***/ }),

/***/ 6466:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:stream/promises");

/***/ }),

/***/ 8500:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:timers/promises");

/***/ }),

/***/ 1692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:tls");

/***/ }),

/***/ 3136:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");

/***/ }),

/***/ 7975:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util");

/***/ }),

/***/ 3429:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util/types");

/***/ }),

/***/ 5919:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:worker_threads");

/***/ }),

/***/ 8522:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:zlib");

/***/ }),

/***/ 857:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("os");

/***/ }),

/***/ 6928:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("path");

/***/ }),

/***/ 2203:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("stream");

/***/ }),

/***/ 3193:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("string_decoder");

/***/ }),

/***/ 3557:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("timers");

/***/ }),

/***/ 4756:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("tls");

/***/ }),

/***/ 2018:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("tty");

/***/ }),

/***/ 7016:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("url");

/***/ }),

/***/ 9023:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("util");

/***/ }),

/***/ 7710:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  Yz: () => (/* binding */ core_debug),
  V4: () => (/* binding */ getInput),
  Gu: () => (/* binding */ getState),
  Os: () => (/* binding */ group),
  pq: () => (/* binding */ info),
  _o: () => (/* binding */ isDebug),
  LZ: () => (/* binding */ saveState),
  C1: () => (/* binding */ setFailed),
  uH: () => (/* binding */ setOutput),
  Pq: () => (/* binding */ core_setSecret),
  z: () => (/* reexport */ summary),
  $e: () => (/* binding */ warning)
});

// UNUSED EXPORTS: ExitCode, addPath, endGroup, error, exportVariable, getBooleanInput, getIDToken, getMultilineInput, markdownSummary, notice, platform, setCommandEcho, startGroup, toPlatformPath, toPosixPath, toWin32Path

// EXTERNAL MODULE: external "os"
var external_os_ = __nccwpck_require__(857);
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/utils.js
// We use any as a valid input type
/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Sanitizes an input into a string so it can be passed into issueCommand safely
 * @param input input to sanitize into a string
 */
function utils_toCommandValue(input) {
    if (input === null || input === undefined) {
        return '';
    }
    else if (typeof input === 'string' || input instanceof String) {
        return input;
    }
    return JSON.stringify(input);
}
/**
 *
 * @param annotationProperties
 * @returns The command properties to send with the actual annotation command
 * See IssueCommandProperties: https://github.com/actions/runner/blob/main/src/Runner.Worker/ActionCommandManager.cs#L646
 */
function utils_toCommandProperties(annotationProperties) {
    if (!Object.keys(annotationProperties).length) {
        return {};
    }
    return {
        title: annotationProperties.title,
        file: annotationProperties.file,
        line: annotationProperties.startLine,
        endLine: annotationProperties.endLine,
        col: annotationProperties.startColumn,
        endColumn: annotationProperties.endColumn
    };
}
//# sourceMappingURL=utils.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/command.js


/**
 * Issues a command to the GitHub Actions runner
 *
 * @param command - The command name to issue
 * @param properties - Additional properties for the command (key-value pairs)
 * @param message - The message to include with the command
 * @remarks
 * This function outputs a specially formatted string to stdout that the Actions
 * runner interprets as a command. These commands can control workflow behavior,
 * set outputs, create annotations, mask values, and more.
 *
 * Command Format:
 *   ::name key=value,key=value::message
 *
 * @example
 * ```typescript
 * // Issue a warning annotation
 * issueCommand('warning', {}, 'This is a warning message');
 * // Output: ::warning::This is a warning message
 *
 * // Set an environment variable
 * issueCommand('set-env', { name: 'MY_VAR' }, 'some value');
 * // Output: ::set-env name=MY_VAR::some value
 *
 * // Add a secret mask
 * issueCommand('add-mask', {}, 'secretValue123');
 * // Output: ::add-mask::secretValue123
 * ```
 *
 * @internal
 * This is an internal utility function that powers the public API functions
 * such as setSecret, warning, error, and exportVariable.
 */
function command_issueCommand(command, properties, message) {
    const cmd = new Command(command, properties, message);
    process.stdout.write(cmd.toString() + external_os_.EOL);
}
function command_issue(name, message = '') {
    command_issueCommand(name, {}, message);
}
const CMD_STRING = '::';
class Command {
    constructor(command, properties, message) {
        if (!command) {
            command = 'missing.command';
        }
        this.command = command;
        this.properties = properties;
        this.message = message;
    }
    toString() {
        let cmdStr = CMD_STRING + this.command;
        if (this.properties && Object.keys(this.properties).length > 0) {
            cmdStr += ' ';
            let first = true;
            for (const key in this.properties) {
                if (this.properties.hasOwnProperty(key)) {
                    const val = this.properties[key];
                    if (val) {
                        if (first) {
                            first = false;
                        }
                        else {
                            cmdStr += ',';
                        }
                        cmdStr += `${key}=${escapeProperty(val)}`;
                    }
                }
            }
        }
        cmdStr += `${CMD_STRING}${escapeData(this.message)}`;
        return cmdStr;
    }
}
function escapeData(s) {
    return utils_toCommandValue(s)
        .replace(/%/g, '%25')
        .replace(/\r/g, '%0D')
        .replace(/\n/g, '%0A');
}
function escapeProperty(s) {
    return utils_toCommandValue(s)
        .replace(/%/g, '%25')
        .replace(/\r/g, '%0D')
        .replace(/\n/g, '%0A')
        .replace(/:/g, '%3A')
        .replace(/,/g, '%2C');
}
//# sourceMappingURL=command.js.map
// EXTERNAL MODULE: external "crypto"
var external_crypto_ = __nccwpck_require__(6982);
// EXTERNAL MODULE: external "fs"
var external_fs_ = __nccwpck_require__(9896);
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/file-command.js
// For internal use, subject to change.
// We use any as a valid input type
/* eslint-disable @typescript-eslint/no-explicit-any */




function file_command_issueFileCommand(command, message) {
    const filePath = process.env[`GITHUB_${command}`];
    if (!filePath) {
        throw new Error(`Unable to find environment variable for file command ${command}`);
    }
    if (!external_fs_.existsSync(filePath)) {
        throw new Error(`Missing file at path: ${filePath}`);
    }
    external_fs_.appendFileSync(filePath, `${utils_toCommandValue(message)}${external_os_.EOL}`, {
        encoding: 'utf8'
    });
}
function file_command_prepareKeyValueMessage(key, value) {
    const delimiter = `ghadelimiter_${external_crypto_.randomUUID()}`;
    const convertedValue = utils_toCommandValue(value);
    // These should realistically never happen, but just in case someone finds a
    // way to exploit uuid generation let's not allow keys or values that contain
    // the delimiter.
    if (key.includes(delimiter)) {
        throw new Error(`Unexpected input: name should not contain the delimiter "${delimiter}"`);
    }
    if (convertedValue.includes(delimiter)) {
        throw new Error(`Unexpected input: value should not contain the delimiter "${delimiter}"`);
    }
    return `${key}<<${delimiter}${external_os_.EOL}${convertedValue}${external_os_.EOL}${delimiter}`;
}
//# sourceMappingURL=file-command.js.map
// EXTERNAL MODULE: external "path"
var external_path_ = __nccwpck_require__(6928);
// EXTERNAL MODULE: ./src/bundle/http-client-on-demand.ts
var http_client_on_demand = __nccwpck_require__(5126);
;// CONCATENATED MODULE: ./node_modules/@actions/http-client/lib/auth.js
var __awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};
class BasicCredentialHandler {
    constructor(username, password) {
        this.username = username;
        this.password = password;
    }
    prepareRequest(options) {
        if (!options.headers) {
            throw Error('The request has no headers');
        }
        options.headers['Authorization'] = `Basic ${Buffer.from(`${this.username}:${this.password}`).toString('base64')}`;
    }
    // This handler cannot handle 401
    canHandleAuthentication() {
        return false;
    }
    handleAuthentication() {
        return __awaiter(this, void 0, void 0, function* () {
            throw new Error('not implemented');
        });
    }
}
class auth_BearerCredentialHandler {
    constructor(token) {
        this.token = token;
    }
    // currently implements pre-authorization
    // TODO: support preAuth = false where it hooks on 401
    prepareRequest(options) {
        if (!options.headers) {
            throw Error('The request has no headers');
        }
        options.headers['Authorization'] = `Bearer ${this.token}`;
    }
    // This handler cannot handle 401
    canHandleAuthentication() {
        return false;
    }
    handleAuthentication() {
        return __awaiter(this, void 0, void 0, function* () {
            throw new Error('not implemented');
        });
    }
}
class PersonalAccessTokenCredentialHandler {
    constructor(token) {
        this.token = token;
    }
    // currently implements pre-authorization
    // TODO: support preAuth = false where it hooks on 401
    prepareRequest(options) {
        if (!options.headers) {
            throw Error('The request has no headers');
        }
        options.headers['Authorization'] = `Basic ${Buffer.from(`PAT:${this.token}`).toString('base64')}`;
    }
    // This handler cannot handle 401
    canHandleAuthentication() {
        return false;
    }
    handleAuthentication() {
        return __awaiter(this, void 0, void 0, function* () {
            throw new Error('not implemented');
        });
    }
}
//# sourceMappingURL=auth.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/oidc-utils.js
var oidc_utils_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};



class oidc_utils_OidcClient {
    static createHttpClient(allowRetry = true, maxRetry = 10) {
        const requestOptions = {
            allowRetries: allowRetry,
            maxRetries: maxRetry
        };
        return new HttpClient('actions/oidc-client', [new BearerCredentialHandler(oidc_utils_OidcClient.getRequestToken())], requestOptions);
    }
    static getRequestToken() {
        const token = process.env['ACTIONS_ID_TOKEN_REQUEST_TOKEN'];
        if (!token) {
            throw new Error('Unable to get ACTIONS_ID_TOKEN_REQUEST_TOKEN env variable');
        }
        return token;
    }
    static getIDTokenUrl() {
        const runtimeUrl = process.env['ACTIONS_ID_TOKEN_REQUEST_URL'];
        if (!runtimeUrl) {
            throw new Error('Unable to get ACTIONS_ID_TOKEN_REQUEST_URL env variable');
        }
        return runtimeUrl;
    }
    static getCall(id_token_url) {
        return oidc_utils_awaiter(this, void 0, void 0, function* () {
            var _a;
            const httpclient = oidc_utils_OidcClient.createHttpClient();
            const res = yield httpclient
                .getJson(id_token_url)
                .catch(error => {
                throw new Error(`Failed to get ID Token. \n 
        Error Code : ${error.statusCode}\n 
        Error Message: ${error.message}`);
            });
            const id_token = (_a = res.result) === null || _a === void 0 ? void 0 : _a.value;
            if (!id_token) {
                throw new Error('Response json body do not have ID Token field');
            }
            return id_token;
        });
    }
    static getIDToken(audience) {
        return oidc_utils_awaiter(this, void 0, void 0, function* () {
            try {
                // New ID Token is requested from action service
                let id_token_url = oidc_utils_OidcClient.getIDTokenUrl();
                if (audience) {
                    const encodedAudience = encodeURIComponent(audience);
                    id_token_url = `${id_token_url}&audience=${encodedAudience}`;
                }
                debug(`ID token url is ${id_token_url}`);
                const id_token = yield oidc_utils_OidcClient.getCall(id_token_url);
                setSecret(id_token);
                return id_token;
            }
            catch (error) {
                throw new Error(`Error message: ${error.message}`);
            }
        });
    }
}
//# sourceMappingURL=oidc-utils.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/summary.js
var summary_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};


const { access, appendFile, writeFile } = external_fs_.promises;
const SUMMARY_ENV_VAR = 'GITHUB_STEP_SUMMARY';
const SUMMARY_DOCS_URL = 'https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions#adding-a-job-summary';
class Summary {
    constructor() {
        this._buffer = '';
    }
    /**
     * Finds the summary file path from the environment, rejects if env var is not found or file does not exist
     * Also checks r/w permissions.
     *
     * @returns step summary file path
     */
    filePath() {
        return summary_awaiter(this, void 0, void 0, function* () {
            if (this._filePath) {
                return this._filePath;
            }
            const pathFromEnv = process.env[SUMMARY_ENV_VAR];
            if (!pathFromEnv) {
                throw new Error(`Unable to find environment variable for $${SUMMARY_ENV_VAR}. Check if your runtime environment supports job summaries.`);
            }
            try {
                yield access(pathFromEnv, external_fs_.constants.R_OK | external_fs_.constants.W_OK);
            }
            catch (_a) {
                throw new Error(`Unable to access summary file: '${pathFromEnv}'. Check if the file has correct read/write permissions.`);
            }
            this._filePath = pathFromEnv;
            return this._filePath;
        });
    }
    /**
     * Wraps content in an HTML tag, adding any HTML attributes
     *
     * @param {string} tag HTML tag to wrap
     * @param {string | null} content content within the tag
     * @param {[attribute: string]: string} attrs key-value list of HTML attributes to add
     *
     * @returns {string} content wrapped in HTML element
     */
    wrap(tag, content, attrs = {}) {
        const htmlAttrs = Object.entries(attrs)
            .map(([key, value]) => ` ${key}="${value}"`)
            .join('');
        if (!content) {
            return `<${tag}${htmlAttrs}>`;
        }
        return `<${tag}${htmlAttrs}>${content}</${tag}>`;
    }
    /**
     * Writes text in the buffer to the summary buffer file and empties buffer. Will append by default.
     *
     * @param {SummaryWriteOptions} [options] (optional) options for write operation
     *
     * @returns {Promise<Summary>} summary instance
     */
    write(options) {
        return summary_awaiter(this, void 0, void 0, function* () {
            const overwrite = !!(options === null || options === void 0 ? void 0 : options.overwrite);
            const filePath = yield this.filePath();
            const writeFunc = overwrite ? writeFile : appendFile;
            yield writeFunc(filePath, this._buffer, { encoding: 'utf8' });
            return this.emptyBuffer();
        });
    }
    /**
     * Clears the summary buffer and wipes the summary file
     *
     * @returns {Summary} summary instance
     */
    clear() {
        return summary_awaiter(this, void 0, void 0, function* () {
            return this.emptyBuffer().write({ overwrite: true });
        });
    }
    /**
     * Returns the current summary buffer as a string
     *
     * @returns {string} string of summary buffer
     */
    stringify() {
        return this._buffer;
    }
    /**
     * If the summary buffer is empty
     *
     * @returns {boolen} true if the buffer is empty
     */
    isEmptyBuffer() {
        return this._buffer.length === 0;
    }
    /**
     * Resets the summary buffer without writing to summary file
     *
     * @returns {Summary} summary instance
     */
    emptyBuffer() {
        this._buffer = '';
        return this;
    }
    /**
     * Adds raw text to the summary buffer
     *
     * @param {string} text content to add
     * @param {boolean} [addEOL=false] (optional) append an EOL to the raw text (default: false)
     *
     * @returns {Summary} summary instance
     */
    addRaw(text, addEOL = false) {
        this._buffer += text;
        return addEOL ? this.addEOL() : this;
    }
    /**
     * Adds the operating system-specific end-of-line marker to the buffer
     *
     * @returns {Summary} summary instance
     */
    addEOL() {
        return this.addRaw(external_os_.EOL);
    }
    /**
     * Adds an HTML codeblock to the summary buffer
     *
     * @param {string} code content to render within fenced code block
     * @param {string} lang (optional) language to syntax highlight code
     *
     * @returns {Summary} summary instance
     */
    addCodeBlock(code, lang) {
        const attrs = Object.assign({}, (lang && { lang }));
        const element = this.wrap('pre', this.wrap('code', code), attrs);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML list to the summary buffer
     *
     * @param {string[]} items list of items to render
     * @param {boolean} [ordered=false] (optional) if the rendered list should be ordered or not (default: false)
     *
     * @returns {Summary} summary instance
     */
    addList(items, ordered = false) {
        const tag = ordered ? 'ol' : 'ul';
        const listItems = items.map(item => this.wrap('li', item)).join('');
        const element = this.wrap(tag, listItems);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML table to the summary buffer
     *
     * @param {SummaryTableCell[]} rows table rows
     *
     * @returns {Summary} summary instance
     */
    addTable(rows) {
        const tableBody = rows
            .map(row => {
            const cells = row
                .map(cell => {
                if (typeof cell === 'string') {
                    return this.wrap('td', cell);
                }
                const { header, data, colspan, rowspan } = cell;
                const tag = header ? 'th' : 'td';
                const attrs = Object.assign(Object.assign({}, (colspan && { colspan })), (rowspan && { rowspan }));
                return this.wrap(tag, data, attrs);
            })
                .join('');
            return this.wrap('tr', cells);
        })
            .join('');
        const element = this.wrap('table', tableBody);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds a collapsable HTML details element to the summary buffer
     *
     * @param {string} label text for the closed state
     * @param {string} content collapsable content
     *
     * @returns {Summary} summary instance
     */
    addDetails(label, content) {
        const element = this.wrap('details', this.wrap('summary', label) + content);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML image tag to the summary buffer
     *
     * @param {string} src path to the image you to embed
     * @param {string} alt text description of the image
     * @param {SummaryImageOptions} options (optional) addition image attributes
     *
     * @returns {Summary} summary instance
     */
    addImage(src, alt, options) {
        const { width, height } = options || {};
        const attrs = Object.assign(Object.assign({}, (width && { width })), (height && { height }));
        const element = this.wrap('img', null, Object.assign({ src, alt }, attrs));
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML section heading element
     *
     * @param {string} text heading text
     * @param {number | string} [level=1] (optional) the heading level, default: 1
     *
     * @returns {Summary} summary instance
     */
    addHeading(text, level) {
        const tag = `h${level}`;
        const allowedTag = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].includes(tag)
            ? tag
            : 'h1';
        const element = this.wrap(allowedTag, text);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML thematic break (<hr>) to the summary buffer
     *
     * @returns {Summary} summary instance
     */
    addSeparator() {
        const element = this.wrap('hr', null);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML line break (<br>) to the summary buffer
     *
     * @returns {Summary} summary instance
     */
    addBreak() {
        const element = this.wrap('br', null);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML blockquote to the summary buffer
     *
     * @param {string} text quote text
     * @param {string} cite (optional) citation url
     *
     * @returns {Summary} summary instance
     */
    addQuote(text, cite) {
        const attrs = Object.assign({}, (cite && { cite }));
        const element = this.wrap('blockquote', text, attrs);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML anchor tag to the summary buffer
     *
     * @param {string} text link text/content
     * @param {string} href hyperlink
     *
     * @returns {Summary} summary instance
     */
    addLink(text, href) {
        const element = this.wrap('a', text, { href });
        return this.addRaw(element).addEOL();
    }
}
const _summary = new Summary();
/**
 * @deprecated use `core.summary`
 */
const markdownSummary = (/* unused pure expression or super */ null && (_summary));
const summary = _summary;
//# sourceMappingURL=summary.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/path-utils.js

/**
 * toPosixPath converts the given path to the posix form. On Windows, \\ will be
 * replaced with /.
 *
 * @param pth. Path to transform.
 * @return string Posix path.
 */
function toPosixPath(pth) {
    return pth.replace(/[\\]/g, '/');
}
/**
 * toWin32Path converts the given path to the win32 form. On Linux, / will be
 * replaced with \\.
 *
 * @param pth. Path to transform.
 * @return string Win32 path.
 */
function toWin32Path(pth) {
    return pth.replace(/[/]/g, '\\');
}
/**
 * toPlatformPath converts the given path to a platform-specific path. It does
 * this by replacing instances of / and \ with the platform-specific path
 * separator.
 *
 * @param pth The path to platformize.
 * @return string The platform-specific path.
 */
function toPlatformPath(pth) {
    return pth.replace(/[/\\]/g, path.sep);
}
//# sourceMappingURL=path-utils.js.map
// EXTERNAL MODULE: ./src/bundle/on-demand.ts
var on_demand = __nccwpck_require__(7575);
;// CONCATENATED MODULE: ./src/bundle/exec-on-demand.ts
// What the bundle gets for `import … from '@actions/exec'` (tsconfig.json `paths`, which ncc's resolver
// follows; docs/adr/0008-undici-on-demand.md). @actions/core imports it for `platform` (the runner's OS
// details), which this action never reads; with it came @actions/io and Node's `assert`, evaluated at the
// start of every step. Here it is a chunk of its own, loaded by the first call (none, today). The names are
// the ones the bundled toolkit imports (checked by on-demand.spec.ts).

const exec_on_demand_exec = (0,on_demand/* onDemand */.h)('@actions/exec', 'getExecOutput', () => __nccwpck_require__.e(/* import() */ 260).then(__nccwpck_require__.bind(__nccwpck_require__, 1260)));
/** @actions/exec's getExecOutput, loaded on its first call. */
const getExecOutput = async (...args) => (await exec_on_demand_exec.load()).getExecOutput(...args);

;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/platform.js
var platform_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};


const getWindowsInfo = () => platform_awaiter(void 0, void 0, void 0, function* () {
    const { stdout: version } = yield exec.getExecOutput('powershell -command "(Get-CimInstance -ClassName Win32_OperatingSystem).Version"', undefined, {
        silent: true
    });
    const { stdout: name } = yield exec.getExecOutput('powershell -command "(Get-CimInstance -ClassName Win32_OperatingSystem).Caption"', undefined, {
        silent: true
    });
    return {
        name: name.trim(),
        version: version.trim()
    };
});
const getMacOsInfo = () => platform_awaiter(void 0, void 0, void 0, function* () {
    var _a, _b, _c, _d;
    const { stdout } = yield exec.getExecOutput('sw_vers', undefined, {
        silent: true
    });
    const version = (_b = (_a = stdout.match(/ProductVersion:\s*(.+)/)) === null || _a === void 0 ? void 0 : _a[1]) !== null && _b !== void 0 ? _b : '';
    const name = (_d = (_c = stdout.match(/ProductName:\s*(.+)/)) === null || _c === void 0 ? void 0 : _c[1]) !== null && _d !== void 0 ? _d : '';
    return {
        name,
        version
    };
});
const getLinuxInfo = () => platform_awaiter(void 0, void 0, void 0, function* () {
    const { stdout } = yield exec.getExecOutput('lsb_release', ['-i', '-r', '-s'], {
        silent: true
    });
    const [name, version] = stdout.trim().split('\n');
    return {
        name,
        version
    };
});
const platform = external_os_.platform();
const arch = external_os_.arch();
const isWindows = platform === 'win32';
const isMacOS = platform === 'darwin';
const isLinux = platform === 'linux';
function getDetails() {
    return platform_awaiter(this, void 0, void 0, function* () {
        return Object.assign(Object.assign({}, (yield (isWindows
            ? getWindowsInfo()
            : isMacOS
                ? getMacOsInfo()
                : getLinuxInfo()))), { platform,
            arch,
            isWindows,
            isMacOS,
            isLinux });
    });
}
//# sourceMappingURL=platform.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/core.js
var core_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};






/**
 * The code to exit an action
 */
var ExitCode;
(function (ExitCode) {
    /**
     * A code indicating that the action was successful
     */
    ExitCode[ExitCode["Success"] = 0] = "Success";
    /**
     * A code indicating that the action was a failure
     */
    ExitCode[ExitCode["Failure"] = 1] = "Failure";
})(ExitCode || (ExitCode = {}));
//-----------------------------------------------------------------------
// Variables
//-----------------------------------------------------------------------
/**
 * Sets env variable for this action and future actions in the job
 * @param name the name of the variable to set
 * @param val the value of the variable. Non-string values will be converted to a string via JSON.stringify
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function exportVariable(name, val) {
    const convertedVal = toCommandValue(val);
    process.env[name] = convertedVal;
    const filePath = process.env['GITHUB_ENV'] || '';
    if (filePath) {
        return issueFileCommand('ENV', prepareKeyValueMessage(name, val));
    }
    issueCommand('set-env', { name }, convertedVal);
}
/**
 * Registers a secret which will get masked from logs
 *
 * @param secret - Value of the secret to be masked
 * @remarks
 * This function instructs the Actions runner to mask the specified value in any
 * logs produced during the workflow run. Once registered, the secret value will
 * be replaced with asterisks (***) whenever it appears in console output, logs,
 * or error messages.
 *
 * This is useful for protecting sensitive information such as:
 * - API keys
 * - Access tokens
 * - Authentication credentials
 * - URL parameters containing signatures (SAS tokens)
 *
 * Note that masking only affects future logs; any previous appearances of the
 * secret in logs before calling this function will remain unmasked.
 *
 * @example
 * ```typescript
 * // Register an API token as a secret
 * const apiToken = "abc123xyz456";
 * setSecret(apiToken);
 *
 * // Now any logs containing this value will show *** instead
 * console.log(`Using token: ${apiToken}`); // Outputs: "Using token: ***"
 * ```
 */
function core_setSecret(secret) {
    command_issueCommand('add-mask', {}, secret);
}
/**
 * Prepends inputPath to the PATH (for this action and future actions)
 * @param inputPath
 */
function addPath(inputPath) {
    const filePath = process.env['GITHUB_PATH'] || '';
    if (filePath) {
        issueFileCommand('PATH', inputPath);
    }
    else {
        issueCommand('add-path', {}, inputPath);
    }
    process.env['PATH'] = `${inputPath}${path.delimiter}${process.env['PATH']}`;
}
/**
 * Gets the value of an input.
 * Unless trimWhitespace is set to false in InputOptions, the value is also trimmed.
 * Returns an empty string if the value is not defined.
 *
 * @param     name     name of the input to get
 * @param     options  optional. See InputOptions.
 * @returns   string
 */
function getInput(name, options) {
    const val = process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] || '';
    if (options && options.required && !val) {
        throw new Error(`Input required and not supplied: ${name}`);
    }
    if (options && options.trimWhitespace === false) {
        return val;
    }
    return val.trim();
}
/**
 * Gets the values of an multiline input.  Each value is also trimmed.
 *
 * @param     name     name of the input to get
 * @param     options  optional. See InputOptions.
 * @returns   string[]
 *
 */
function getMultilineInput(name, options) {
    const inputs = getInput(name, options)
        .split('\n')
        .filter(x => x !== '');
    if (options && options.trimWhitespace === false) {
        return inputs;
    }
    return inputs.map(input => input.trim());
}
/**
 * Gets the input value of the boolean type in the YAML 1.2 "core schema" specification.
 * Support boolean input list: `true | True | TRUE | false | False | FALSE` .
 * The return value is also in boolean type.
 * ref: https://yaml.org/spec/1.2/spec.html#id2804923
 *
 * @param     name     name of the input to get
 * @param     options  optional. See InputOptions.
 * @returns   boolean
 */
function getBooleanInput(name, options) {
    const trueValue = ['true', 'True', 'TRUE'];
    const falseValue = ['false', 'False', 'FALSE'];
    const val = getInput(name, options);
    if (trueValue.includes(val))
        return true;
    if (falseValue.includes(val))
        return false;
    throw new TypeError(`Input does not meet YAML 1.2 "Core Schema" specification: ${name}\n` +
        `Support boolean input list: \`true | True | TRUE | false | False | FALSE\``);
}
/**
 * Sets the value of an output.
 *
 * @param     name     name of the output to set
 * @param     value    value to store. Non-string values will be converted to a string via JSON.stringify
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function setOutput(name, value) {
    const filePath = process.env['GITHUB_OUTPUT'] || '';
    if (filePath) {
        return file_command_issueFileCommand('OUTPUT', file_command_prepareKeyValueMessage(name, value));
    }
    process.stdout.write(external_os_.EOL);
    command_issueCommand('set-output', { name }, utils_toCommandValue(value));
}
/**
 * Enables or disables the echoing of commands into stdout for the rest of the step.
 * Echoing is disabled by default if ACTIONS_STEP_DEBUG is not set.
 *
 */
function setCommandEcho(enabled) {
    issue('echo', enabled ? 'on' : 'off');
}
//-----------------------------------------------------------------------
// Results
//-----------------------------------------------------------------------
/**
 * Sets the action status to failed.
 * When the action exits it will be with an exit code of 1
 * @param message add error issue message
 */
function setFailed(message) {
    process.exitCode = ExitCode.Failure;
    error(message);
}
//-----------------------------------------------------------------------
// Logging Commands
//-----------------------------------------------------------------------
/**
 * Gets whether Actions Step Debug is on or not
 */
function isDebug() {
    return process.env['RUNNER_DEBUG'] === '1';
}
/**
 * Writes debug message to user log
 * @param message debug message
 */
function core_debug(message) {
    command_issueCommand('debug', {}, message);
}
/**
 * Adds an error issue
 * @param message error issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function error(message, properties = {}) {
    command_issueCommand('error', utils_toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
/**
 * Adds a warning issue
 * @param message warning issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function warning(message, properties = {}) {
    command_issueCommand('warning', utils_toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
/**
 * Adds a notice issue
 * @param message notice issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function notice(message, properties = {}) {
    issueCommand('notice', toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
/**
 * Writes info to log with console.log.
 * @param message info message
 */
function info(message) {
    process.stdout.write(message + external_os_.EOL);
}
/**
 * Begin an output group.
 *
 * Output until the next `groupEnd` will be foldable in this group
 *
 * @param name The name of the output group
 */
function startGroup(name) {
    command_issue('group', name);
}
/**
 * End an output group.
 */
function endGroup() {
    command_issue('endgroup');
}
/**
 * Wrap an asynchronous function call in a group.
 *
 * Returns the same type as the function itself.
 *
 * @param name The name of the group
 * @param fn The function to wrap in the group
 */
function group(name, fn) {
    return core_awaiter(this, void 0, void 0, function* () {
        startGroup(name);
        let result;
        try {
            result = yield fn();
        }
        finally {
            endGroup();
        }
        return result;
    });
}
//-----------------------------------------------------------------------
// Wrapper action state
//-----------------------------------------------------------------------
/**
 * Saves state for current action, the state can only be retrieved by this action's post job execution.
 *
 * @param     name     name of the state to store
 * @param     value    value to store. Non-string values will be converted to a string via JSON.stringify
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function saveState(name, value) {
    const filePath = process.env['GITHUB_STATE'] || '';
    if (filePath) {
        return file_command_issueFileCommand('STATE', file_command_prepareKeyValueMessage(name, value));
    }
    command_issueCommand('save-state', { name }, utils_toCommandValue(value));
}
/**
 * Gets the value of an state set by this action's main execution.
 *
 * @param     name     name of the state to get
 * @returns   string
 */
function getState(name) {
    return process.env[`STATE_${name}`] || '';
}
function getIDToken(aud) {
    return core_awaiter(this, void 0, void 0, function* () {
        return yield OidcClient.getIDToken(aud);
    });
}
/**
 * Summary exports
 */

/**
 * @deprecated use core.summary
 */

/**
 * Path exports
 */

/**
 * Platform utilities exports
 */

//# sourceMappingURL=core.js.map

/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId].call(module.exports, module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/******/ // expose the modules object (__webpack_modules__)
/******/ __nccwpck_require__.m = __webpack_modules__;
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/create fake namespace object */
/******/ (() => {
/******/ 	var getProto = Object.getPrototypeOf ? (obj) => (Object.getPrototypeOf(obj)) : (obj) => (obj.__proto__);
/******/ 	var leafPrototypes;
/******/ 	// create a fake namespace object
/******/ 	// mode & 1: value is a module id, require it
/******/ 	// mode & 2: merge all properties of value into the ns
/******/ 	// mode & 4: return value when already ns object
/******/ 	// mode & 16: return value when it's Promise-like
/******/ 	// mode & 8|1: behave like require
/******/ 	__nccwpck_require__.t = function(value, mode) {
/******/ 		if(mode & 1) value = this(value);
/******/ 		if(mode & 8) return value;
/******/ 		if(typeof value === 'object' && value) {
/******/ 			if((mode & 4) && value.__esModule) return value;
/******/ 			if((mode & 16) && typeof value.then === 'function') return value;
/******/ 		}
/******/ 		var ns = Object.create(null);
/******/ 		__nccwpck_require__.r(ns);
/******/ 		var def = {};
/******/ 		leafPrototypes = leafPrototypes || [null, getProto({}), getProto([]), getProto(getProto)];
/******/ 		for(var current = mode & 2 && value; typeof current == 'object' && !~leafPrototypes.indexOf(current); current = getProto(current)) {
/******/ 			Object.getOwnPropertyNames(current).forEach((key) => (def[key] = () => (value[key])));
/******/ 		}
/******/ 		def['default'] = () => (value);
/******/ 		__nccwpck_require__.d(ns, def);
/******/ 		return ns;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/ensure chunk */
/******/ (() => {
/******/ 	__nccwpck_require__.f = {};
/******/ 	// This file contains only the entry chunk.
/******/ 	// The chunk loading function for additional chunks
/******/ 	__nccwpck_require__.e = (chunkId) => {
/******/ 		return Promise.all(Object.keys(__nccwpck_require__.f).reduce((promises, key) => {
/******/ 			__nccwpck_require__.f[key](chunkId, promises);
/******/ 			return promises;
/******/ 		}, []));
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/get javascript chunk filename */
/******/ (() => {
/******/ 	// This function allow to reference async chunks
/******/ 	__nccwpck_require__.u = (chunkId) => {
/******/ 		// return url for filenames based on template
/******/ 		return "" + chunkId + ".index.js";
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/******/ /* webpack/runtime/make namespace object */
/******/ (() => {
/******/ 	// define __esModule on exports
/******/ 	__nccwpck_require__.r = (exports) => {
/******/ 		if(typeof Symbol !== 'undefined' && Symbol.toStringTag) {
/******/ 			Object.defineProperty(exports, Symbol.toStringTag, { value: 'Module' });
/******/ 		}
/******/ 		Object.defineProperty(exports, '__esModule', { value: true });
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/import chunk loading */
/******/ (() => {
/******/ 	// no baseURI
/******/ 	
/******/ 	// object to store loaded and loading chunks
/******/ 	// undefined = chunk not loaded, null = chunk preloaded/prefetched
/******/ 	// [resolve, Promise] = chunk loading, 0 = chunk loaded
/******/ 	var installedChunks = {
/******/ 		792: 0
/******/ 	};
/******/ 	
/******/ 	var installChunk = (data) => {
/******/ 		var {ids, modules, runtime} = data;
/******/ 		// add "modules" to the modules object,
/******/ 		// then flag all "ids" as loaded and fire callback
/******/ 		var moduleId, chunkId, i = 0;
/******/ 		for(moduleId in modules) {
/******/ 			if(__nccwpck_require__.o(modules, moduleId)) {
/******/ 				__nccwpck_require__.m[moduleId] = modules[moduleId];
/******/ 			}
/******/ 		}
/******/ 		if(runtime) runtime(__nccwpck_require__);
/******/ 		for(;i < ids.length; i++) {
/******/ 			chunkId = ids[i];
/******/ 			if(__nccwpck_require__.o(installedChunks, chunkId) && installedChunks[chunkId]) {
/******/ 				installedChunks[chunkId][0]();
/******/ 			}
/******/ 			installedChunks[ids[i]] = 0;
/******/ 		}
/******/ 	
/******/ 	}
/******/ 	
/******/ 	__nccwpck_require__.f.j = (chunkId, promises) => {
/******/ 			// import() chunk loading for javascript
/******/ 			var installedChunkData = __nccwpck_require__.o(installedChunks, chunkId) ? installedChunks[chunkId] : undefined;
/******/ 			if(installedChunkData !== 0) { // 0 means "already installed".
/******/ 	
/******/ 				// a Promise means "currently loading".
/******/ 				if(installedChunkData) {
/******/ 					promises.push(installedChunkData[1]);
/******/ 				} else {
/******/ 					if(true) { // all chunks have JS
/******/ 						// setup Promise in chunk cache
/******/ 						var promise = import("./" + __nccwpck_require__.u(chunkId)).then(installChunk, (e) => {
/******/ 							if(installedChunks[chunkId] !== 0) installedChunks[chunkId] = undefined;
/******/ 							throw e;
/******/ 						});
/******/ 						var promise = Promise.race([promise, new Promise((resolve) => (installedChunkData = installedChunks[chunkId] = [resolve]))])
/******/ 						promises.push(installedChunkData[1] = promise);
/******/ 					}
/******/ 				}
/******/ 			}
/******/ 	};
/******/ 	
/******/ 	// no prefetching
/******/ 	
/******/ 	// no preloaded
/******/ 	
/******/ 	// no external install chunk
/******/ 	
/******/ 	// no on chunks loaded
/******/ })();
/******/ 
/************************************************************************/
var __webpack_exports__ = {};

;// CONCATENATED MODULE: external "node:v8"
const external_node_v8_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:v8");
;// CONCATENATED MODULE: ./src/engine/memory.ts
// Imported first by both entry points (the action, the CLI). A command may print gigabytes: each of its
// lines is a short-lived string, and V8 would grow its young generation to tens of megabytes to hold
// them between collections, about doubling the step's peak (ADR 0007). Keeping the young generation at its
// start size bounds the step's memory; collections stay cheap.

external_node_v8_namespaceObject.setFlagsFromString('--semi-space-growth-factor=1');
/** The young generation's size now (V8's `new_space`). */
function youngGenerationBytes() {
    return v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}

// EXTERNAL MODULE: ./node_modules/@actions/core/lib/core.js + 9 modules
var core = __nccwpck_require__(7710);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __nccwpck_require__(8161);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __nccwpck_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __nccwpck_require__(6760);
// EXTERNAL MODULE: ./src/engine/git-commands.ts
var git_commands = __nccwpck_require__(8657);
// EXTERNAL MODULE: ./src/engine/engine-probe.ts
var engine_probe = __nccwpck_require__(6269);
// EXTERNAL MODULE: ./src/engine/engine.ts + 2 modules
var engine_engine = __nccwpck_require__(1665);
// EXTERNAL MODULE: ./src/engine/git.ts + 2 modules
var engine_git = __nccwpck_require__(1763);
// EXTERNAL MODULE: ./src/engine/labels.ts
var labels = __nccwpck_require__(9667);
// EXTERNAL MODULE: ./src/network/leftovers.ts
var leftovers = __nccwpck_require__(1434);
// EXTERNAL MODULE: ./src/sandbox/bookkeeping.ts
var bookkeeping = __nccwpck_require__(9503);
// EXTERNAL MODULE: ./src/sandbox/git-traps.ts
var git_traps = __nccwpck_require__(622);
// EXTERNAL MODULE: ./src/sandbox/layout.ts
var layout = __nccwpck_require__(9601);
// EXTERNAL MODULE: ./src/sandbox/lock.ts
var sandbox_lock = __nccwpck_require__(6856);
// EXTERNAL MODULE: ./src/sandbox/remove.ts
var remove = __nccwpck_require__(4299);
// EXTERNAL MODULE: ./src/sandbox/saved.ts
var sandbox_saved = __nccwpck_require__(7180);
// EXTERNAL MODULE: ./src/run/collect.ts + 1 modules
var collect = __nccwpck_require__(527);
// EXTERNAL MODULE: ./src/run/report.ts
var run_report = __nccwpck_require__(7119);
// EXTERNAL MODULE: ./src/ui/sandbox-text.ts
var sandbox_text = __nccwpck_require__(9633);
;// CONCATENATED MODULE: ./src/run/cleanup.ts
// The post step: runs after success, failure and cancel. Removes the command's container if it is still
// there, then applies the cleanup policy. It never fails the job: problems become warnings.
// Everything after the container happens under the sandbox's lock, as every removal does: another run
// (another job on the same branch) may be using the sandbox, and then nothing of it is touched.

















/**
 * How long the post step waits for the sandbox's lock: long enough for the lock of a main step that was
 * killed (on cancel) to go stale, so that its own run's lock never keeps it; a live holder refreshes its
 * lock, and the post step then gives up and touches nothing.
 */
const POST_LOCK_WAIT_MS = sandbox_lock/* LOCK_STALE_MS */.LP + 3_000;
async function cleanupRun(state, ui, tempDir, options = {}) {
    const engine = (0,engine_engine/* createEngine */.P)(state.engine);
    const sandbox = state.location;
    // With the engine's view unproven, only a command container the engine created proves it (asked before
    // it goes: removing a container that never was may succeed too).
    const proven = !state.viewProof ||
        state.exitCode !== undefined ||
        (!!state.container && (await engine.containerExists(state.container)) === true);
    const containerGone = state.container ? await engine.removeContainer(state.container) : false;
    if (containerGone)
        ui.info(`Removed container ${state.container}.`);
    // A killed run's network sidecar (named after the command's container), after the command's: Podman
    // keeps a container that another one still joins.
    const sidecar = state.container && (0,leftovers/* sidecarName */.fg)(state.container);
    if (sidecar && (await engine.removeContainer(sidecar)))
        ui.info(`Removed container ${sidecar}.`);
    if (state.viewProof) {
        await removeProbeFiles(state.viewProof.files);
        // The engine never created the command's container that was to prove it sees the sandbox's folders:
        // a helper now might find other folders under the same names.
        if (!proven)
            return keep(ui, sandbox, "the main step stopped before the engine was shown to see its folders (its command's container was never created): nothing of it was touched");
    }
    const lock = options.lockHeld
        ? { release: async () => undefined }
        : await lockForCleanup(sandbox, options.lockWaitMs ?? POST_LOCK_WAIT_MS);
    if ('heldBy' in lock) {
        const who = lock.heldBy ? `another run holds it (${lock.heldBy})` : 'another run holds its lock';
        return { ...keep(ui, sandbox, `${who}: nothing of it was touched`), heldBy: lock.heldBy };
    }
    if ('failed' in lock)
        return keep(ui, sandbox, `its lock could not be taken (${lock.failed}): nothing of it was touched`);
    try {
        // The note says a container of this sandbox may exist: ours is gone, and no other run holds it.
        if (containerGone)
            await promises_.rm((0,sandbox_lock/* containerNotePath */.NJ)(sandbox.parent.gitDir, sandbox.name), { force: true });
        return await cleanupLocked(state, engine, ui, tempDir);
    }
    finally {
        await lock.release();
    }
}
/**
 * The engine-view probe's helper that a main step killed before its end left (created, never started):
 * removed, whatever else the main step got to (it is saved before anything else). Never throws: the helper
 * is labelled, and the reaper removes such helpers after an hour (engine-probe.ts, removeStaleProbes).
 */
async function removeLeftProbe(state, ui) {
    const probe = state?.probe;
    if (!probe || !engine_probe/* PROBE_NAME */.J4.test(probe.name))
        return;
    const engine = (0,engine_engine/* createEngine */.P)(probe.engine);
    // Asked first: removing a container that is not there succeeds too, with some engines.
    if ((await engine.containerExists(probe.name).catch(() => undefined)) !== true)
        return;
    if (await engine.removeContainer(probe.name).catch(() => false))
        ui.info(`Removed the helper ${probe.name} that checked what the engine sees.`);
}
async function lockForCleanup(sandbox, waitMs) {
    try {
        return { release: await (0,sandbox_lock/* lockSandbox */.rj)(sandbox.parent.gitDir, sandbox.name, waitMs) };
    }
    catch (error) {
        if (error instanceof sandbox_lock/* LockTimeoutError */.XB)
            return { heldBy: error.holder };
        // Without the lock nothing is removed (the parent may be gone: the reaper sees to orphans).
        return { failed: error.message };
    }
}
async function cleanupLocked(state, engine, ui, tempDir) {
    const git = await (0,engine_git/* createGit */.lD)();
    const sandbox = state.location;
    if (!state.ready)
        return recoverHalfCreated(git, engine, sandbox, ui);
    if (state.secretsFound)
        return keep(ui, sandbox, 'the secret scan held its work back: kept for a person to look at, whatever cleanup says');
    if (state.cleanup === 'never')
        return keep(ui, sandbox, 'cleanup: never');
    if (state.cleanup === 'auto' && sandbox.kind === 'persistent')
        return keep(ui, sandbox, 'persistent sandboxes are kept for reuse (cleanup: auto)');
    const prepared = { ...sandbox, reused: true, startSha: state.startSha ?? '' };
    // The main step stopped before it brought the work back: do it now, the same way.
    let collected = state.report;
    if (!collected) {
        try {
            const report = await (0,collect/* collectChanges */.K)(git, engine, prepared, { ...state.collect, image: state.image });
            (0,git_traps/* reportCleared */.DB)(ui, sandbox.name, report.trapsCleared ?? []);
            collected = report;
        }
        catch (error) {
            // Work that cannot be brought back (over max-import-size, a capture that fails or runs out) cannot
            // be saved either: the sandbox is kept whatever the policy, so that nothing is lost; the reaper
            // judges it later like any other.
            const why = `its work could not be brought back, so it could not be saved (${(0,sandbox_text/* sandboxText */.dX)(error.message)})`;
            ui.warning(`Kept sandbox ${sandbox.name} (${(0,layout/* whereIs */.ie)(sandbox)}): ${why}.`);
            return { removed: false, kept: why };
        }
    }
    // Counted now, not when the report was made: the main step may have pushed since. Saved means what the
    // reaper means (src/sandbox/saved.ts): on a remote or a tag; on a branch only in a parent with no remote.
    const saved = await (0,sandbox_saved/* savedRefs */.EY)(git, sandbox.parent.path);
    const count = await (0,sandbox_saved/* countUnsaved */.C3)(git, sandbox.parent.path, [(0,bookkeeping/* sandboxRefs */.yB)(sandbox).head], saved);
    const unsaved = count?.count === 0
        ? undefined
        : {
            count: count?.count ?? 1,
            ...(count === undefined || count.atLeast ? { atLeast: true } : {}),
            branch: collected.currentBranch || sandbox.branch || undefined,
            hasRemote: saved.hasRemote,
        };
    const report = { ...collected, unpushedCommits: unsaved?.count ?? 0 };
    if (state.cleanup === 'auto') {
        if ((0,run_report/* holdsWork */.Ww)(report))
            return { ...keep(ui, sandbox, describeWork(report, unsaved)), unsaved };
        await (0,remove/* removeSandbox */.Ur)(git, engine, sandbox);
        ui.info(`Removed transient sandbox ${sandbox.name}: it held no work.`);
        return { removed: true };
    }
    const files = (0,run_report/* holdsWork */.Ww)(report) ? await saveWork(git, prepared, report, saved.revs, tempDir, ui) : {};
    await (0,remove/* removeSandbox */.Ur)(git, engine, sandbox);
    ui.info(`Removed sandbox ${sandbox.name} (cleanup: always).`);
    return { removed: true, ...files };
}
/** A killed run's probe files (named as the probe names them; anything else named there is left). */
async function removeProbeFiles(files) {
    await Promise.all(files
        .filter((file) => external_node_path_.isAbsolute(file) && external_node_path_.basename(file).startsWith(engine_probe/* PROBE_FILE_PREFIX */.d_))
        .map((file) => promises_.rm(file, { force: true }).catch(() => undefined)));
}
function keep(ui, sandbox, why) {
    ui.info(`Kept sandbox ${sandbox.name} (${(0,layout/* whereIs */.ie)(sandbox)}): ${why}.`);
    return { removed: false, kept: why };
}
function describeWork(report, unsaved) {
    const parts = [];
    if (report.uncommittedCount || !report.uncommittedExact)
        parts.push(`${report.uncommittedExact ? '' : 'at least '}${report.uncommittedCount} uncommitted file(s)`);
    if (unsaved)
        parts.push((0,sandbox_saved/* describeUnsaved */.I)(unsaved));
    return `it holds work: ${parts.join(', ')}`;
}
/** The main step stopped while creating the sandbox: undo what it half-created, keep anything whole. */
async function recoverHalfCreated(git, engine, sandbox, ui) {
    const refs = (0,bookkeeping/* sandboxRefs */.yB)(sandbox);
    const { parent } = sandbox;
    // Creation writes the sandbox without the repository lock, holding only the sandbox's: a `creating`
    // record may be another run's creation under way. cleanupRun holds the sandbox's lock here (it waited
    // longer than a dead main step's lock stays live), so no live run is creating it now.
    // Only a `creating` record says that this action made something there; without any record, nothing of
    // ours is there (what is, is not touched).
    const half = await (0,sandbox_lock/* withRepositoryLock */.aZ)(parent.gitDir, () => git.refExists(parent.path, refs.creating));
    if (!half)
        return keep(ui, sandbox, 'no creation of it was under way when the main step stopped');
    // The create helper the main step started may still be writing the volume: it goes first.
    await engine.removeContainersLabelled((0,labels/* sandboxHelperLabels */.xN)(sandbox)).catch(() => undefined);
    await (0,remove/* removeSandbox */.Ur)(git, engine, sandbox).catch(() => undefined);
    ui.info(`The main step stopped before sandbox ${sandbox.name} was ready: removed what it had half-created.`);
    return { removed: true };
}
/**
 * `cleanup: always` with work in the sandbox: uncommitted work as a binary patch (from the private store's
 * snapshot) and the commits the parent has not saved as a bundle (from the parent), both under RUNNER_TEMP.
 */
async function saveWork(git, sandbox, report, savedRevs, tempDir, ui) {
    const dir = external_node_path_.join(tempDir, 'worktree-sandbox');
    await promises_.mkdir(dir, { recursive: true });
    const base = external_node_path_.join(dir, `${sandbox.project}-${sandbox.name}`);
    const saved = {};
    if (report.uncommittedCount || !report.uncommittedExact) {
        const store = (0,bookkeeping/* privateStorePath */.Ay)(sandbox.parent, sandbox);
        saved.patch = await saveUncommitted(git, store, base, report);
        ui.info(`Saved the uncommitted work of ${sandbox.name} to ${saved.patch}.`);
    }
    if (report.unpushedCommits > 0) {
        saved.bundle = `${base}.bundle`;
        await git.run(sandbox.parent.path, [
            'bundle',
            'create',
            '--quiet',
            saved.bundle,
            (0,bookkeeping/* sandboxRefs */.yB)(sandbox).head,
            '--not',
            ...savedRevs,
        ]);
        ui.info(`Saved ${report.unpushedCommits} commit(s) of ${sandbox.name} that no remote has to ${saved.bundle}.`);
    }
    return saved;
}
/** Up to this many uncommitted files, they are saved as a patch; above, as a bundle of the snapshot commit. */
const PATCH_MAX_PATHS = 10_000;
/** The largest patch written; a larger one is replaced by the bundle. */
const PATCH_MAX_BYTES = 2 * 1024 ** 3;
/**
 * The uncommitted work as a binary patch, streamed to its file (never held here); when there are too many
 * files for git's diff to stay small (it holds every path it compares), or the patch would be larger than
 * PATCH_MAX_BYTES, as a bundle of the snapshot commit instead (`git fetch <bundle>` then `git checkout`
 * it): a bundle stores each object once, however many paths name it.
 */
async function saveUncommitted(git, store, base, work) {
    const patch = `${base}.patch`;
    if (work.uncommittedExact && work.uncommittedCount <= PATCH_MAX_PATHS) {
        await promises_.rm(patch, { force: true });
        const written = await git.stream(store, ['diff', '--binary', ...git_commands/* NO_EXTERNAL_DIFF */.S, 'refs/run/head', 'refs/run/snapshot', '--'], { stdoutFile: { path: patch, maxBytes: PATCH_MAX_BYTES } });
        if (written.exitCode === 0 && !written.overLimit)
            return patch;
        await promises_.rm(patch, { force: true });
        if (!written.overLimit)
            throw new Error(`git diff failed: ${written.stderrTail.slice(-3).join(' ')}`);
    }
    const bundle = `${base}.uncommitted.bundle`;
    await git.run(store, [
        'bundle',
        'create',
        '--quiet',
        bundle,
        'refs/run/snapshot',
        '--not',
        'refs/run/head',
    ]);
    return bundle;
}

// EXTERNAL MODULE: ./src/run/redaction.ts
var redaction = __nccwpck_require__(7064);
// EXTERNAL MODULE: ./src/run/run.ts + 8 modules
var run = __nccwpck_require__(8439);
// EXTERNAL MODULE: ./src/github/event.ts + 3 modules
var github_event = __nccwpck_require__(4126);
// EXTERNAL MODULE: ./src/settings/settings.ts + 5 modules
var settings_settings = __nccwpck_require__(9109);
// EXTERNAL MODULE: ./src/action/step-state.ts
var step_state = __nccwpck_require__(4634);
// EXTERNAL MODULE: ./src/present/progress-comment.ts
var progress_comment = __nccwpck_require__(3936);
// EXTERNAL MODULE: ./src/present/run-summary.ts
var run_summary = __nccwpck_require__(6075);
// EXTERNAL MODULE: ./src/present/network-summary.ts
var network_summary = __nccwpck_require__(7564);
// EXTERNAL MODULE: ./src/present/usage-report.ts
var usage_report = __nccwpck_require__(2335);
// EXTERNAL MODULE: ./src/action/action-ui.ts + 1 modules
var action_ui = __nccwpck_require__(654);
// EXTERNAL MODULE: ./src/present/step-summary.ts
var step_summary = __nccwpck_require__(2700);
;// CONCATENATED MODULE: ./src/action/main.ts
// The action's two phases on top of the core: inputs in, outputs and a job summary out. `run()` is the main
// step and `cleanup()` the post step, each ending the step failed on an error: index.ts calls one of them
// (the bundle), and so can a runner of the source such as @github/local-action (`npm run local-action`).














/** The main step (action.yml `main`). */
async function main_run() {
    await failingStep(mainStep);
}
/** The post step (action.yml `post`): removes or keeps the sandbox, finishes a progress comment. */
async function cleanup() {
    await failingStep(postStep);
}
/** A step's error becomes the step's failure (its message, as an error annotation), not a crash. */
async function failingStep(step) {
    try {
        await step();
    }
    catch (error) {
        core/* setFailed */.C1(error.message);
    }
}
async function mainStep() {
    const settings = (0,settings_settings/* parseSettings */.P$)((name) => core/* getInput */.V4(name));
    if (settings.mode === 'reap') {
        const { reapAction } = await Promise.all(/* import() */[__nccwpck_require__.e(298), __nccwpck_require__.e(595)]).then(__nccwpck_require__.bind(__nccwpck_require__, 6595));
        await reapAction(settings);
        return;
    }
    await runAction(settings);
}
async function runAction(settings) {
    const ui = (0,action_ui/* actionUi */.V)();
    // One list of the run's secrets, one redaction: every output, the job summary and every API call.
    const io = (0,action_ui/* actionIo */.P)(ui, (0,redaction/* redactionFor */.X9)(settings));
    const kind = (0,github_event/* chooseRunKind */.pV)(process.env.GITHUB_EVENT_NAME, settings.trigger);
    core/* debug */.Yz(`Run kind: ${kind.bot ? 'pull-request bot' : 'plain run mode'} (${kind.why}).`);
    if (kind.warning)
        ui.warning(kind.warning);
    let outcome;
    try {
        if (kind.bot) {
            const { runForPullRequest } = await Promise.all(/* import() */[__nccwpck_require__.e(251), __nccwpck_require__.e(31)]).then(__nccwpck_require__.bind(__nccwpck_require__, 9031));
            outcome = await runForPullRequest(settings, io);
            if (!outcome)
                return;
        }
        else
            outcome = await (0,run/* runSandbox */.F)(settings, { ui, save: step_state/* saveRunState */.iZ });
    }
    catch (error) {
        // A run that failed after its sandbox was ready still says which sandbox, and the command's exit code
        // when the command really ran.
        setEarlyOutputs((0,step_state/* currentRunState */.IZ)(), io.setOutput);
        throw error;
    }
    setOutputs(outcome, io.setOutput);
    if (settings.pullRequest.open) {
        const { proposePullRequest } = await Promise.all(/* import() */[__nccwpck_require__.e(251), __nccwpck_require__.e(524)]).then(__nccwpck_require__.bind(__nccwpck_require__, 2524));
        await proposePullRequest(settings, outcome, io);
    }
    const network = outcome.command.network;
    const models = network?.models;
    for (const line of network ? (0,network_summary/* networkWarnings */.Ow)(network) : [])
        ui.warning(line);
    for (const line of models ? (0,usage_report/* modelUsageWarnings */.mW)(models) : [])
        ui.warning(line);
    const networkSection = (network ? (0,network_summary/* networkMarkdown */.IB)(network, settings.network) : '') + (models ? (0,usage_report/* modelUsageMarkdown */.U5)(models) : '');
    // The run's own report first: when the summary must be cut, the network tables go before it.
    await (0,step_summary/* writeSummary */.Sy)(io.redaction, (0,run_summary/* outcomeMarkdown */.Iu)(outcome), networkSection);
    const { exitCode } = outcome.command;
    if (exitCode !== 0 && !settings.allowFailure)
        core/* setFailed */.C1(`The command exited with code ${exitCode}.`);
}
function setEarlyOutputs(state, setOutput) {
    if (!state?.location)
        return;
    const sandbox = state.location;
    setOutput('sandbox', sandbox.name);
    setOutput('kind', sandbox.kind);
    setOutput('branch', sandbox.branch);
    setOutput('volume', sandbox.isolation === 'container' ? sandbox.volume : '');
    setOutput('worktree-path', sandbox.worktreePath);
    if (state.exitCode !== undefined)
        setOutput('exit-code', String(state.exitCode));
}
function setOutputs(outcome, setOutput) {
    const { sandbox, command, report, push } = outcome;
    const out = {
        sandbox: sandbox.name,
        kind: sandbox.kind,
        branch: sandbox.branch,
        volume: sandbox.isolation === 'container' ? sandbox.volume : '',
        'worktree-path': sandbox.worktreePath,
        'exit-code': String(command.exitCode),
        changed: String(report.changedCount > 0 || report.commits > 0),
        commits: String(report.commits),
        'head-sha': report.headSha,
        pushed: String(push?.pushed ?? false),
        // A count (a lower bound when counting stopped at its bounds) and the bounded stat, which says what
        // it left out: a few kilobytes whatever the sandbox holds.
        'files-changed': String(report.changedCount),
        'diff-stat': report.diffStat,
        // The reply as the command wrote it (at most 64 KiB: reply.ts): an output is data, not a command.
        reply: command.reply?.reply?.text ?? '',
    };
    if (command.network)
        Object.assign(out, (0,network_summary/* networkOutputs */.dk)(command.network));
    if (command.network?.models)
        Object.assign(out, (0,usage_report/* modelUsageOutput */.cx)(command.network.models));
    for (const [k, v] of Object.entries(out))
        setOutput(k, v);
}
async function postStep() {
    const state = (0,step_state/* loadRunState */.fQ)();
    if (state?.progress && !state.progress.finished) {
        const { finishProgressInPost } = await Promise.all(/* import() */[__nccwpck_require__.e(251), __nccwpck_require__.e(31)]).then(__nccwpck_require__.bind(__nccwpck_require__, 9031));
        const { token, redaction } = postSecrets();
        const body = progress_comment.stopped(state.progress.context);
        await finishProgressInPost(state.progress, body, token, redaction, (0,action_ui/* actionUi */.V)());
    }
    await removeLeftProbe(state, (0,action_ui/* actionUi */.V)());
    if (!state?.location) {
        core/* info */.pq('Nothing to clean up: the main step created nothing.');
        return;
    }
    try {
        await cleanupRun(state, (0,action_ui/* actionUi */.V)(), process.env.RUNNER_TEMP || external_node_os_.tmpdir());
    }
    catch (error) {
        core/* warning */.$e(`Cleanup did not complete: ${error.message}`);
    }
}
/** The post step gets the same inputs as main: the token, to finish a progress comment, and its redaction. */
function postSecrets() {
    try {
        const settings = (0,settings_settings/* parseSettings */.P$)((name) => core/* getInput */.V4(name));
        return {
            token: settings.token,
            redaction: settings.mode === 'run'
                ? (0,redaction/* redactionFor */.X9)(settings)
                : redaction/* Redaction */.ki.of([{ name: 'token', value: settings.token }]),
        };
    }
    catch {
        // the main step failed on these inputs before it created anything to finish
        return { token: '', redaction: redaction/* Redaction */.ki.none };
    }
}

;// CONCATENATED MODULE: ./src/action/index.ts
// One bundle for both phases (action.yml `main` and `post`), told apart by state saved in main. The steps
// themselves are in main.ts.



void (step_state/* isPost */.tl ? cleanup() : main_run());

