// `secret-scan`: the check before each way out of a run (a push, a saved patch, a posted reply). What a push
// or a patch carries is read on the host, from the parent's checked objects, through the hardened git
// wrapper: every added line of every commit that leaves (a secret added in one commit and removed in the
// next still leaves in the first), every path name those commits add, and every commit object as git
// stores it (secret-objects.ts: headers, `gpgsig`, the message's bytes), bounded in bytes and time. With
// `block` a finding stops that way out and fails the step, naming each finding by place and rule, never by
// value; with `warn` the findings are warnings. A read that could not be finished (too large, out of time,
// git failing) is a finding of its own: nothing passes unscanned under `block`.
import { randomBytes } from 'node:crypto';
import type { GitCommands } from '../engine/git-commands.js';
import { OID } from '../engine/git.js';
import { timeLimitMs } from '../engine/time-limits.js';
import type { SecretScanMode } from '../settings/settings.js';
import { sandboxText } from '../ui/sandbox-text.js';
import type { Ui } from '../ui/ui.js';
import { rawDiffPath } from './raw-commit.js';
import { readRawCommits, type ScanBudget } from './secret-objects.js';
import { loadLint, SecretScanner, type Finding, type Place } from './secret-scan.js';
import {
  knownSecrets,
  MIN_SECRET_LENGTH,
  needlesOf,
  shortSecrets,
  type Needle,
  type SecretSettings,
} from './secret-values.js';

/** The most of git's output read for one scan (the diff with its added and removed lines, raw commits). */
export const MAX_SCAN_BYTES = 256 * 1024 * 1024;

export interface SecretGate {
  mode: SecretScanMode;
  needles: readonly Needle[];
  /** Secrets too short to be searched for, by name: said once, at the first scan. */
  short: string[];
  ui: Ui;
  /** Told before a blocking failure: the sandbox is kept for a person to look at. */
  onBlocked?: () => void;
  /** Tests: a smaller byte bound. */
  maxBytes?: number;
}

/** The step fails with this when `block` found something: what was found, where, and what was held back. */
export class SecretScanBlocked extends Error {
  constructor(
    message: string,
    readonly findings: readonly Finding[],
  ) {
    super(message);
    this.name = 'SecretScanBlocked';
  }
}

/** The gate of a run: its mode, the known secrets' forms (each masked in the log from now on). */
export function secretGate(
  settings: SecretSettings & { secretScan: SecretScanMode },
  ui: Ui,
  onBlocked?: () => void,
): SecretGate {
  const secrets = knownSecrets(settings);
  const needles = needlesOf(secrets);
  for (const { value } of secrets) if (value) ui.mask(value);
  for (const { text } of needles) ui.mask(text);
  return { mode: settings.secretScan, needles, short: shortSecrets(secrets), ui, onBlocked };
}

/**
 * Scans the commits `revs` names (commit ids, then `--not` and refs or `--remotes`, as rev-list takes
 * them) in `repo`: `what` says where they were going (`the push to origin/feature`). Returns when they may
 * leave; throws SecretScanBlocked when they may not.
 */
export async function checkCommits(
  git: GitCommands,
  repo: string,
  revs: readonly string[],
  gate: SecretGate,
  what: string,
): Promise<void> {
  if (gate.mode === 'off') return;
  for (const rev of revs)
    if (
      rev.startsWith('-') ? !['--not', '--remotes'].includes(rev) : !OID.test(rev) && !rev.startsWith('refs/')
    )
      throw new Error(`Internal error: ${JSON.stringify(rev)} is not a revision the secret scan takes.`);
  sayShort(gate);
  const scanner = new SecretScanner(gate.needles, await loadLint());
  const limitMs = timeLimitMs('secret-scan');
  const budget: ScanBudget = {
    maxBytes: gate.maxBytes ?? MAX_SCAN_BYTES,
    bytes: 0,
    deadline: Date.now() + limitMs,
    limitMs,
  };
  const read = await readCommits(git, repo, revs, scanner, budget);
  // The commits themselves, as stored: after the diff, so that no piece mixes the two.
  if (!read.incomplete) read.incomplete = await readRawCommits(git, repo, read.oids, scanner, budget);
  await scanner.finish();
  const scanned = `${read.oids.length} commit(s) with their headers, ${read.paths} path name(s), ${read.lines} added line(s)`;
  verdict(gate, scanner, what, scanned, read.incomplete);
}

/** Scans a reply before it is posted (`where`: "reply"). Throws SecretScanBlocked when it may not go. */
export async function checkReply(text: string, gate: SecretGate): Promise<void> {
  if (gate.mode === 'off') return;
  sayShort(gate);
  const scanner = new SecretScanner(gate.needles, await loadLint());
  const max = gate.maxBytes ?? MAX_SCAN_BYTES;
  const over = Buffer.byteLength(text) > max;
  const lines = (over ? text.slice(0, max) : text).split(/\r?\n/);
  const place: Place = { kind: 'reply' };
  for (let i = 0; i < lines.length; i++) await scanner.add(place, i + 1, lines[i]);
  await scanner.finish();
  const incomplete = over ? `the reply is larger than the scan's bound (${mib(max)})` : undefined;
  verdict(gate, scanner, 'the reply', `${lines.length} line(s)`, incomplete);
}

function sayShort(gate: SecretGate): void {
  if (!gate.short.length) return;
  gate.ui.warning(
    `secret-scan: ${gate.short.join(', ')} ${gate.short.length > 1 ? 'are' : 'is'} shorter than ${MIN_SECRET_LENGTH} characters: not searched for.`,
  );
  gate.short = [];
}

interface CommitsRead {
  /** The commits the log listed, in its order. */
  oids: string[];
  paths: number;
  lines: number;
  /** Why not everything was read: then the scan is a finding of its own. */
  incomplete?: string;
}

/**
 * What the scan reads of the diff: each commit's changed paths (`--raw`, folders too: `-t`) and its added
 * lines, every file as text whatever git's guess or the repository's attributes (`-diff`, `binary`) say
 * (a secret in a generated file or a binary blob leaves as surely as one in source), no external diff or
 * textconv, merges against their first parent. A path a commit adds is new to its first parent, so every
 * name of every new tree is listed by the commit that brought it in (or is on origin already).
 */
export function scanLogArgs(format: string, revs: readonly string[]): string[] {
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
async function readCommits(
  git: GitCommands,
  repo: string,
  revs: readonly string[],
  scanner: SecretScanner,
  budget: ScanBudget,
): Promise<CommitsRead> {
  const marker = `wts-scan-${randomBytes(12).toString('hex')}`;
  const read: CommitsRead = { oids: [], paths: 0, lines: 0 };
  let state: 'raw' | 'header' | 'hunk' = 'header';
  let commit = '';
  let names: Place = { kind: 'path', commit };
  let file: Place | undefined;
  let newLine = 0;
  let wait: Promise<void> | undefined;
  const stop = new AbortController();
  const { maxBytes } = budget;
  const onLine = (line: string, stream: 'stdout' | 'stderr') => {
    if (stream !== 'stdout' || stop.signal.aborted) return;
    budget.bytes += line.length + 1;
    if (budget.bytes > maxBytes) {
      read.incomplete = `what it carries is larger than the scan's bound (over ${mib(maxBytes)} of diff)`;
      stop.abort();
      return;
    }
    if (line.startsWith(`${marker} `)) {
      commit = line.slice(marker.length + 1);
      if (!OID.test(commit)) {
        read.incomplete = 'git listed a commit id it should not';
        stop.abort();
        return;
      }
      read.oids.push(commit);
      names = { kind: 'path', commit };
      file = undefined;
      state = 'raw';
    } else if (state === 'raw' && line.startsWith(':')) {
      const name = rawDiffPath(line);
      if (name === undefined) return;
      read.paths++;
      // One place for all of a commit's names, line 0: a finding names the commit, never the path.
      wait = scanner.add(names, 0, name) ?? wait;
    } else if (line.startsWith('diff --git ')) {
      state = 'header';
      file = undefined;
    } else if (state === 'header') {
      if (line.startsWith('+++ ')) file = pathOf(line.slice(4), commit);
      else if (line.startsWith('@@ ')) {
        newLine = Number(/^@@ -\d+(?:,\d+)? \+(\d+)/.exec(line)?.[1] ?? 1);
        state = 'hunk';
      }
    } else if (line.startsWith('@@ ')) newLine = Number(/^@@ -\d+(?:,\d+)? \+(\d+)/.exec(line)?.[1] ?? 1);
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
    read.incomplete = `git could not list it (${sandboxText(result.stderrTail.slice(-2).join(' '), 300)})`;
  return read;
}

/** A `+++` line's path: `b/name`, `"b/na\tme"` (git's quoting kept, for the eye only), or /dev/null. */
function pathOf(raw: string, commit: string): Place | undefined {
  const name = raw.endsWith('\t') ? raw.slice(0, -1) : raw;
  if (name === '/dev/null') return undefined;
  const quoted = name.startsWith('"') && name.endsWith('"');
  const inner = quoted ? name.slice(1, -1) : name;
  return { kind: 'file', path: inner.startsWith('b/') ? inner.slice(2) : inner, commit };
}

function verdict(
  gate: SecretGate,
  scanner: SecretScanner,
  what: string,
  scanned: string,
  incomplete: string | undefined,
): void {
  const { ui } = gate;
  if (!scanner.findings.length && !incomplete) {
    ui.info(`Secret scan of ${what}: nothing found (${scanned}).`);
    return;
  }
  // A path name with a finding holds the secret, and any later commit may touch that file: no path shown.
  const hidePaths = scanner.findings.some((f) => f.place.kind === 'path');
  const lines = scanner.findings.map((finding) => describeFinding(finding, hidePaths));
  if (scanner.more) lines.push(`… and ${scanner.more} more report(s)`);
  if (incomplete) lines.push(`not scanned whole: ${incomplete}`);
  const count = scanner.findings.length + scanner.more;
  const head = `Secret scan of ${what}: ${count} finding(s)${incomplete ? ', and it could not be scanned whole' : ''} (${scanned})`;
  if (gate.mode === 'warn') {
    ui.warning(`${head}; secret-scan: warn lets it go on:\n${lines.map((l) => `  ${l}`).join('\n')}`);
    return;
  }
  gate.onBlocked?.();
  throw new SecretScanBlocked(
    `${head}. Nothing of it left (secret-scan: block); the sandbox keeps the work for a person to look at. Values are never shown:\n${lines.map((l) => `  ${l}`).join('\n')}`,
    scanner.findings,
  );
}

/**
 * `added line in src/app.js:12 of 0123456789ab: env API_KEY`, `author of 0123456789ab: token`: the place
 * and the rule, never the value. A path is sandbox text (escaped); a path name with a finding is not shown
 * (it holds the secret), and with `hidePaths` (some path name had a finding) no path is.
 */
export function describeFinding(finding: Finding, hidePaths = false): string {
  const { place, line, rule } = finding;
  if (place.kind === 'reply') return `reply, line ${line}: ${rule}`;
  const of = place.commit.slice(0, 12);
  let where: string;
  switch (place.kind) {
    case 'file':
      where = hidePaths
        ? `added line ${line} of ${of}, in a file whose path is not shown (a path name has a finding)`
        : `added line in ${sandboxText(place.path, 300)}:${line} of ${of}`;
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

function mib(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
}
