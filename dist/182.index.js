export const id = 182;
export const ids = [182];
export const modules = {

/***/ 4182:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  reapAction: () => (/* binding */ reapAction)
});

// EXTERNAL MODULE: ./node_modules/@actions/core/lib/core.js + 11 modules
var core = __webpack_require__(3360);
// EXTERNAL MODULE: ./src/action.ts + 1 modules
var action = __webpack_require__(2527);
;// CONCATENATED MODULE: ./src/reap/report.ts
function isReaped(s) {
    return s.result === 'removed' || s.result === 'partly removed' || s.result === 'would remove';
}
function reasonOf(s) {
    switch (s.result) {
        case 'would remove':
            return `dry run: would remove: ${s.reason}`;
        case 'partly removed':
            return `${s.reason}; ${s.detail}: ${s.problems?.map((p) => `${p.path} (${p.error})`).join(', ')}`;
        case 'removed':
            return s.archived?.length ? `${s.reason} (${s.archived.join(', ')})` : s.reason;
        case 'kept':
            return s.action === 'remove' ? `${s.reason}; not removed: ${s.detail}` : s.reason;
    }
}
function toRecord(s) {
    return {
        sandbox: s.sandbox,
        project: s.project,
        isolation: s.isolation,
        kind: s.class,
        ageDays: s.ageDays ?? null,
        reason: reasonOf(s),
    };
}
/** The most telling entries first: removals, then stale ones kept, then the rest, oldest first. */
function byInterest(a, b) {
    return rank(a) - rank(b) || (b.ageDays ?? -1) - (a.ageDays ?? -1) || a.where.localeCompare(b.where);
}
function rank(s) {
    if (isReaped(s))
        return 0;
    if (s.action === 'remove' || !/^fresh|^age unknown/.test(s.reason))
        return s.class === 'not-a-sandbox' ? 2 : 1;
    return 3;
}
/**
 * A JSON array of the records that fits in `maxBytes` (GitHub keeps outputs to 1 MiB): the most telling
 * first; `omitted` says how many did not fit.
 */
function jsonWithin(records, maxBytes) {
    const parts = [];
    let size = 2;
    for (const record of records) {
        const text = JSON.stringify(record);
        if (size + text.length + 1 > maxBytes)
            break;
        parts.push(text);
        size += text.length + 1;
    }
    return { json: `[${parts.join(',')}]`, omitted: records.length - parts.length };
}
function formatBytes(bytes) {
    if (bytes === undefined)
        return '–';
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let value = bytes;
    let unit = 0;
    while (value >= 1024 && unit < units.length - 1) {
        value /= 1024;
        unit++;
    }
    return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}
const cell = (text) => text.replace(/[|<>]/g, (c) => `&#${c.charCodeAt(0)};`).replace(/\s+/g, ' ');
/** The job summary; at most `maxRows` rows (the most telling), the rest counted. */
function summaryMarkdown(result, maxRows = 2000) {
    const sorted = [...result.sandboxes].sort(byInterest);
    const reaped = sorted.filter(isReaped);
    const lines = [
        `## worktree-sandbox: reap${result.dryRun ? ' (dry run: nothing removed)' : ''}`,
        '',
        `${result.stats.found} found, ${result.stats.stale} stale, ` +
            `${reaped.length} ${result.dryRun ? 'would be removed' : 'removed'}, ${sorted.length - reaped.length} kept; ` +
            `${formatBytes(result.freedBytes)} ${result.dryRun ? 'would be freed' : 'freed'}.`,
        '',
        '| Sandbox | Project | Isolation | Class | Age (days) | Decision | Reason | Size |',
        '|---|---|---|---|---:|---|---|---:|',
    ];
    for (const s of sorted.slice(0, maxRows)) {
        lines.push(`| ${cell(s.sandbox || s.where)} | ${cell(s.project)} | ${s.isolation === 'disk' ? 'disk' : 'volume'} | ${s.class} | ${s.ageDays ?? '?'} | ${s.result} | ${cell(reasonOf(s))} | ${formatBytes(s.sizeBytes)} |`);
    }
    if (sorted.length > maxRows)
        lines.push('', `…and ${sorted.length - maxRows} more (fresh) entries, in the \`kept\` output and the log.`);
    if (result.warnings.length)
        lines.push('', ...result.warnings.map((w) => `> ⚠️ ${cell(w)}`));
    lines.push('', 'Size: disk space taken (measured for stale entries only; – where not measured).');
    return `${lines.join('\n')}\n`;
}

// EXTERNAL MODULE: ./src/docker.ts
var docker = __webpack_require__(3871);
// EXTERNAL MODULE: ./src/git.ts
var src_git = __webpack_require__(1243);
;// CONCATENATED MODULE: ./src/ui.ts
const silentUi = {
    info: () => undefined,
    warning: () => undefined,
    group: (_title, fn) => fn(),
    untrusted: (fn) => fn(() => undefined),
    mask: () => undefined,
};

;// CONCATENATED MODULE: ./src/reap/age.ts
// Age is the time since the last activity. The newest of several signals counts, because a folder's own
// mtime only moves when its direct children are added, removed or renamed: edits deeper in the tree and
// git operations are seen through the worktree's index, HEAD and reflog in its admin folder instead.
const DAY_MS = 86_400_000;
/** The newest of the signals (epoch ms); undefined when none could be read. */
function lastActivity(signals) {
    let newest;
    for (const signal of signals) {
        if (signal === undefined || !Number.isFinite(signal))
            continue;
        if (newest === undefined || signal > newest)
            newest = signal;
    }
    return newest;
}
/** Whole days since `lastMs` (a time in the future counts as 0). */
function ageDays(lastMs, nowMs) {
    return Math.max(0, Math.floor((nowMs - lastMs) / DAY_MS));
}
/** Stale once unused for longer than `expiryDays`; an unknown age is never stale. */
function isExpired(lastMs, nowMs, expiryDays) {
    if (lastMs === undefined)
        return false;
    return nowMs - lastMs > expiryDays * DAY_MS;
}
/** An ISO-8601 time (e.g. the `created` label of a volume) as epoch ms; undefined when it is not one. */
function parseTimestamp(text) {
    if (!text || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/.test(text))
        return undefined;
    const ms = Date.parse(text);
    return Number.isFinite(ms) ? ms : undefined;
}

;// CONCATENATED MODULE: ./src/reap/gates.ts
// The safety gates: what keeps a stale sandbox, and what must happen before one is removed. Pure: the
// facts come from the checks in work.ts and in-use.ts; every uncertainty arrives here as "keep".
function gates_applyGates(facts, options) {
    if (facts.notSandbox)
        return { remove: false, reason: `not a sandbox: ${facts.notSandbox}` };
    if (facts.inUse)
        return { remove: false, reason: `in use: ${facts.inUse}` };
    const { work } = facts;
    if (work.state === 'unchecked' || facts.orphan) {
        const why = facts.orphan ?? 'its parent repository is gone';
        return options.archive
            ? { remove: true, reason: `orphan (${why}): files archived, then removed`, archive: 'files' }
            : { remove: true, reason: `orphan (${why}): removed after the orphan expiry` };
    }
    if (work.state === 'clean')
        return { remove: true, reason: 'stale and holds no work' };
    const held = work.state === 'work'
        ? `holds work: ${work.detail}`
        : `the check for work could not run (${work.detail})`;
    if (!options.force)
        return { remove: false, reason: held };
    return options.archive
        ? { remove: true, reason: `force: ${held}; work archived, then removed`, archive: 'work' }
        : { remove: true, reason: `force: ${held}; removed without archive` };
}

// EXTERNAL MODULE: ./src/naming.ts
var naming = __webpack_require__(8499);
;// CONCATENATED MODULE: ./src/reap/retention.ts
// The retention matrix (seed ADR 0029): how long a sandbox may sit unused, decided by its name alone,
// because the name is the one signal that survives where git cannot resolve a worktree's paths.

const DEFAULT_RETENTION = {
    headlessExpiryDays: 30,
    branchExpiryDays: 90,
    orphanExpiryDays: 90,
};
function retentionClass(sandbox, orphan) {
    if (orphan)
        return 'orphan';
    return (0,naming/* classifyName */.Ce)(sandbox);
}
/**
 * Days of inactivity after which a sandbox of this class is stale. An orphan is treated as persistent and
 * never expires sooner than a persistent sandbox: its expiry is its only safety margin, since no check
 * for work can run without the parent.
 */
function expiryDays(cls, policy) {
    switch (cls) {
        case 'transient':
            return policy.headlessExpiryDays;
        case 'persistent':
            return policy.branchExpiryDays;
        case 'orphan':
            return Math.max(policy.orphanExpiryDays, policy.branchExpiryDays);
    }
}

;// CONCATENATED MODULE: ./src/reap/decide.ts



/** Class, expiry and age of one entry: the first question, asked before any check for work runs. */
function assessStaleness(facts, retention, nowMs) {
    if (facts.notSandbox)
        return { class: 'not-a-sandbox', stale: false };
    const cls = retentionClass(facts.sandbox, facts.orphan !== undefined);
    const expiry = expiryDays(cls, retention);
    const age = facts.lastActivityMs === undefined ? undefined : ageDays(facts.lastActivityMs, nowMs);
    return {
        class: cls,
        expiryDays: expiry,
        ageDays: age,
        stale: isExpired(facts.lastActivityMs, nowMs, expiry),
    };
}
function decide(all, policy, nowMs) {
    const decisions = all.map((facts) => decideOne(facts, policy, nowMs));
    return capRemovals(decisions, policy.maxRemovals);
}
function decideOne(facts, policy, nowMs) {
    const staleness = assessStaleness(facts, policy.retention, nowMs);
    const base = keepDecision(facts, staleness);
    if (facts.notSandbox)
        return { ...base, reason: `not a sandbox: ${facts.notSandbox}` };
    if (!staleness.stale)
        return { ...base, reason: freshReason(staleness) };
    const verdict = gates_applyGates(gateFactsOf(facts), policy);
    if (!verdict.remove)
        return { ...base, reason: verdict.reason };
    return { ...base, action: 'remove', reason: verdict.reason, archive: verdict.archive };
}
/**
 * A removal asked for by name (the CLI's `rm`): the person asking has judged the age, so only the safety
 * gates apply, exactly as the reaper applies them to a stale sandbox.
 */
function decideOnRequest(facts, policy, nowMs) {
    const base = keepDecision(facts, assessStaleness(facts, policy.retention, nowMs));
    const verdict = applyGates(gateFactsOf(facts), policy);
    if (!verdict.remove)
        return { ...base, reason: verdict.reason };
    // The gates speak of a stale sandbox; this one may be fresh.
    const reason = verdict.reason.replace(/^stale and /, '');
    return { ...base, action: 'remove', reason, archive: verdict.archive };
}
function keepDecision(facts, staleness) {
    return {
        key: facts.key,
        sandbox: facts.sandbox,
        project: facts.project,
        isolation: facts.isolation,
        where: facts.where,
        class: staleness.class,
        ageDays: staleness.ageDays,
        expiryDays: staleness.expiryDays,
        lastActivityMs: facts.lastActivityMs,
        sizeBytes: facts.sizeBytes,
        action: 'keep',
        reason: '',
    };
}
/** What the gates look at: an orphan's work is unchecked; work never checked counts as "could not check". */
function gateFactsOf(facts) {
    return {
        notSandbox: facts.notSandbox,
        inUse: facts.inUse,
        orphan: facts.orphan,
        work: facts.orphan
            ? { state: 'unchecked' }
            : (facts.work ?? { state: 'unknown', detail: 'it was not checked' }),
    };
}
function freshReason(staleness) {
    if (staleness.ageDays === undefined)
        return 'age unknown (no activity signal could be read): kept';
    return `fresh: ${staleness.ageDays} of ${staleness.expiryDays} days`;
}
/** Like actions/stale's operations-per-run: the oldest removals go first, the rest wait for the next run. */
function capRemovals(decisions, maxRemovals) {
    if (maxRemovals <= 0)
        return decisions;
    const removals = decisions
        .filter((d) => d.action === 'remove')
        .sort((a, b) => (a.lastActivityMs ?? 0) - (b.lastActivityMs ?? 0) || a.key.localeCompare(b.key));
    const deferred = new Set(removals.slice(maxRemovals).map((d) => d.key));
    return decisions.map((d) => deferred.has(d.key)
        ? {
            ...d,
            action: 'keep',
            archive: undefined,
            reason: `stale, but max-removals (${maxRemovals}) is reached: waits for the next run`,
        }
        : d);
}

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./src/lock.ts
var lock = __webpack_require__(9188);
// EXTERNAL MODULE: ./src/worktree-metadata.ts
var worktree_metadata = __webpack_require__(9662);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: ./src/post.ts
var post = __webpack_require__(6661);
// EXTERNAL MODULE: ./src/proc.ts
var proc = __webpack_require__(1783);
// EXTERNAL MODULE: ./src/sandbox.ts
var src_sandbox = __webpack_require__(6004);
;// CONCATENATED MODULE: ./src/reap/archive.ts
// Saving what a removal would lose, into `archive-dir`:
//  - work of a sandbox removed by `force: true`: its uncommitted changes as a patch (untracked files
//    included) and its commits that no remote has as a bundle;
//  - an orphan (git can check nothing): all its files as a .tar.gz (links stored as links).
// Files are named `<archive-dir>/<project>/<sandbox>.<isolation>.<UTC time>.<ext>`.





/** Archives and returns the files written; throws when the work could not be saved (then nothing is removed). */
async function archiveSandbox(sandbox, kind, deps) {
    const dir = external_node_path_.join(deps.archiveDir, sandbox.project);
    await promises_.mkdir(dir, { recursive: true, mode: 0o700 });
    const stamp = deps.now
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d+Z$/, 'Z');
    const base = external_node_path_.join(dir, `${sandbox.sandbox}.${sandbox.isolation}.${stamp}`);
    return kind === 'files' ? [await archiveFiles(sandbox, base, deps)] : archiveWork(sandbox, base, deps);
}
async function archiveWork(sandbox, base, deps) {
    const { git } = deps;
    if (!sandbox.parent || !sandbox.entry)
        throw new Error('its registration in the parent is gone: nothing to diff against');
    const location = {
        name: sandbox.sandbox,
        kind: 'persistent',
        project: sandbox.project,
        isolation: sandbox.isolation,
        branch: '',
        parent: { path: sandbox.parent.path, gitDir: sandbox.parent.gitDir },
        worktreePath: sandbox.hostPath ?? `/sandbox/${sandbox.sandbox}`,
        hostPath: sandbox.hostPath,
        volume: sandbox.volume,
    };
    const written = [];
    const patch = await (0,src_sandbox/* runInWorktree */.kv)(git, deps.engine, location, deps.image, post/* PATCH_SCRIPT */.t, ['HEAD']);
    if (patch.exitCode !== 0)
        throw new Error(`the patch could not be made: ${patch.stderr.trim().split('\n')[0]}`);
    if (patch.stdout) {
        await promises_.writeFile(`${base}.patch`, patch.stdout, { mode: 0o600 });
        written.push(`${base}.patch`);
    }
    const bundle = `${base}.bundle`;
    const made = await git.exec(sandbox.parent.path, [
        `--git-dir=${sandbox.entry.adminDir}`,
        'bundle',
        'create',
        '--quiet',
        bundle,
        'HEAD',
        '--not',
        '--remotes',
    ]);
    if (made.exitCode === 0)
        written.push(bundle);
    else if (!/empty bundle/i.test(made.stderr))
        throw new Error(`the bundle could not be made: ${made.stderr.trim().split('\n')[0]}`);
    return written;
}
async function archiveFiles(sandbox, base, deps) {
    const file = `${base}.tar.gz`;
    if (sandbox.hostPath) {
        const result = await (0,proc/* runProcess */.R3)('tar', ['-C', external_node_path_.dirname(sandbox.hostPath), '-czf', file, '--', external_node_path_.basename(sandbox.hostPath)], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' } });
        if (result.exitCode !== 0)
            throw new Error(`tar failed: ${result.stderr.trim().split('\n')[0]}`);
        return file;
    }
    const result = await deps.engine.exec((0,src_sandbox/* helperContainerArgs */.vB)({
        mounts: [
            (0,src_sandbox/* mountArg */.MC)({ type: 'volume', source: sandbox.volume, target: '/v', readonly: true }),
            (0,src_sandbox/* mountArg */.MC)({ type: 'bind', source: external_node_path_.dirname(file), target: '/archive' }),
        ],
        image: deps.image,
        entrypoint: 'tar',
        args: ['-C', '/v', '-czf', `/archive/${external_node_path_.basename(file)}`, '.'],
    }));
    if (result.exitCode !== 0)
        throw new Error(`tar failed in the helper container: ${result.stderr.trim().split('\n')[0]}`);
    return file;
}

;// CONCATENATED MODULE: ./src/reap/parallel.ts
// Bounded concurrency for the reaper's batches (checks, removals): enough calls in flight to keep a busy
// disk or the container engine working, few enough not to swamp a shared machine.
/** Maps with at most `limit` calls in flight; results in input order. */
async function inParallel(items, limit, fn) {
    const results = new Array(items.length);
    let next = 0;
    const worker = async () => {
        while (next < items.length) {
            const i = next++;
            results[i] = await fn(items[i]);
        }
    };
    await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
    return results;
}

;// CONCATENATED MODULE: ./src/reap/remove.ts
// Removing a disk sandbox safely:
//  - only a folder exactly at `<root>/<project>/<sandbox>`, itself no symbolic link, under the real root;
//  - symbolic links are removed as links, never followed (a link to `/` or to another sandbox removes the
//    link only); other filesystems mounted inside are not crossed;
//  - its `.git` file goes first: from then on it is no longer a worktree, and if that fails nothing else
//    is touched; after that, entries that cannot be deleted are reported and the rest still goes
//    (a folder of ours without write permission, as Go's module cache makes, is made writable first).
// Asynchronous calls, so that several sandboxes are removed at once (execute.ts): on a busy disk each
// unlink waits on the device, and a few in flight go faster than one after the other.



class UnsafeRemovalError extends Error {
}
/** Refuses anything that is not a real folder exactly two levels under the real root. */
function assertSandboxPath(root, target) {
    const realRoot = external_node_fs_.realpathSync(root);
    const relative = external_node_path_.relative(realRoot, target);
    const parts = relative.split(external_node_path_.sep);
    if (external_node_path_.isAbsolute(relative) || parts.length !== 2 || parts.some((p) => !p || p === '.' || p === '..'))
        throw new UnsafeRemovalError(`${target} is not a folder <root>/<project>/<sandbox> under ${realRoot}`);
    for (const dir of [external_node_path_.join(realRoot, parts[0]), target]) {
        const st = external_node_fs_.lstatSync(dir);
        if (!st.isDirectory())
            throw new UnsafeRemovalError(`${dir} is not a folder (a symbolic link is never followed)`);
    }
    if (external_node_fs_.realpathSync(target) !== target)
        throw new UnsafeRemovalError(`${target} is not a real path`);
}
async function removeSandboxTree(root, target) {
    assertSandboxPath(root, target);
    const result = { gone: false, unlinked: false, freedBytes: 0, problems: [] };
    const gitFile = external_node_path_.join(target, '.git');
    const gitStat = await lstatOrUndefined(gitFile);
    if (gitStat) {
        const problem = await unlinkEntry(gitFile, gitStat, result);
        if (problem) {
            result.problems.push({ path: gitFile, error: problem });
            return result;
        }
    }
    result.unlinked = true;
    const device = (await promises_.lstat(target)).dev;
    await removeFolder(target, device, result);
    result.gone = !external_node_fs_.existsSync(target);
    return result;
}
/** Empties and removes a folder; true when anything below it could not be deleted. */
async function removeFolder(dir, device, result) {
    let failedBelow = false;
    const fail = (p, error) => {
        result.problems.push({ path: p, error });
        failedBelow = true;
    };
    for (const name of await listForRemoval(dir, fail)) {
        const entry = external_node_path_.join(dir, name);
        const st = await lstatOrUndefined(entry);
        if (!st)
            continue;
        if (st.isDirectory()) {
            if (st.dev !== device)
                fail(entry, 'another filesystem is mounted here: not crossed');
            else if (await removeFolder(entry, device, result))
                failedBelow = true;
            continue;
        }
        const problem = await unlinkEntry(entry, st, result);
        if (problem)
            fail(entry, problem);
    }
    try {
        const st = await promises_.lstat(dir);
        await promises_.rmdir(dir);
        result.freedBytes += st.blocks * 512;
    }
    catch (error) {
        // A folder that still holds what could not be deleted is already explained by that entry.
        if (!(failedBelow && code(error) === 'ENOTEMPTY'))
            fail(dir, code(error));
    }
    return failedBelow;
}
async function listForRemoval(dir, fail) {
    try {
        return await promises_.readdir(dir);
    }
    catch (error) {
        if (await makeWritable(dir, error)) {
            try {
                return await promises_.readdir(dir);
            }
            catch (again) {
                fail(dir, code(again));
                return [];
            }
        }
        fail(dir, code(error));
        return [];
    }
}
/** Unlinks a file or link; returns the error code when it cannot. */
async function unlinkEntry(entry, st, result) {
    for (let attempt = 0; attempt < 2; attempt++) {
        try {
            await promises_.unlink(entry);
            if (st.nlink <= 1)
                result.freedBytes += st.blocks * 512;
            return undefined;
        }
        catch (error) {
            if (error.code === 'ENOENT')
                return undefined;
            if (attempt > 0 || !(await makeWritable(external_node_path_.dirname(entry), error)))
                return code(error);
        }
    }
    return 'EACCES';
}
/** A folder we own but may not write or search (e.g. mode 0555): make it ours to empty. */
async function makeWritable(dir, error) {
    const c = error.code;
    if (c !== 'EACCES' && c !== 'EPERM')
        return false;
    try {
        const st = await promises_.lstat(dir);
        if (!st.isDirectory() || st.uid !== process.getuid?.())
            return false;
        if ((st.mode & 0o700) === 0o700)
            return false;
        await promises_.chmod(dir, (st.mode & 0o7777) | 0o700);
        return true;
    }
    catch {
        return false;
    }
}
async function lstatOrUndefined(p) {
    try {
        return await promises_.lstat(p);
    }
    catch {
        return undefined;
    }
}
function code(error) {
    return error.code ?? String(error);
}
/** Bytes a folder takes on disk (allocated blocks), walked like removal: no links followed, one filesystem. */
function measureTree(top) {
    let total = 0;
    let device;
    try {
        const st = external_node_fs_.lstatSync(top);
        if (!st.isDirectory())
            return undefined;
        device = st.dev;
        total += st.blocks * 512;
    }
    catch {
        return undefined;
    }
    const pending = [top];
    while (pending.length) {
        const dir = pending.pop();
        let names;
        try {
            names = external_node_fs_.readdirSync(dir);
        }
        catch {
            continue;
        }
        for (const name of names) {
            const entry = external_node_path_.join(dir, name);
            const st = external_node_fs_.lstatSync(entry, { throwIfNoEntry: false });
            if (!st)
                continue;
            total += st.blocks * 512;
            if (st.isDirectory() && st.dev === device)
                pending.push(entry);
        }
    }
    return total;
}

;// CONCATENATED MODULE: ./src/reap/scan.ts
// Finding every sandbox on the machine, with the facts the decisions need and nothing that takes a git
// process: disk sandboxes are the folders `<root>/<project>/<sandbox>` whose `.git` is a file (a linked
// worktree); volume sandboxes are the volumes labelled `worktree-sandbox.managed=true` whose name starts
// with `<volume-prefix>-` (the prefix scopes a reaper: other tenants' volumes are not even looked at).
// Anything else under the root is reported as not a sandbox, and never deleted.
//
// The filesystem is read with synchronous calls on purpose: a scan is tens of thousands of tiny metadata
// reads, where a promise per call costs more than the call itself.






const VOLUME_LABEL_KEYS = ['project', 'sandbox', 'kind', 'branch', 'parent', 'created'].map((k) => `${docker/* LABEL_PREFIX */.Ag}.${k}`);
/** Sandbox names as this action makes them: no path separators, never `.` or `..`. */
const SANDBOX_NAME = /^(?!\.\.?$)[A-Za-z0-9._-]+$/;
async function scanSandboxes(options) {
    const parents = new ParentCache();
    const root = realRootOrSelf(options.worktreeRoot);
    const warnings = [];
    const sandboxes = scanDisk(root, parents, warnings);
    if (options.engine) {
        try {
            sandboxes.push(...(await scanVolumes(options.engine, options.volumePrefix, parents)));
        }
        catch (error) {
            warnings.push(`Volume sandboxes were not scanned: ${error.message}`);
        }
    }
    return { sandboxes, warnings, root };
}
function realRootOrSelf(root) {
    try {
        return external_node_fs_.realpathSync(root);
    }
    catch {
        return external_node_path_.resolve(root);
    }
}
// ---- disk ---------------------------------------------------------------------------------------------
function scanDisk(root, parents, warnings) {
    const found = [];
    const listed = (dir) => {
        try {
            return external_node_fs_.readdirSync(dir, { withFileTypes: true });
        }
        catch (error) {
            const code = error.code;
            if (dir !== root || code !== 'ENOENT')
                warnings.push(`Cannot list ${dir} (${code}): not scanned.`);
            return [];
        }
    };
    for (const project of listed(root)) {
        const projectDir = external_node_path_.join(root, project.name);
        if (!project.isDirectory()) {
            found.push(foreign(projectDir, project.name, '', describeType(project)));
            continue;
        }
        for (const child of listed(projectDir)) {
            const hostPath = external_node_path_.join(projectDir, child.name);
            if (!child.isDirectory()) {
                found.push(foreign(hostPath, project.name, child.name, describeType(child)));
                continue;
            }
            const gitFile = external_node_path_.join(hostPath, '.git');
            const st = lstat(gitFile);
            if (!st || !st.isFile()) {
                const why = !st
                    ? 'no .git file (not a linked worktree)'
                    : st.isDirectory()
                        ? '.git is a folder (a repository of its own, not a linked worktree)'
                        : '.git is not a regular file';
                found.push(foreign(hostPath, project.name, child.name, why));
                continue;
            }
            found.push(diskSandbox(hostPath, project.name, child.name, gitFile, parents));
        }
    }
    return found;
}
function foreign(where, project, name, why) {
    return {
        key: `disk:${where}`,
        sandbox: name,
        project,
        isolation: 'disk',
        where,
        notSandbox: why,
        hostPath: where,
    };
}
function describeType(dirent) {
    if (dirent.isSymbolicLink())
        return 'a symbolic link (never followed)';
    if (dirent.isFile())
        return 'a file, where only sandbox folders belong';
    return 'not a folder';
}
function diskSandbox(hostPath, project, sandbox, gitFile, parents) {
    const base = {
        key: `disk:${hostPath}`,
        sandbox,
        project,
        isolation: 'disk',
        where: hostPath,
        hostPath,
    };
    const rootMtime = lstat(hostPath)?.mtimeMs;
    const adminDir = readGitFile(gitFile, hostPath);
    if (!adminDir) {
        return { ...base, orphan: 'its .git file names no repository', lastActivityMs: rootMtime };
    }
    const located = locateParent(adminDir, parents);
    const status = located ? parents.status(located.gitDir) : 'its .git file names no worktree folder';
    const parent = located ?? undefined;
    if (status !== 'present')
        return { ...base, parent, orphan: status, lastActivityMs: rootMtime };
    const registered = readRegistration(adminDir);
    const signals = [rootMtime, ...adminSignals(adminDir)];
    if (!registered) {
        return {
            ...base,
            parent,
            unregistered: `its registration in ${parent.path} is gone`,
            lastActivityMs: lastActivity(signals),
        };
    }
    if (!samePath(external_node_path_.dirname(registered.gitFile), hostPath)) {
        return {
            ...base,
            parent,
            unregistered: `its registration in ${parent.path} belongs to ${external_node_path_.dirname(registered.gitFile)}`,
            lastActivityMs: lastActivity(signals),
        };
    }
    return { ...base, parent, entry: registered, lastActivityMs: lastActivity(signals) };
}
/** The admin folder a worktree's `.git` file points to (`gitdir: <path>`, relative to the worktree or absolute). */
function readGitFile(gitFile, worktree) {
    let text;
    try {
        text = external_node_fs_.readFileSync(gitFile, 'utf8');
    }
    catch {
        return undefined;
    }
    const target = /^gitdir: (.+)$/m.exec(text)?.[1]?.trim();
    return target ? external_node_path_.resolve(worktree, target) : undefined;
}
/** The parent of an admin folder `<gitDir>/worktrees/<id>`: from its `commondir`, else from the path. */
function locateParent(adminDir, parents) {
    // git makes every admin folder as `<common dir>/worktrees/<id>`; `commondir` says so too, and is read
    // only for a layout git did not make.
    let gitDir;
    if (external_node_path_.basename(external_node_path_.dirname(adminDir)) === 'worktrees')
        gitDir = external_node_path_.dirname(external_node_path_.dirname(adminDir));
    else {
        try {
            const common = external_node_fs_.readFileSync(external_node_path_.join(adminDir, 'commondir'), 'utf8').trim();
            if (common)
                gitDir = external_node_path_.resolve(adminDir, common);
        }
        catch {
            /* no parent to be found */
        }
    }
    return gitDir ? parents.ref(gitDir) : undefined;
}
function readRegistration(adminDir) {
    try {
        const gitFile = external_node_fs_.readFileSync(external_node_path_.join(adminDir, 'gitdir'), 'utf8').trim();
        return { id: external_node_path_.basename(adminDir), adminDir, gitFile };
    }
    catch {
        return undefined;
    }
}
/** Activity recorded in a worktree's admin folder: the folder itself, its index, HEAD and HEAD's reflog. */
function adminSignals(adminDir) {
    return [
        stat(adminDir)?.mtimeMs,
        stat(external_node_path_.join(adminDir, 'index'))?.mtimeMs,
        stat(external_node_path_.join(adminDir, 'HEAD'))?.mtimeMs,
        stat(external_node_path_.join(adminDir, 'logs', 'HEAD'))?.mtimeMs,
    ];
}
/** The newest activity of a scanned sandbox now (re-read just before removal). */
function currentActivity(sandbox) {
    const signals = [];
    if (sandbox.hostPath)
        signals.push(lstat(sandbox.hostPath)?.mtimeMs);
    signals.push(sandbox.createdMs);
    if (sandbox.entry)
        signals.push(...adminSignals(sandbox.entry.adminDir));
    return lastActivity(signals);
}
function samePath(a, b) {
    if (a === b)
        return true;
    try {
        return external_node_fs_.realpathSync(a) === external_node_fs_.realpathSync(b);
    }
    catch {
        return false;
    }
}
// ---- volumes ------------------------------------------------------------------------------------------
async function scanVolumes(engine, prefix, parents) {
    const volumes = await engine.listVolumes(`${docker/* MANAGED_LABEL */.bS}=true`, VOLUME_LABEL_KEYS);
    const found = [];
    for (const { name, labels } of volumes) {
        if (!name.startsWith(`${prefix}-`))
            continue;
        const label = (key) => labels[`${docker/* LABEL_PREFIX */.Ag}.${key}`];
        const project = label('project') ?? '';
        const sandbox = label('sandbox') ?? '';
        const base = {
            key: `volume:${name}`,
            sandbox,
            project,
            isolation: 'container',
            where: name,
            volume: name,
            branchLabel: label('branch'),
        };
        if (!SANDBOX_NAME.test(sandbox) || !project) {
            found.push({ ...base, notSandbox: 'its labels name no sandbox and project' });
            continue;
        }
        // A longer prefix that starts with ours (another tenant) makes names that do not match their labels.
        if ((0,naming/* volumeName */.EH)(prefix, project, sandbox) !== name)
            continue;
        const created = parseTimestamp(label('created'));
        base.createdMs = created;
        const parentPath = label('parent');
        if (!parentPath || !external_node_path_.isAbsolute(parentPath)) {
            found.push({ ...base, orphan: 'its labels name no parent repository', lastActivityMs: created });
            continue;
        }
        const parent = parents.ref(external_node_path_.join(parentPath, '.git'));
        const status = parents.status(parent.gitDir);
        if (status !== 'present') {
            found.push({ ...base, parent, orphan: status, lastActivityMs: created });
            continue;
        }
        const entry = await parents.volumeEntry(parent.gitDir, name, sandbox);
        if (!entry) {
            found.push({
                ...base,
                parent,
                unregistered: `${parent.path} holds no registration of it`,
                lastActivityMs: created,
            });
            continue;
        }
        found.push({
            ...base,
            parent,
            entry,
            lastActivityMs: lastActivity([created, ...adminSignals(entry.adminDir)]),
        });
    }
    return found;
}
/** Each parent is looked at once, however many sandboxes it has. */
class ParentCache {
    statuses = new Map();
    refs = new Map();
    entries = new Map();
    /** One object per parent, shared by all its sandboxes. */
    ref(gitDir) {
        let ref = this.refs.get(gitDir);
        if (!ref) {
            ref = { gitDir, path: external_node_path_.basename(gitDir) === '.git' ? external_node_path_.dirname(gitDir) : gitDir };
            this.refs.set(gitDir, ref);
        }
        return ref;
    }
    status(gitDir) {
        let status = this.statuses.get(gitDir);
        if (status === undefined) {
            status = parentStatus(gitDir);
            this.statuses.set(gitDir, status);
        }
        return status;
    }
    /** The registration of a volume sandbox: locked with its volume's name, or (while initializing) by path. */
    async volumeEntry(gitDir, volume, sandbox) {
        const entries = await this.entriesOf(gitDir);
        const byLock = entries.find((e) => e.locked === `worktree-sandbox volume ${volume}`);
        if (byLock)
            return byLock;
        const gitFile = `${(0,naming/* volumeWorktreePath */.n$)(sandbox)}/.git`;
        return entries.find((e) => e.gitFile === gitFile && (e.locked === undefined || e.locked === '' || e.locked === worktree_metadata/* INITIALIZING */.is));
    }
    async entriesOf(gitDir) {
        let list = this.entries.get(gitDir);
        if (!list) {
            list = await (0,worktree_metadata/* listWorktreeEntries */.ue)(gitDir);
            this.entries.set(gitDir, list);
        }
        return list;
    }
}
function parentStatus(gitDir) {
    const where = external_node_path_.basename(gitDir) === '.git' ? external_node_path_.dirname(gitDir) : gitDir;
    try {
        external_node_fs_.accessSync(gitDir, external_node_fs_.constants.R_OK | external_node_fs_.constants.X_OK);
        external_node_fs_.accessSync(external_node_path_.join(gitDir, 'HEAD'), external_node_fs_.constants.R_OK);
        external_node_fs_.accessSync(external_node_path_.join(gitDir, 'objects'), external_node_fs_.constants.R_OK | external_node_fs_.constants.X_OK);
        return 'present';
    }
    catch (error) {
        const code = error.code;
        if (code === 'ENOENT' || code === 'ENOTDIR')
            return `its parent repository ${where} is gone`;
        return `its parent repository ${where} is unreadable (${code})`;
    }
}
// ---- small fs helpers ---------------------------------------------------------------------------------
function lstat(p) {
    try {
        return external_node_fs_.lstatSync(p, { throwIfNoEntry: false });
    }
    catch {
        return undefined;
    }
}
function stat(p) {
    try {
        return external_node_fs_.statSync(p, { throwIfNoEntry: false });
    }
    catch {
        return undefined;
    }
}

;// CONCATENATED MODULE: ./src/reap/execute.ts
// Carrying out the removals decided. Each sandbox is removed under its own lock (a run that holds it, or
// takes it first, wins: the sandbox is then in use), after one last look at its activity, archived first
// when asked. Then exactly its registration in the parent is dropped, under the repository lock, before
// its own lock is let go (a run waiting for that lock then finds it gone and makes it anew).
// Several sandboxes are removed at once, and the repository lock is taken once per batch of a parent's
// sandboxes: on a busy disk the removal is what costs, and the reaper should cost no more than `rm -rf`.








/** Removals running at once. */
const REMOVALS_IN_FLIGHT = 4;
/** Sandboxes of one parent whose registrations are dropped under one hold of the repository lock. */
const BATCH = 32;
async function carryOut(removals, deps) {
    const outcomes = new Map();
    const byParent = new Map();
    for (const removal of removals) {
        const { sandbox } = removal;
        const key = sandbox.parent && !sandbox.orphan ? sandbox.parent.gitDir : '';
        byParent.set(key, [...(byParent.get(key) ?? []), removal]);
    }
    for (const [gitDir, group] of byParent) {
        for (let i = 0; i < group.length; i += BATCH) {
            const batch = group.slice(i, i + BATCH);
            const done = await inParallel(batch, REMOVALS_IN_FLIGHT, (removal) => removeOne(removal, deps));
            const drops = done.filter((d) => d.drop).map((d) => d.drop);
            try {
                if (gitDir && drops.length)
                    await (0,lock/* withRepositoryLock */.aZ)(gitDir, () => inParallel(drops, REMOVALS_IN_FLIGHT, (entry) => (0,worktree_metadata/* dropEntry */.sT)(gitDir, entry)));
            }
            finally {
                await Promise.all(done.map((d) => d.release?.()));
            }
            batch.forEach((removal, n) => {
                outcomes.set(removal.decision.key, done[n].outcome);
                deps.log(describe(removal.decision, done[n].outcome));
            });
        }
    }
    return outcomes;
}
async function removeOne({ decision, sandbox }, deps) {
    const outcome = { status: 'skipped', freedBytes: 0, archived: [], problems: [] };
    const parent = sandbox.parent && !sandbox.orphan ? sandbox.parent : undefined;
    let release;
    if (parent) {
        try {
            release = await (0,lock/* lockSandbox */.rj)(parent.gitDir, sandbox.sandbox, 0);
        }
        catch (error) {
            outcome.detail =
                error instanceof lock/* LockTimeoutError */.XB
                    ? 'in use: a run holds its lock'
                    : `its lock could not be taken: ${error.message}`;
            return { outcome };
        }
    }
    try {
        const activity = currentActivity(sandbox);
        if (activity !== undefined &&
            (decision.lastActivityMs === undefined || activity > decision.lastActivityMs)) {
            outcome.detail = 'activity since the scan';
            return { outcome, release };
        }
        if (decision.archive) {
            try {
                outcome.archived = await archiveSandbox(sandbox, decision.archive, deps);
            }
            catch (error) {
                outcome.detail = `archiving failed (${error.message})`;
                return { outcome, release };
            }
        }
        const destroyed = sandbox.volume
            ? await removeVolume(sandbox, decision, deps, outcome)
            : await execute_removeFolder(sandbox, deps, outcome);
        return { outcome, release, drop: destroyed && parent ? sandbox.entry : undefined };
    }
    catch (error) {
        outcome.status = 'not removed';
        outcome.detail = error.message;
        return { outcome, release };
    }
}
async function removeVolume(sandbox, decision, deps, outcome) {
    const result = await deps.engine.exec(['volume', 'rm', '--', sandbox.volume]);
    if (result.exitCode !== 0) {
        outcome.status = 'not removed';
        outcome.detail = (result.stderr || result.stdout).trim().split('\n')[0];
        return false;
    }
    outcome.status = 'removed';
    outcome.freedBytes = decision.sizeBytes ?? 0;
    return true;
}
async function execute_removeFolder(sandbox, deps, outcome) {
    const tree = await removeSandboxTree(deps.root, sandbox.hostPath);
    outcome.freedBytes = tree.freedBytes;
    outcome.problems = tree.problems;
    if (tree.gone) {
        outcome.status = 'removed';
        // The project folder goes with its last sandbox (never when anything else is left in it).
        try {
            external_node_fs_.rmdirSync(external_node_path_.dirname(sandbox.hostPath));
        }
        catch {
            /* other sandboxes (or anything else) are still there */
        }
    }
    else if (tree.unlinked) {
        outcome.status = 'partly removed';
        outcome.detail = `${tree.problems.length} entr${tree.problems.length === 1 ? 'y' : 'ies'} could not be deleted`;
    }
    else {
        outcome.status = 'not removed';
        outcome.detail = `its .git file could not be deleted (${tree.problems[0]?.error}): left intact`;
    }
    return tree.unlinked;
}
function describe(decision, outcome) {
    const what = `${decision.project}/${decision.sandbox} (${decision.isolation === 'disk' ? decision.where : `volume ${decision.where}`})`;
    const detail = outcome.detail ? `: ${outcome.detail}` : '';
    const archived = outcome.archived.length ? `; archived to ${outcome.archived.join(', ')}` : '';
    return `${outcome.status} ${what}${detail}${archived}`;
}

;// CONCATENATED MODULE: ./src/reap/in-use.ts
// Is a stale sandbox in use? A running container mounts it, a process has its working directory inside
// it, or a run holds its lock. Containers and processes are looked at once for all sandboxes.



async function observeUsage(engine) {
    const usage = { workingDirs: processWorkingDirs() };
    if (!engine)
        return { ...usage, containers: [] };
    try {
        const containers = await engine.containerMounts();
        // Bind sources are compared as real paths, like the sandbox paths.
        for (const c of containers)
            c.binds = c.binds.map(realOrSelf);
        return { ...usage, containers };
    }
    catch (error) {
        const message = error.message;
        // No engine installed: no container can be using anything.
        if (/not installed or not on PATH/.test(message))
            return { ...usage, containers: [] };
        return { ...usage, containersError: message };
    }
}
function processWorkingDirs() {
    let pids;
    try {
        pids = external_node_fs_.readdirSync('/proc').filter((n) => /^\d+$/.test(n));
    }
    catch {
        return undefined;
    }
    const dirs = [];
    for (const pid of pids) {
        try {
            dirs.push({ pid: Number(pid), cwd: external_node_fs_.readlinkSync(`/proc/${pid}/cwd`) });
        }
        catch {
            /* gone, or another user's process */
        }
    }
    return dirs;
}
function realOrSelf(p) {
    try {
        return external_node_fs_.realpathSync(p);
    }
    catch {
        return p;
    }
}
const inside = (child, dir) => child === dir || child.startsWith(`${dir}${external_node_path_.sep}`);
/** Why the sandbox is in use, or undefined. A usage that could not be observed counts as "in use". */
async function inUseReason(sandbox, usage) {
    if (sandbox.parent && !sandbox.orphan && (await (0,lock/* isSandboxLocked */.up)(sandbox.parent.gitDir, sandbox.sandbox)))
        return 'a run holds its lock';
    if (!usage.containers)
        return `the container engine could not be asked (${usage.containersError})`;
    if (sandbox.volume) {
        const users = usage.containers.filter((c) => c.volumes.includes(sandbox.volume));
        const running = users.filter((c) => c.running).map((c) => c.name);
        if (running.length)
            return `running container ${running.join(', ')} mounts it`;
        if (users.length)
            return `stopped container ${users.map((c) => c.name).join(', ')} still references the volume (remove it to let the volume go)`;
        return undefined;
    }
    const hostPath = sandbox.hostPath;
    const mounting = usage.containers.filter((c) => c.running && c.binds.some((b) => inside(b, hostPath)));
    if (mounting.length)
        return `running container ${mounting.map((c) => c.name).join(', ')} mounts it`;
    if (!usage.workingDirs)
        return 'the working directories of processes cannot be read (no /proc)';
    const process = usage.workingDirs.find((p) => inside(p.cwd, hostPath));
    if (process)
        return `process ${process.pid} has its working directory in it`;
    return undefined;
}

;// CONCATENATED MODULE: ./src/reap/work-finding.ts
function summarizeWork(checks) {
    const found = [];
    const failed = [];
    if (checks.operation)
        found.push(checks.operation);
    if ('error' in checks.uncommitted)
        failed.push(checks.uncommitted.error);
    else if (checks.uncommitted.value > 0)
        found.push(`${checks.uncommitted.value} uncommitted file(s)`);
    if ('error' in checks.unpushed)
        failed.push(checks.unpushed.error);
    else if (checks.unpushed.value)
        found.push('commits on no remote');
    if (found.length)
        return { state: 'work', detail: found.join(', ') };
    if (failed.length)
        return { state: 'unknown', detail: failed.join('; ') };
    return { state: 'clean' };
}
/** Entries in `git status --porcelain=v1 -z` output (a rename or copy carries its source as an extra field). */
function countPorcelainEntries(output) {
    const fields = output.split('\0').filter(Boolean);
    let count = 0;
    for (let i = 0; i < fields.length; i++) {
        count++;
        if (fields[i][0] === 'R' || fields[i][0] === 'C')
            i++;
    }
    return count;
}

;// CONCATENATED MODULE: ./src/reap/volume-inspection.ts
// Volume sandboxes keep their files where the host cannot see them: their size and `git status` are read
// in helper containers, one per parent repository for up to VOLUMES_PER_HELPER volumes (not one per
// volume). Everything is mounted read-only: the parent (with its .git) and each volume, so a check can
// never write the index whose mtime is an activity signal, nor anything else.



const VOLUMES_PER_HELPER = 48;
// Positional arguments only, in triples: mount point, sandbox name, 1/0 for "run git status".
const SCRIPT = `set -u
mark() { printf '\\000@@v:%s:%s\\000' "$1" "$2"; }
while [ $# -ge 3 ]; do
  dir="$1"; name="$2"; check="$3"; shift 3
  mark "$dir" size; du -sk "$dir" 2>/dev/null | cut -f1
  if [ "$check" = 1 ]; then
    if cd "$dir/$name" 2>/dev/null; then
      mark "$dir" status
      git --no-optional-locks status --porcelain=v1 -z --untracked-files=all 2>/dev/null
      rc=$?
      mark "$dir" "rc=$rc"
      cd /
    else
      mark "$dir" "rc=missing"
    fi
  fi
done
mark end end
`;
async function inspectVolumes(engine, image, parent, requests) {
    const results = new Map();
    for (let i = 0; i < requests.length; i += VOLUMES_PER_HELPER) {
        const chunk = requests.slice(i, i + VOLUMES_PER_HELPER);
        for (const [volume, inspection] of await inspectChunk(engine, image, parent, chunk))
            results.set(volume, inspection);
    }
    return results;
}
async function inspectChunk(engine, image, parent, chunk) {
    // The worktree files belong to whoever ran the sandbox: git's ownership check would refuse them.
    const env = {
        ...(0,src_git/* gitConfigEnv */.W0)([['safe.directory', '*']]),
        GIT_TERMINAL_PROMPT: '0',
        GIT_OPTIONAL_LOCKS: '0',
        HOME: '/tmp',
        LC_ALL: 'C',
    };
    const mounts = [];
    if (parent)
        mounts.push((0,src_sandbox/* mountArg */.MC)({ type: 'bind', source: parent.path, target: parent.path, readonly: true }));
    const args = [];
    chunk.forEach((request, n) => {
        const dir = `/v/${n}`;
        mounts.push((0,src_sandbox/* mountArg */.MC)({ type: 'volume', source: request.volume, target: dir, readonly: true }));
        args.push(dir, request.sandbox, request.checkStatus ? '1' : '0');
    });
    const result = await engine.exec((0,src_sandbox/* helperContainerArgs */.vB)({
        mounts,
        workdir: '/',
        envNames: Object.keys(env),
        image,
        entrypoint: 'sh',
        args: ['-c', SCRIPT, 'worktree-sandbox-reap', ...args],
    }), { env });
    return parseInspection(result.stdout, result.exitCode, result.stderr, chunk);
}
function parseInspection(stdout, exitCode, stderr, chunk) {
    const sections = new Map();
    for (const part of stdout.split('\0@@v:').slice(1)) {
        const nul = part.indexOf('\0');
        sections.set(part.slice(0, nul), part.slice(nul + 1));
    }
    const complete = sections.has('end:end');
    const failure = `the helper container failed (exit ${exitCode}): ${stderr.trim().split('\n')[0] ?? ''}`;
    const results = new Map();
    chunk.forEach((request, n) => {
        const dir = `/v/${n}`;
        const kb = Number((sections.get(`${dir}:size`) ?? '').trim());
        const inspection = {
            sizeBytes: Number.isFinite(kb) && (sections.get(`${dir}:size`) ?? '').trim() ? kb * 1024 : undefined,
        };
        if (request.checkStatus) {
            const rc = [...sections.keys()].find((k) => k.startsWith(`${dir}:rc=`))?.slice(`${dir}:rc=`.length);
            if (!complete && rc === undefined)
                inspection.uncommitted = { error: failure };
            else if (rc === '0')
                inspection.uncommitted = { value: countPorcelainEntries(sections.get(`${dir}:status`) ?? '') };
            else if (rc === 'missing')
                inspection.uncommitted = { error: 'the worktree is missing from its volume' };
            else
                inspection.uncommitted = { error: `git status failed in the volume (exit ${rc ?? '?'})` };
        }
        results.set(request.volume, inspection);
    });
    return results;
}

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
;// CONCATENATED MODULE: ./src/reap/git-index.ts
// A reader for git's index file (versions 2 and 3), enough to tell from the filesystem alone that a
// worktree is clean: the stat data git cached for each file, and the cache tree's root (the tree the
// index would write). Anything unusual (version 4, split or sparse index, required extensions, a bad
// checksum) is reported as unsupported, and the caller asks git instead.

const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const STAGE_MASK = 0x3000;
const NAME_MASK = 0x0fff;
/** Parses an index whose object names are `hashBytes` long (20 for SHA-1, 32 for SHA-256). */
function parseIndex(buf, hashBytes = 20) {
    const fail = (why) => ({ ok: false, unsupported: why });
    if (buf.length < 12 + hashBytes || buf.toString('latin1', 0, 4) !== 'DIRC')
        return fail('not an index file');
    const version = buf.readUInt32BE(4);
    if (version !== 2 && version !== 3)
        return fail(`index version ${version}`);
    const end = buf.length - hashBytes;
    if (!checksumOk(buf, end, hashBytes))
        return fail('index checksum mismatch');
    const count = buf.readUInt32BE(8);
    const entries = [];
    let off = 12;
    for (let i = 0; i < count; i++) {
        const fixed = 40 + hashBytes + 2;
        if (off + fixed > end)
            return fail('truncated entry');
        const flags = buf.readUInt16BE(off + 40 + hashBytes);
        let nameStart = off + fixed;
        let special = (flags & ASSUME_VALID) !== 0;
        if (flags & EXTENDED) {
            if (version < 3)
                return fail('extended flags in a version 2 index');
            special = special || buf.readUInt16BE(nameStart) !== 0;
            nameStart += 2;
        }
        let nameLength = flags & NAME_MASK;
        if (nameLength === NAME_MASK)
            nameLength = buf.indexOf(0, nameStart) - nameStart;
        if (nameLength < 0 || nameStart + nameLength > end)
            return fail('truncated entry name');
        entries.push({
            ctimeSec: buf.readUInt32BE(off),
            ctimeNsec: buf.readUInt32BE(off + 4),
            mtimeSec: buf.readUInt32BE(off + 8),
            mtimeNsec: buf.readUInt32BE(off + 12),
            ino: buf.readUInt32BE(off + 20),
            mode: buf.readUInt32BE(off + 24),
            uid: buf.readUInt32BE(off + 28),
            gid: buf.readUInt32BE(off + 32),
            size: buf.readUInt32BE(off + 36),
            oid: buf.toString('hex', off + 40, off + 40 + hashBytes),
            stage: (flags & STAGE_MASK) >> 12,
            special,
            path: buf.toString('utf8', nameStart, nameStart + nameLength),
        });
        // Entries are NUL-padded to a multiple of 8 bytes (at least one NUL).
        off += (nameStart - off + nameLength + 8) & ~7;
    }
    let rootTree;
    while (off + 8 <= end) {
        const signature = buf.toString('latin1', off, off + 4);
        const size = buf.readUInt32BE(off + 4);
        const data = off + 8;
        if (data + size > end)
            return fail(`truncated extension ${signature}`);
        if (signature === 'TREE')
            rootTree = cacheTreeRoot(buf.subarray(data, data + size), hashBytes);
        // Extensions whose signature starts with A-Z are optional; any other one changes how to read the index.
        else if (!/^[A-Z]/.test(signature))
            return fail(`index extension ${JSON.stringify(signature)}`);
        off = data + size;
    }
    if (off !== end)
        return fail('trailing bytes');
    return { ok: true, index: { version, entries, rootTree } };
}
function checksumOk(buf, end, hashBytes) {
    const stored = buf.subarray(end);
    if (stored.every((b) => b === 0))
        return true; // index.skipHash
    const algorithm = hashBytes === 32 ? 'sha256' : 'sha1';
    return (0,external_node_crypto_.createHash)(algorithm).update(buf.subarray(0, end)).digest().equals(stored);
}
/** The first cache-tree record is the root: path "", entry count, subtree count, then its tree name. */
function cacheTreeRoot(data, hashBytes) {
    const nul = data.indexOf(0);
    const newline = data.indexOf(0x0a, nul + 1);
    if (nul !== 0 || newline < 0)
        return undefined;
    const [entryCount] = data.toString('latin1', nul + 1, newline).split(' ');
    if (Number(entryCount) < 0 || newline + 1 + hashBytes > data.length)
        return undefined;
    return data.toString('hex', newline + 1, newline + 1 + hashBytes);
}
/** The name git gives a blob with this content. */
function blobName(content, hashBytes = 20) {
    const hash = (0,external_node_crypto_.createHash)(hashBytes === 32 ? 'sha256' : 'sha1');
    hash.update(`blob ${content.length}\0`);
    hash.update(content);
    return hash.digest('hex');
}

;// CONCATENATED MODULE: ./src/reap/clean-probe.ts
// The filesystem fast path of the check for work: proves that a worktree is clean without starting git,
// or says why it cannot (then git decides). It proves "clean" only when:
//  - the index's cache tree is complete and names HEAD's tree (nothing staged);
//  - every index entry is an ordinary file or link whose stat data still matches what git cached (with
//    ctime and inode, stricter than git itself), or whose content hashes to the blob in the index;
//  - no file or folder exists that the index does not list (untracked or ignored: only git knows which).
// It never writes anything, so it cannot reset the activity clock it is part of.



/** Files larger than this are not hashed by the fast path: git decides. */
const HASH_LIMIT = 8 * 1024 * 1024;
const NS = 1000000000n;
const REGULAR = 0o100000;
const SYMLINK = 0o120000;
/** Operations that leave work half-done in a worktree's admin folder. */
const IN_PROGRESS = [
    ['MERGE_HEAD', 'a merge'],
    ['CHERRY_PICK_HEAD', 'a cherry-pick'],
    ['REVERT_HEAD', 'a revert'],
    ['rebase-merge', 'a rebase'],
    ['rebase-apply', 'a rebase or am'],
    ['sequencer', 'a sequence of picks'],
    ['BISECT_LOG', 'a bisect'],
];
/** The operation in progress in a worktree (merge, rebase...), read from its admin folder. */
function operationInProgress(adminDir) {
    for (const [name, what] of IN_PROGRESS) {
        if (external_node_fs_.existsSync(external_node_path_.join(adminDir, name)))
            return `${what} is in progress`;
    }
    return undefined;
}
function proveClean(worktree, adminDir, headTree) {
    const unsure = (why) => ({ clean: false, unsure: why });
    const indexFile = external_node_path_.join(adminDir, 'index');
    let buf;
    let indexMtime;
    try {
        indexMtime = external_node_fs_.statSync(indexFile, { bigint: true }).mtimeNs;
        buf = external_node_fs_.readFileSync(indexFile);
    }
    catch (error) {
        return unsure(`cannot read the index (${error.code})`);
    }
    const hashBytes = headTree.length / 2;
    const reading = parseIndex(buf, hashBytes);
    if (!reading.ok)
        return unsure(reading.unsupported);
    const { entries, rootTree } = reading.index;
    if (rootTree !== headTree)
        return unsure('the index does not match HEAD as a whole');
    const tracked = new Set();
    const folders = new Set();
    for (const entry of entries) {
        const problem = entryProblem(worktree, entry, indexMtime, hashBytes);
        if (problem)
            return unsure(`${entry.path}: ${problem}`);
        tracked.add(entry.path);
        for (let dir = external_node_path_.posix.dirname(entry.path); dir !== '.'; dir = external_node_path_.posix.dirname(dir)) {
            if (folders.has(dir))
                break;
            folders.add(dir);
        }
    }
    const extra = firstUnlisted(worktree, tracked, folders);
    return extra === undefined ? { clean: true } : unsure(`${extra} is not in the index`);
}
function entryProblem(worktree, entry, indexMtime, hashBytes) {
    if (entry.stage !== 0)
        return 'a conflict';
    if (entry.special)
        return 'flagged assume-valid, skip-worktree or intent-to-add';
    const type = entry.mode & 0o170000;
    if (type !== REGULAR && type !== SYMLINK)
        return 'not a plain file or link (a submodule?)';
    const file = external_node_path_.join(worktree, entry.path);
    let st;
    try {
        st = external_node_fs_.lstatSync(file, { bigint: true });
    }
    catch {
        return 'missing';
    }
    if (type === SYMLINK ? !st.isSymbolicLink() : !st.isFile())
        return 'changed type';
    if (type === REGULAR && (st.mode & 64n ? 0o100755 : 0o100644) !== entry.mode)
        return 'mode changed';
    if (st.size !== BigInt(entry.size))
        return 'size changed';
    const racy = at(entry.mtimeSec, entry.mtimeNsec) >= indexMtime;
    if (!racy && statMatches(st, entry))
        return undefined;
    // Stat data moved (a copy, a touch) or is too close to the index write to trust: compare content.
    if (st.size > BigInt(HASH_LIMIT))
        return 'changed stat data on a large file';
    try {
        const content = type === SYMLINK ? Buffer.from(external_node_fs_.readlinkSync(file, 'buffer')) : external_node_fs_.readFileSync(file);
        return blobName(content, hashBytes) === entry.oid ? undefined : 'content changed';
    }
    catch {
        return 'unreadable';
    }
}
function at(sec, nsec) {
    return BigInt(sec) * NS + BigInt(nsec);
}
/** Git's own comparison plus ctime and inode; nanoseconds where the index has them. */
function statMatches(st, entry) {
    const same = (ns, sec, nsec) => nsec === 0 ? ns / NS === BigInt(sec) : ns === at(sec, nsec);
    return (same(st.mtimeNs, entry.mtimeSec, entry.mtimeNsec) &&
        same(st.ctimeNs, entry.ctimeSec, entry.ctimeNsec) &&
        BigInt.asUintN(32, st.ino) === BigInt(entry.ino) &&
        Number(st.uid) === entry.uid &&
        Number(st.gid) === entry.gid);
}
/** The first file or folder (relative path) that the index does not account for, if any. */
function firstUnlisted(worktree, tracked, folders) {
    const pending = [''];
    while (pending.length) {
        const dir = pending.pop();
        let names;
        try {
            names = external_node_fs_.readdirSync(dir ? external_node_path_.join(worktree, dir) : worktree, { withFileTypes: true });
        }
        catch {
            return dir || '.';
        }
        for (const dirent of names) {
            const rel = dir ? `${dir}/${dirent.name}` : dirent.name;
            if (rel === '.git' || tracked.has(rel))
                continue;
            if (folders.has(rel) && dirent.isDirectory())
                pending.push(rel);
            else
                return rel;
        }
    }
    return undefined;
}

;// CONCATENATED MODULE: ./src/reap/heads.ts
// What the HEAD of each sandbox of one parent is, and whether a remote has it: two or three git processes
// per parent, whatever the number of sandboxes (a reaper that starts git once per sandbox is the slow
// baseline of bench/). HEAD is read from each worktree's admin folder on the host, which is also where
// volume sandboxes keep it.


const OID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
const REF = /^refs\/[^\s\0]+$/;
/** HEAD as written in an admin folder: a commit name, or `ref: refs/heads/<branch>`. */
function readHeadFile(adminDir) {
    let text;
    try {
        text = external_node_fs_.readFileSync(external_node_path_.join(adminDir, 'HEAD'), 'utf8').trim();
    }
    catch (error) {
        return { error: `cannot read HEAD (${error.code})` };
    }
    if (OID.test(text))
        return { rev: text };
    const ref = /^ref: (.+)$/.exec(text)?.[1];
    if (ref && REF.test(ref))
        return { rev: ref };
    return { error: `HEAD is not a commit or a branch: ${JSON.stringify(text.slice(0, 80))}` };
}
/** Reads HEAD, its tree and whether any remote has it for each admin folder of the parent at `gitDir`. */
async function readHeads(git, gitDir, adminDirs) {
    const facts = new Map();
    const revs = new Map();
    for (const adminDir of adminDirs) {
        const head = readHeadFile(adminDir);
        if ('error' in head)
            facts.set(adminDir, { error: head.error });
        else
            revs.set(adminDir, head.rev);
    }
    if (revs.size === 0)
        return facts;
    const asked = [...revs.values()].flatMap((rev) => [rev, `${rev}^{tree}`]);
    const resolved = await git.exec(gitDir, [`--git-dir=${gitDir}`, 'cat-file', '--batch-check'], {
        input: Buffer.from(`${asked.join('\n')}\n`),
    });
    const lines = resolved.stdout.split('\n');
    if (resolved.exitCode !== 0 || lines.length < asked.length) {
        const error = `git cat-file failed: ${firstLine(resolved.stderr) || `exit ${resolved.exitCode}`}`;
        for (const adminDir of revs.keys())
            facts.set(adminDir, { error });
        return facts;
    }
    let i = 0;
    for (const [adminDir, rev] of revs) {
        const [commit, commitType] = lines[i++].split(' ');
        const [tree, treeType] = lines[i++].split(' ');
        if (commitType !== 'commit' || treeType !== 'tree' || !OID.test(commit) || !OID.test(tree))
            facts.set(adminDir, { error: `HEAD (${rev}) names no commit in the parent` });
        else
            facts.set(adminDir, { commit, tree });
    }
    await markUnpushed(git, gitDir, facts);
    return facts;
}
async function markUnpushed(git, gitDir, facts) {
    const resolved = [...facts.values()].filter((f) => f.commit);
    const commits = [...new Set(resolved.map((f) => f.commit))];
    if (commits.length === 0)
        return;
    const remotes = await git.exec(gitDir, [
        `--git-dir=${gitDir}`,
        'for-each-ref',
        '--count=1',
        '--format=%(refname)',
        'refs/remotes/',
    ]);
    if (remotes.exitCode !== 0)
        return failAll(resolved, `git for-each-ref failed: ${firstLine(remotes.stderr)}`);
    if (!remotes.stdout.trim()) {
        for (const f of resolved)
            f.unpushed = true;
        return;
    }
    // Every commit reachable from a HEAD and from no remote-tracking ref. A HEAD that a remote has cannot
    // be in that list (its ancestors are all on that remote too), so membership answers for each sandbox.
    const list = await git.exec(gitDir, [`--git-dir=${gitDir}`, 'rev-list', ...commits, '--not', '--remotes']);
    if (list.exitCode !== 0)
        return failAll(resolved, `git rev-list failed: ${firstLine(list.stderr)}`);
    const unpushed = new Set(list.stdout.split('\n').filter(Boolean));
    for (const f of resolved)
        f.unpushed = unpushed.has(f.commit);
}
function failAll(resolved, error) {
    for (const f of resolved)
        f.error = error;
}
function firstLine(text) {
    return text.trim().split('\n')[0] ?? '';
}

;// CONCATENATED MODULE: ./src/reap/work.ts





/** Checks registered sandboxes of live parents; returns a report per sandbox key. */
async function checkWork(sandboxes, deps) {
    const byParent = new Map();
    for (const s of sandboxes) {
        if (!s.parent || !s.entry)
            continue;
        const group = byParent.get(s.parent.gitDir) ?? { parent: s.parent, sandboxes: [] };
        group.sandboxes.push(s);
        byParent.set(s.parent.gitDir, group);
    }
    const reports = new Map();
    // Two parents at a time: one's git processes or helper container run while the other's files are read.
    await inParallel([...byParent.values()], 2, async ({ parent, sandboxes: group }) => {
        const heads = await readHeads(deps.git, parent.gitDir, group.map((s) => s.entry.adminDir));
        const volumes = group.filter((s) => s.volume);
        const inspected = volumes.length
            ? await inspectVolumesSafely(deps, parent, volumes)
            : new Map();
        for (const s of group) {
            const head = heads.get(s.entry.adminDir) ?? { error: 'HEAD was not read' };
            if (s.volume) {
                const seen = inspected.get(s.volume);
                reports.set(s.key, {
                    work: finding(s, head, seen?.uncommitted ?? { error: 'the volume was not inspected' }),
                    sizeBytes: seen?.sizeBytes,
                });
            }
            else {
                const { uncommitted, proved } = await diskUncommitted(deps.git, s, head);
                reports.set(s.key, { work: finding(s, head, uncommitted), provedByFilesystem: proved });
            }
        }
    });
    return reports;
}
function finding(s, head, uncommitted) {
    return summarizeWork({
        operation: operationInProgress(s.entry.adminDir),
        uncommitted,
        unpushed: head.error ? { error: head.error } : { value: head.unpushed === true },
    });
}
async function diskUncommitted(git, s, head) {
    if (head.tree && proveClean(s.hostPath, s.entry.adminDir, head.tree).clean)
        return { uncommitted: { value: 0 }, proved: true };
    const status = await git.exec(s.hostPath, [
        '--no-optional-locks',
        'status',
        '--porcelain=v1',
        '-z',
        '--untracked-files=all',
    ]);
    if (status.exitCode !== 0)
        return {
            uncommitted: {
                error: `git status failed: ${status.stderr.trim().split('\n')[0] || `exit ${status.exitCode}`}`,
            },
            proved: false,
        };
    return { uncommitted: { value: countPorcelainEntries(status.stdout) }, proved: false };
}
async function inspectVolumesSafely(deps, parent, volumes) {
    try {
        return await inspectVolumes(deps.engine, deps.image, parent, volumes.map((s) => ({ volume: s.volume, sandbox: s.sandbox, checkStatus: true })));
    }
    catch (error) {
        const failure = { uncommitted: { error: error.message } };
        return new Map(volumes.map((s) => [s.volume, failure]));
    }
}

;// CONCATENATED MODULE: ./src/reap/reap.ts











/** The reaper's options from the validated settings (the action and the CLI alike). */
function reapOptionsFrom(settings) {
    const { worktreeRoot, volumePrefix, engine, image, dryRun, maxRemovals, force, archiveDir } = settings;
    return {
        worktreeRoot,
        volumePrefix,
        engine,
        image,
        retention: settings,
        dryRun,
        maxRemovals,
        force,
        archiveDir,
    };
}
async function reap(options, ui = silentUi) {
    const nowMs = options.now ?? Date.now();
    const git = await src_git/* Git */.TU.create();
    const engine = new docker/* ContainerEngine */.yz(options.engine);
    const scan = await ui.group('Scan', async () => {
        const started = Date.now();
        const found = await scanSandboxes({
            worktreeRoot: options.worktreeRoot,
            volumePrefix: options.volumePrefix,
            engine,
        });
        ui.info(`Found ${found.sandboxes.length} entries under ${found.root} and in volumes ${options.volumePrefix}-* (${elapsed(started)}).`);
        return found;
    });
    for (const warning of scan.warnings)
        ui.warning(warning);
    const stale = scan.sandboxes.filter((s) => assessStaleness(s, options.retention, nowMs).stale);
    const facts = new Map(scan.sandboxes.map((s) => [s.key, factsOf(s)]));
    const reports = await ui.group(`Look at ${stale.length} stale sandbox(es)`, async () => {
        const started = Date.now();
        const looked = await lookCloser(stale, facts, { git, engine, image: options.image });
        const proved = [...looked.values()].filter((r) => r.provedByFilesystem).length;
        ui.info(`In use, work and size checked (${elapsed(started)}; ${proved} proved clean by the filesystem alone, ${looked.size - proved} asked git or a helper container).`);
        return looked;
    });
    const decisions = decide([...facts.values()], { ...options, archive: !!options.archiveDir }, nowMs);
    await ui.group('Decisions', async () => {
        for (const d of decisions)
            ui.info(`${d.action === 'remove' ? (options.dryRun ? 'would remove' : 'remove') : 'keep'} ${d.project}/${d.sandbox} [${d.isolation}, ${d.class}]: ${d.reason}`);
    });
    const byKey = new Map(scan.sandboxes.map((s) => [s.key, s]));
    const removals = decisions
        .filter((d) => d.action === 'remove')
        .map((decision) => ({ decision, sandbox: byKey.get(decision.key) }));
    let outcomes = new Map();
    if (!options.dryRun && removals.length) {
        outcomes = await ui.group(`Remove ${removals.length} sandbox(es)`, async () => {
            const started = Date.now();
            const done = await carryOut(removals, {
                git,
                engine,
                image: options.image,
                root: scan.root,
                archiveDir: options.archiveDir,
                now: new Date(nowMs),
                log: (line) => ui.info(line),
            });
            ui.info(`Done in ${elapsed(started)}.`);
            return done;
        });
    }
    else if (options.dryRun) {
        for (const { decision, sandbox } of removals)
            if (decision.sizeBytes === undefined && sandbox.hostPath)
                decision.sizeBytes = measureTree(sandbox.hostPath);
    }
    const sandboxes = decisions.map((d) => report(d, options.dryRun, outcomes.get(d.key)));
    const freedBytes = sandboxes.reduce((sum, s) => sum + (options.dryRun ? (s.result === 'would remove' ? (s.sizeBytes ?? 0) : 0) : (s.freedBytes ?? 0)), 0);
    return {
        dryRun: options.dryRun,
        sandboxes,
        freedBytes,
        warnings: scan.warnings,
        stats: {
            found: scan.sandboxes.length,
            stale: stale.length,
            provedByFilesystem: [...reports.values()].filter((r) => r.provedByFilesystem).length,
        },
    };
}
function elapsed(started) {
    return `${((Date.now() - started) / 1000).toFixed(2)} s`;
}
/** The facts a decision needs that the scan already has (in use, work and size come from `lookCloser`). */
function factsOf(s) {
    return {
        key: s.key,
        sandbox: s.sandbox,
        project: s.project,
        isolation: s.isolation,
        where: s.where,
        notSandbox: s.notSandbox,
        orphan: s.orphan,
        lastActivityMs: s.lastActivityMs,
    };
}
/**
 * In use? Holding work? How big? Asked in batches; the reaper asks it of the stale sandboxes only, the
 * CLI's `list` of all of them and `rm` of one.
 */
async function lookCloser(stale, facts, deps) {
    if (stale.length === 0)
        return new Map();
    const usage = await observeUsage(deps.engine);
    const reasons = await inParallel(stale, 16, (s) => inUseReason(s, usage));
    const free = stale.filter((s, i) => {
        facts.get(s.key).inUse = reasons[i];
        return !reasons[i];
    });
    const checkable = free.filter((s) => !s.orphan && s.entry);
    for (const s of free) {
        if (!s.orphan && !s.entry)
            facts.get(s.key).work = { state: 'unknown', detail: s.unregistered ?? 'not registered in its parent' };
    }
    const reports = await checkWork(checkable, deps);
    for (const [key, report] of reports) {
        facts.get(key).work = report.work;
        if (report.sizeBytes !== undefined)
            facts.get(key).sizeBytes = report.sizeBytes;
    }
    // Sizes: disk sandboxes that will not be removed now (removal measures the rest); volumes not seen yet.
    for (const s of stale) {
        const f = facts.get(s.key);
        if (s.hostPath && (f.inUse || (f.work && f.work.state !== 'clean')))
            f.sizeBytes = measureTree(s.hostPath);
    }
    const unseen = stale.filter((s) => s.volume && facts.get(s.key).sizeBytes === undefined);
    if (unseen.length) {
        try {
            const sizes = await inspectVolumes(deps.engine, deps.image, undefined, unseen.map((s) => ({ volume: s.volume, sandbox: s.sandbox, checkStatus: false })));
            for (const s of unseen)
                facts.get(s.key).sizeBytes = sizes.get(s.volume)?.sizeBytes;
        }
        catch {
            /* sizes are for the report only */
        }
    }
    return reports;
}
function report(d, dryRun, outcome) {
    if (d.action !== 'remove')
        return { ...d, result: 'kept' };
    if (dryRun)
        return { ...d, result: 'would remove' };
    if (!outcome)
        return { ...d, result: 'kept', detail: 'not attempted' };
    const base = {
        ...d,
        sizeBytes: d.sizeBytes ?? (d.isolation === 'disk' ? outcome.freedBytes : undefined),
        freedBytes: outcome.freedBytes,
        archived: outcome.archived,
        problems: outcome.problems,
        detail: outcome.detail,
    };
    if (outcome.status === 'removed')
        return { ...base, result: 'removed' };
    if (outcome.status === 'partly removed')
        return { ...base, result: 'partly removed' };
    return { ...base, result: 'kept' };
}

;// CONCATENATED MODULE: ./src/reap-action.ts
// Reap mode of the action: settings in, the reaper run, outputs (`reaped`, `kept`, `freed-bytes`) and a
// job summary out. The reaper itself (src/reap/) knows nothing of @actions/core.




/** GitHub keeps each output to 1 MiB; leave room for the rest. */
const OUTPUT_LIMIT = 900_000;
/** The step summary is at most 1 MiB. */
const SUMMARY_ROWS = 2500;
async function reapAction(settings) {
    const ui = (0,action/* actionUi */.V4)();
    const result = await reap(reapOptionsFrom(settings), ui);
    const sorted = [...result.sandboxes].sort(byInterest);
    const reaped = jsonWithin(sorted.filter(isReaped).map(toRecord), OUTPUT_LIMIT);
    const kept = jsonWithin(sorted.filter((s) => !isReaped(s)).map(toRecord), OUTPUT_LIMIT);
    for (const [name, list] of [
        ['reaped', reaped],
        ['kept', kept],
    ]) {
        if (list.omitted)
            core/* warning */.$e(`The ${name} output lists the first entries only: ${list.omitted} more did not fit.`);
    }
    core/* setOutput */.uH('reaped', reaped.json);
    core/* setOutput */.uH('kept', kept.json);
    core/* setOutput */.uH('freed-bytes', String(result.freedBytes));
    await core/* summary */.z.addRaw(summaryMarkdown({ ...result, sandboxes: sorted }, SUMMARY_ROWS)).write();
    const failed = result.sandboxes.filter((s) => s.result === 'partly removed');
    if (failed.length)
        core/* warning */.$e(`${failed.length} sandbox(es) could only be partly removed; what is left is reported as not a sandbox from now on: ${failed.map((s) => s.where).join(', ')}`);
    return result;
}


/***/ })

};
