// Generated from action.yml by scripts/action-defaults.mjs: do not edit. The inputs, written once.

/** An input as action.yml writes it; no default when it is a workflow expression (only the runner knows it). */
export interface ActionInput {
  description: string;
  default?: string;
}

/** Every input, in action.yml's order: the CLI's options are made of them. */
export const ACTION_INPUTS: Readonly<Record<string, ActionInput>> = {
  "mode": {"description":"`run` creates or reuses a sandbox and runs `command` in it; `reap` removes stale sandboxes.","default":"run"},
  "command": {"description":"Command to run in the sandbox with `sh -c`, working directory = the worktree. Required in run mode.","default":""},
  "image": {"description":"Container image of the command, with `sh` and `git` (and `setpriv` or `chroot` for volume sandboxes). Reap mode does not use it: its helpers run the runner's own programs.","default":"buildpack-deps:bookworm-scm"},
  "engine": {"description":"Container engine: `docker`, or `podman` (same CLI, volumes and labels; rootful Podman may need `default_ulimits = []` in a containers.conf named by CONTAINERS_CONF).","default":"docker"},
  "isolation": {"description":"`container`: the worktree lives in a Docker named volume; `disk`: under `worktree-root` on the host.","default":"container"},
  "branch": {"description":"Branch for the sandbox: checked out when it exists (locally or on origin), created from `base` when new. Empty: a transient `exploration-<8 hex>` sandbox on a detached HEAD.","default":""},
  "base": {"description":"Start point for a new branch or a transient sandbox. Default: the parent repository HEAD.","default":""},
  "repository-path": {"description":"The parent repository. Default: $GITHUB_WORKSPACE, else the working directory. A linked worktree is resolved to its parent.","default":""},
  "worktree-root": {"description":"Root of disk sandboxes (`<root>/<project>/<sandbox>`). Default: $XDG_CACHE_HOME/worktree-sandbox/worktrees (~/.cache/... when unset); when the action runs in a container (a container job, an ARC runner), `<runner work folder>/_worktree-sandbox/worktrees`, which the engine can see.","default":""},
  "volume-prefix": {"description":"Prefix of sandbox volume names: `<prefix>-<project>-<sandbox>`.","default":"worktree-sandbox"},
  "cleanup": {"description":"Post step: `auto` removes a transient sandbox that holds no work and keeps everything else; `always` removes it (uncommitted work saved as a patch under RUNNER_TEMP first); `never` keeps it.","default":"auto"},
  "env": {"description":"Variables for the container, one per line: `NAME` (taken from the step environment) or `NAME=value`. Nothing else of the runner environment enters the container.","default":""},
  "timeout-minutes": {"description":"Stop the command after this many minutes (a positive number; 0 = no limit but the job's).","default":"0"},
  "lock-timeout-minutes": {"description":"How long a run waits for another run that is using the same sandbox (the same branch) before it fails.","default":"10"},
  "allow-failure": {"description":"`true`: a non-zero exit of the command is reported but does not fail the step.","default":"false"},
  "push": {"description":"`true`: commit what is left uncommitted and push the sandbox branch to origin (never forced).","default":"false"},
  "commit-message": {"description":"Message of the commit made with `push: true`.","default":"chore: changes made in worktree-sandbox"},
  "secret-scan": {"description":"Before a push, a saved patch or a posted reply, the lines the run adds, its commits as git stores them (author, committer, every header, the message's bytes), the path names it adds and the reply are scanned for `token`, the values of `credentials`, the values of `env` entries named `*_KEY`, `*_TOKEN`, `*_SECRET` or `*_PASSWORD`, and well-known credential formats (secretlint's recommended rules). `block`: a finding stops it and fails the step, naming the place and the rule, never the value; the sandbox keeps the work. `warn`: findings are warnings. `off`: no scan. See [docs/secret-scan.md](docs/secret-scan.md).","default":"block"},
  "author": {"description":"Author of the commit made with `push: true`, as `Name <email>`. Empty: `github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>` (on GitHub Enterprise Server: `github-actions[bot] <github-actions[bot]@users.noreply.HOST>`, HOST from GITHUB_SERVER_URL).","default":""},
  "committer": {"description":"Committer of the commit made with `push: true`, as `Name <email>`. Empty: the same bot identity as `author`. A push whose head commit has this committer e-mail starts no pull-request bot run.","default":""},
  "pull-request": {"description":"`true` (needs `push: true`): a pushed branch that is not yet the head of an open pull request gets one, against `base` (a branch name) or else the default branch. A pull request this action opened is updated (title, body, labels) by later runs; one opened by someone else is left as it is.","default":"false"},
  "pull-request-title": {"description":"Title of the pull request opened with `pull-request: true`.","default":"Changes made in worktree-sandbox"},
  "pull-request-body": {"description":"Body (Markdown) of the pull request opened with `pull-request: true`.","default":"Automated changes made by worktree-sandbox."},
  "pull-request-draft": {"description":"`true`: the pull request is opened as a draft.","default":"false"},
  "pull-request-labels": {"description":"Labels for the pull request, separated by commas or newlines.","default":""},
  "token": {"description":"Token for the GitHub API and for pushing. It never enters the container."},
  "trigger": {"description":"Pull-request bot: the command word that starts a run from a pull-request comment (e.g. `/fix`): the comment must start with it, whole (`/fixed` is not `/fix`). The rest of the comment is handed to the command as data ($SANDBOX_PROMPT_FILE, output `args`; where it was made in $SANDBOX_CONTEXT_FILE). Needed for `issue_comment`, `pull_request_review_comment` and `pull_request_review` (the review's body) events.","default":""},
  "label-trigger": {"description":"Pull-request bot: a label (such as `fix-me`) that, added to an issue (`issues` event, `labeled`), makes a pull request of it. The label is removed when the run ends, so that labelling again starts another run.","default":""},
  "assignee-trigger": {"description":"Pull-request bot: a login (such as `fix-bot`) that, assigned to an issue (`issues` event, `assigned`), makes a pull request of it.","default":""},
  "issue-branch-prefix": {"description":"Pull-request bot: an issue is worked on in the branch of this prefix and its number (made from `base`, else the checked-out HEAD; continued when it exists on origin).","default":"worktree-sandbox/issue-"},
  "allowed-associations": {"description":"Pull-request bot: author associations that may start a run, comma or space separated (OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, FIRST_TIMER, FIRST_TIME_CONTRIBUTOR, MANNEQUIN, NONE). Every run a person starts also needs write, maintain or admin permission on the repository, checked through the API (a run gets the secrets named in `env`).","default":"OWNER,MEMBER,COLLABORATOR"},
  "allowed-bots": {"description":"Pull-request bot: bot accounts that may start runs (e.g. `dependabot`, `renovate[bot]`). Every other bot, this action's own account included, is ignored.","default":""},
  "pr-number": {"description":"Pull-request bot, `workflow_dispatch` only: the pull request to work on. Giving it asks for the bot on that event.","default":""},
  "pull-request-bot": {"description":"`true`: on `pull_request`, `pull_request_target` and `push` events the action is the pull-request bot (it works on the pull request's head or the pushed branch, checks who asked, and reports on the pull request). `false`: those events are plain run mode, as every other event. Comment events ask for the bot with `trigger`.","default":"false"},
  "memory": {"description":"Memory limit of the container (Docker syntax, e.g. `2g`). Empty: no limit.","default":""},
  "cpus": {"description":"CPU limit of the container (e.g. `1.5`). Empty: no limit.","default":""},
  "pids-limit": {"description":"Maximum number of processes in the container.","default":"4096"},
  "network": {"description":"`bridge` (default: any host), `none` (no network at all), `audit` (any host, through the proxy, every host recorded and an allow-list proposed), or an allow-list: host names, `*.example.com`, an optional `:port` (default 443 and 80) and presets (`@github`, `@npm`, `@pypi`, `@debian`, `@anthropic`, `@openai`, `@gemini`), one per line or separated by commas. With an allow-list or `audit` the command reaches nothing but the proxy (docs/network.md).","default":"bridge"},
  "credentials": {"description":"With an allow-list or `audit`: one `<host> <Header-Name>: <value>` a line (e.g. `api.anthropic.com x-api-key: <a secret>`). The proxy sets that header on requests to that host only, over TLS only (`http://<host>[:port] ...` sends it in clear, for an internal service); the value never enters the container. The host is allowed implicitly.","default":""},
  "max-model-requests": {"description":"With an allow-list or `audit`: the most requests the command may make to model APIs the proxy sees in clear (hosts in `credentials`, plain-HTTP base URLs), over the whole run; past it the proxy answers 429 in the API's own format. `0`: no limit.","default":"0"},
  "max-model-tokens": {"description":"With an allow-list or `audit`: the most input plus output tokens those answers may report over the whole run; once reached, further model requests get 429. `0`: no limit.","default":"0"},
  "read-only-rootfs": {"description":"`true`: the container root filesystem is read-only (a tmpfs at /tmp).","default":"false"},
  "max-import-size": {"description":"The most the changes of one run may weigh when they come back from the sandbox (the git bundle, e.g. `512m`, `2g`). Larger: nothing is imported, the step fails and the sandbox is kept.","default":"1g"},
  "headless-expiry-days": {"description":"Reap mode: whole days (≥ 1) of inactivity after which a transient `exploration-*` sandbox is stale.","default":"30"},
  "branch-expiry-days": {"description":"Reap mode: whole days (≥ 1) of inactivity after which a persistent (branch) sandbox is stale.","default":"90"},
  "orphan-expiry-days": {"description":"Reap mode: whole days (≥ `branch-expiry-days`) after which a sandbox whose parent repository is gone or unreadable is removed.","default":"90"},
  "dry-run": {"description":"Reap mode: `true` decides and reports everything and removes nothing.","default":"false"},
  "max-removals": {"description":"Reap mode: at most this many removals in one run, oldest first (0 = no limit); the rest waits for the next run.","default":"0"},
  "force": {"description":"Reap mode: `true` removes stale sandboxes that hold work too (never those in use); with `archive-dir`, the work is saved there first.","default":"false"},
  "archive-dir": {"description":"Reap mode: folder where the work of forced removals (a patch and a bundle) and the files of orphans (a .tar.gz) are saved before removal. Empty: nothing is archived.","default":""},
};

/** The inputs' defaults, for the code that runs without the runner filling them in. */
export const ACTION_DEFAULTS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(ACTION_INPUTS).flatMap(([name, input]) =>
    input.default === undefined ? [] : [[name, input.default]],
  ),
);
