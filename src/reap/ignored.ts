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
import * as fs from 'node:fs';
import * as path from 'node:path';
import ignore from 'ignore';
import { OID, type GitCommands } from '../engine/git-commands.js';
import type { ParentRepository } from '../sandbox/repository.js';
import type { Unlisted, UntrackedEntries } from './clean-probe.js';
import { lstat, readBounded } from '../sandbox/sandbox-files.js';

/** A `.gitignore` larger than this is left to git. */
export const GITIGNORE_MAX = 64 * 1024;
/** Untracked entries walked in one sandbox before the host leaves it to git. */
const WALK_MAX = 5_000;

/**
 * Lines of the forms git and the `ignore` package read alike (ignored.spec.ts compares them with git): a
 * comment, a blank line, or a pattern of plain names with `*` and `?` where each path segment also holds
 * a plain character (a segment of wildcards only, such as `build/*\/`, the package matches differently).
 */
const SEGMENT = '[A-Za-z0-9._*?-]*[A-Za-z0-9._-][A-Za-z0-9._*?-]*';
const PLAIN_LINE = new RegExp(`^(?:#.*|!?/?(?:${SEGMENT}/)*${SEGMENT}/?)?$`);

export interface Rules {
  /** True when git would ignore `rel` (relative to the work tree; a folder when `isDir`). */
  ignored(rel: string, isDir: boolean): boolean;
}

/**
 * The rules of the trusted `.gitignore` files (folder `''` for the top, `a/b` for `a/b/.gitignore`), or why
 * the host cannot apply them exactly.
 */
export function ignoredRules(files: ReadonlyMap<string, string>): Rules | { unsupported: string } {
  const levels = [...files].filter(([, text]) => text.split('\n').some((l) => l && !l.startsWith('#')));
  if (levels.length === 0) return { ignored: () => false };
  // One file's rules, as the package reads them (a folder it ignores hides what is below it), are git's;
  // across several files git's precedence (the deeper file first, for the path itself) differs from what
  // composing the package's answers gives, so several files are left to git.
  if (levels.length > 1) return { unsupported: 'more than one .gitignore applies' };
  const [dir, text] = levels[0];
  for (const line of text.replace(/\n$/, '').split('\n'))
    if (!PLAIN_LINE.test(line))
      return { unsupported: `${dir ? `${dir}/` : ''}.gitignore has a pattern of a form left to git` };
  const ig = ignore({ ignorecase: false }).add(text);
  return {
    ignored(rel: string, isDir: boolean): boolean {
      if (dir && !rel.startsWith(`${dir}/`)) return false;
      const own = dir ? rel.slice(dir.length + 1) : rel;
      return ig.test(isDir ? `${own}/` : own).ignored;
    },
  };
}

export type UntrackedVerdict =
  /** Every untracked entry is ignored: not work. */
  | { ignoredOnly: true }
  /** Untracked files git would report (counted as `git status --untracked-files=all` lists them). */
  | { ignoredOnly: false; untracked: number }
  | { unsure: string };

/**
 * The untracked entries judged: a folder that is not ignored is walked (lstat only, bounded; links are
 * entries, never followed). `sandboxRules` says whether the sandbox has rules of its own (its
 * `info/exclude`): then only "all ignored" can be decided here. A `.gitignore` found among the untracked
 * entries is the sandbox's own rule: left to git.
 */
export function judgeUntracked(
  worktree: string,
  unlisted: readonly Unlisted[],
  rules: Rules,
  sandboxRules: boolean,
): UntrackedVerdict {
  const files = untrackedFiles(worktree, unlisted, rules);
  if (!Array.isArray(files)) return files;
  if (files.length === 0) return { ignoredOnly: true };
  if (sandboxRules) return { unsure: 'its own info/exclude may ignore what is untracked' };
  return { ignoredOnly: false, untracked: files.length };
}

/** The untracked files (and nested repositories) git would report, as `git ls-files -o --exclude-standard`. */
export function untrackedFiles(
  worktree: string,
  unlisted: readonly Unlisted[],
  rules: Rules,
): string[] | { unsure: string } {
  const untracked: string[] = [];
  let seen = 0;
  const pending = [...unlisted];
  while (pending.length) {
    const entry = pending.pop()!;
    if (++seen > WALK_MAX) return { unsure: `more than ${WALK_MAX} untracked entries` };
    if (path.posix.basename(entry.rel) === '.gitignore')
      return { unsure: `${entry.rel} is a .gitignore the parent does not vouch for` };
    if (rules.ignored(entry.rel, entry.isDir)) continue;
    if (!entry.isDir) {
      untracked.push(entry.rel);
      continue;
    }
    // A nested repository is one entry for git, never entered.
    const dir = path.join(worktree, entry.rel);
    if (lstat(path.join(dir, '.git'))) {
      untracked.push(`${entry.rel}/`);
      continue;
    }
    // Read one entry at a time: a folder of a million names is not listed whole.
    let listing: fs.Dir;
    try {
      listing = fs.opendirSync(dir);
    } catch {
      return { unsure: `${entry.rel} cannot be listed` };
    }
    try {
      for (let dirent = listing.readSync(); dirent; dirent = listing.readSync()) {
        if (seen + pending.length > WALK_MAX) return { unsure: `more than ${WALK_MAX} untracked entries` };
        pending.push({ rel: `${entry.rel}/${dirent.name}`, isDir: dirent.isDirectory() });
      }
    } catch {
      return { unsure: `${entry.rel} cannot be listed` };
    } finally {
      listing.closeSync();
    }
  }
  return untracked;
}

/** The folders whose `.gitignore` rules apply to these entries: each one's ancestors, the top (`''`) too. */
export function ruleFolders(unlisted: readonly Unlisted[]): string[] {
  const dirs = new Set<string>(['']);
  for (const { rel } of unlisted)
    for (let dir = path.posix.dirname(rel); dir !== '.'; dir = path.posix.dirname(dir)) dirs.add(dir);
  return [...dirs];
}

/** Whether `info/exclude` of a sandbox's git folder holds any rule (not only comments and blank lines). */
export function hasOwnRules(excludeText: string | undefined): boolean {
  return (excludeText ?? '').split('\n').some((line) => line.trim() !== '' && !line.startsWith('#'));
}

// Untracked entries of clean stale sandboxes judged on the host (ignored.ts), with the ignore rules the
// PARENT vouches for: the `.gitignore` blobs of the tree of each sandbox's HEAD, read from the parent's
// objects (host git on the parent only, a few processes per parent however many sandboxes), each
// checked to be the one the sandbox's index lists for that folder. Anything else: left to a helper.
export interface UntrackedQuestion {
  key: string;
  worktree: string;
  /** The sandbox's git folder (its `info/exclude` is its own rule). */
  gitDir: string;
  /** The tree of HEAD's commit, which the parent has. */
  headTree: string;
  untracked: UntrackedEntries;
}

type Blob = { oid: string; size: number } | null;

/** What the parent's objects answered, by name (null: no such object), as `GitCommands.readSmallObjects` reads them. */
export type ReadObjects = ReadonlyMap<string, { oid: string; type: string; body: Buffer } | null>;

/**
 * The `.gitignore` files a question needs, as `cat-file` names them: each folder's in `headTree`. A
 * caller may have them read beforehand (`known` of judgeUntrackedInParent).
 */
export function gitignoreNames(headTree: string, untracked: UntrackedEntries): string[] {
  return ruleFolders(untracked.unlisted).map((dir) => objectName(headTree, dir));
}

/**
 * `known`: the `.gitignore` files already read from the parent (gitignoreNames), within GITIGNORE_MAX;
 * git is asked only when it lacks one.
 */
export async function judgeUntrackedInParent(
  git: GitCommands,
  parent: ParentRepository,
  questions: readonly UntrackedQuestion[],
  known?: ReadObjects,
): Promise<Map<string, UntrackedVerdict>> {
  const verdicts = new Map<string, UntrackedVerdict>();
  const asked = new Map<string, Blob>();
  const folders = new Map(questions.map((q) => [q.key, ruleFolders(q.untracked.unlisted)]));
  for (const q of questions)
    for (const dir of folders.get(q.key)!) asked.set(objectName(q.headTree, dir), null);
  const texts = new Map<string, string>();
  const read = await readGitignores(git, parent, asked, texts, known);
  if (!read) {
    for (const q of questions)
      verdicts.set(q.key, { unsure: 'the parent could not list its .gitignore files' });
    return verdicts;
  }

  for (const q of questions) {
    const files = new Map<string, string>();
    let problem: string | undefined;
    for (const dir of folders.get(q.key)!) {
      const blob = asked.get(objectName(q.headTree, dir)) ?? null;
      // What the index lists there must be HEAD's own file (or nothing where HEAD has none).
      if ((blob?.oid ?? undefined) !== q.untracked.gitignores.get(dir)) {
        problem = `${dir ? `${dir}/` : ''}.gitignore is not HEAD's`;
        break;
      }
      if (!blob) continue;
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
    const exclude = readBounded(path.join(q.gitDir, 'info', 'exclude'), GITIGNORE_MAX);
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
async function readGitignores(
  git: GitCommands,
  parent: ParentRepository,
  asked: Map<string, Blob>,
  texts: Map<string, string>,
  known?: ReadObjects,
): Promise<boolean> {
  const names = [...asked.keys()];
  const readBefore =
    known && names.every((name) => known.has(name) && (known.get(name)?.body.length ?? 0) <= GITIGNORE_MAX);
  const atOnce = readBefore ? known : await git.readSmallObjects(parent.path, names, GITIGNORE_MAX);
  if (atOnce) {
    for (const name of names) {
      const object = atOnce.get(name);
      const blob = object?.type === 'blob' ? object : undefined;
      asked.set(name, blob ? { oid: blob.oid, size: blob.body.length } : null);
      if (blob) texts.set(blob.oid, blob.body.toString('utf8'));
    }
    return true;
  }
  const found = await git.exec(
    parent.path,
    ['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'],
    { input: Buffer.from(`${names.join('\n')}\n`) },
  );
  const lines = found.stdout.split('\n');
  if (found.exitCode !== 0 || lines.length < names.length) return false;
  names.forEach((name, i) => {
    const [oid, type, size] = lines[i].split(' ');
    asked.set(name, OID.test(oid) && type === 'blob' ? { oid, size: Number(size) } : null);
  });
  for (const blob of new Set([...asked.values()].filter((b): b is NonNullable<Blob> => !!b))) {
    if (texts.has(blob.oid) || blob.size > GITIGNORE_MAX) continue;
    const out = await git.exec(parent.path, ['cat-file', 'blob', blob.oid]);
    if (out.exitCode === 0) texts.set(blob.oid, out.stdout);
  }
  return true;
}

/** `<tree>:<folder>/.gitignore`, as `cat-file` names it. */
function objectName(tree: string, dir: string): string {
  return `${tree}:${dir ? `${dir}/` : ''}.gitignore`;
}
