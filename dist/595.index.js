export const id = 595;
export const ids = [595];
export const modules = {

/***/ 6595:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  reapAction: () => (/* binding */ reapAction)
});

// EXTERNAL MODULE: ./node_modules/@actions/core/lib/core.js + 9 modules
var core = __webpack_require__(7710);
// EXTERNAL MODULE: ./src/action/action-ui.ts + 1 modules
var action_ui = __webpack_require__(654);
// EXTERNAL MODULE: ./src/run/redaction.ts
var run_redaction = __webpack_require__(7064);
// EXTERNAL MODULE: ./src/present/step-summary.ts
var step_summary = __webpack_require__(2700);
// EXTERNAL MODULE: ./src/ui/sandbox-text.ts
var sandbox_text = __webpack_require__(9633);
;// CONCATENATED MODULE: ./src/reap/reap-report.ts

function isReaped(s) {
    return s.result === 'removed' || s.result === 'partly removed' || s.result === 'would remove';
}
/** What a reap did, in one sentence: the CLI's headline and the job summary's line. */
function reapTally(result) {
    const reaped = result.sandboxes.filter(isReaped).length;
    const [removed, freed] = result.dryRun ? ['would be removed', 'would be freed'] : ['removed', 'freed'];
    return `${result.stats.found} found, ${result.stats.stale} stale, ${reaped} ${removed}, ${result.sandboxes.length - reaped} kept; ${formatBytes(result.freedBytes)} ${freed}.`;
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
/** `localeCompare`'s order, with the collator made once. */
const collator = new Intl.Collator();
/**
 * The most telling entries first: removals, then stale ones kept, then the rest, oldest first (a copy).
 * Each entry's rank is worked out once, not at every comparison: a reap lists thousands.
 */
function byInterest(sandboxes) {
    return sandboxes
        .map((s) => ({ s, rank: rank(s), age: s.ageDays ?? -1 }))
        .sort((a, b) => a.rank - b.rank || b.age - a.age || collator.compare(a.s.where, b.s.where))
        .map(({ s }) => s);
}
function rank(s) {
    if (isReaped(s))
        return 0;
    if (s.action === 'remove' || !/^fresh|^age unknown/.test(s.reason))
        return s.class === 'not-a-sandbox' ? 2 : 1;
    return 3;
}
// The reaper's log lines: each decision with every fact it was made from, for a debug log, and text from
// the disk made safe to print. Pure.
/** The longest debug line of one decision (its facts include text from the disk). */
const TRACE_MAX = 8_000;
/**
 * One line for the debug log: a decision and every fact it was made from. `lookedAt`: the entry was
 * stale, so whether it is in use and holds work was checked; `dryRun`: a removal is only reported.
 */
function decisionTrace(d, facts, lookedAt, dryRun = false) {
    const verb = d.action === 'remove' ? (dryRun ? 'would remove' : 'remove') : 'keep';
    const parts = [
        `${verb} ${d.project}/${d.sandbox} (${d.isolation === 'disk' ? d.where : `volume ${d.where}`})`,
        `class ${d.class}${d.expiryDays === undefined ? '' : `, expiry ${d.expiryDays} days`}`,
        ...checked(d, facts, lookedAt),
    ];
    if (facts.sizeBytes !== undefined)
        parts.push(`size ${formatBytes(facts.sizeBytes)}`);
    parts.push(`reason: ${d.reason}`);
    if (d.archive)
        parts.push(`archive: ${d.archive === 'work' ? 'patch and bundle' : 'every file'}`);
    // Folder names, helper errors and work details came from the disk: one escaped line, bounded.
    return (0,sandbox_text/* sandboxText */.dX)(parts.join('; '), TRACE_MAX);
}
/** What was looked at: nothing but sandboxes has an age, and only stale ones are looked at closer. */
function checked(d, facts, lookedAt) {
    if (facts.notSandbox)
        return [`not a sandbox: ${facts.notSandbox}`];
    const age = d.ageDays === undefined
        ? 'age unknown (no activity signal)'
        : `${d.ageDays} day(s) old (last activity ${new Date(d.lastActivityMs).toISOString()})`;
    if (!lookedAt)
        return [age, 'not stale: in use and work not checked'];
    return [
        age,
        `in use: ${facts.inUse ?? 'no'}`,
        ...(facts.orphan ? [`orphan: ${facts.orphan}`] : []),
        `work: ${workText(facts)}`,
    ];
}
function workText(facts) {
    if (facts.inUse)
        return 'not checked (in use)';
    if (facts.orphan)
        return 'not checkable (no parent)';
    const work = facts.work;
    if (!work)
        return 'not checked';
    if (work.state === 'clean')
        return 'none';
    if (work.state === 'work')
        return work.detail;
    if (work.state === 'unknown')
        return `could not check (${work.detail})`;
    return 'not checkable';
}
// Sizes as a person reads them, in binary units: the job summary, its chart and the CLI alike.
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

// EXTERNAL MODULE: ./src/ui/markdown.ts
var markdown = __webpack_require__(8561);
// EXTERNAL MODULE: ./src/ui/untrusted-markdown.ts
var untrusted_markdown = __webpack_require__(8912);
;// CONCATENATED MODULE: ./src/action/reap-summary.ts
// The reap's job summary: the chart of everything found, through what became of it, to why, then a table
// of the most telling entries. Pure; the reaper's result in, Markdown out (reap-action.ts writes it).



/** A sandbox's name, project, reason or a warning: may quote a path or a branch from a sandbox. */
const cell = (text) => (0,untrusted_markdown/* untrustedInline */.qm)(text, 1_000);
/** One row of the table; the cells that come from a sandbox go through `cell`. */
const row = (s) => [
    cell(s.sandbox || s.where),
    cell(s.project),
    s.isolation === 'disk' ? 'disk' : 'volume',
    s.class,
    `${s.ageDays ?? '?'}`,
    s.result,
    cell(reasonOf(s)),
    formatBytes(s.sizeBytes),
];
/** The job summary: the chart (of every entry), then at most `maxRows` rows (the most telling), the rest counted. */
function summaryMarkdown(result, maxRows = 2000) {
    const sorted = byInterest(result.sandboxes);
    const lines = [
        `## worktree-sandbox: reap${result.dryRun ? ' (dry run: nothing removed)' : ''}`,
        '',
        reapChart(result),
        '',
        reapTally(result),
        '',
        (0,markdown/* tableHead */.PP)(['Sandbox', 'Project', 'Isolation', 'Class', 'Age (days)', 'Decision', 'Reason', 'Size'], [4, 7]),
        ...sorted.slice(0, maxRows).map((s) => (0,markdown/* tableRow */.jD)(row(s))),
    ];
    if (sorted.length > maxRows)
        lines.push('', `…and ${sorted.length - maxRows} more (fresh) entries, in the \`kept\` output and the log.`);
    if (result.warnings.length)
        lines.push('', ...result.warnings.map((w) => `> ⚠️ ${cell(w)}`));
    lines.push('', 'Size: disk space taken (measured for stale entries only; – where not measured).');
    return `${lines.join('\n')}\n`;
}
// The reap run at a glance: a Mermaid flowchart (GitHub renders it in the job summary) from everything
// found, through what became of it, to why. Pure. Its labels are our own words and numbers only: a
// sandbox's name, branch or path never reaches Mermaid's syntax, so none can break or forge the chart.
/** Why, in one of our own words: one group per sandbox, so the groups of an outcome add up to it. */
const REASON_GROUPS = [
    'stale, no work',
    'orphan',
    'forced',
    'in use',
    'uncommitted work',
    'unpushed commits',
    'operation in progress',
    'work not checkable',
    'max-removals reached',
    'active since the scan',
    'error',
    'not stale yet',
    'age unknown',
    'not a sandbox',
    'other',
];
const OUTCOMES = ['removed', 'partly removed', 'would remove', 'kept'];
/**
 * The group of a sandbox's reason. A removal decided but not carried out is grouped by what stopped it;
 * otherwise by the decision's reason (the words decide.ts and gates.ts write).
 */
function reasonGroup(s) {
    if (s.result === 'kept' && s.action === 'remove') {
        if (/^in use\b/.test(s.detail ?? ''))
            return 'in use';
        if (/^activity since the scan/.test(s.detail ?? ''))
            return 'active since the scan';
        return 'error';
    }
    const reason = s.reason;
    if (reason.startsWith('not a sandbox:'))
        return 'not a sandbox';
    if (reason.startsWith('in use:'))
        return 'in use';
    if (reason.startsWith('holds work:')) {
        // From the work as data: the reason's words may quote a branch name.
        if (s.held?.uncommitted)
            return 'uncommitted work';
        if (s.held?.unsaved)
            return 'unpushed commits';
        return 'operation in progress';
    }
    if (reason.startsWith('the check for work could not run'))
        return 'work not checkable';
    if (reason.startsWith('orphan ('))
        return 'orphan';
    if (reason.startsWith('force:'))
        return 'forced';
    if (reason.startsWith('stale and holds no work'))
        return 'stale, no work';
    if (reason.startsWith('stale, but max-removals'))
        return 'max-removals reached';
    if (reason.startsWith('fresh:'))
        return 'not stale yet';
    if (reason.startsWith('age unknown'))
        return 'age unknown';
    return 'other';
}
/** Counts by outcome, then by reason group, in a fixed order; empty ones left out. */
function countOutcomes(sandboxes) {
    return OUTCOMES.map((outcome) => {
        const these = sandboxes.filter((s) => s.result === outcome);
        const groups = these.map(reasonGroup);
        return {
            outcome,
            count: these.length,
            bytes: these.reduce((sum, s) => sum + (outcome === 'would remove' ? (s.sizeBytes ?? 0) : (s.freedBytes ?? 0)), 0),
            reasons: REASON_GROUPS.map((reason) => ({
                reason,
                count: groups.filter((g) => g === reason).length,
            })).filter((r) => r.count > 0),
        };
    }).filter((o) => o.count > 0);
}
const STYLE = {
    removed: 'fill:#ffebe9,stroke:#cf222e,color:#1f2328',
    'partly removed': 'fill:#fff1e5,stroke:#bc4c00,color:#1f2328',
    'would remove': 'fill:#fff8c5,stroke:#9a6700,color:#1f2328',
    kept: 'fill:#dafbe1,stroke:#1a7f37,color:#1f2328',
};
function outcomeLabel(o) {
    const freed = o.outcome === 'would remove' ? 'to free' : 'freed';
    return `${o.count} ${o.outcome}${o.bytes > 0 ? ` · ${formatBytes(o.bytes)} ${freed}` : ''}`;
}
/** Labels on one line: renderers wrap at different widths (GitHub's narrower than Mermaid's own). */
const CONFIG = '%%{init: {"flowchart": {"wrappingWidth": 400}}}%%';
/** The chart as a fenced Mermaid block: found, then each outcome, then its reasons, with counts. */
function reapChart(result) {
    const outcomes = countOutcomes(result.sandboxes);
    const lines = ['```mermaid', CONFIG, 'flowchart LR', `  found["${result.sandboxes.length} found"]`];
    const classes = [];
    outcomes.forEach((o, i) => {
        const id = `o${i}`;
        lines.push(`  found --> ${id}["${outcomeLabel(o)}"]`);
        const ids = [id];
        o.reasons.forEach((r, j) => {
            lines.push(`  ${id} --> ${id}r${j}["${r.count} ${r.reason}"]`);
            ids.push(`${id}r${j}`);
        });
        const name = o.outcome.replace(/ /g, '_');
        classes.push(`  classDef ${name} ${STYLE[o.outcome]}`, `  class ${ids.join(',')} ${name}`);
    });
    lines.push('  classDef total fill:#ddf4ff,stroke:#0969da,color:#1f2328', '  class found total');
    lines.push(...classes, '```');
    return lines.join('\n');
}

// EXTERNAL MODULE: ./src/engine/engine-probe.ts
var engine_probe = __webpack_require__(6269);
// EXTERNAL MODULE: ./src/network/leftovers.ts
var leftovers = __webpack_require__(1434);
// EXTERNAL MODULE: ./src/ui/ui.ts
var ui_ui = __webpack_require__(5750);
// EXTERNAL MODULE: ./src/action-defaults.ts
var action_defaults = __webpack_require__(7616);
// EXTERNAL MODULE: ./src/sandbox/naming.ts
var naming = __webpack_require__(2375);
;// CONCATENATED MODULE: ./src/reap/retention.ts
// The retention matrix (docs/reap.md, "The retention matrix"): how long a sandbox may sit unused, decided by its name alone,
// because the name is the one signal that survives where git cannot resolve a worktree's paths.


/** action.yml's defaults (written once, there). */
const DEFAULT_RETENTION = {
    headlessExpiryDays: Number(action_defaults/* ACTION_DEFAULTS */.O['headless-expiry-days']),
    branchExpiryDays: Number(action_defaults/* ACTION_DEFAULTS */.O['branch-expiry-days']),
    orphanExpiryDays: Number(action_defaults/* ACTION_DEFAULTS */.O['orphan-expiry-days']),
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

// EXTERNAL MODULE: ./src/sandbox/saved.ts
var sandbox_saved = __webpack_require__(7180);
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
    const verdict = applyGates(gateFactsOf(facts), policy);
    const held = verdict.held ? { held: verdict.held } : {};
    if (!verdict.remove)
        return { ...base, reason: verdict.reason, ...held };
    return { ...base, action: 'remove', reason: verdict.reason, archive: verdict.archive, ...held };
}
/**
 * A removal asked for by name (the CLI's `rm`): the person asking has judged the age, so only the safety
 * gates apply, exactly as the reaper applies them to a stale sandbox.
 */
function decideOnRequest(facts, policy, nowMs) {
    const base = keepDecision(facts, assessStaleness(facts, policy.retention, nowMs));
    const verdict = applyGates(gateFactsOf(facts), policy);
    const held = verdict.held ? { held: verdict.held } : {};
    if (!verdict.remove)
        return { ...base, reason: verdict.reason, ...held };
    // The gates speak of a stale sandbox; this one may be fresh.
    const reason = verdict.reason.replace(/^stale and /, '');
    return { ...base, action: 'remove', reason, archive: verdict.archive, ...held };
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
function applyGates(facts, options) {
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
    const why = work.state === 'work'
        ? `holds work: ${work.detail}`
        : `the check for work could not run (${work.detail})`;
    const held = work.state === 'work' && work.held ? { held: work.held } : {};
    if (!options.force)
        return { remove: false, reason: why, ...held };
    return options.archive
        ? { remove: true, reason: `force: ${why}; work archived, then removed`, archive: 'work', ...held }
        : { remove: true, reason: `force: ${why}; removed without archive`, ...held };
}
function summarizeWork(checks) {
    const found = [];
    const failed = [];
    const held = {};
    if (checks.operation) {
        found.push(checks.operation);
        held.operation = checks.operation;
    }
    if ('error' in checks.uncommitted)
        failed.push(checks.uncommitted.error);
    else if (checks.uncommitted.value > 0) {
        found.push(`${checks.uncommitted.value} uncommitted file(s)`);
        held.uncommitted = checks.uncommitted.value;
    }
    if ('error' in checks.unsaved)
        failed.push(checks.unsaved.error);
    else if (checks.unsaved.value) {
        found.push((0,sandbox_saved/* describeUnsaved */.I)(checks.unsaved.value));
        held.unsaved = checks.unsaved.value;
    }
    if (found.length)
        return { state: 'work', detail: found.join(', '), held };
    if (failed.length)
        return { state: 'unknown', detail: [...new Set(failed)].join('; ') };
    return { state: 'clean' };
}

// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./src/sandbox/lock.ts
var lock = __webpack_require__(6856);
// EXTERNAL MODULE: ./src/sandbox/remove.ts
var remove = __webpack_require__(4299);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: ./src/engine/container-args.ts
var container_args = __webpack_require__(5011);
// EXTERNAL MODULE: ./src/engine/labels.ts
var engine_labels = __webpack_require__(9667);
// EXTERNAL MODULE: ./src/engine/proc.ts + 2 modules
var proc = __webpack_require__(729);
// EXTERNAL MODULE: ./src/engine/time-limits.ts
var time_limits = __webpack_require__(1814);
// EXTERNAL MODULE: ./src/run/capture.ts
var capture = __webpack_require__(4111);
// EXTERNAL MODULE: ./src/sandbox/bookkeeping.ts
var bookkeeping = __webpack_require__(9503);
;// CONCATENATED MODULE: ./src/reap/archive.ts
// Saving what a removal would lose, into `archive-dir`, without running git on the host in the sandbox:
//  - work of a sandbox removed by `force: true`: run mode's capture helper makes a bundle of it in a
//    helper container (HEAD, its branch, and a snapshot commit of the uncommitted files as
//    `refs/worktree-sandbox/snapshot`), stopping at the commit the parent recorded for it; the bundle is
//    saved as it is. What the parent recorded and has not saved (src/sandbox/saved.ts: on no remote or
//    tag) goes with the records: a second bundle of it is made from the parent (host git, the parent only);
//  - an orphan (git can check nothing): all its files as a .tar.gz (links stored as links).
// Files are named `<archive-dir>/<project>/<sandbox>.<isolation>.<UTC time>.<ext>`.










/** Who the snapshot commit of uncommitted work is by. */
const ARCHIVIST = { name: 'worktree-sandbox reaper', email: 'worktree-sandbox@localhost' };
/** The cap on one archive, bundle or .tar.gz: what the reaper saves must not fill the runner's disk. */
const ARCHIVE_MAX_BYTES = 8 * 1024 ** 3;
/** Archives and returns the files written; throws when the work could not be saved (then nothing is removed). */
async function archiveSandbox(sandbox, kind, deps) {
    const dir = external_node_path_.join(deps.archiveDir, sandbox.project);
    await promises_.mkdir(dir, { recursive: true, mode: 0o700 });
    const stamp = deps.now
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d+Z$/, 'Z');
    const base = external_node_path_.join(dir, `${sandbox.sandbox}.${sandbox.isolation}.${stamp}`);
    if (kind === 'files')
        return [await archiveFiles(sandbox, base, deps)];
    const recorded = await archiveRecorded(sandbox, base, deps);
    return [await archiveWork(sandbox, base, deps), ...(recorded ? [recorded] : [])];
}
/**
 * The commits the parent recorded for the sandbox that it has not saved, as `<base>.recorded.bundle`
 * (undefined when there are none): removing the sandbox drops the record, the only ref some of them have.
 */
async function archiveRecorded(sandbox, base, deps) {
    const location = sandbox.location;
    if (!location)
        return undefined;
    const { parent } = location;
    const head = (0,bookkeeping/* sandboxRefs */.yB)(location).head;
    if (!(await deps.git.refExists(parent.path, head)))
        return undefined;
    const saved = await (0,sandbox_saved/* savedRefs */.EY)(deps.git, parent.path);
    const count = await (0,sandbox_saved/* countUnsaved */.C3)(deps.git, parent.path, [head], saved);
    if (count?.count === 0)
        return undefined;
    const file = `${base}.recorded.bundle`;
    await deps.git.run(parent.path, ['bundle', 'create', '--quiet', file, head, '--not', ...saved.revs]);
    await promises_.chmod(file, 0o600);
    return file;
}
async function archiveWork(sandbox, base, deps) {
    const location = sandbox.location;
    if (!location)
        throw new Error('its parent does not place it here: nothing to bundle against');
    const recorded = await deps.git.resolveCommit(location.parent.path, (0,bookkeeping/* sandboxRefs */.yB)(location).head);
    const captured = await (0,capture/* captureSandbox */.im)(deps.engine, location, {
        image: await deps.image(),
        author: ARCHIVIST,
        committer: ARCHIVIST,
        exclude: recorded ? [recorded] : [],
        maxBytes: deps.maxBytes ?? ARCHIVE_MAX_BYTES,
        work: 'archive-capture',
    });
    try {
        const file = `${base}.bundle`;
        await promises_.copyFile(captured.bundle, file);
        await promises_.chmod(file, 0o600);
        return file;
    }
    finally {
        await promises_.rm(captured.dir, { recursive: true, force: true });
    }
}
async function archiveFiles(sandbox, base, deps) {
    const file = `${base}.tar.gz`;
    const maxBytes = deps.maxBytes ?? ARCHIVE_MAX_BYTES;
    try {
        if (sandbox.hostPath)
            await tarOnHost(sandbox.hostPath, file, maxBytes);
        else
            await tarInHelper(sandbox, file, maxBytes, deps);
        await promises_.chmod(file, 0o600);
        return file;
    }
    catch (error) {
        // Never a partial archive beside the real ones: the orphan is kept, and archived whole next time. A
        // file that was there already (the archive is created exclusively) is not ours to remove.
        if (error.code !== 'EEXIST')
            await promises_.rm(file, { force: true });
        throw error;
    }
}
/** More entries than this in an orphan's folder and it is not archived (kept, with that reason). */
const ARCHIVE_MAX_ENTRIES = 2_000_000;
/**
 * Why an orphan's folder cannot be archived within `maxBytes`, read with lstat alone (no link followed,
 * no file opened: a FIFO or a device cannot block the walk): a file whose apparent size is over the cap
 * (a sparse file of terabytes costs no room on disk but tar would read every zero), files that add up to
 * more, or more than `maxEntries` entries. Undefined when it fits. Names come from the sandbox: quoted.
 */
async function whyNotArchivable(top, maxBytes, maxEntries = ARCHIVE_MAX_ENTRIES) {
    const name = (p) => `"${(0,sandbox_text/* sandboxText */.dX)(external_node_path_.relative(top, p), 200)}"`;
    const pending = [top];
    let entries = 0;
    let total = 0;
    while (pending.length) {
        const dir = pending.pop();
        let current = dir;
        try {
            // opendir reads the listing a few entries at a time: a folder of millions costs no memory.
            for await (const entry of await promises_.opendir(dir)) {
                if (++entries > maxEntries)
                    return `it holds more than ${maxEntries} entries`;
                current = external_node_path_.join(dir, entry.name);
                const st = await promises_.lstat(current);
                if (st.isDirectory())
                    pending.push(current);
                else if (st.isFile()) {
                    if (st.size > maxBytes)
                        return `${name(current)} is ${st.size} bytes long (apparent size), more than the archive's cap of ${maxBytes} bytes`;
                    total += st.size;
                    if (total > maxBytes)
                        return `its files add up to more than the archive's cap of ${maxBytes} bytes`;
                }
            }
        }
        catch (error) {
            return `${name(current)} could not be read (${error.code ?? 'error'})`;
        }
    }
    return undefined;
}
/**
 * A disk orphan's folder as a .tar.gz, by GNU tar on the host: after whyNotArchivable, under a time limit
 * (its process group killed: tar's gzip too) and a byte cap on what it writes (it writes to a pipe; the
 * file stops at the cap). `--sparse` stores a sparse file's holes as holes. tar stores links as links and
 * FIFOs, sockets and devices as entries, never opening them. Its environment is ours (no TAR_OPTIONS).
 */
async function tarOnHost(folder, file, maxBytes) {
    const refused = await whyNotArchivable(folder, maxBytes);
    if (refused)
        throw new Error(refused);
    const limitMs = (0,time_limits/* timeLimitMs */.PI)('archive-files');
    const result = await (0,proc/* runStreaming */.SL)('tar', ['-C', external_node_path_.dirname(folder), '--sparse', '-czf', '-', '--', external_node_path_.basename(folder)], {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
        stdoutFile: { path: file, maxBytes },
        timeLimitMs: limitMs,
    });
    if (result.timedOut)
        throw new time_limits/* TimeLimitError */.$q('archive-files', folder, limitMs, 'nothing was archived; the orphan is kept', true);
    if (result.overLimit)
        throw new Error(`its archive grew over the cap of ${maxBytes} bytes`);
    if (result.exitCode !== 0)
        throw new Error(`tar failed (exit ${result.exitCode}): ${tarSaid(result.stderrTail.slice(-1)[0] ?? '')}`);
}
/**
 * A volume orphan's files: the same check in the helper (`find`: a file larger than the cap refuses the
 * volume), then tar writes the archive to its standard output, which the host writes to the file up to
 * the cap; under the helper's time limit. $1: the cap in bytes.
 */
const TAR_VOLUME_SCRIPT = `set -eu
big=$(find /v -type f -size +"$1"c | head -n 1)
if [ -n "$big" ]; then echo "a file is larger than the archive's cap of $1 bytes (apparent size)" >&2; exit 3; fi
exec tar -C /v -czf - .
`;
async function tarInHelper(sandbox, file, maxBytes, deps) {
    const result = await deps.engine.runHelper({
        remove: true,
        image: await deps.image(),
        user: (0,container_args/* userArg */.Q6)(),
        labels: engine_labels/* HELPER_LABELS */.vJ,
        mounts: [{ type: 'volume', source: sandbox.volume, target: '/v', readonly: true }],
        entrypoint: 'sh',
        args: ['-c', TAR_VOLUME_SCRIPT, 'archive-volume', String(maxBytes)],
    }, {
        work: 'archive-volume',
        where: `volume ${sandbox.volume}`,
        consequence: 'nothing was archived; the orphan is kept',
        unmapped: true,
    }, { stdoutFile: { path: file, maxBytes } });
    if (result.overLimit)
        throw new Error(`its archive grew over the cap of ${maxBytes} bytes`);
    if (result.exitCode !== 0)
        throw new Error(`tar failed in the helper container (exit ${result.exitCode}): ${tarSaid(result.stderrTail.slice(-1)[0] ?? '')}`);
}
/** tar's first line of complaint: it names the sandbox's files, so it is escaped (lone `\r` included). */
function tarSaid(stderr) {
    return (0,sandbox_text/* sandboxText */.dX)(stderr.trim().split('\n')[0], 1_000);
}

;// CONCATENATED MODULE: ./src/reap/parallel.ts
// Bounded concurrency for the reaper's batches (checks, removals): enough calls in flight to keep a busy
// disk or the container engine working, few enough not to swamp a shared machine.
/** Maps with at most `limit` calls in flight, started in input order; results in input order. */
function inParallel(items, limit, fn) {
    const limited = limiter(Math.max(1, limit));
    return Promise.all(items.map((item) => limited(() => fn(item))));
}
/**
 * For calls that come one at a time (not as a list): each call to the returned function waits while
 * `limit` others are running; a call that ends hands its place to the longest waiting one.
 */
function limiter(limit) {
    let running = 0;
    const waiting = [];
    return async (fn) => {
        if (running < limit)
            running++;
        else
            await new Promise((resolve) => waiting.push(resolve));
        try {
            return await fn();
        }
        finally {
            const next = waiting.shift();
            if (next)
                next();
            else
                running--;
        }
    };
}

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: ./src/sandbox/layout.ts
var layout = __webpack_require__(9601);
// EXTERNAL MODULE: ./src/sandbox/ref-files.ts
var ref_files = __webpack_require__(3976);
;// CONCATENATED MODULE: ./src/sandbox/sandbox-files.ts
// A sandbox's git folder read as data by the host: HEAD, every ref (loose and packed), the activity
// signals and the marks of an operation left half-done. A container wrote all of it, so nothing here
// runs git, follows a symbolic link or reads more than a bound: a file is opened with O_NOFOLLOW, checked
// to be a regular file, and read up to its limit. Anything unexpected is an error, which the checks
// turn into "keep".




// The readers of ref files are the sandbox layer's (run mode reads a parent's records with them too).

const HEAD_MAX = 1024;
const PACKED_REFS_MAX = 32 * 1024 * 1024;
/** More refs than this (a ref bomb) and the sandbox is kept without a closer look. */
const MAX_REFS = 20_000;
/** HEAD and every ref of a sandbox's git folder (`<work tree>/.git`), as data. */
function readSandboxGit(gitDir) {
    const read = readHeadAndRefs(gitDir);
    if ('error' in read)
        return { ok: false, error: read.error };
    const { head, refs, peeled } = read;
    let headOid;
    if ('oid' in head)
        headOid = head.oid;
    else {
        headOid = refs.get(head.ref);
        if (!headOid)
            return { ok: false, error: `HEAD names ${head.ref}, which does not exist` };
    }
    const named = new Set([headOid, ...refs.values(), ...peeled]);
    return { ok: true, headRef: 'ref' in head ? head.ref : undefined, headOid, named: [...named] };
}
/** HEAD, the loose refs under `refs/` and `packed-refs` of a git folder, as data (bounded, no links). */
function readHeadAndRefs(gitDir) {
    const top = lstat(gitDir);
    if (!top?.isDirectory())
        return { error: 'its git folder is not a folder' };
    const headFile = (0,ref_files/* readBounded */.CB)(external_node_path_.join(gitDir, 'HEAD'), HEAD_MAX);
    if ('error' in headFile)
        return { error: headFile.error };
    if ('absent' in headFile)
        return { error: 'it has no HEAD' };
    const head = (0,ref_files/* parseHead */.ww)(headFile.data.toString('utf8'));
    if ('error' in head)
        return { error: head.error };
    const loose = new Map();
    const walked = walkRefs(gitDir, loose);
    if (walked)
        return { error: walked };
    const packedFile = (0,ref_files/* readBounded */.CB)(external_node_path_.join(gitDir, 'packed-refs'), PACKED_REFS_MAX);
    if ('error' in packedFile)
        return { error: packedFile.error };
    let packed = new Map();
    const peeled = [];
    if ('data' in packedFile) {
        const parsed = (0,ref_files/* parsePackedRefs */._b)(packedFile.data.toString('utf8'));
        if ('error' in parsed)
            return { error: parsed.error };
        packed = parsed.refs;
        peeled.push(...parsed.peeled);
    }
    if (loose.size + packed.size > MAX_REFS)
        return { error: `it has more than ${MAX_REFS} refs` };
    // The capture helper's own ref, left by a capture that was killed: the work it names is still in the
    // work tree (checked there), and counting it would keep the sandbox forever.
    loose.delete(bookkeeping/* SNAPSHOT_REF */.fW);
    packed.delete(bookkeeping/* SNAPSHOT_REF */.fW);
    return { head, refs: new Map([...packed, ...loose]), peeled };
}
/** Where a parent's refs always save what they reach (saved.ts ALWAYS_SAVING: `--remotes`, `--tags`). */
const SAVING_PREFIXES = ['refs/remotes/', 'refs/tags/'];
/**
 * The commits a parent's remote-tracking refs and tags name, read as data (readRefsUnder; a packed tag's
 * peeled commit too; a symbolic ref is left out, as it names another ref). Each is saved whatever the
 * parent's configuration says, so a sandbox that names nothing else needs no walk (parent-check.ts).
 * Undefined where the answer would not be sure.
 */
function readSavingTips(gitDir) {
    const read = readRefsUnder(gitDir, SAVING_PREFIXES, 'skip');
    return read && new Set([...read.refs.values(), ...read.peeled]);
}
/**
 * The names of a parent's records of its sandboxes (every ref under `refs/worktree-sandbox/`), read as
 * data as `git for-each-ref` lists them; undefined where the answer would not be sure (git lists them).
 */
function readRecordNames(gitDir) {
    const read = readRefsUnder(gitDir, [`${bookkeeping/* REF_ROOT */.Dw}/`], 'unsure');
    return read && [...read.refs.keys()].sort();
}
/**
 * The refs of a repository under `prefixes` (each ending in `/`), read as data the way git's files backend
 * keeps them: a loose ref file over its line in `packed-refs`, and a packed ref's peeled line (`^<oid>`)
 * for the ref just above it. The repository is the host's own (a parent), but the answer is taken only
 * when it is sure: undefined for another ref storage (reftable), a git folder that shares another's refs
 * (`commondir`), a ref that is no plain file, more than MAX_REFS refs, a `packed-refs` that is malformed or
 * past PACKED_REFS_MAX, and a symbolic ref unless `symbolic` says to skip it.
 */
function readRefsUnder(gitDir, prefixes, symbolic) {
    try {
        return refsUnder(gitDir, prefixes, symbolic);
    }
    catch {
        return undefined; // a read that failed midway (EIO...): git answers
    }
}
function refsUnder(gitDir, prefixes, symbolic) {
    if (lstat(external_node_path_.join(gitDir, 'reftable')) || lstat(external_node_path_.join(gitDir, 'commondir')))
        return undefined;
    const refs = new Map();
    const looseNames = new Set();
    for (const prefix of prefixes)
        if (walkRefs(gitDir, refs, prefix.slice(0, -1), looseNames))
            return undefined;
    if (symbolic === 'unsure' && looseNames.size !== refs.size)
        return undefined;
    const peeled = [];
    const packedFile = (0,ref_files/* readBounded */.CB)(external_node_path_.join(gitDir, 'packed-refs'), PACKED_REFS_MAX);
    if ('error' in packedFile)
        return undefined;
    if ('absent' in packedFile)
        return { refs, peeled };
    const packed = (0,ref_files/* parsePackedRefs */._b)(packedFile.data.toString('utf8'));
    if ('error' in packed || looseNames.size + packed.refs.size > MAX_REFS)
        return undefined;
    // A packed line counts only where no loose file of that name says otherwise.
    for (const [name, oid] of packed.refs) {
        if (looseNames.has(name) || !prefixes.some((prefix) => name.startsWith(prefix)))
            continue;
        refs.set(name, oid);
        const commit = packed.peeledOf.get(name);
        if (commit)
            peeled.push(commit);
    }
    return { refs, peeled };
}
/**
 * Loose refs under `top` (`refs/` unless said) into `found`, and the name of every loose ref file, symbolic
 * ones too, into `fileNames`; returns why they could not be read.
 */
function walkRefs(gitDir, found, top = 'refs', fileNames) {
    const pending = [top];
    let seen = 0;
    while (pending.length) {
        const rel = pending.pop();
        let names;
        try {
            names = external_node_fs_.readdirSync(external_node_path_.join(gitDir, rel), { withFileTypes: true });
        }
        catch (error) {
            const code = error.code;
            if (rel === top && code === 'ENOENT')
                return undefined;
            return `cannot list ${rel} (${code})`;
        }
        for (const dirent of names) {
            if (++seen > MAX_REFS)
                return `it has more than ${MAX_REFS} refs`;
            const name = `${rel}/${dirent.name}`;
            if (dirent.isDirectory()) {
                pending.push(name);
                continue;
            }
            if (!dirent.isFile())
                return `${name} is not a regular file (a symbolic link?)`;
            // git's own lock and temporary files are not refs.
            if (dirent.name.endsWith('.lock'))
                continue;
            const file = (0,ref_files/* readBounded */.CB)(external_node_path_.join(gitDir, name), ref_files/* LOOSE_REF_MAX */.oK);
            if ('error' in file)
                return file.error;
            if ('absent' in file)
                continue;
            const ref = (0,ref_files/* parseLooseRef */.P_)(file.data.toString('utf8'));
            if ('error' in ref)
                return `${name}: ${ref.error}`;
            fileNames?.add(name);
            if ('oid' in ref)
                found.set(name, ref.oid);
        }
    }
    return undefined;
}
/** Where activity shows in a sandbox's git folder (besides the work tree folder itself). */
const ACTIVITY_FILES = ['index', 'HEAD', 'logs/HEAD'];
/**
 * The mtimes of the work tree folder and of its git folder's index, HEAD and HEAD's reflog (lstat only).
 * The git folder is `<work tree>/.git`, or a linked worktree's registration in its parent.
 */
function diskActivity(worktree, gitDir = external_node_path_.join(worktree, '.git')) {
    const times = [lstat(worktree)?.mtimeMs];
    let suspicious;
    const shown = gitDir === external_node_path_.join(worktree, '.git') ? '.git' : 'its registration';
    for (const file of ACTIVITY_FILES) {
        const st = lstat(external_node_path_.join(gitDir, file));
        if (!st)
            continue;
        if (!st.isFile())
            suspicious ??= `${shown}/${file} is not a regular file (a symbolic link?)`;
        else
            times.push(st.mtimeMs);
    }
    return { times, suspicious };
}
/** Operations that leave work half-done in a git folder. */
const IN_PROGRESS = [
    ['MERGE_HEAD', 'a merge'],
    ['CHERRY_PICK_HEAD', 'a cherry-pick'],
    ['REVERT_HEAD', 'a revert'],
    ['rebase-merge', 'a rebase'],
    ['rebase-apply', 'a rebase or am'],
    ['sequencer', 'a sequence of picks'],
    ['BISECT_LOG', 'a bisect'],
];
const OPERATION_MARKS = IN_PROGRESS.map(([name]) => name);
function describeOperation(mark) {
    const what = IN_PROGRESS.find(([name]) => name === mark)?.[1];
    return what && `${what} is in progress`;
}
/** The operation in progress (merge, rebase...), from the marks it leaves in the git folder (lstat). */
function operationInProgress(gitDir) {
    for (const [name] of IN_PROGRESS)
        if (lstat(external_node_path_.join(gitDir, name)))
            return describeOperation(name);
    return undefined;
}
/** What lstat says of `p`; undefined where it is missing or cannot be read. */
function lstat(p) {
    try {
        return external_node_fs_.lstatSync(p, { throwIfNoEntry: false });
    }
    catch {
        return undefined;
    }
}

;// CONCATENATED MODULE: ./src/reap/remove-tree.ts
// Removing a disk sandbox safely:
//  - only a folder exactly at `<root>/<project>/<sandbox>`, itself no symbolic link, under the real root;
//  - symbolic links are removed as links, never followed (a link to `/` or to another sandbox removes the
//    link only); other filesystems mounted inside are not crossed;
//  - its `.git` folder is renamed first, in one step: from then on it is no longer a sandbox, and if that
//    fails nothing else is touched; after that, entries that cannot be deleted are reported and the rest
//    still goes (a folder of ours without write permission, as Go's module cache makes, is made writable
//    first). What is left of a partly removed sandbox is reported as not a sandbox from then on;
//  - its home `<root>/<project>/.home/<sandbox>` goes the same way.
// The walk that empties a folder (removeTree) judges every entry by its own lstat, never by the listing's
// file type: a link (or a folder swapped for a link after the listing) is unlinked as a link and never
// followed; the top folder's parent is never changed (no permission of it is touched).






class UnsafeRemovalError extends Error {
}
/**
 * The name a removal gives a sandbox's `.git` before the walk: unguessable by the sandbox (a random part
 * drawn once per process), unique per removal (a count).
 */
const renamed = { prefix: '', count: 0 };
function removedGitName() {
    renamed.prefix ||= (0,external_node_crypto_.randomBytes)(6).toString('hex');
    return `.git-removed-${renamed.prefix}-${++renamed.count}`;
}
/**
 * Refuses anything that is not a real folder exactly two levels under the real root. Real paths are the
 * system's realpath(3), the answer of Node's own walk in one call.
 */
function assertSandboxPath(root, target) {
    const realRoot = external_node_fs_.realpathSync.native(root);
    const relative = external_node_path_.relative(realRoot, target);
    const parts = relative.split(external_node_path_.sep);
    if (external_node_path_.isAbsolute(relative) || parts.length !== 2 || parts.some((p) => !p || p === '.' || p === '..'))
        throw new UnsafeRemovalError(`${target} is not a folder <root>/<project>/<sandbox> under ${realRoot}`);
    for (const dir of [external_node_path_.join(realRoot, parts[0]), target]) {
        const st = external_node_fs_.lstatSync(dir);
        if (!st.isDirectory())
            throw new UnsafeRemovalError(`${dir} is not a folder (a symbolic link is never followed)`);
    }
    if (external_node_fs_.realpathSync.native(target) !== target)
        throw new UnsafeRemovalError(`${target} is not a real path`);
}
async function removeSandboxTree(root, target) {
    assertSandboxPath(root, target);
    const result = { gone: false, unlinked: false, freedBytes: 0, problems: [] };
    const gitDir = external_node_path_.join(target, '.git');
    if (lstat(gitDir)) {
        try {
            await promises_.rename(gitDir, external_node_path_.join(target, removedGitName()));
        }
        catch (error) {
            result.problems.push({ path: gitDir, error: code(error) });
            return result;
        }
    }
    result.unlinked = true;
    add(result, await removeTree(target, external_node_fs_.lstatSync(target).dev));
    result.gone = !lstat(target);
    return result;
}
/** Removes `<root>/<project>/.home/<sandbox>` (real folders only, links never followed); problems are added. */
async function removeHomeFolder(root, home, result) {
    const realRoot = external_node_fs_.realpathSync.native(root);
    const parts = external_node_path_.relative(realRoot, home).split(external_node_path_.sep);
    if (parts.length !== 3 || parts[1] !== layout/* HOME_FOLDER */.Ps || parts.some((p) => !p || p === '.' || p === '..'))
        throw new UnsafeRemovalError(`${home} is not a folder <root>/<project>/${layout/* HOME_FOLDER */.Ps}/<sandbox> under ${realRoot}`);
    let st;
    for (const dir of [external_node_path_.join(realRoot, parts[0]), external_node_path_.join(realRoot, parts[0], parts[1]), home]) {
        st = lstat(dir);
        if (!st)
            return;
        if (!st.isDirectory())
            throw new UnsafeRemovalError(`${dir} is not a folder (a symbolic link is never followed)`);
    }
    add(result, await removeTree(home, st.dev));
}
/** Adds what a walk found to the removal's account. */
function add(result, walked) {
    result.freedBytes += walked.freedBytes;
    result.problems.push(...walked.problems);
}
function code(error) {
    return error.code ?? String(error);
}
/**
 * Bytes a folder takes on disk (allocated blocks), walked like removal: no links followed, one filesystem.
 * Undefined when any of it could not be read (a folder without search permission, a chain of folders
 * deeper than PATH_MAX): a size is for the report only, so a sandbox that cannot be measured is reported
 * unmeasured, never an error that stops the reap.
 */
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
    try {
        while (pending.length) {
            const dir = pending.pop();
            for (const name of external_node_fs_.readdirSync(dir)) {
                const entry = external_node_path_.join(dir, name);
                const st = external_node_fs_.lstatSync(entry, { throwIfNoEntry: false });
                if (!st)
                    continue;
                total += st.blocks * 512;
                if (st.isDirectory() && st.dev === device)
                    pending.push(entry);
            }
        }
    }
    catch {
        return undefined;
    }
    return total;
}
/** Files of one folder deleted at once. */
const UNLINK_WINDOW = 64;
/**
 * Empties and removes `top` (a real folder on `device`, checked by the caller): a folder's files are
 * deleted together through libuv's thread pool (a window at a time), folders one after the other.
 */
async function removeTree(top, device) {
    const uid = process.getuid?.();
    const result = { freedBytes: 0, problems: [] };
    const code = (error) => error?.code ?? String(error);
    const unlink = (entry) => promises_.unlink(entry);
    const rmdir = (dir) => promises_.rmdir(dir);
    /** A folder we own but may not write or search: made ours to empty; true: try again. */
    function makeWritable(dir, error) {
        const c = code(error);
        if (c !== 'EACCES' && c !== 'EPERM')
            return false;
        try {
            const st = external_node_fs_.lstatSync(dir);
            if (!st.isDirectory() || st.uid !== uid)
                return false;
            if ((st.mode & 0o700) !== 0o700)
                external_node_fs_.chmodSync(dir, (st.mode & 0o7777) | 0o700);
            return true;
        }
        catch {
            return false;
        }
    }
    /** Calls `attempt`, once more after making `dir` writable when that is why it failed; the error code. */
    async function withRetry(dir, attempt, mayFix = true) {
        try {
            await attempt();
            return undefined;
        }
        catch (error) {
            if (code(error) === 'ENOENT')
                return undefined;
            if (!mayFix || !makeWritable(dir, error))
                return code(error);
        }
        try {
            await attempt();
            return undefined;
        }
        catch (again) {
            return code(again) === 'ENOENT' ? undefined : code(again);
        }
    }
    /** Empties and removes `dir`; true when anything below it could not be deleted. */
    async function removeFolder(dir, isTop) {
        let failedBelow = false;
        const fail = (entry, error) => {
            result.problems.push({ path: entry, error });
            failedBelow = true;
        };
        let names = [];
        const listed = await withRetry(dir, async () => {
            names = external_node_fs_.readdirSync(dir);
        });
        if (listed)
            fail(dir, listed);
        const folders = [];
        const others = [];
        for (const name of names) {
            const entry = external_node_path_.join(dir, name);
            const st = lstat(entry);
            if (!st)
                continue;
            if (!st.isDirectory())
                others.push({ entry, st });
            else if (st.dev !== device)
                fail(entry, 'another filesystem is mounted here: not crossed');
            else
                folders.push(entry);
        }
        const unlinkEntry = async ({ entry, st }) => {
            const problem = await withRetry(dir, () => unlink(entry));
            if (problem)
                fail(entry, problem);
            else if (st.nlink <= 1)
                result.freedBytes += st.blocks * 512;
        };
        // A window of a folder's files at a time, so that a huge folder queues a bounded number.
        for (let i = 0; i < others.length; i += UNLINK_WINDOW)
            await Promise.all(others.slice(i, i + UNLINK_WINDOW).map(unlinkEntry));
        for (const folder of folders)
            if (await removeFolder(folder, false))
                failedBelow = true;
        const st = lstat(dir);
        // The top folder's parent is not ours to make writable.
        const problem = await withRetry(external_node_path_.dirname(dir), () => rmdir(dir), !isTop);
        if (!problem)
            result.freedBytes += st ? st.blocks * 512 : 0;
        // A folder that still holds what could not be deleted is already explained by that entry.
        else if (!(failedBelow && problem === 'ENOTEMPTY'))
            fail(dir, problem);
        return failedBelow;
    }
    await removeFolder(top, true);
    return result;
}

// EXTERNAL MODULE: ./src/engine/git-commands.ts
var git_commands = __webpack_require__(8657);
;// CONCATENATED MODULE: ./src/reap/linked-worktree.ts
// Linked worktrees (the layout of `git worktree add`, and of the seed tool's worktree cache) as the
// reaper sees them: a folder whose `.git` is a file `gitdir: <parent>/.git/worktrees/<id>`, registered
// in that parent by the folder `<parent>/.git/worktrees/<id>`, whose `gitdir` file points back at the
// worktree's `.git`. The worktree and its registration (HEAD, index, logs, refs of its own) are written by
// whoever used the worktree: everything here reads them as data (bounded, never through a link, lstat
// only for times), and git never runs with them. git runs on the host in the parent only (its branches).







const GIT_FILE_MAX = 4096;
/** A registration's `gitdir` names one path. */
const GITDIR_MAX = 4096;
/** A worktree's `.git` file: one line `gitdir: <parent>/.git/worktrees/<id>`, an absolute, normal path. */
function parseGitFile(text) {
    const match = /^gitdir: ([^\n\r\0]+)\n?$/.exec(text);
    if (!match)
        return { error: 'its .git file is not one line `gitdir: <path>`' };
    const target = match[1];
    if (!external_node_path_.isAbsolute(target))
        return { error: 'its .git file names a relative path' };
    if (external_node_path_.normalize(target) !== target)
        return { error: 'its .git file names a path that is not in normal form' };
    const parts = /^(\/.*)\/\.git\/worktrees\/([^/]+)$/.exec(target);
    if (!parts || parts[2] === '.' || parts[2] === '..')
        return { error: "its .git file names no registration in a parent's .git/worktrees/" };
    return { parentPath: parts[1], adminDir: target, id: parts[2] };
}
/** The worktree's `.git` file, read as data. */
function readGitFile(worktree) {
    const file = (0,ref_files/* readBounded */.CB)(external_node_path_.join(worktree, '.git'), GIT_FILE_MAX);
    if ('error' in file)
        return { error: `its .git file: ${file.error}` };
    if ('absent' in file)
        return { error: 'its .git file is gone' };
    return parseGitFile(file.data.toString('utf8'));
}
/**
 * What every worktree of one parent shares, read once per parent in a scan: whether
 * `<parent>/.git/worktrees` is a folder, and the real path of `<parent>/.git`. A scan reads thousands of
 * worktrees of a few parents; removal checks each registration again byte for byte (`removeRegistrations`).
 */
class ParentFacts {
    lists = new Map();
    gitDirs = new Map();
    worktreesFolder(dir) {
        if (!this.lists.has(dir))
            this.lists.set(dir, lstat(dir));
        return this.lists.get(dir);
    }
    realGitDir(parentPath) {
        if (!this.gitDirs.has(parentPath))
            this.gitDirs.set(parentPath, realPath(external_node_path_.join(parentPath, '.git')));
        return this.gitDirs.get(parentPath);
    }
}
/**
 * Whether the parent registers this worktree: `<parent>/.git/worktrees/<id>` is a real folder (the real
 * path of `<parent>/.git` joined with `worktrees/<id>`), and its `gitdir` file names this worktree's `.git`
 * (real paths compared). `worktree`: a real path whose `.git` is a file, as the scan finds it; `parents`:
 * what the scan already read of the parent.
 */
function verifyRegistration(worktree, target, parents = new ParentFacts()) {
    const foreign = (why) => ({ state: 'foreign', why });
    const worktrees = external_node_path_.dirname(target.adminDir);
    const list = parents.worktreesFolder(worktrees);
    if (!list)
        return { state: 'missing', why: `${target.parentPath} registers no worktrees any more` };
    if (!list.isDirectory())
        return foreign(`${worktrees} is not a folder`);
    const admin = lstat(target.adminDir);
    if (!admin)
        return { state: 'missing', why: `its registration ${target.id} is gone from ${target.parentPath}` };
    if (!admin.isDirectory())
        return foreign(`its registration ${target.id} is not a folder`);
    const realGitDir = parents.realGitDir(target.parentPath);
    // Where `<parent>/.git` is a real path, so is its registration: `worktrees` and `<id>` are folders, not
    // links (lstat above). Only otherwise is the registration's own real path asked for.
    const realAdmin = realGitDir === external_node_path_.join(target.parentPath, '.git') ? target.adminDir : realPath(target.adminDir);
    if (!realAdmin || !realGitDir || realAdmin !== external_node_path_.join(realGitDir, 'worktrees', target.id))
        return foreign(`its registration ${target.id} is not a folder of ${target.parentPath}/.git/worktrees`);
    const file = (0,ref_files/* readBounded */.CB)(external_node_path_.join(target.adminDir, 'gitdir'), GITDIR_MAX);
    if (!('data' in file))
        return foreign(`its registration ${target.id} has no readable gitdir file`);
    const gitdirText = file.data.toString('utf8');
    const named = gitdirText.replace(/\n$/, '');
    if (!external_node_path_.isAbsolute(named) || /[\n\r\0]/.test(named))
        return foreign(`its registration ${target.id} names no absolute path`);
    // The worktree is a real path and its `.git` a file (the scan's lstat): naming it as it is needs no walk.
    const own = external_node_path_.join(worktree, '.git');
    const pointed = named === own ? own : realPath(named);
    if (pointed !== own)
        return foreign(`its registration ${target.id} in ${target.parentPath} belongs to another worktree`);
    return {
        state: 'registered',
        gitdirText,
        locked: lstat(external_node_path_.join(target.adminDir, 'locked')) !== undefined,
    };
}
/**
 * The system's realpath(3): the same answer as Node's own walk for a path that exists, in a fraction of its
 * time (the scan asks three of every linked worktree); a path it cannot resolve is no path of ours.
 */
function realPath(p) {
    try {
        return external_node_fs_.realpathSync.native(p);
    }
    catch {
        return undefined;
    }
}
/**
 * HEAD and the worktree's own refs (`refs/bisect`, `refs/worktree`...) from its registration, as data.
 * A HEAD that names a branch is resolved later, in the parent (`branchTips`): branches are the parent's.
 */
function readLinkedGit(adminDir) {
    const read = readHeadAndRefs(adminDir);
    if ('error' in read)
        return { ok: false, error: read.error };
    const { head, refs } = read;
    const own = [...refs.values()];
    if ('oid' in head)
        return { ok: true, headOid: head.oid, named: [...new Set([head.oid, ...own])] };
    const local = refs.get(head.ref);
    if (local)
        return { ok: true, headRef: head.ref, headOid: local, named: [...new Set(own)] };
    return { ok: true, headRef: head.ref, named: [...new Set(own)] };
}
/**
 * The commits these refs name in the parent (the host's own repository): read as data from its refs where
 * that answer is sure (sandbox-files.ts `readRefTips`, what git reads too), the rest in one git process.
 * The names come from worktrees' HEAD files: checked to be ref names (parseHead) and matched exactly.
 */
async function branchTips(git, parent, refs) {
    const tips = (0,ref_files/* readRefTips */.Sg)(parent.gitDir, refs);
    const asked = refs.filter((ref) => !tips.has(ref));
    if (asked.length === 0)
        return tips;
    const out = await git.exec(parent.path, [
        'for-each-ref',
        '--format=%(objectname) %(refname)',
        '--',
        ...asked,
    ]);
    if (out.exitCode !== 0)
        return { error: `git for-each-ref failed in the parent: ${out.stderr.trim().split('\n')[0]}` };
    const wanted = new Set(asked);
    for (const line of out.stdout.split('\n')) {
        const space = line.indexOf(' ');
        const oid = line.slice(0, space);
        const name = line.slice(space + 1);
        if (space > 0 && git_commands/* OID */.V.test(oid) && wanted.has(name))
            tips.set(name, oid);
    }
    return tips;
}
// Removing linked worktrees' registrations in their parent (`<parent>/.git/worktrees/<id>`), once their
// folders are gone: as data, with the removal's own walk (no link followed), and only those registrations.
// Not `git worktree prune`, which would judge and drop every other registration of the parent (those of
// worktrees it cannot see from here, too), and would read files that whoever used the worktree wrote.
/** Registrations walked at once. */
const REGISTRATIONS_AT_ONCE = 4;
/**
 * The registrations of removed linked worktrees, a parent at a time, under its repository lock (taken
 * once for its batch): in order, why each was left (undefined: it is gone). A parent whose lock cannot be
 * had keeps its registrations, and the other parents' go on.
 */
async function forgetRegistrations(items) {
    const left = items.map(() => undefined);
    const byParent = new Map();
    items.forEach(({ parent }, n) => {
        const group = byParent.get(parent.gitDir);
        if (group)
            group.push(n);
        else
            byParent.set(parent.gitDir, [n]);
    });
    for (const [gitDir, group] of byParent) {
        try {
            const problems = await (0,lock/* withRepositoryLock */.aZ)(gitDir, () => removeRegistrations(gitDir, group.map((n) => items[n].linked)));
            group.forEach((n, i) => {
                const problem = problems[i];
                if (problem)
                    left[n] = { reason: problem.error, problem };
            });
        }
        catch (error) {
            for (const n of group)
                left[n] = { reason: `the parent's lock could not be taken (${error.message})` };
        }
    }
    return left;
}
/**
 * Removes the registrations of a batch of removed linked worktrees of one parent (`parentGitDir`), the
 * caller holding the parent's repository lock (taken once for the batch). Each goes only when it is still a
 * real folder whose `gitdir` file reads as the scan read it (it named its worktree then); several are
 * walked at once (each is a handful of small files, and every unlink waits for the disk).
 * Returns, in order, what was left of each and why (undefined: it is gone); one that cannot go leaves the
 * others going.
 */
async function removeRegistrations(parentGitDir, batch, walk = removeTree) {
    const worktrees = external_node_path_.join(parentGitDir, 'worktrees');
    // One walk per registration: a registration named twice (the scan verifies that it points back at one
    // worktree only, so this is never expected) is walked once, and both are told what became of it.
    const walks = new Map();
    const removeOnce = (linked) => {
        const known = walks.get(linked.id);
        if (known)
            return known;
        const removal = removeChecked(worktrees, linked, walk);
        walks.set(linked.id, removal);
        return removal;
    };
    const problems = await inParallel(batch, REGISTRATIONS_AT_ONCE, removeOnce);
    // As git does when it prunes the last registration: the empty folder goes too, once one of ours went
    // (rmdir removes only an empty folder, never a link: others' registrations are never touched).
    if (problems.some((problem) => !problem) && lstat(worktrees)?.isDirectory())
        try {
            external_node_fs_.rmdirSync(worktrees);
        }
        catch {
            /* other registrations are left */
        }
    return problems;
}
/** One registration, checked under the parent's lock just before its walk (see removeRegistrations). */
async function removeChecked(worktrees, linked, walk) {
    const admin = external_node_path_.join(worktrees, linked.id);
    const left = (error) => ({ path: admin, error });
    if (!linked.registered || linked.id.includes('/') || linked.id === '.' || linked.id === '..')
        return left('not a verified registration');
    if (!lstat(worktrees)?.isDirectory())
        return left('.git/worktrees is not a folder');
    const st = lstat(admin);
    if (!st)
        return undefined; // gone already (a person or git pruned it)
    if (!st.isDirectory())
        return left('it is not a folder (a symbolic link is never followed)');
    const gitdir = (0,ref_files/* readBounded */.CB)(external_node_path_.join(admin, 'gitdir'), GITDIR_MAX);
    if (!('data' in gitdir) || gitdir.data.toString('utf8') !== linked.registered.gitdirText)
        return left('it changed since the scan');
    const walked = await walk(admin, st.dev);
    return walked.problems[0];
}

// EXTERNAL MODULE: external "node:timers/promises"
var external_node_timers_promises_ = __webpack_require__(8500);
// EXTERNAL MODULE: ./src/engine/inventory.ts
var inventory = __webpack_require__(3190);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
// EXTERNAL MODULE: ./src/engine/git.ts + 2 modules
var engine_git = __webpack_require__(1763);
// EXTERNAL MODULE: ./src/engine/git-hardening.ts
var git_hardening = __webpack_require__(3229);
;// CONCATENATED MODULE: ./src/engine/helper-frames.ts
/**
 * The records, read one after the other by their lengths. Reading stops at the first byte that is not
 * a well-formed header of this run: what follows is never taken for a record.
 */
function parseFrames(stdout, token) {
    const frames = [];
    const header = new RegExp(`^${token} ([0-9]+|end) ([a-zA-Z-]+) ([0-9]{1,9})$`);
    let at = 0;
    while (at < stdout.length) {
        const nl = stdout.indexOf(0x0a, at);
        if (nl < 0 || nl - at > 200)
            break;
        const match = header.exec(stdout.toString('latin1', at, nl));
        if (!match)
            break;
        const length = Number(match[3]);
        const start = nl + 1;
        if (start + length + 1 > stdout.length || stdout[start + length] !== 0x0a)
            break;
        frames.push({ index: match[1], key: match[2], value: stdout.subarray(start, start + length) });
        at = start + length + 1;
    }
    return frames;
}

;// CONCATENATED MODULE: ./src/reap/inspection-script.ts
// What a helper container runs to look into sandboxes, and what its answer means: the requests, the
// shell script (its records framed by engine/helper-frames.ts), and the reading of each sandbox's records
// into data. helper-inspection.ts runs the helpers.
//
// git in the helper never reads a sandbox's own configuration, hooks or attributes drivers: each
// sandbox is looked at through a clean git folder made inside the helper (a copy of its HEAD, refs and
// excludes; its own object store and index named by GIT_OBJECT_DIRECTORY and GIT_INDEX_FILE). So a
// hostile sandbox cannot run code in the helper, where it could lie about another sandbox of the batch.



const SANDBOXES_PER_HELPER = 48;
/**
 * What one sandbox may write: its refs (at most MAX_REFS object names, which the script checks itself)
 * and a few short records. The helper's budget is this times its sandboxes, so one sandbox never spends
 * another's share; a sandbox that writes more than its own share gets no verdict.
 */
const OUTPUT_PER_SANDBOX = MAX_REFS * 41 + 256 * 1024;
const SIGNAL_KEYS = {
    'sig-wt': 'worktree',
    'sig-gitdir': 'gitDir',
    'sig-index': 'index',
    'sig-HEAD': 'HEAD',
    'sig-logs-HEAD': 'logs/HEAD',
};
// Positional arguments: the token, the parent's object stores (`:`-joined), then sextuples: index,
// what to do (letters s: signals, w: work, d: du), the folder to measure, the work tree, its git folder,
// and the commit HEAD names or \`-\` (a linked worktree: its registration is its git folder, HEAD is given
// as a commit, its objects are the parent's).
const INSPECT_SCRIPT = `set -u
token="$1"; alts="$2"; shift 2
tmp=$(mktemp -d)
rec() {
  n=$(wc -c < "$3" | tr -d ' ')
  printf '%s %s %s %s\\n' "$token" "$1" "$2" "$n"
  cat -- "$3"
  printf '\\n'
}
val() { printf '%s' "$3" > "$tmp/v"; rec "$1" "$2" "$tmp/v"; }
sig() {
  if [ -L "$3" ]; then v=l
  elif [ -f "$3" ]; then v="f $(stat -c %.9Y -- "$3" 2>/dev/null)"
  elif [ -d "$3" ]; then v="d $(stat -c %.9Y -- "$3" 2>/dev/null)"
  elif [ -e "$3" ]; then v=o
  else v=n; fi
  val "$1" "sig-$2" "$v"
}
signals() {
  i="$1"; wt="$2"; gd="$2/.git"
  sig "$i" wt "$wt"; sig "$i" gitdir "$gd"
  sig "$i" index "$gd/index"; sig "$i" HEAD "$gd/HEAD"; sig "$i" logs-HEAD "$gd/logs/HEAD"
  if [ -f "$gd/HEAD" ] && [ ! -L "$gd/HEAD" ] && [ ! -L "$gd" ]; then
    head -c 1024 -- "$gd/HEAD" > "$tmp/v" 2>/dev/null && rec "$i" head-file "$tmp/v"
  fi
}
work() {
  i="$1"; wt="$2"; gd="$3"; hd="$4"; g="$tmp/g$i"; od="$gd/objects"
  if [ -L "$wt" ] || [ ! -d "$wt" ] || [ -L "$gd" ] || [ ! -d "$gd" ]; then val "$i" work-error "its work tree or .git folder is missing"; return; fi
  if [ "$(find "$gd/refs" 2>/dev/null | head -n ${MAX_REFS + 2} | wc -l)" -gt ${MAX_REFS + 1} ]; then val "$i" work-error "it has more than ${MAX_REFS} refs"; return; fi
  if [ -f "$gd/packed-refs" ] && [ "$(head -c ${PACKED_REFS_MAX + 1} -- "$gd/packed-refs" | wc -c | tr -d ' ')" -gt ${PACKED_REFS_MAX} ]; then val "$i" work-error "its packed-refs is larger than ${PACKED_REFS_MAX} bytes"; return; fi
  mkdir -p "$g/refs" "$g/info" "$g/objects"
  for f in HEAD packed-refs info/exclude; do
    if [ -f "$gd/$f" ] && [ ! -L "$gd/$f" ]; then cp -- "$gd/$f" "$g/$f"; fi
  done
  if [ -d "$gd/refs" ] && [ ! -L "$gd/refs" ]; then cp -RP -- "$gd/refs/." "$g/refs/"; fi
  rm -f -- "$g/${bookkeeping/* SNAPSHOT_REF */.fW}"
  if [ "$hd" != - ]; then printf '%s\\n' "$hd" > "$g/HEAD"; od="\${alts%%:*}"; fi
  for m in ${OPERATION_MARKS.join(' ')}; do
    if [ -e "$gd/$m" ] || [ -L "$gd/$m" ]; then val "$i" operation "$m"; fi
  done
  (
    export GIT_DIR="$g" GIT_WORK_TREE="$wt" GIT_INDEX_FILE="$gd/index" GIT_OBJECT_DIRECTORY="$od" GIT_ALTERNATE_OBJECT_DIRECTORIES="$alts"
    git rev-parse --verify --quiet HEAD > "$tmp/head" 2>/dev/null || : > "$tmp/head"
    git for-each-ref --format='%(objectname)' > "$tmp/refs" 2>/dev/null; echo $? > "$tmp/refs-rc"
    if [ "$(wc -l < "$tmp/refs" | tr -d ' ')" -gt ${MAX_REFS} ]; then exit 3; fi
    git status --porcelain=v1 -z --untracked-files=all --no-renames --ignore-submodules=dirty > "$tmp/status" 2>/dev/null; echo $? > "$tmp/status-rc"
  )
  if [ $? -eq 3 ]; then val "$i" work-error "it has more than ${MAX_REFS} refs"; rm -rf -- "$g" "$tmp/refs"; return; fi
  rec "$i" head "$tmp/head"
  rec "$i" refs-rc "$tmp/refs-rc"
  rec "$i" refs "$tmp/refs"
  rec "$i" status-rc "$tmp/status-rc"
  val "$i" status-count "$(tr -cd '\\000' < "$tmp/status" | wc -c | tr -d ' ')"
  rm -rf -- "$g" "$tmp/status"
}
while [ $# -ge 6 ]; do
  i="$1"; what="$2"; top="$3"; wt="$4"; gd="$5"; hd="$6"; shift 6
  val "$i" begin ok
  case "$what" in *s*) signals "$i" "$wt" ;; esac
  case "$what" in *w*) work "$i" "$wt" "$gd" "$hd" ;; esac
  case "$what" in *d*) val "$i" size "$(du -sk -- "$top" 2>/dev/null | cut -f1)" ;; esac
  val "$i" done ok
done
val end end end
`;
/** Each request's records, checked; a sandbox without its `done` record is a failed check. */
function readInspections(frames, chunk, failure) {
    const byIndex = new Map();
    for (const frame of frames)
        byIndex.set(frame.index, [...(byIndex.get(frame.index) ?? []), frame]);
    const results = new Map();
    chunk.forEach((request, n) => {
        const records = byIndex.get(String(n)) ?? [];
        const text = (key) => records.find((r) => r.key === key)?.value.toString('utf8');
        if (text('done') !== 'ok') {
            results.set(request.key, { error: failure });
            return;
        }
        if (records.reduce((sum, r) => sum + r.value.length, 0) > OUTPUT_PER_SANDBOX) {
            results.set(request.key, { error: `the helper wrote more than ${OUTPUT_PER_SANDBOX} bytes for it` });
            return;
        }
        const inspection = {};
        if (request.signals)
            inspection.signals = readSignals(records, text);
        if (request.work)
            inspection.work = readWork(records, text);
        if (request.size) {
            const kb = text('size')?.trim() ?? '';
            if (/^[0-9]+$/.test(kb))
                inspection.sizeBytes = Number(kb) * 1024;
        }
        results.set(request.key, inspection);
    });
    return results;
}
function readSignals(records, text) {
    const report = {
        worktree: { type: 'none' },
        gitDir: { type: 'none' },
        files: { index: { type: 'none' }, HEAD: { type: 'none' }, 'logs/HEAD': { type: 'none' } },
    };
    for (const record of records) {
        const slot = SIGNAL_KEYS[record.key];
        if (!slot)
            continue;
        const signal = parseSignal(record.value.toString('latin1'));
        if (slot === 'worktree' || slot === 'gitDir')
            report[slot] = signal;
        else
            report.files[slot] = signal;
    }
    const headFile = text('head-file');
    if (headFile !== undefined)
        report.head = (0,ref_files/* parseHead */.ww)(headFile);
    return report;
}
function parseSignal(value) {
    const match = /^([fd]) ([0-9]{1,12})(?:\.([0-9]{1,9}))?$/.exec(value);
    if (match) {
        const ms = Number(match[2]) * 1000 + Math.floor(Number((match[3] ?? '0').padEnd(9, '0')) / 1e6);
        return { type: match[1] === 'f' ? 'file' : 'dir', mtimeMs: ms };
    }
    if (value === 'l')
        return { type: 'link' };
    if (value === 'n')
        return { type: 'none' };
    return { type: 'other' };
}
function readWork(records, text) {
    const error = text('work-error');
    if (error !== undefined)
        return { error: `the helper says: ${error}` };
    const head = text('head')?.trim() ?? '';
    const refsRc = text('refs-rc')?.trim();
    const refs = (text('refs') ?? '').split('\n').filter(Boolean);
    if (refsRc !== '0' || refs.some((r) => !engine_git/* OID */.Vx.test(r)))
        return { error: 'its refs could not be read' };
    if (!engine_git/* OID */.Vx.test(head))
        return { error: 'its HEAD names no commit' };
    const operation = records
        .filter((r) => r.key === 'operation')
        .map((r) => describeOperation(r.value.toString('utf8')))
        .find((d) => d !== undefined);
    const statusRc = text('status-rc')?.trim();
    const count = text('status-count')?.trim() ?? '';
    const uncommitted = statusRc === '0' && /^[0-9]+$/.test(count)
        ? { value: Number(count) }
        : { error: `git status failed in the helper (exit ${statusRc ?? '?'})` };
    return { headOid: head, named: [...new Set([head, ...refs])], operation, uncommitted };
}

;// CONCATENATED MODULE: ./src/reap/helper-inspection.ts
// What the host does not read itself, a helper container reads: the activity signals of volume
// sandboxes, the size of a volume, and the check for work where git must look (every volume, and disk
// sandboxes the filesystem could not prove clean). One helper looks at up to SANDBOXES_PER_HELPER
// sandboxes of one parent, all mounted read-only with the parent's object stores; what it runs and how
// its answer reads are inspection-script.ts's.













/**
 * Each request's inspection, in helpers of SANDBOXES_PER_HELPER sandboxes. The helper image is asked for
 * only here, when there is something to inspect; when it cannot be made, every request fails with the
 * reason (each sandbox is then kept as unknown by its caller), and nothing else is affected.
 */
async function inspectInHelpers(engine, helperImage, parent, requests) {
    const results = new Map();
    if (!requests.length)
        return results;
    let image;
    try {
        image = await helperImage();
    }
    catch (error) {
        const failed = { error: `the helper image could not be made: ${error.message}` };
        return new Map(requests.map((r) => [r.key, failed]));
    }
    for (let i = 0; i < requests.length; i += SANDBOXES_PER_HELPER) {
        const chunk = requests.slice(i, i + SANDBOXES_PER_HELPER);
        const run = (part) => inspectChunkOnce(engine, image, parent, part);
        for (const [key, inspection] of await inspectIsolating(chunk, run))
            results.set(key, inspection);
    }
    return results;
}
/**
 * A batch in one helper; when the helper fails part of the way, the sandbox it was at keeps its error
 * and the ones it never reached go to a new helper, so one sandbox (too much output, a hang, a crash)
 * never takes the others' verdicts with it. A helper that failed before it began any sandbox says
 * nothing about which one was to blame: the batch is halved until each part gets through or is one
 * sandbox alone.
 */
async function inspectIsolating(chunk, run) {
    const results = new Map();
    let pending = [...chunk];
    while (pending.length) {
        const { found, began } = await run(pending);
        const failed = pending.filter((r) => found.get(r.key)?.error !== undefined);
        for (const r of pending)
            if (!failed.includes(r))
                results.set(r.key, found.get(r.key));
        if (!failed.length)
            break;
        // The helper works in order: the first that failed is the one it was at, the rest it never reached
        // (or, done, wrote more than their share: they fail again alone).
        const [offender, ...rest] = failed;
        if (began.has(offender.key) || failed.length === 1) {
            results.set(offender.key, found.get(offender.key));
            pending = rest;
            continue;
        }
        const half = Math.ceil(failed.length / 2);
        for (const part of [failed.slice(0, half), failed.slice(half)])
            for (const [key, inspection] of await inspectIsolating(part, run))
                results.set(key, inspection);
        break;
    }
    return results;
}
/** One helper for `chunk`; a helper that could not even be started fails every request in it. */
async function inspectChunkOnce(engine, image, parent, chunk) {
    try {
        return await inspectChunk(engine, image, parent, chunk);
    }
    catch (error) {
        const failed = { error: `the helper container failed: ${error.message}` };
        return { found: new Map(chunk.map((r) => [r.key, failed])), began: new Set() };
    }
}
async function inspectChunk(engine, image, parent, chunk) {
    const token = (0,external_node_crypto_.randomBytes)(16).toString('hex');
    const mounts = parent ? (0,layout/* objectStoreMounts */.Tl)(parent) : [];
    const args = [];
    chunk.forEach((request, n) => {
        const what = `${request.signals ? 's' : ''}${request.work ? 'w' : ''}${request.size ? 'd' : ''}`;
        if ('volume' in request.target) {
            const top = `/v/${n}`;
            mounts.push({ type: 'volume', source: request.target.volume, target: top, readonly: true });
            const wt = `${top}/${request.target.name}`;
            args.push(String(n), what, top, wt, `${wt}/.git`, '-');
        }
        else {
            const dir = request.target.hostPath;
            mounts.push({ type: 'bind', source: dir, target: dir, readonly: true });
            if ('gitDir' in request.target) {
                const { gitDir, headOid } = request.target;
                mounts.push({ type: 'bind', source: gitDir, target: gitDir, readonly: true });
                args.push(String(n), what, dir, dir, gitDir, engine_git/* OID */.Vx.test(headOid) ? headOid : '-');
            }
            else
                args.push(String(n), what, dir, dir, `${dir}/.git`, '-');
        }
    });
    const dir = await promises_.mkdtemp(external_node_path_.join(external_node_os_.tmpdir(), 'worktree-sandbox-inspect-'));
    const out = external_node_path_.join(dir, 'out');
    try {
        let failure;
        try {
            const result = await engine.runHelper({
                remove: true,
                image,
                user: (0,container_args/* userArg */.Q6)(),
                mounts,
                labels: engine_labels/* HELPER_LABELS */.vJ,
                // The files belong to whoever ran the sandbox: git's ownership check would refuse them.
                env: { ...(0,git_hardening/* helperGitEnv */.QS)(), ...(0,git_hardening/* gitConfigEnv */.W0)([['safe.directory', '*']]) },
                workdir: '/',
                entrypoint: 'sh',
                args: [
                    '-c',
                    INSPECT_SCRIPT,
                    'worktree-sandbox-inspect',
                    token,
                    (parent?.objectStores ?? []).join(':'),
                    ...args,
                ],
            }, {
                work: 'inspect',
                where: `${chunk.length} sandbox(es)${parent ? ` of ${parent.path}` : ''}`,
                consequence: 'the sandboxes it had not finished with are kept',
                unmapped: true,
            }, { stdoutFile: { path: out, maxBytes: OUTPUT_PER_SANDBOX * chunk.length } });
            failure = result.overLimit
                ? `the helper container wrote more than ${OUTPUT_PER_SANDBOX} bytes for it`
                : `the helper container stopped (exit ${result.exitCode}): ${(0,sandbox_text/* sandboxText */.dX)(result.stderrTail.slice(-1)[0] ?? '', 500)}`.trim();
        }
        catch (error) {
            // Out of time: what it said about the sandboxes it finished with still counts.
            if (!(error instanceof time_limits/* TimeLimitError */.$q))
                throw error;
            failure = error.message;
        }
        const stdout = await promises_.readFile(out);
        const frames = parseFrames(stdout, token);
        const began = new Set(frames.filter((f) => f.key === 'begin').map((f) => chunk[Number(f.index)]?.key));
        return { found: readInspections(frames, chunk, failure), began };
    }
    finally {
        await promises_.rm(dir, { recursive: true, force: true });
    }
}

// EXTERNAL MODULE: ./src/sandbox/repository.ts
var repository = __webpack_require__(1151);
;// CONCATENATED MODULE: ./src/reap/scan-parents.ts








function registration(owner, isolation, name, project, locate, where) {
    if (owner.problem || !owner.parent)
        return { parentPath: owner.parentPath, orphan: owner.problem ?? 'no parent repository' };
    const { parent } = owner;
    const facts = { parentPath: parent.path, parent };
    if ((0,naming/* projectName */.j1)(parent.path) !== project)
        return { ...facts, unregistered: `${parent.path} is not the parent of project ${project}` };
    const location = locate(parent);
    const at = location.isolation === 'disk' ? location.hostPath : location.volume;
    if (at !== where)
        return { ...facts, unregistered: `${parent.path} places it at ${at}` };
    if (owner.recordsError)
        return { ...facts, location, unregistered: owner.recordsError };
    const recorded = owner.records.get(`${isolation === 'disk' ? 'disk' : 'volume'}/${name}`);
    if (!recorded)
        return { ...facts, location, unregistered: `${parent.path} holds no record of it` };
    return { ...facts, recorded, location };
}
function plan(name) {
    return { sandbox: name, kind: (0,naming/* classifyName */.Ce)(name), branch: '' };
}
/** Parents whose records are read at once (one git process each). */
const PARENTS_IN_FLIGHT = 8;
/**
 * Each parent is looked at once (one git process for its records), however many sandboxes it has; several
 * parents at a time.
 */
class ParentCache {
    git;
    owners = new Map();
    linkedOwners = new Map();
    limited = limiter(PARENTS_IN_FLIGHT);
    /** What the linked worktrees of one parent share (linked-worktree.ts), read once per parent. */
    linkedFacts = new ParentFacts();
    constructor(git) {
        this.git = git;
    }
    /** The parent a project folder's note names; verified: its project name is the folder's name. */
    async ownerOfProject(projectDir, project) {
        const note = (0,ref_files/* readBounded */.CB)(external_node_path_.join(projectDir, bookkeeping/* PARENT_NOTE */.o8), 4096);
        if (!('data' in note))
            return {
                problem: `its project folder has no readable note of its parent (${'error' in note ? note.error : 'none'})`,
            };
        const parentPath = note.data.toString('utf8').trim();
        if (!external_node_path_.isAbsolute(parentPath) || parentPath.includes('\n'))
            return { problem: 'its project folder has no readable note of its parent (malformed)' };
        return this.ownerOf(parentPath, project);
    }
    ownerOf(parentPath, project) {
        if ((0,naming/* projectName */.j1)(parentPath) !== project)
            return Promise.resolve({
                parentPath,
                problem: `its parent ${parentPath} is not the parent of project ${project}`,
            });
        let owner = this.owners.get(parentPath);
        if (!owner) {
            // A parent that cannot be read keeps its sandboxes (unregistered: never taken for orphans), and the
            // scan of every other parent goes on.
            owner = this.limited(() => this.look(parentPath)).catch((error) => ({
                parentPath,
                parent: { path: parentPath, gitDir: external_node_path_.join(parentPath, '.git'), objectStores: [] },
                recordsError: `the records of ${parentPath} could not be read: ${JSON.stringify(error.message)}`,
            }));
            this.owners.set(parentPath, owner);
        }
        return owner;
    }
    /**
     * The parent a linked worktree's `.git` file names: there, and its object stores (for the helpers). No
     * git process: a linked worktree's registration is read as data (linked-worktree.ts).
     */
    linkedParent(parentPath) {
        let owner = this.linkedOwners.get(parentPath);
        if (!owner) {
            owner = this.limited(async () => {
                const problem = parentStatus(parentPath, external_node_path_.join(parentPath, '.git'));
                if (problem)
                    return { parentPath, problem };
                // Real paths: what the helpers mount, and what the worktree's registration is compared with.
                const real = external_node_fs_.realpathSync(parentPath);
                const gitDir = external_node_path_.join(real, '.git');
                const objects = await (0,repository/* objectStores */.u)(external_node_path_.join(gitDir, 'objects'));
                return { parentPath: real, parent: { path: real, gitDir, objectStores: objects } };
            });
            this.linkedOwners.set(parentPath, owner);
        }
        return owner;
    }
    async look(parentPath) {
        const gitDir = external_node_path_.join(parentPath, '.git');
        const status = parentStatus(parentPath, gitDir);
        if (status)
            return { parentPath, problem: status };
        const parent = {
            path: parentPath,
            gitDir,
            objectStores: await (0,repository/* objectStores */.u)(external_node_path_.join(gitDir, 'objects')),
        };
        // Read as data where that is sure (sandbox-files.ts readRecordNames), else git lists them.
        let names = readRecordNames(gitDir);
        if (!names) {
            const out = await this.git.exec(parentPath, [
                'for-each-ref',
                '--format=%(refname)',
                '--',
                `${bookkeeping/* REF_ROOT */.Dw}/`,
            ]);
            if (out.exitCode !== 0)
                return {
                    parentPath,
                    parent,
                    recordsError: `the records of ${parentPath} could not be read: ${out.stderr.trim().split('\n')[0]}`,
                };
            names = out.stdout.split('\n');
        }
        const records = new Map();
        for (const line of names) {
            const match = /^refs\/worktree-sandbox\/(disk|volume)\/(.+)\/(head|creating)$/.exec(line);
            if (!match)
                continue;
            const key = `${match[1]}/${(0,bookkeeping/* nameFromComponent */.dG)(match[2])}`;
            if (match[3] === 'head' || !records.has(key))
                records.set(key, match[3]);
        }
        return { parentPath, parent, records };
    }
}
/** Undefined when the parent is there; else why not. */
function parentStatus(parentPath, gitDir) {
    try {
        if (!external_node_fs_.lstatSync(gitDir).isDirectory())
            return `its parent repository ${parentPath} has no .git folder`;
        external_node_fs_.accessSync(gitDir, external_node_fs_.constants.R_OK | external_node_fs_.constants.X_OK);
        external_node_fs_.accessSync(external_node_path_.join(gitDir, 'HEAD'), external_node_fs_.constants.R_OK);
        external_node_fs_.accessSync(external_node_path_.join(gitDir, 'objects'), external_node_fs_.constants.R_OK | external_node_fs_.constants.X_OK);
        return undefined;
    }
    catch (error) {
        const code = error.code;
        if (code === 'ENOENT' || code === 'ENOTDIR')
            return `its parent repository ${parentPath} is gone`;
        return `its parent repository ${parentPath} is unreadable (${code})`;
    }
}

;// CONCATENATED MODULE: ./src/reap/scan.ts
// Finding every sandbox on the machine, with the facts the decisions need:
//  - disk sandboxes are the folders `<root>/<project>/<name>` that hold a `.git` folder, in a project
//    folder whose `.parent` note names a parent repository whose project name is that folder's name;
//  - linked worktrees are the folders `<root>/<project>/<name>` whose `.git` is a file naming a parent's
//    `.git/worktrees/<id>` (the layout of `git worktree add` and of the seed tool's worktree cache), that
//    the parent registers pointing back (linked-worktree.ts: read as data, no git process);
//  - volume sandboxes are the volumes labelled `worktree-sandbox.managed=true` whose name is
//    `<volume-prefix>-<project>-<name>` (the prefix scopes a reaper: other tenants' volumes are not even
//    looked at), whose labels name their parent;
//  - a sandbox of a live parent is registered when the parent holds its records
//    (`refs/worktree-sandbox/...`); one without is reported and kept.
// Entries starting with `.` under a project folder are ours (homes, the note); anything else that is
// not a sandbox is reported, and never deleted.
//
// Activity is read with lstat only: on the host for disk sandboxes (a linked worktree's in its registration,
// once verified), by one helper container per SANDBOXES_PER_HELPER volumes for volume sandboxes. The host
// reads nothing else in a sandbox here, but a linked worktree's `.git` file and its registration's
// `gitdir` (bounded, never through a link).













const SANDBOX_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
async function scanSandboxes(options) {
    const parents = new ParentCache(options.git);
    const root = realRootOrSelf(options.worktreeRoot);
    // Folders and volumes are looked at together: the engine is asked first, the folders listed while it
    // answers (its answer takes as long as reading a few parents' records).
    const diskWarnings = [];
    const volumeWarnings = [];
    const volumes = options.engine
        ? scanVolumes(options, parents, volumeWarnings).catch((error) => {
            volumeWarnings.push(`Volume sandboxes were not scanned: ${error.message}`);
            return [];
        })
        : [];
    const disk = await scanDisk(root, parents, diskWarnings);
    return {
        sandboxes: [...disk, ...(await volumes)],
        warnings: [...diskWarnings, ...volumeWarnings],
        root,
    };
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
async function scanDisk(root, parents, warnings) {
    // In the order found; a sandbox waits for its parent's records, which are read for several parents at once.
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
            found.push(Promise.resolve(foreign(projectDir, project.name, '', describeType(project))));
            continue;
        }
        let owner;
        for (const child of listed(projectDir)) {
            if (child.name.startsWith('.'))
                continue; // ours: homes, the note of the parent
            const hostPath = external_node_path_.join(projectDir, child.name);
            if (!child.isDirectory()) {
                found.push(Promise.resolve(foreign(hostPath, project.name, child.name, describeType(child))));
                continue;
            }
            const gitDir = lstat(external_node_path_.join(hostPath, '.git'));
            if (gitDir?.isFile() && SANDBOX_NAME.test(child.name)) {
                found.push(linkedSandbox(hostPath, project.name, child.name, parents));
                continue;
            }
            if (!gitDir?.isDirectory()) {
                const why = !gitDir
                    ? 'no .git folder'
                    : gitDir.isFile()
                        ? 'not a sandbox name'
                        : '.git is not a folder';
                found.push(Promise.resolve(foreign(hostPath, project.name, child.name, why)));
                continue;
            }
            if (!SANDBOX_NAME.test(child.name)) {
                found.push(Promise.resolve(foreign(hostPath, project.name, child.name, 'not a sandbox name')));
                continue;
            }
            owner ??= parents.ownerOfProject(projectDir, project.name);
            found.push(owner.then((o) => diskSandbox(root, hostPath, project.name, child.name, o)));
        }
        // The folders are read synchronously: between projects, the processes asked for so far (the parents'
        // records, the engine's volumes) get started.
        await (0,external_node_timers_promises_.setImmediate)();
    }
    return Promise.all(found);
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
/** What every folder sandbox is, whatever its layout: named by its real path. */
function diskEntry(hostPath, project, name) {
    return { key: `disk:${hostPath}`, sandbox: name, project, isolation: 'disk', where: hostPath, hostPath };
}
function diskSandbox(root, hostPath, project, name, owner) {
    const activity = diskActivity(hostPath);
    const base = {
        ...diskEntry(hostPath, project, name),
        homePath: external_node_path_.join(external_node_path_.dirname(hostPath), layout/* HOME_FOLDER */.Ps, name),
        lastActivityMs: lastActivity(activity.times),
        suspicious: activity.suspicious,
    };
    return {
        ...base,
        ...registration(owner, 'disk', name, project, (parent) => (0,layout/* locateSandbox */.Iw)(plan(name), parent, 'disk', root, ''), hostPath),
    };
}
/**
 * A linked worktree: its parent and registration come from its `.git` file, verified (linked-worktree.ts).
 * A parent that is gone, or that no longer registers it, makes an orphan (its HEAD and index went with the
 * registration: nothing can be checked); a registration that is not its own makes it unregistered (kept).
 */
async function linkedSandbox(hostPath, project, name, parents) {
    const base = diskEntry(hostPath, project, name);
    const target = readGitFile(hostPath);
    if ('error' in target)
        return foreign(hostPath, project, name, target.error);
    const linked = { adminDir: target.adminDir, id: target.id };
    // Until the registration is verified, only the folder's own time is read: the registration's files
    // may be another worktree's (and the folder's `.git` is a file: nothing in it to read).
    const folderOnly = () => ({ ...base, linked, lastActivityMs: lstat(hostPath)?.mtimeMs });
    const owner = await parents.linkedParent(target.parentPath);
    if (owner.problem || !owner.parent)
        return {
            ...folderOnly(),
            parentPath: target.parentPath,
            orphan: owner.problem ?? 'no parent repository',
        };
    const registration = verifyRegistration(hostPath, target, parents.linkedFacts);
    if (registration.state === 'missing')
        return { ...folderOnly(), parentPath: owner.parentPath, orphan: registration.why };
    if (registration.state === 'foreign')
        return {
            ...folderOnly(),
            parentPath: owner.parentPath,
            parent: owner.parent,
            unregistered: registration.why,
        };
    const activity = diskActivity(hostPath, target.adminDir);
    return {
        ...base,
        parentPath: owner.parentPath,
        parent: owner.parent,
        linked: { ...linked, registered: { gitdirText: registration.gitdirText }, locked: registration.locked },
        lastActivityMs: lastActivity(activity.times),
        suspicious: activity.suspicious,
    };
}
// ---- volumes ------------------------------------------------------------------------------------------
async function scanVolumes(options, parents, warnings) {
    const { engine, volumePrefix: prefix } = options;
    const volumes = await (0,inventory/* listVolumes */.y)(engine, `${engine_labels/* MANAGED_LABEL */.bS}=true`, engine_labels/* VOLUME_LABEL_KEYS */.bW);
    const pending = [];
    for (const { name, labels } of volumes) {
        if (!name.startsWith(`${prefix}-`))
            continue;
        const project = labels[(0,engine_labels/* label */.Pf)('project')] ?? '';
        const sandbox = labels[(0,engine_labels/* label */.Pf)('sandbox')] ?? '';
        const base = {
            key: `volume:${name}`,
            sandbox,
            project,
            isolation: 'container',
            where: name,
            volume: name,
            branchLabel: labels[(0,engine_labels/* label */.Pf)('branch')],
        };
        if (!SANDBOX_NAME.test(sandbox) || !project) {
            pending.push(Promise.resolve({ ...base, notSandbox: 'its labels name no sandbox and project' }));
            continue;
        }
        // A longer prefix that starts with ours (another tenant) makes names that do not match their labels.
        if ((0,naming/* volumeName */.EH)(prefix, project, sandbox) !== name)
            continue;
        base.createdMs = parseTimestamp(labels[(0,engine_labels/* label */.Pf)('created')]);
        const parentPath = labels[(0,engine_labels/* label */.Pf)('parent')];
        if (!parentPath || !external_node_path_.isAbsolute(parentPath)) {
            pending.push(Promise.resolve({ ...base, orphan: 'its labels name no parent repository' }));
            continue;
        }
        pending.push(parents.ownerOf(parentPath, project).then((owner) => ({
            ...base,
            ...registration(owner, 'container', sandbox, project, (parent) => (0,layout/* locateSandbox */.Iw)(plan(sandbox), parent, 'container', '', prefix), name),
        })));
    }
    const found = await Promise.all(pending);
    await readVolumeActivity(options, found.filter((s) => !s.notSandbox), warnings);
    return found;
}
/** Each volume's signals, from helper containers (a volume they could not read has no known age). */
async function readVolumeActivity(options, volumes, warnings) {
    if (volumes.length === 0)
        return;
    const seen = await lookAtVolumes(options.engine, options.image, volumes);
    let failed = 0;
    let firstError;
    for (const s of volumes)
        if (!seen.get(s.key)?.signals) {
            failed++;
            firstError ??= seen.get(s.key)?.error;
        }
    if (failed)
        warnings.push(`The activity of ${failed} volume(s) could not be read: their age is unknown, they are kept.${firstError ? ` The first: ${(0,sandbox_text/* sandboxText */.dX)(firstError)}` : ''}`);
}
/**
 * What helpers see of these volumes now, applied to each: its last activity (undefined when it could not be
 * read), its HEAD, and what is wrong with it. The scan asks, and the removal asks again just before.
 */
async function lookAtVolumes(engine, image, volumes) {
    const seen = await inspectInHelpers(engine, image, undefined, volumes.map((s) => ({ key: s.key, target: { volume: s.volume, name: s.sandbox }, signals: true })));
    for (const s of volumes)
        applyVolumeSignals(s, seen.get(s.key));
    return seen;
}
function applyVolumeSignals(s, seen) {
    const signals = seen?.signals;
    if (!signals) {
        s.lastActivityMs = undefined;
        return;
    }
    const times = [s.createdMs];
    const time = (signal) => ('mtimeMs' in signal ? signal.mtimeMs : undefined);
    if (signals.worktree.type !== 'dir' || signals.gitDir.type !== 'dir')
        s.broken = `its work tree or .git folder is missing from the volume (${signals.worktree.type}, ${signals.gitDir.type})`;
    else
        times.push(time(signals.worktree));
    for (const [file, signal] of Object.entries(signals.files)) {
        if (signal.type === 'file')
            times.push(signal.mtimeMs);
        else if (signal.type !== 'none')
            s.suspicious ??= `.git/${file} is not a regular file (a symbolic link?)`;
    }
    s.lastActivityMs = lastActivity(times);
    if (signals.head && 'ref' in signals.head)
        s.headRef = signals.head.ref;
}

;// CONCATENATED MODULE: ./src/reap/scanned-sandbox.ts
// What a scan finds: one record per folder or volume, with the facts the decisions need.

/** The git folder whose HEAD, index and logs are a disk sandbox's: its `.git`, or its registration. */
function gitDirOf(s) {
    return s.linked?.registered ? s.linked.adminDir : external_node_path_.join(s.hostPath, '.git');
}
/** A sandbox the parent can check: its records (run mode's sandboxes) or its registration (linked). */
function isCheckable(s) {
    return !s.orphan && !!s.parent && (s.recorded !== undefined || s.linked?.registered !== undefined);
}
/** Sandbox names as this action makes them: no path separators, never starting with a dot. */

;// CONCATENATED MODULE: ./src/reap/execute.ts
// Carrying out the removals decided. Each sandbox is removed under its own lock (a run that holds it, or
// takes it first, wins: the sandbox is then in use), after one last look at its activity, archived first
// when asked. A sandbox of a live parent goes the way run mode removes one (`removeSandbox`: its folders
// or volume, then every record the parent keeps of it); a linked worktree its folder, then its registration
// in the parent (linked-worktree.ts, under the parent's repository lock); an orphan loses its folders or
// volume only.
// On disk the reaper removes the folders itself first, carefully (remove-tree.ts): links are never followed,
// and what cannot be deleted is reported while the rest goes.












/** Removals running at once, and parents whose batches are removed at once. */
const REMOVALS_IN_FLIGHT = 4;
const PARENTS_AT_ONCE = 4;
/**
 * Sandboxes of one parent removed together: locked, looked at again and removed, then their records
 * dropped together (one repository lock, two git processes) before their locks are released; volumes
 * are looked at again by one helper per batch.
 */
const BATCH = 32;
/**
 * Removes every sandbox decided for removal: disk sandboxes a batch of one parent at a time (a few
 * parents at once), then volumes. One sandbox that fails in any step gets an outcome that says why, and
 * every other goes on: a failure is never the whole run's.
 */
async function carryOut(removals, deps) {
    const outcomes = new Map();
    const byParent = batchesByParent(removals.filter((r) => !r.sandbox.volume));
    await inParallel([...byParent.values()], PARENTS_AT_ONCE, async (batches) => {
        for (const batch of batches)
            await removeBatch(batch, deps, outcomes, diskActivityNow);
    });
    const volumes = removals.filter((r) => r.sandbox.volume);
    for (let i = 0; i < volumes.length; i += BATCH)
        await removeBatch(volumes.slice(i, i + BATCH), deps, outcomes, volumeActivityNow(deps));
    return outcomes;
}
const diskActivityNow = async () => (removal) => {
    const { sandbox } = removal;
    return lastActivity([...diskActivity(sandbox.hostPath, gitDirOf(sandbox)).times, sandbox.createdMs]);
};
const volumeActivityNow = (deps) => async (locked) => {
    const seen = await volumeActivity(locked, deps);
    return (removal) => seen.get(removal.sandbox.key);
};
/**
 * One batch (disk sandboxes of one parent, or volumes): each locked, its activity read again and, when
 * nothing happened since the scan, removed; then the parent forgets the removed ones (records,
 * registrations), the project folders left empty go, the locks are released and the outcomes logged.
 */
async function removeBatch(batch, deps, outcomes, activityNow) {
    const locks = await inParallel(batch, REMOVALS_IN_FLIGHT, (removal) => execute_lock(removal.sandbox));
    try {
        const activityOf = await activityNow(batch.filter((_, n) => !('refused' in locks[n])));
        const forget = forgetNothing();
        const done = await inParallel(batch, REMOVALS_IN_FLIGHT, async (removal) => {
            const held = locks[batch.indexOf(removal)];
            if ('refused' in held)
                return skipped(held.refused);
            try {
                return await removeOne(removal, activityOf(removal), { ...deps, forget });
            }
            catch (error) {
                return failed(error.message);
            }
        });
        await forgetAll(batch, done, forget, deps);
        batch.forEach((removal, n) => {
            outcomes.set(removal.decision.key, done[n]);
            deps.log(removalLine(removal.decision, done[n]));
        });
    }
    finally {
        await release(locks);
    }
}
/**
 * What a batch leaves to do once its folders are gone: the removed folders' records, the linked
 * worktrees' registrations, then the project folders left empty. Never throws: what could not be done
 * is said on the outcomes of the sandboxes it concerns.
 */
async function forgetAll(batch, done, forget, deps) {
    try {
        await forgetBatch(batch, done, forget, deps);
        const left = await forgetRegistrations(forget.registrations);
        forget.registrations.forEach(({ outcome }, n) => {
            const why = left[n];
            if (!why)
                return;
            if (why.problem)
                outcome.problems.push(why.problem);
            outcome.status = 'partly removed';
            outcome.detail = `its registration was left: ${why.reason}`;
        });
    }
    catch (error) {
        for (const outcome of done)
            if (outcome.status === 'removed') {
                outcome.status = 'partly removed';
                outcome.detail = `its folders went, but what its parent keeps of it may be left (${error.message})`;
            }
    }
    for (const dir of forget.projectDirs)
        await (0,remove/* removeEmptyProjectDir */.ih)(dir).catch(() => undefined); // an empty folder left is harmless
}
/**
 * The parent forgets the batch's removed sandboxes, together; when that fails, one at a time, so that one
 * sandbox whose records cannot be dropped leaves the others' dropped (its own outcome says so).
 */
async function forgetBatch(batch, done, forget, deps) {
    const { sandboxes } = forget;
    if (!sandboxes.length)
        return;
    try {
        await (0,remove/* forgetSandboxes */.Jf)(deps.git, sandboxes, readRecordNames);
        return;
    }
    catch {
        // one at a time below
    }
    for (const sandbox of sandboxes) {
        try {
            await (0,remove/* forgetSandboxes */.Jf)(deps.git, [sandbox], readRecordNames);
        }
        catch (error) {
            const outcome = done[batch.findIndex((r) => r.sandbox.location === sandbox)];
            if (outcome) {
                outcome.status = 'partly removed';
                outcome.detail = `its folders went, but its parent's records of it could not be dropped (${error.message})`;
            }
        }
    }
}
/** The removals in batches, by parent (orphans and sandboxes without a parent together: ''). */
function batchesByParent(removals) {
    const byParent = new Map();
    for (const removal of removals) {
        const { parent, orphan } = removal.sandbox;
        const key = parent && !orphan ? parent.gitDir : '';
        const group = byParent.get(key);
        if (group)
            group.push(removal);
        else
            byParent.set(key, [removal]);
    }
    const batches = new Map();
    for (const [parent, group] of byParent) {
        const cut = [];
        for (let i = 0; i < group.length; i += BATCH)
            cut.push(group.slice(i, i + BATCH));
        batches.set(parent, cut);
    }
    return batches;
}
function forgetNothing() {
    return { sandboxes: [], registrations: [], projectDirs: new Set() };
}
async function release(locks) {
    await Promise.all(locks.flatMap((held) => (held && 'release' in held && held.release ? [held.release()] : [])));
}
function execute_lock(sandbox) {
    return !sandbox.parent || sandbox.orphan
        ? Promise.resolve({})
        : (0,lock/* tryLockSandbox */.Kw)(sandbox.parent.gitDir, sandbox.sandbox);
}
/** The newest activity of each volume now, seen by helpers. */
async function volumeActivity(volumes, deps) {
    const copies = volumes.map(({ sandbox }) => ({ ...sandbox }));
    if (copies.length)
        await lookAtVolumes(deps.engine, deps.image, copies);
    return new Map(copies.map((s) => [s.key, s.lastActivityMs]));
}
function skipped(detail) {
    return { status: 'skipped', detail, freedBytes: 0, archived: [], problems: [] };
}
function failed(detail) {
    return { status: 'not removed', detail, freedBytes: 0, archived: [], problems: [] };
}
async function removeOne({ decision, sandbox }, activity, deps) {
    if (activity === undefined)
        return skipped('its activity could not be read again');
    if (decision.lastActivityMs === undefined || activity > decision.lastActivityMs)
        return skipped('activity since the scan');
    const outcome = skipped('');
    delete outcome.detail;
    const refused = decision.archive && sandbox.hostPath ? await deps.diskHelpersRefused?.() : undefined;
    if (refused) {
        outcome.detail = `not archived: ${refused}`;
        return outcome;
    }
    if (decision.archive) {
        try {
            outcome.archived = await archiveSandbox(sandbox, decision.archive, deps);
        }
        catch (error) {
            outcome.detail = `archiving failed (${error.message})`;
            return outcome;
        }
    }
    try {
        if (sandbox.volume)
            await removeVolume(sandbox, decision, deps, outcome);
        else
            await removeFolders(sandbox, deps, outcome);
    }
    catch (error) {
        outcome.status = 'not removed';
        outcome.detail = error.message;
    }
    return outcome;
}
async function removeVolume(sandbox, decision, deps, outcome) {
    // An orphan's records went with its parent: only the volume is left to remove.
    if (sandbox.location && !sandbox.orphan)
        await (0,remove/* removeSandbox */.Ur)(deps.git, deps.engine, sandbox.location);
    else
        await deps.engine.removeVolume(sandbox.volume);
    outcome.status = 'removed';
    outcome.freedBytes = decision.sizeBytes ?? 0;
}
async function removeFolders(sandbox, deps, outcome) {
    const tree = await removeSandboxTree(deps.root, sandbox.hostPath);
    if (tree.unlinked && sandbox.homePath)
        await removeHomeFolder(deps.root, sandbox.homePath, tree);
    outcome.freedBytes = tree.freedBytes;
    outcome.problems = tree.problems;
    if (!tree.unlinked) {
        outcome.status = 'not removed';
        outcome.detail = `its .git folder could not be moved away (${tree.problems[0]?.error}): left intact`;
        return;
    }
    // No sandbox any more (its .git is gone): the parent forgets it (with the batch's others), and its
    // project folder goes with its last sandbox.
    const location = sandbox.location && !sandbox.orphan ? sandbox.location : undefined;
    if (location)
        deps.forget.sandboxes.push(location);
    if (sandbox.linked?.registered && sandbox.parent && !sandbox.orphan)
        deps.forget.registrations.push({ parent: sandbox.parent, linked: sandbox.linked, outcome });
    deps.forget.projectDirs.add(external_node_path_.dirname(sandbox.hostPath));
    if (tree.problems.length === 0) {
        outcome.status = 'removed';
        return;
    }
    outcome.status = 'partly removed';
    outcome.detail = `${tree.problems.length} entr${tree.problems.length === 1 ? 'y' : 'ies'} could not be deleted`;
}
/** The log line of one removal carried out. */
function removalLine(decision, outcome) {
    const what = `${decision.project}/${decision.sandbox} (${decision.isolation === 'disk' ? decision.where : `volume ${decision.where}`})`;
    const detail = outcome.detail ? `: ${outcome.detail}` : '';
    const archived = outcome.archived.length ? `; archived to ${outcome.archived.join(', ')}` : '';
    // Names and details (an archiver's error, a helper's) came from the sandbox: one escaped line.
    return (0,sandbox_text/* sandboxText */.dX)(`${outcome.status} ${what}${detail}${archived}`, 8_000);
}

// EXTERNAL MODULE: ./src/engine/engine.ts + 2 modules
var engine_engine = __webpack_require__(1665);
// EXTERNAL MODULE: ./src/engine/host-paths.ts
var host_paths = __webpack_require__(6387);
// EXTERNAL MODULE: ./src/engine/host-image.ts
var host_image = __webpack_require__(3858);
;// CONCATENATED MODULE: ./src/engine/helper-image.ts
// The image of the reaper's helper containers, made on the spot from the runner's own programs: the host's
// `sh`, `git` and the few tools the helpers' scripts call, with the shared libraries `ldd` names, as one
// layer imported into the engine (`docker import`, `podman import`, rootless too). So the reaper's verdict
// on a sandbox (its activity, its work, its size) never rests on a program from the `image` input, which
// may lie; that image then only runs run mode's command. host-image.ts makes, checks and caches it.







/** What the reaper's helper scripts call (inspection, archives, capture for archives). */
const HELPER_PROGRAMS = [
    'sh',
    'git',
    'cat',
    'cp',
    'cut',
    'du',
    'find',
    'gzip',
    'head',
    'mkdir',
    'mktemp',
    'mv',
    'printf',
    'rm',
    'stat',
    'tar',
    'touch',
    'tr',
    'wc',
];
const HELPER_IMAGE_REPOSITORY = 'localhost/worktree-sandbox-helper';
const HELPER_IMAGE_LABEL = (0,engine_labels/* label */.Pf)('helper-image');
/** Where the programs are looked for on the host, in this order (the system's own folders first). */
const HOST_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];
/**
 * The helper image's name in this engine, made first when missing (once per process and engine; a failure
 * is not remembered). Throws when the host lacks a program or the engine refuses the import: the reaper
 * then decides nothing rather than trust another image.
 */
function controlledHelperImage(engine) {
    return (0,host_image/* hostImage */.mW)(engine, {
        repository: HELPER_IMAGE_REPOSITORY,
        label: HELPER_IMAGE_LABEL,
        what: 'the helper image',
        entries: helperLayerEntries,
    });
}
function helperImageOnDemand(engine) {
    let image;
    return () => (image ??= controlledHelperImage(engine));
}
/** The layer's entries: each program at /usr/bin/<name>, its libraries where `ldd` found them. */
async function helperLayerEntries() {
    const entries = new host_image/* LayerEntries */.cy();
    const found = HELPER_PROGRAMS.map((program) => {
        const at = hostProgram(program);
        if (!at)
            throw new Error(`the helper image needs ${program}, which is not in ${HOST_DIRS.join(':')}`);
        return at;
    });
    HELPER_PROGRAMS.forEach((program, n) => entries.file(`/usr/bin/${program}`, found[n]));
    const gitPath = found[HELPER_PROGRAMS.indexOf('git')];
    // One ldd for every program: the start-up of every reap pays for it.
    for (const lib of await (0,host_image/* sharedLibraries */.Xo)([...new Set(found)], 'the helper image'))
        entries.file(lib, lib);
    // git runs its own sub-commands (pack-objects for a bundle) from its exec path.
    const execPath = (await (0,proc/* runProcess */.R3)(gitPath, ['--exec-path'], {
        env: { PATH: host_image/* HOST_IMAGE_PATH */.tg },
        limit: { ms: (0,time_limits/* timeLimitMs */.PI)('ldd'), purpose: "asking where git's sub-commands are, for the helper image" },
    })).stdout.trim();
    if (external_node_path_.isAbsolute(execPath) && execPath !== '/usr/bin')
        entries.symlink(`${execPath}/git`, '/usr/bin/git');
    if (!entries.has('/bin'))
        entries.symlink('/bin', 'usr/bin');
    entries.dir('/tmp', 0o1777);
    for (const dir of ['/dev', '/proc', '/sys', '/etc'])
        entries.dir(dir);
    return entries.list();
}
function hostProgram(name) {
    for (const dir of HOST_DIRS) {
        const candidate = external_node_path_.join(dir, name);
        try {
            const real = external_node_fs_.realpathSync(candidate);
            const st = external_node_fs_.statSync(real);
            if (st.isFile() && st.mode & 0o111)
                return real;
        }
        catch {
            // not here
        }
    }
    return undefined;
}

;// CONCATENATED MODULE: ./src/reap/clean-probe.ts
// The filesystem fast path of the check for work: proves that a worktree is clean without starting git,
// or says why it cannot (then git decides, in a helper container). It proves "clean" only when:
//  - the index's cache tree is complete and names HEAD's tree (nothing staged);
//  - every index entry is an ordinary file or link whose stat data still matches what git cached (with
//    ctime and inode, stricter than git itself), or whose content hashes to the blob in the index;
//  - no file or folder exists that the index does not list; where some do (and everything listed is
//    clean), they are returned, for the caller to judge with the parent's ignore rules (ignored.ts).
// It never writes anything, so it cannot reset the activity clock it is part of.




/** Unlisted entries collected before the fast path leaves the decision to git. */
const UNLISTED_MAX = 200;
/** An index larger than this is left to git. */
const INDEX_MAX = 512 * 1024 * 1024;
/** Files larger than this are not hashed by the fast path: git decides. */
const HASH_LIMIT = 8 * 1024 * 1024;
const NS = 1000000000n;
const REGULAR = 0o100000;
const SYMLINK = 0o120000;
const NOT_HEAD = 'the index does not match HEAD as a whole';
/**
 * `gitDir` is the sandbox's own `.git` folder: its index is read as data (never through a link), and the
 * work tree is walked before any file in it is read, so that a folder replaced by a link is caught
 * before anything is read through it.
 */
function proveClean(worktree, gitDir, headTree) {
    return matchHeadTree(proveAgainstIndex(worktree, gitDir, headTree.length / 2), headTree);
}
/** A proof made against the index's tree (proveAgainstIndex), as it stands once HEAD's tree is known. */
function matchHeadTree({ proof, rootTree }, headTree) {
    if (rootTree !== undefined && rootTree !== headTree)
        return { clean: false, unsure: NOT_HEAD };
    return proof;
}
/**
 * The same proof before HEAD's tree is known: against the tree the index records for the whole (its
 * cache tree), returned as `rootTree` when the proof got that far. It proves anything only where the
 * caller finds `rootTree` to be HEAD's tree (proveClean). This lets a reap walk its sandboxes first, and
 * ask the parent for HEAD's tree and the `.gitignore` files that the walk found needed in one git process.
 */
function proveAgainstIndex(worktree, gitDir, hashBytes) {
    const unsure = (why) => ({ proof: { clean: false, unsure: why } });
    const indexFile = external_node_path_.join(gitDir, 'index');
    const read = (0,ref_files/* readBounded */.CB)(indexFile, INDEX_MAX);
    if ('absent' in read)
        return unsure('there is no index');
    if ('error' in read)
        return unsure(read.error);
    const indexMtime = external_node_fs_.lstatSync(indexFile, { bigint: true }).mtimeNs;
    const reading = parseIndex(read.data, hashBytes);
    if (!reading.ok)
        return unsure(reading.unsupported);
    const { entries, rootTree } = reading.index;
    if (rootTree === undefined)
        return unsure(NOT_HEAD);
    return { proof: walkAgainstIndex(worktree, entries, indexMtime, hashBytes), rootTree };
}
function walkAgainstIndex(worktree, entries, indexMtime, hashBytes) {
    const unsure = (why) => ({ clean: false, unsure: why });
    const tracked = new Set();
    const folders = new Set();
    for (const entry of entries) {
        if (!safeEntryPath(entry.path))
            return unsure(`the index lists a path git would refuse: ${JSON.stringify(entry.path)}`);
        tracked.add(entry.path);
        for (let dir = external_node_path_.posix.dirname(entry.path); dir !== '.'; dir = external_node_path_.posix.dirname(dir)) {
            if (folders.has(dir))
                break;
            folders.add(dir);
        }
    }
    for (const dir of folders)
        if (tracked.has(dir))
            return unsure(`${dir} is both a file and a folder in the index`);
    const listing = unlistedEntries(worktree, tracked, folders);
    if (typeof listing === 'string')
        return unsure(listing);
    for (const entry of entries) {
        const problem = entryProblem(worktree, entry, indexMtime, hashBytes);
        if (problem)
            return unsure(`${entry.path}: ${problem}`);
    }
    if (listing.length === 0)
        return { clean: true };
    const gitignores = new Map();
    for (const entry of entries)
        if (external_node_path_.posix.basename(entry.path) === '.gitignore') {
            const dir = external_node_path_.posix.dirname(entry.path);
            gitignores.set(dir === '.' ? '' : dir, entry.oid);
        }
    return {
        clean: false,
        unsure: `${listing[0].rel} is not in the index`,
        untracked: { unlisted: listing, gitignores },
    };
}
/** A relative path with no empty, `.`, `..` or `.git` component (git refuses such index entries). */
function safeEntryPath(p) {
    return p
        .split('/')
        .every((part) => part !== '' && part !== '.' && part !== '..' && part.toLowerCase() !== '.git');
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
    // Read as data, never through a link and never blocking: the file may have been swapped for a FIFO
    // since the lstat above (opening one for reading waits for a writer forever).
    let content;
    if (type === SYMLINK) {
        try {
            content = Buffer.from(external_node_fs_.readlinkSync(file, 'buffer'));
        }
        catch {
            return 'unreadable';
        }
    }
    else {
        const read = (0,ref_files/* readBounded */.CB)(file, HASH_LIMIT);
        if (!('data' in read))
            return 'unreadable';
        content = read.data;
    }
    return blobName(content, hashBytes) === entry.oid ? undefined : 'content changed';
}
function at(sec, nsec) {
    return BigInt(sec) * NS + BigInt(nsec);
}
/** git's own comparison plus ctime and inode; nanoseconds where the index has them. */
function statMatches(st, entry) {
    const same = (ns, sec, nsec) => nsec === 0 ? ns / NS === BigInt(sec) : ns === at(sec, nsec);
    return (same(st.mtimeNs, entry.mtimeSec, entry.mtimeNsec) &&
        same(st.ctimeNs, entry.ctimeSec, entry.ctimeNsec) &&
        BigInt.asUintN(32, st.ino) === BigInt(entry.ino) &&
        Number(st.uid) === entry.uid &&
        Number(st.gid) === entry.gid);
}
/**
 * The files and folders (relative paths) that the index does not account for, walking only the folders
 * it lists; or why the fast path stops here (a listed folder that is no folder any more, too many).
 */
function unlistedEntries(worktree, tracked, folders) {
    const found = [];
    const pending = [''];
    while (pending.length) {
        const dir = pending.pop();
        let names;
        try {
            names = external_node_fs_.readdirSync(dir ? external_node_path_.join(worktree, dir) : worktree, { withFileTypes: true });
        }
        catch {
            return `${dir || '.'} cannot be listed`;
        }
        for (const dirent of names) {
            const rel = dir ? `${dir}/${dirent.name}` : dirent.name;
            if (rel === '.git' || tracked.has(rel))
                continue;
            if (folders.has(rel)) {
                if (!dirent.isDirectory())
                    return `${rel} is not in the index`;
                pending.push(rel);
                continue;
            }
            if (/[\n\r\0]/.test(rel))
                return `${JSON.stringify(rel)} is not in the index`;
            found.push({ rel, isDir: dirent.isDirectory() });
            if (found.length > UNLISTED_MAX)
                return `more than ${UNLISTED_MAX} entries are not in the index`;
        }
    }
    return found;
}
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

// EXTERNAL MODULE: ./node_modules/ignore/index.js
var ignore = __webpack_require__(298);
var ignore_default = /*#__PURE__*/__webpack_require__.n(ignore);
;// CONCATENATED MODULE: ./src/reap/ignored.ts
// Which untracked entries of a clean work tree git ignores, decided on the host as data, so that a stale
// sandbox holding only build output (`node_modules/`, `build/`) needs no helper container. Only rules the
// parent vouches for are used: the `.gitignore` files of the tree of HEAD, read from the PARENT's objects,
// each checked to be exactly what the index lists (which the fast path checked against the files). Rules
// a sandbox wrote (an untracked `.gitignore`, its `info/exclude`) could only make the host call ignored
// what git does not, or the reverse: where they exist, the host does not decide (the helper's git does).
//
// The matching is the `ignore` package's (the gitignore rules of git's documentation), for one
// `.gitignore` (where several apply to an entry, git decides), and only for patterns of a plain form
// (ignoredRules): anything else, and the host leaves the decision to git. src/reap/ignored.spec.ts compares it with git itself on generated
// patterns and paths, and must find no path called ignored that git does not ignore.





/** A `.gitignore` larger than this is left to git. */
const GITIGNORE_MAX = 64 * 1024;
/** Untracked entries walked in one sandbox before the host leaves it to git. */
const WALK_MAX = 5_000;
/**
 * Lines of the forms git and the `ignore` package read alike (ignored.spec.ts compares them with git): a
 * comment, a blank line, or a pattern of plain names with `*` and `?` where each path segment also holds
 * a plain character (a segment of wildcards only, such as `build/*\/`, the package matches differently).
 */
const SEGMENT = '[A-Za-z0-9._*?-]*[A-Za-z0-9._-][A-Za-z0-9._*?-]*';
const PLAIN_LINE = new RegExp(`^(?:#.*|!?/?(?:${SEGMENT}/)*${SEGMENT}/?)?$`);
/**
 * The rules of the trusted `.gitignore` files (folder `''` for the top, `a/b` for `a/b/.gitignore`), or why
 * the host cannot apply them exactly.
 */
function ignoredRules(files) {
    const levels = [...files].filter(([, text]) => text.split('\n').some((l) => l && !l.startsWith('#')));
    if (levels.length === 0)
        return { ignored: () => false };
    // One file's rules, as the package reads them (a folder it ignores hides what is below it), are git's;
    // across several files git's precedence (the deeper file first, for the path itself) differs from what
    // composing the package's answers gives, so several files are left to git.
    if (levels.length > 1)
        return { unsupported: 'more than one .gitignore applies' };
    const [dir, text] = levels[0];
    for (const line of text.replace(/\n$/, '').split('\n'))
        if (!PLAIN_LINE.test(line))
            return { unsupported: `${dir ? `${dir}/` : ''}.gitignore has a pattern of a form left to git` };
    const ig = ignore_default()({ ignorecase: false }).add(text);
    return {
        ignored(rel, isDir) {
            if (dir && !rel.startsWith(`${dir}/`))
                return false;
            const own = dir ? rel.slice(dir.length + 1) : rel;
            return ig.test(isDir ? `${own}/` : own).ignored;
        },
    };
}
/**
 * The untracked entries judged: a folder that is not ignored is walked (lstat only, bounded; links are
 * entries, never followed). `sandboxRules` says whether the sandbox has rules of its own (its
 * `info/exclude`): then only "all ignored" can be decided here. A `.gitignore` found among the untracked
 * entries is the sandbox's own rule: left to git.
 */
function judgeUntracked(worktree, unlisted, rules, sandboxRules) {
    const files = untrackedFiles(worktree, unlisted, rules);
    if (!Array.isArray(files))
        return files;
    if (files.length === 0)
        return { ignoredOnly: true };
    if (sandboxRules)
        return { unsure: 'its own info/exclude may ignore what is untracked' };
    return { ignoredOnly: false, untracked: files.length };
}
/** The untracked files (and nested repositories) git would report, as `git ls-files -o --exclude-standard`. */
function untrackedFiles(worktree, unlisted, rules) {
    const untracked = [];
    let seen = 0;
    const pending = [...unlisted];
    while (pending.length) {
        const entry = pending.pop();
        if (++seen > WALK_MAX)
            return { unsure: `more than ${WALK_MAX} untracked entries` };
        if (external_node_path_.posix.basename(entry.rel) === '.gitignore')
            return { unsure: `${entry.rel} is a .gitignore the parent does not vouch for` };
        if (rules.ignored(entry.rel, entry.isDir))
            continue;
        if (!entry.isDir) {
            untracked.push(entry.rel);
            continue;
        }
        // A nested repository is one entry for git, never entered.
        const dir = external_node_path_.join(worktree, entry.rel);
        if (lstat(external_node_path_.join(dir, '.git'))) {
            untracked.push(`${entry.rel}/`);
            continue;
        }
        // Read one entry at a time: a folder of a million names is not listed whole.
        let listing;
        try {
            listing = external_node_fs_.opendirSync(dir);
        }
        catch {
            return { unsure: `${entry.rel} cannot be listed` };
        }
        try {
            for (let dirent = listing.readSync(); dirent; dirent = listing.readSync()) {
                if (seen + pending.length > WALK_MAX)
                    return { unsure: `more than ${WALK_MAX} untracked entries` };
                pending.push({ rel: `${entry.rel}/${dirent.name}`, isDir: dirent.isDirectory() });
            }
        }
        catch {
            return { unsure: `${entry.rel} cannot be listed` };
        }
        finally {
            listing.closeSync();
        }
    }
    return untracked;
}
/** The folders whose `.gitignore` rules apply to these entries: each one's ancestors, the top (`''`) too. */
function ruleFolders(unlisted) {
    const dirs = new Set(['']);
    for (const { rel } of unlisted)
        for (let dir = external_node_path_.posix.dirname(rel); dir !== '.'; dir = external_node_path_.posix.dirname(dir))
            dirs.add(dir);
    return [...dirs];
}
/** Whether `info/exclude` of a sandbox's git folder holds any rule (not only comments and blank lines). */
function hasOwnRules(excludeText) {
    return (excludeText ?? '').split('\n').some((line) => line.trim() !== '' && !line.startsWith('#'));
}
/**
 * The `.gitignore` files a question needs, as `cat-file` names them: each folder's in `headTree`. A
 * caller may have them read beforehand (`known` of judgeUntrackedInParent).
 */
function gitignoreNames(headTree, untracked) {
    return ruleFolders(untracked.unlisted).map((dir) => objectName(headTree, dir));
}
/**
 * `known`: the `.gitignore` files already read from the parent (gitignoreNames), within GITIGNORE_MAX;
 * git is asked only when it lacks one.
 */
async function judgeUntrackedInParent(git, parent, questions, known) {
    const verdicts = new Map();
    const asked = new Map();
    const folders = new Map(questions.map((q) => [q.key, ruleFolders(q.untracked.unlisted)]));
    for (const q of questions)
        for (const dir of folders.get(q.key))
            asked.set(objectName(q.headTree, dir), null);
    const texts = new Map();
    const read = await readGitignores(git, parent, asked, texts, known);
    if (!read) {
        for (const q of questions)
            verdicts.set(q.key, { unsure: 'the parent could not list its .gitignore files' });
        return verdicts;
    }
    for (const q of questions) {
        const files = new Map();
        let problem;
        for (const dir of folders.get(q.key)) {
            const blob = asked.get(objectName(q.headTree, dir)) ?? null;
            // What the index lists there must be HEAD's own file (or nothing where HEAD has none).
            if ((blob?.oid ?? undefined) !== q.untracked.gitignores.get(dir)) {
                problem = `${dir ? `${dir}/` : ''}.gitignore is not HEAD's`;
                break;
            }
            if (!blob)
                continue;
            const text = texts.get(blob.oid);
            if (text === undefined) {
                problem = `${dir ? `${dir}/` : ''}.gitignore could not be read from the parent`;
                break;
            }
            files.set(dir, text);
        }
        if (problem) {
            verdicts.set(q.key, { unsure: problem });
            continue;
        }
        const rules = ignoredRules(files);
        if ('unsupported' in rules) {
            verdicts.set(q.key, { unsure: rules.unsupported });
            continue;
        }
        const exclude = (0,ref_files/* readBounded */.CB)(external_node_path_.join(q.gitDir, 'info', 'exclude'), GITIGNORE_MAX);
        const ownRules = 'error' in exclude || ('data' in exclude && hasOwnRules(exclude.data.toString('utf8')));
        verdicts.set(q.key, judgeUntracked(q.worktree, q.untracked.unlisted, rules, ownRules));
    }
    return verdicts;
}
/**
 * HEAD's `.gitignore` files that `asked` names (`<tree>:<dir>/.gitignore`), read from the parent: each
 * name's blob into `asked`, and the text of each blob within GITIGNORE_MAX into `texts`. All in one
 * `cat-file --batch` when every file is within that size; otherwise in two steps, sizes first, so that a
 * larger one is never read. False when the parent could not list them.
 */
async function readGitignores(git, parent, asked, texts, known) {
    const names = [...asked.keys()];
    const readBefore = known && names.every((name) => known.has(name) && (known.get(name)?.body.length ?? 0) <= GITIGNORE_MAX);
    const atOnce = readBefore ? known : await git.readSmallObjects(parent.path, names, GITIGNORE_MAX);
    if (atOnce) {
        for (const name of names) {
            const object = atOnce.get(name);
            const blob = object?.type === 'blob' ? object : undefined;
            asked.set(name, blob ? { oid: blob.oid, size: blob.body.length } : null);
            if (blob)
                texts.set(blob.oid, blob.body.toString('utf8'));
        }
        return true;
    }
    const found = await git.exec(parent.path, ['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'], { input: Buffer.from(`${names.join('\n')}\n`) });
    const lines = found.stdout.split('\n');
    if (found.exitCode !== 0 || lines.length < names.length)
        return false;
    names.forEach((name, i) => {
        const [oid, type, size] = lines[i].split(' ');
        asked.set(name, git_commands/* OID */.V.test(oid) && type === 'blob' ? { oid, size: Number(size) } : null);
    });
    for (const blob of new Set([...asked.values()].filter((b) => !!b))) {
        if (texts.has(blob.oid) || blob.size > GITIGNORE_MAX)
            continue;
        const out = await git.exec(parent.path, ['cat-file', 'blob', blob.oid]);
        if (out.exitCode === 0)
            texts.set(blob.oid, out.stdout);
    }
    return true;
}
/** `<tree>:<folder>/.gitignore`, as `cat-file` names it. */
function objectName(tree, dir) {
    return `${tree}:${dir ? `${dir}/` : ''}.gitignore`;
}

;// CONCATENATED MODULE: ./src/reap/parent-check.ts




/**
 * Objects read with their content in the parent check's one git process: commits and tags are far
 * smaller; a `.gitignore` is read only within this (ignored.ts).
 */
const OBJECT_MAX = GITIGNORE_MAX;
/** Unsaved commits counted per sandbox up to this many; past it, the count is a lower bound. */
const MAX_COUNTED = 10_000;
/**
 * `alsoRead`: more objects the caller wants read (`<tree>:<path>` names of small files: HEAD's
 * `.gitignore` files), in the same git process where every object is small.
 */
async function checkAgainstParent(git, parent, sandboxes, alsoRead = []) {
    const verdicts = new Map();
    const valid = sandboxes.filter((s) => {
        const bad = [s.headOid, ...s.named].find((oid) => !git_commands/* OID */.V.test(oid));
        if (bad !== undefined)
            verdicts.set(s.key, {
                error: `it names an object that is no object name: ${JSON.stringify(bad.slice(0, 80))}`,
            });
        return bad === undefined;
    });
    if (valid.length === 0)
        return { verdicts };
    const objects = [...new Set(valid.flatMap((s) => s.named))];
    const heads = [...new Set(valid.map((s) => s.headOid))];
    const facts = await objectFacts(git, parent, objects, heads, alsoRead);
    if ('error' in facts) {
        for (const s of valid)
            verdicts.set(s.key, { error: facts.error });
        return { verdicts };
    }
    const { types, trees, read } = facts;
    // Commits and tags the parent has: which commits do they reach that nothing saved reaches? With each
    // such commit's parents, so that every sandbox's own commits can be counted from the one answer.
    const walkable = objects.filter((oid) => types.get(oid) === 'commit' || types.get(oid) === 'tag');
    const unsavedFrom = async (revs) => {
        const graph = new Map();
        if (!walkable.length)
            return graph;
        const list = await git.exec(parent.path, ['rev-list', '--stdin', '--parents', '--not', ...revs], {
            input: Buffer.from(`${walkable.join('\n')}\n`),
        });
        if (list.exitCode !== 0)
            return {
                error: `git rev-list failed in the parent: ${firstLine(list.stderr) || `exit ${list.exitCode}`}`,
            };
        for (const line of list.stdout.split('\n')) {
            const [commit, ...parents] = line.split(' ');
            if (commit)
                graph.set(commit, parents);
        }
        return graph;
    };
    // What saves a commit in every parent first. Only when that leaves a commit unsaved (or the parent lacks
    // one) is the configuration read: a parent with no remote counts its branches too, walked again. Where
    // every commit named is itself what a remote-tracking ref or tag names (read as data: a stale
    // sandbox's branch that was pushed as it is, or a HEAD at origin's), nothing is left to walk.
    const lacking = objects.some((oid) => types.get(oid) === 'missing');
    let unsavedGraph = atSavingTips(parent, walkable, types, lacking)
        ? new Map()
        : await unsavedFrom(sandbox_saved/* ALWAYS_SAVING */.Du);
    let hasRemote;
    if (!('error' in unsavedGraph) && (unsavedGraph.size > 0 || lacking)) {
        const saved = await (0,sandbox_saved/* savedRefs */.EY)(git, parent.path);
        hasRemote = saved.hasRemote;
        if (!saved.hasRemote)
            unsavedGraph = await unsavedFrom(saved.revs);
    }
    if ('error' in unsavedGraph) {
        for (const s of valid)
            verdicts.set(s.key, { error: unsavedGraph.error });
        return { verdicts, read };
    }
    const peeled = await peelTags(git, parent, walkable.filter((oid) => types.get(oid) === 'tag'));
    for (const s of valid) {
        const verdict = {
            headTree: types.get(s.headOid) === 'commit' ? trees.get(s.headOid) : undefined,
            hasRemote,
        };
        let missing = 0;
        const tips = [];
        for (const oid of s.named) {
            const type = types.get(oid);
            if (type === 'missing')
                missing++;
            else if (type === 'commit')
                tips.push(oid);
            else if (type === 'tag') {
                const commit = peeled.get(oid);
                if (commit === undefined)
                    verdict.error ??= `a tag it names (${oid.slice(0, 12)}) could not be followed`;
                else
                    tips.push(commit);
            }
            else
                verdict.error ??= `a ref names ${oid.slice(0, 12)}, which is ${type === 'odd' ? 'not understood' : `a ${type}`}`;
        }
        const counted = countReachable(unsavedGraph, tips, MAX_COUNTED);
        // A commit the parent lacks is unsaved, and what it reaches cannot be counted: a lower bound.
        if (counted.count + missing > 0)
            verdict.unsaved = {
                count: counted.count + missing,
                ...(counted.stopped || missing > 0 ? { atLeast: true } : {}),
            };
        verdicts.set(s.key, verdict);
    }
    return { verdicts, read };
}
/**
 * The type of each object, and the tree of each head that is a commit. In one `cat-file --batch` when
 * every object (with `alsoRead`'s) is within OBJECT_MAX: a commit's content names its tree. Otherwise
 * (a larger object named, git's answer not understood), `--batch-check` answers without content, and
 * `alsoRead` is left to the caller.
 */
async function objectFacts(git, parent, objects, heads, alsoRead) {
    const types = new Map();
    const trees = new Map();
    const oids = [...new Set([...objects, ...heads])];
    const atOnce = await git.readSmallObjects(parent.path, [...new Set([...oids, ...alsoRead])], OBJECT_MAX);
    if (atOnce) {
        for (const oid of oids) {
            const object = atOnce.get(oid);
            types.set(oid, object === null ? 'missing' : object?.oid === oid ? object.type : 'odd');
            if (object?.type !== 'commit')
                continue;
            const tree = /^tree ([0-9a-f]+)\n/.exec(object.body.toString('latin1', 0, 100))?.[1];
            if (tree && git_commands/* OID */.V.test(tree))
                trees.set(oid, tree);
        }
        return { types, trees, read: new Map(alsoRead.map((name) => [name, atOnce.get(name) ?? null])) };
    }
    const asked = [...objects, ...heads.map((h) => `${h}^{tree}`)];
    const found = await git.exec(parent.path, ['cat-file', '--batch-check'], {
        input: Buffer.from(`${asked.join('\n')}\n`),
    });
    const lines = found.stdout.split('\n');
    if (found.exitCode !== 0 || lines.length < asked.length)
        return {
            error: `git cat-file failed in the parent: ${firstLine(found.stderr) || `exit ${found.exitCode}`}`,
        };
    objects.forEach((oid, i) => types.set(oid, batchType(lines[i], oid)));
    heads.forEach((head, i) => {
        const [tree, type] = lines[objects.length + i].split(' ');
        if (type === 'tree' && git_commands/* OID */.V.test(tree))
            trees.set(head, tree);
    });
    return { types, trees };
}
/** True when every object to walk is a commit that the parent's remote-tracking refs or tags name. */
function atSavingTips(parent, walkable, types, lacking) {
    if (lacking || !walkable.length || walkable.some((oid) => types.get(oid) !== 'commit'))
        return false;
    const tips = readSavingTips(parent.gitDir);
    return !!tips && walkable.every((oid) => tips.has(oid));
}
/**
 * The commits of `graph` (commit to parents: the unsaved commits, closed under their unsaved parents) that
 * `tips` reach, counted up to `limit`.
 */
function countReachable(graph, tips, limit) {
    const seen = new Set();
    const pending = tips.filter((t) => graph.has(t));
    while (pending.length) {
        const commit = pending.pop();
        if (seen.has(commit))
            continue;
        if (seen.size >= limit)
            return { count: seen.size, stopped: true };
        seen.add(commit);
        for (const p of graph.get(commit) ?? [])
            if (graph.has(p) && !seen.has(p))
                pending.push(p);
    }
    return { count: seen.size, stopped: false };
}
/** `<oid> <type> <size>` or `<oid> missing`. */
function batchType(line, oid) {
    const [name, type] = (line ?? '').split(' ');
    if (type === 'missing')
        return 'missing';
    if (name !== oid || !type)
        return 'odd';
    return type;
}
/**
 * rev-list peels a tag to its commit and prints the commit: the commits annotated tags point to. A tag
 * that does not end at a commit (a tagged tree or blob) gets no entry.
 */
async function peelTags(git, parent, tags) {
    const peeled = new Map();
    if (tags.length === 0)
        return peeled;
    const out = await git.exec(parent.path, ['cat-file', '--batch-check'], {
        input: Buffer.from(`${tags.map((t) => `${t}^{commit}`).join('\n')}\n`),
    });
    if (out.exitCode !== 0)
        return peeled;
    out.stdout
        .split('\n')
        .slice(0, tags.length)
        .forEach((line, i) => {
        const [commit, type] = line.split(' ');
        if (type === 'commit' && git_commands/* OID */.V.test(commit))
            peeled.set(tags[i], commit);
    });
    return peeled;
}
function firstLine(text) {
    return text.trim().split('\n')[0] ?? '';
}

;// CONCATENATED MODULE: ./src/reap/work.ts











/** Parents checked at once (each: two or three git processes, a helper container when one is needed). */
const work_PARENTS_IN_FLIGHT = 4;
/** Checks registered sandboxes of live parents; returns a report per sandbox key. */
async function checkWork(sandboxes, deps) {
    const reports = new Map();
    const byParent = new Map();
    for (const s of sandboxes) {
        if (!s.parent || !isCheckable(s))
            continue;
        const early = earlyFinding(s);
        if (early) {
            reports.set(s.key, { work: early });
            continue;
        }
        const group = byParent.get(s.parent.gitDir) ?? { parent: s.parent, sandboxes: [] };
        group.sandboxes.push(s);
        byParent.set(s.parent.gitDir, group);
    }
    // A few parents at a time: one's git or helper container runs while another's files are read.
    await inParallel([...byParent.values()], work_PARENTS_IN_FLIGHT, async ({ parent, sandboxes: group }) => {
        const found = await checkSplittingFailures(parent, group, deps);
        for (const [key, report] of found)
            reports.set(key, report);
    });
    return reports;
}
/**
 * A parent's sandboxes checked together; when that fails, each half again, down to the one sandbox that
 * fails alone: it is reported unknown (so kept) with the reason, and every other gets its real verdict.
 */
async function checkSplittingFailures(parent, group, deps) {
    try {
        return await checkParentGroup(parent, group, deps);
    }
    catch (error) {
        if (group.length === 1) {
            const detail = `its check failed: ${JSON.stringify(error.message)}`;
            return new Map([[group[0].key, { work: { state: 'unknown', detail } }]]);
        }
        const half = Math.ceil(group.length / 2);
        const first = await checkSplittingFailures(parent, group.slice(0, half), deps);
        const second = await checkSplittingFailures(parent, group.slice(half), deps);
        return new Map([...first, ...second]);
    }
}
/** What is decided without a look inside: a half-made sandbox, a suspicious or broken one. */
function earlyFinding(s) {
    // The command never ran in a sandbox whose creation was interrupted (creation comes first).
    if (s.recorded === 'creating')
        return { state: 'clean' };
    if (s.suspicious)
        return { state: 'unknown', detail: `suspicious: ${s.suspicious}` };
    if (s.broken)
        return { state: 'unknown', detail: s.broken };
    return undefined;
}
async function checkParentGroup(parent, group, deps) {
    const volumes = group.filter((s) => s.volume);
    const disks = group.filter((s) => s.hostPath);
    const inspected = volumes.length
        ? await inspectInHelpers(deps.engine, deps.image, parent, volumes.map((s) => request(s, { size: true })))
        : new Map();
    // A linked worktree's branch is resolved in the parent.
    const histories = await diskHistories(disks, parent, deps.git);
    for (const s of volumes) {
        const work = inspected.get(s.key)?.work;
        histories.set(s.key, !work
            ? { error: inspected.get(s.key)?.error ?? 'the volume was not inspected' }
            : 'error' in work
                ? work
                : { ...work, headRef: s.headRef });
    }
    const named = [];
    for (const [key, h] of histories)
        if (!('error' in h))
            named.push({ key, headOid: h.headOid, named: h.named });
    // Disk: the filesystem proves clean where it can, against the tree the index records: its untracked
    // entries say which of HEAD's .gitignore files the parent reads beside its answer (one git process).
    const proofs = new Map();
    const gitignores = new Set();
    for (const s of disks) {
        const history = histories.get(s.key);
        if (!history || 'error' in history)
            continue;
        const indexed = proofOf(s.hostPath, gitDirOf(s), history.headOid.length / 2);
        if (!indexed)
            continue;
        proofs.set(s.key, indexed);
        const { proof, rootTree } = indexed;
        if (rootTree && !proof.clean && proof.untracked)
            for (const name of gitignoreNames(rootTree, proof.untracked))
                gitignores.add(name);
    }
    const { verdicts, read } = await checkAgainstParent(deps.git, parent, named, [...gitignores]);
    // The proofs stand where the index's tree is HEAD's; untracked entries are judged with the parent's
    // ignore rules; the rest goes to one helper.
    const uncommitted = new Map();
    const proved = new Set();
    const unsure = [];
    const questions = [];
    for (const s of disks) {
        const verdict = verdicts.get(s.key);
        if (!verdict || verdict.error || verdict.unsaved)
            continue; // work found or check failed: no need
        const indexed = proofs.get(s.key);
        const proof = verdict.headTree && indexed ? matchHeadTree(indexed, verdict.headTree) : undefined;
        if (proof?.clean) {
            uncommitted.set(s.key, { value: 0 });
            proved.add(s.key);
        }
        else if (proof?.untracked)
            questions.push({
                key: s.key,
                worktree: s.hostPath,
                gitDir: gitDirOf(s),
                headTree: verdict.headTree,
                untracked: proof.untracked,
            });
        else
            unsure.push(s);
    }
    if (questions.length) {
        const judged = await judgeUntrackedInParent(deps.git, parent, questions, read);
        for (const s of disks) {
            const verdict = judged.get(s.key);
            if (!verdict)
                continue;
            if ('unsure' in verdict)
                unsure.push(s);
            else {
                uncommitted.set(s.key, { value: verdict.ignoredOnly ? 0 : verdict.untracked });
                if (verdict.ignoredOnly)
                    proved.add(s.key);
            }
        }
    }
    const refused = unsure.length ? await deps.diskHelpersRefused?.() : undefined;
    if (refused) {
        for (const s of unsure)
            uncommitted.set(s.key, { error: `not inspected: ${refused}` });
    }
    else if (unsure.length) {
        const looked = await inspectInHelpers(deps.engine, deps.image, parent, unsure.map((s) => request(s, { headOid: histories.get(s.key).headOid })));
        for (const s of unsure) {
            const work = looked.get(s.key)?.work;
            uncommitted.set(s.key, work && !('error' in work)
                ? work.uncommitted
                : { error: work?.error ?? looked.get(s.key)?.error ?? 'not inspected' });
        }
    }
    for (const s of volumes) {
        const work = inspected.get(s.key)?.work;
        if (work && !('error' in work))
            uncommitted.set(s.key, work.uncommitted);
    }
    const reports = new Map();
    for (const s of group) {
        const history = histories.get(s.key);
        const work = finding(history, verdicts.get(s.key), uncommitted.get(s.key));
        reports.set(s.key, {
            work,
            sizeBytes: inspected.get(s.key)?.sizeBytes,
            provedByFilesystem: proved.has(s.key) || undefined,
        });
    }
    return reports;
}
/** A sandbox's git folder read as data; what throws (a trap in its folders) is that sandbox's error. */
function readGuarded(read) {
    try {
        return read();
    }
    catch (error) {
        return { ok: false, error: `its .git could not be read: ${(0,sandbox_text/* sandboxText */.dX)(error.message, 500)}` };
    }
}
/** The filesystem's proof; a walk that throws proves nothing (the helper looks instead). */
function proofOf(worktree, gitDir, hashBytes) {
    try {
        return proveAgainstIndex(worktree, gitDir, hashBytes);
    }
    catch {
        return undefined;
    }
}
function request(s, extra) {
    const { headOid, ...rest } = extra;
    const target = s.volume
        ? { volume: s.volume, name: s.sandbox }
        : s.linked
            ? { hostPath: s.hostPath, gitDir: s.linked.adminDir, headOid: headOid }
            : { hostPath: s.hostPath };
    return { key: s.key, target, work: true, ...rest };
}
/**
 * HEAD and refs of disk sandboxes, read as data from their git folders (a linked worktree's from its
 * registration); a linked worktree's branch is the parent's, resolved there in one git process.
 */
async function diskHistories(disks, parent, git) {
    const histories = new Map();
    const reads = disks.map((s) => {
        const gitDir = gitDirOf(s);
        return {
            s,
            gitDir,
            read: readGuarded(() => (s.linked ? readLinkedGit(gitDir) : readSandboxGit(gitDir))),
        };
    });
    const branches = reads.flatMap(({ read }) => read.ok && !read.headOid && read.headRef ? [read.headRef] : []);
    const tips = await branchTips(git, parent, [...new Set(branches)]);
    for (const { s, gitDir, read } of reads) {
        if (!read.ok) {
            histories.set(s.key, { error: read.error });
            continue;
        }
        let headOid = read.headOid;
        if (!headOid && read.headRef) {
            if ('error' in tips) {
                histories.set(s.key, { error: tips.error });
                continue;
            }
            headOid = tips.get(read.headRef);
            if (!headOid) {
                histories.set(s.key, { error: `HEAD names ${read.headRef}, which the parent does not have` });
                continue;
            }
        }
        histories.set(s.key, {
            headOid: headOid,
            named: [...new Set([headOid, ...read.named])],
            operation: operationInProgress(gitDir),
            headRef: read.headRef,
        });
    }
    return histories;
}
function finding(history, verdict, uncommitted) {
    if ('error' in history)
        return summarizeWork({ uncommitted: { error: history.error }, unsaved: { error: history.error } });
    const unsaved = !verdict
        ? { error: 'the parent was not asked' }
        : verdict.error
            ? { error: verdict.error }
            : {
                value: verdict.unsaved && {
                    ...verdict.unsaved,
                    branch: (0,sandbox_saved/* branchOf */.W0)(history.headRef),
                    hasRemote: verdict.hasRemote !== false,
                },
            };
    return summarizeWork({
        operation: history.operation,
        uncommitted: uncommitted ?? { error: 'not checked' },
        unsaved,
    });
}

;// CONCATENATED MODULE: ./src/reap/look-closer.ts














/** The tools, then the scan in a log group of its own (`tell`: with a line that says what it found). */
async function openReaper(options, ui, { tell = false, tools } = {}) {
    const engine = tools?.engine ?? (0,engine_engine/* createEngine */.P)(options.engine);
    const helperImage = helperImageOnDemand(engine);
    const git = tools?.git ?? (await (0,engine_git/* createGit */.lD)());
    const scan = await ui.group('Scan', async () => {
        const started = Date.now();
        const found = await scanSandboxes({
            worktreeRoot: options.worktreeRoot,
            volumePrefix: options.volumePrefix,
            git,
            engine,
            image: helperImage,
        });
        if (tell)
            ui.info(`Found ${found.sandboxes.length} entries under ${found.root} and in volumes ${options.volumePrefix}-* (${((Date.now() - started) / 1000).toFixed(2)} s).`);
        return found;
    });
    return {
        git,
        engine,
        helperImage,
        scan,
        diskHelpersRefused: await helpersRefusal(engine, helperImage, scan, ui),
    };
}
/**
 * Does the engine see the root where the reaper does? Where the action's own mounts say no, at once;
 * else proved once, before the first helper binds a disk sandbox (most reaps of disk sandboxes start
 * none). If not, one warning says so, and the disk sandboxes only a helper could judge are kept, not
 * inspected.
 */
async function helpersRefusal(engine, image, scan, ui) {
    const warnUnseen = (unseen) => {
        if (!unseen)
            return undefined;
        ui.warning(`${unseen} Disk sandboxes that only a helper container could judge are kept, not inspected; the rest is handled as usual.`);
        return `the ${engine.name} engine does not see the worktree-root ${scan.root} (see the warning)`;
    };
    const outOfView = warnUnseen(await rootOutOfView(engine, scan));
    let refusal;
    return () => (refusal ??= outOfView ? Promise.resolve(outOfView) : rootUnproven(engine, image, scan).then(warnUnseen));
}
const REAP_ROOT_FIX = "Run the reap job where the runs that made the sandboxes ran, with the same worktree-root, in a folder the engine shares with the action (a job container: under the runner's work folder, /__w; Actions Runner Controller in Docker-in-Docker mode: under /home/runner/_work)";
/**
 * Whether the engine sees the worktree root where the reaper does, as a run checks its folders, in two
 * steps. `rootOutOfView` first, with no engine call on a plain host (host-paths.ts): in a job container
 * the root must lie under one of its mounts. `rootUnproven` before the first helper binds a disk sandbox
 * (the probe of engine-probe.ts: a Docker-in-Docker engine must share the root, a remote engine never
 * does). Each: undefined when it does, or when the scan found no disk sandbox; else why not, naming the
 * root and the fix.
 */
async function rootOutOfView(engine, scan) {
    if (!scan.sandboxes.some((s) => s.hostPath))
        return undefined;
    return rootCheck(engine, scan, async (root) => (0,host_paths/* requireVisible */.Qe)(await engine.hostView(), [root]));
}
async function rootUnproven(engine, image, scan) {
    if (!scan.sandboxes.some((s) => s.hostPath))
        return undefined;
    // An image that cannot be made is no answer about the root: each helper that needs it says why.
    const made = await image().catch(() => undefined);
    if (!made)
        return undefined;
    return rootCheck(engine, scan, async (root) => {
        await (await (0,engine_probe/* probeEngineView */.Gn)(engine, made, [root])).remove();
    });
}
async function rootCheck(engine, scan, check) {
    try {
        await check({ path: scan.root, what: 'worktree-root', fix: REAP_ROOT_FIX });
        return undefined;
    }
    catch (error) {
        if (error instanceof host_paths/* HostPathError */.mL)
            return error.message;
        return `The ${engine.name} engine could not be shown to see the worktree-root ${scan.root} (${error.message}). ${REAP_ROOT_FIX}.`;
    }
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
async function lookCloser(stale, facts, 
/** `usage`: the containers' and processes' use, when the caller asked already (`observeUsage`). */
deps) {
    if (stale.length === 0)
        return new Map();
    // Before any work check: those start helper containers of their own, which use the volumes.
    const usage = await (deps.usage ?? observeUsage(deps.engine));
    // A sandbox whose use cannot be told is taken for in use (kept), and the others go on.
    const reasons = await inParallel(stale, 16, (s) => inUseReason(s, usage).catch((error) => `its use could not be told: ${JSON.stringify(error.message)}`));
    const free = stale.filter((s, i) => {
        facts.get(s.key).inUse = reasons[i];
        return !reasons[i];
    });
    const checkable = free.filter(isCheckable);
    for (const s of free) {
        if (!s.orphan && !isCheckable(s))
            facts.get(s.key).work = {
                state: 'unknown',
                detail: `unregistered: ${s.unregistered ?? 'its parent holds no record of it'}`,
            };
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
        // Sizes are for the report only: a volume that could not be measured stays unmeasured.
        const sizes = await inspectInHelpers(deps.engine, deps.image, undefined, unseen.map((s) => ({ key: s.key, target: { volume: s.volume, name: s.sandbox }, size: true })));
        for (const s of unseen)
            facts.get(s.key).sizeBytes = sizes.get(s.key)?.sizeBytes;
    }
    return reports;
}
async function observeUsage(engine) {
    const usage = { workingDirs: processWorkingDirs() };
    if (!engine)
        return { ...usage, containers: [] };
    try {
        const containers = await engine.listContainers();
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
    if (sandbox.linked?.locked)
        return 'its registration is locked (git worktree lock)';
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
    // The work tree and the command's home: a container or a process in either is using the sandbox.
    const dirs = [sandbox.hostPath, ...(sandbox.homePath ? [sandbox.homePath] : [])];
    const within = (p) => dirs.some((dir) => inside(p, dir));
    const mounting = usage.containers.filter((c) => c.running && c.binds.some(within));
    if (mounting.length)
        return `running container ${mounting.map((c) => c.name).join(', ')} mounts it`;
    if (!usage.workingDirs)
        return 'the working directories of processes cannot be read (no /proc)';
    const process = usage.workingDirs.find((p) => within(p.cwd));
    if (process)
        return `process ${process.pid} has its working directory in it`;
    return undefined;
}

;// CONCATENATED MODULE: ./src/reap/reap.ts
// The reaper, as a story: scan, judge the age of everything found, look closer at the stale only (in
// use? holding work?), decide, then carry out (or, in a dry run, only report). Independent of
// @actions/core: the action and a CLI both drive it through a Ui.









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
async function reap(options, ui = ui_ui/* silentUi */.y, tools) {
    const nowMs = options.now ?? Date.now();
    const opened = await openReaper(options, ui, { tell: true, tools });
    const { git, engine, helperImage, scan, diskHelpersRefused } = opened;
    if (!options.dryRun)
        await (0,leftovers/* reportLeftNetworkContainers */.S8)(engine, ui);
    for (const warning of scan.warnings)
        ui.warning(warning);
    const stale = scan.sandboxes.filter((s) => assessStaleness(s, options.retention, nowMs).stale);
    // Which containers use what is asked now, beside the removal of left probes: two engine calls at once.
    const usage = stale.length ? observeUsage(engine) : undefined;
    if (!options.dryRun) {
        const probes = await (0,engine_probe/* removeStaleProbes */.Lv)(engine);
        if (probes.length)
            ui.info(`Removed ${probes.length} helper(s) that killed runs left unstarted: ${probes.join(', ')}.`);
    }
    const facts = new Map(scan.sandboxes.map((s) => [s.key, factsOf(s)]));
    const byKey = new Map(scan.sandboxes.map((s) => [s.key, s]));
    const reports = await ui.group(`Look at ${stale.length} stale sandbox(es)`, async () => {
        const started = Date.now();
        const looked = await lookCloser(stale, facts, {
            git,
            engine,
            image: helperImage,
            diskHelpersRefused,
            usage,
        });
        const proved = [...looked.values()].filter((r) => r.provedByFilesystem).length;
        ui.info(`In use, work and size checked (${elapsed(started)}; ${proved} proved clean by the filesystem alone, ${looked.size - proved} looked at by the parent or a helper container).`);
        return looked;
    });
    const decisions = decide([...facts.values()], { ...options, archive: !!options.archiveDir }, nowMs);
    const lookedAt = new Set(stale.map((s) => s.key));
    await ui.group('Decisions', async () => {
        const lines = decisions.map((d) => (0,sandbox_text/* sandboxText */.dX)(`${d.action === 'remove' ? (options.dryRun ? 'would remove' : 'remove') : 'keep'} ${d.project}/${d.sandbox} [${d.isolation}, ${d.class}]: ${d.reason}`));
        // A line per decision, in one write; with the facts of each below it when debug lines are shown.
        if (!ui.debugging) {
            if (lines.length)
                ui.info(lines.join('\n'));
        }
        else
            decisions.forEach((d, i) => {
                ui.info(lines[i]);
                ui.debug(decisionTrace(d, facts.get(d.key), lookedAt.has(d.key), options.dryRun));
            });
    });
    const removals = decisions
        .filter((d) => d.action === 'remove')
        .map((decision) => ({ decision, sandbox: byKey.get(decision.key) }));
    let outcomes = new Map();
    if (!options.dryRun && removals.length) {
        outcomes = await ui.group(`Remove ${removals.length} sandbox(es)`, async () => {
            const started = Date.now();
            const deps = removalDeps(opened, {
                archiveDir: options.archiveDir,
                now: new Date(nowMs),
                log: (line) => ui.info(line),
            });
            const done = await carryOut(removals, deps);
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
function elapsed(started, ended = Date.now()) {
    return `${((ended - started) / 1000).toFixed(2)} s`;
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
    if (outcome.status === 'not removed')
        return { ...base, result: 'kept', failed: true };
    return { ...base, result: 'kept' };
}
/** What carrying out removals needs, from what the reaper opened with. */
function removalDeps(opened, options) {
    const { git, engine, helperImage, scan, diskHelpersRefused } = opened;
    return {
        git,
        engine,
        image: helperImage,
        root: scan.root,
        diskHelpersRefused,
        ...options,
    };
}

;// CONCATENATED MODULE: ./src/action/reap-action.ts
// Reap mode of the action: settings in, the reaper run, outputs (`reaped`, `kept`, `freed-bytes`) and a
// job summary out. The reaper itself (src/reap/) knows nothing of @actions/core.








/** GitHub keeps each output to 1 MiB; leave room for the rest. */
const OUTPUT_LIMIT = 900_000;
/** Rows of the summary's table; the summary as a whole is held under GitHub's 1 MiB by writeSummary. */
const SUMMARY_ROWS = 2500;
async function reapAction(settings) {
    // The facts behind every decision, in the step's debug log (ACTIONS_STEP_DEBUG).
    const ui = (0,action_ui/* actionUi */.V)();
    const result = await reap(reapOptionsFrom(settings), ui);
    const sorted = byInterest(result.sandboxes);
    const reaped = (0,markdown/* jsonRows */.GN)(sorted.filter(isReaped).map(toRecord), OUTPUT_LIMIT);
    const kept = (0,markdown/* jsonRows */.GN)(sorted.filter((s) => !isReaped(s)).map(toRecord), OUTPUT_LIMIT);
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
    const redaction = run_redaction/* Redaction */.ki.of([{ name: 'token', value: settings.token }]);
    await (0,step_summary/* writeSummary */.Sy)(redaction, summaryMarkdown({ ...result, sandboxes: sorted }, SUMMARY_ROWS));
    const failed = result.sandboxes.filter((s) => s.result === 'partly removed');
    if (failed.length)
        core/* warning */.$e(`${failed.length} sandbox(es) could only be partly removed; what is left is reported as not a sandbox from now on: ${failed.map((s) => s.where).join(', ')}`);
    // A sandbox that could not be removed is kept with its reason: a normal outcome, not the step's failure.
    const notRemoved = result.sandboxes.filter((s) => s.failed);
    if (notRemoved.length)
        core/* warning */.$e(`${notRemoved.length} sandbox(es) could not be removed and are kept: ${notRemoved.map((s) => `${s.where} (${JSON.stringify(s.detail ?? '')})`).join(', ')}`);
    return result;
}


/***/ }),

/***/ 3858:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Xo: () => (/* binding */ sharedLibraries),
/* harmony export */   cy: () => (/* binding */ LayerEntries),
/* harmony export */   mW: () => (/* binding */ hostImage),
/* harmony export */   tg: () => (/* binding */ HOST_IMAGE_PATH)
/* harmony export */ });
/* unused harmony export tarLayer */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8161);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_os__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_3__);
/* harmony import */ var _proc_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(729);
/* harmony import */ var _time_limits_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(1814);
// Images made on the spot from the runner's own files: the reaper's helper image (helper-image.ts: `sh`,
// `git` and a few tools) and the network sidecar's image (the libraries the runner's Node loads). Neither
// ever rests on the `image` input, which may lie.
//
// The layer is made here, byte for byte the same from the same files (sorted, times and owners zeroed),
// so its SHA-256 names it: the image is tagged with it and made once per engine and host. An image found
// under that tag is used only when its one layer is exactly that archive and its configuration sets
// nothing but PATH and its label; anything else under the tag is replaced. The programs this runs on the
// host (`ldd`, the engine's `import`) run under their time limits and are killed when they run out.






/** The PATH every such image sets, and the only variable. */
const HOST_IMAGE_PATH = '/usr/bin:/bin';
const made = new WeakMap();
/**
 * The image's name in this engine, made first when missing (once per engine object and repository: a
 * process has one; a failure is not remembered, so the next caller tries again).
 */
function hostImage(engine, spec) {
    let images = made.get(engine);
    if (!images)
        made.set(engine, (images = new Map()));
    let image = images.get(spec.repository);
    if (!image) {
        image = makeHostImage(engine, spec);
        images.set(spec.repository, image);
        image.catch(() => images.delete(spec.repository));
    }
    return image;
}
async function makeHostImage(engine, spec) {
    const layer = tarLayer(await spec.entries());
    const digest = (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256').update(layer).digest('hex');
    const image = `${spec.repository}:${digest.slice(0, 32)}`;
    if (await isOurs(engine, image, digest))
        return image;
    const dir = node_fs__WEBPACK_IMPORTED_MODULE_1__.mkdtempSync(node_path__WEBPACK_IMPORTED_MODULE_3__.join(process.env.RUNNER_TEMP || node_os__WEBPACK_IMPORTED_MODULE_2__.tmpdir(), 'worktree-sandbox-image-'));
    try {
        const file = node_path__WEBPACK_IMPORTED_MODULE_3__.join(dir, 'layer.tar');
        node_fs__WEBPACK_IMPORTED_MODULE_1__.writeFileSync(file, layer, { mode: 0o600 });
        const imported = await engine.exec([
            'import',
            '--change',
            `ENV PATH=${HOST_IMAGE_PATH}`,
            '--change',
            `LABEL ${spec.label}=${digest}`,
            '--',
            file,
            image,
        ], { purpose: `importing ${spec.what}` });
        if (imported.exitCode !== 0)
            throw engine.failure(['import', image], imported);
    }
    finally {
        node_fs__WEBPACK_IMPORTED_MODULE_1__.rmSync(dir, { recursive: true, force: true });
    }
    if (!(await isOurs(engine, image, digest)))
        throw new Error(`${spec.what} ${image} does not hold the layer it was made from`);
    return image;
}
/** The image under `image` is the one made from this layer, configured with nothing but PATH. */
async function isOurs(engine, image, digest) {
    const inspect = await engine.exec([
        'image',
        'inspect',
        '--format',
        '{{json .RootFS.Layers}} {{json .Config.Env}} {{json .Config.Entrypoint}} {{json .Config.Cmd}} {{json .Config.User}}',
        '--',
        image,
    ]);
    if (inspect.exitCode !== 0)
        return false;
    const [layers, env, entrypoint, cmd, user] = inspect.stdout.trim().split(' ');
    return (layers === JSON.stringify([`sha256:${digest}`]) &&
        env === JSON.stringify([`PATH=${HOST_IMAGE_PATH}`]) &&
        entrypoint === 'null' &&
        (cmd === 'null' || cmd === '[]') &&
        (user === '""' || user === 'null'));
}
/** Builds a layer's entries: files at their paths, with the folders above them. */
class LayerEntries {
    entries = new Map();
    dir(p, mode = 0o755) {
        this.entries.set(p, { type: 'dir', path: p, mode });
    }
    /** The folders above `p` that are not there yet. */
    parents(p) {
        for (let dir = node_path__WEBPACK_IMPORTED_MODULE_3__.posix.dirname(p); dir !== '/'; dir = node_path__WEBPACK_IMPORTED_MODULE_3__.posix.dirname(dir))
            if (!this.entries.has(dir))
                this.dir(dir);
    }
    /** A copy of the host's file `source` (its content, through links) at `p`. */
    file(p, source) {
        this.parents(p);
        this.entries.set(p, { type: 'file', path: p, mode: node_fs__WEBPACK_IMPORTED_MODULE_1__.statSync(source).mode & 0o755, source });
    }
    symlink(p, target) {
        this.parents(p);
        this.entries.set(p, { type: 'symlink', path: p, target });
    }
    has(p) {
        return this.entries.has(p);
    }
    /** Sorted by path, so that the same files make the same archive. */
    list() {
        return [...this.entries.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    }
}
/**
 * The shared libraries `ldd` says these programs load, the loader included (none for a static program),
 * in one ldd under its time limit.
 */
async function sharedLibraries(programs, what) {
    const result = await (0,_proc_js__WEBPACK_IMPORTED_MODULE_4__/* .runProcess */ .R3)('ldd', ['--', ...programs], {
        env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
        limit: { ms: (0,_time_limits_js__WEBPACK_IMPORTED_MODULE_5__/* .timeLimitMs */ .PI)('ldd'), purpose: `listing the libraries ${what} needs` },
    });
    const text = result.stdout + result.stderr;
    // With several files, ldd exits 1 when any is static ("not a dynamic executable"): that one has none.
    if (result.exitCode !== 0 && !/not a dynamic executable|statically linked/.test(text))
        throw new Error(`ldd failed: ${result.stderr.trim().split('\n')[0]}`);
    const missing = /^\s+(\S+) => not found/m.exec(result.stdout);
    if (missing)
        throw new Error(`ldd finds no ${missing[1]} for ${what}`);
    const libraries = [];
    for (const line of result.stdout.split('\n')) {
        const match = /^\s+(?:\S+\s+=>\s*)?(\/\S+)\s+\(0x/.exec(line);
        if (match)
            libraries.push(match[1]);
    }
    return [...new Set(libraries)];
}
// ---- the archive --------------------------------------------------------------------------------------
/** A POSIX (ustar) archive of the entries: the same bytes for the same files, whatever the clock. */
function tarLayer(entries) {
    const blocks = [];
    for (const entry of entries) {
        const name = entry.path.replace(/^\/+/, '') + (entry.type === 'dir' ? '/' : '');
        if (entry.type === 'file') {
            const data = node_fs__WEBPACK_IMPORTED_MODULE_1__.readFileSync(entry.source);
            blocks.push(header(name, '0', entry.mode, data.length, ''), data, padding(data.length));
        }
        else if (entry.type === 'dir')
            blocks.push(header(name, '5', entry.mode, 0, ''));
        else
            blocks.push(header(name, '2', 0o777, 0, entry.target));
    }
    blocks.push(Buffer.alloc(1024));
    return Buffer.concat(blocks);
}
function padding(size) {
    return Buffer.alloc((512 - (size % 512)) % 512);
}
function header(name, type, mode, size, link) {
    const block = Buffer.alloc(512);
    let prefix = '';
    let base = name;
    if (Buffer.byteLength(name) > 100) {
        const cut = name.lastIndexOf('/', name.length - 2);
        prefix = name.slice(0, cut);
        base = name.slice(cut + 1);
        if (Buffer.byteLength(base) > 100 || Buffer.byteLength(prefix) > 155)
            throw new Error(`${name} is too long a path for an image layer`);
    }
    if (Buffer.byteLength(link) > 100)
        throw new Error(`${link} is too long a link for an image layer`);
    const octal = (value, width) => value.toString(8).padStart(width - 1, '0') + '\0';
    block.write(base, 0, 100, 'utf8');
    block.write(octal(mode, 8), 100, 8, 'ascii');
    block.write(octal(0, 8), 108, 8, 'ascii'); // uid
    block.write(octal(0, 8), 116, 8, 'ascii'); // gid
    block.write(octal(size, 12), 124, 12, 'ascii');
    block.write(octal(0, 12), 136, 12, 'ascii'); // mtime
    block.write(' '.repeat(8), 148, 8, 'ascii'); // checksum, counted as spaces
    block.write(type, 156, 1, 'ascii');
    block.write(link, 157, 100, 'utf8');
    block.write('ustar\0', 257, 6, 'ascii');
    block.write('00', 263, 2, 'ascii');
    block.write(prefix, 345, 155, 'utf8');
    let sum = 0;
    for (const byte of block)
        sum += byte;
    block.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'ascii');
    return block;
}


/***/ })

};
