// What the HEAD of each sandbox of one parent is, and whether a remote has it: two or three git processes
// per parent, whatever the number of sandboxes (a reaper that starts git once per sandbox is the slow
// baseline of bench/). HEAD is read from each worktree's admin folder on the host, which is also where
// volume sandboxes keep it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Git } from '../engine/git.js';

export interface HeadFacts {
  commit?: string;
  tree?: string;
  /** True: HEAD is on no remote (no upstream is not an excuse: only remote-tracking refs count). */
  unpushed?: boolean;
  /** Why HEAD or its remotes could not be read: the check counts as failed. */
  error?: string;
}

const OID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
const REF = /^refs\/[^\s\0]+$/;

/** HEAD as written in an admin folder: a commit name, or `ref: refs/heads/<branch>`. */
export function readHeadFile(adminDir: string): { rev: string } | { error: string } {
  let text: string;
  try {
    text = fs.readFileSync(path.join(adminDir, 'HEAD'), 'utf8').trim();
  } catch (error) {
    return { error: `cannot read HEAD (${(error as NodeJS.ErrnoException).code})` };
  }
  if (OID.test(text)) return { rev: text };
  const ref = /^ref: (.+)$/.exec(text)?.[1];
  if (ref && REF.test(ref)) return { rev: ref };
  return { error: `HEAD is not a commit or a branch: ${JSON.stringify(text.slice(0, 80))}` };
}

/** Reads HEAD, its tree and whether any remote has it for each admin folder of the parent at `gitDir`. */
export async function readHeads(
  git: Git,
  gitDir: string,
  adminDirs: readonly string[],
): Promise<Map<string, HeadFacts>> {
  const facts = new Map<string, HeadFacts>();
  const revs = new Map<string, string>();
  for (const adminDir of adminDirs) {
    const head = readHeadFile(adminDir);
    if ('error' in head) facts.set(adminDir, { error: head.error });
    else revs.set(adminDir, head.rev);
  }
  if (revs.size === 0) return facts;
  const asked = [...revs.values()].flatMap((rev) => [rev, `${rev}^{tree}`]);
  const resolved = await git.exec(gitDir, [`--git-dir=${gitDir}`, 'cat-file', '--batch-check'], {
    input: Buffer.from(`${asked.join('\n')}\n`),
  });
  const lines = resolved.stdout.split('\n');
  if (resolved.exitCode !== 0 || lines.length < asked.length) {
    const error = `git cat-file failed: ${firstLine(resolved.stderr) || `exit ${resolved.exitCode}`}`;
    for (const adminDir of revs.keys()) facts.set(adminDir, { error });
    return facts;
  }
  let i = 0;
  for (const [adminDir, rev] of revs) {
    const [commit, commitType] = lines[i++].split(' ');
    const [tree, treeType] = lines[i++].split(' ');
    if (commitType !== 'commit' || treeType !== 'tree' || !OID.test(commit) || !OID.test(tree))
      facts.set(adminDir, { error: `HEAD (${rev}) names no commit in the parent` });
    else facts.set(adminDir, { commit, tree });
  }
  await markUnpushed(git, gitDir, facts);
  return facts;
}

async function markUnpushed(git: Git, gitDir: string, facts: Map<string, HeadFacts>): Promise<void> {
  const resolved = [...facts.values()].filter((f) => f.commit);
  const commits = [...new Set(resolved.map((f) => f.commit!))];
  if (commits.length === 0) return;
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
    for (const f of resolved) f.unpushed = true;
    return;
  }
  // Every commit reachable from a HEAD and from no remote-tracking ref. A HEAD that a remote has cannot
  // be in that list (its ancestors are all on that remote too), so membership answers for each sandbox.
  const list = await git.exec(gitDir, [`--git-dir=${gitDir}`, 'rev-list', ...commits, '--not', '--remotes']);
  if (list.exitCode !== 0) return failAll(resolved, `git rev-list failed: ${firstLine(list.stderr)}`);
  const unpushed = new Set(list.stdout.split('\n').filter(Boolean));
  for (const f of resolved) f.unpushed = unpushed.has(f.commit!);
}

function failAll(resolved: HeadFacts[], error: string): void {
  for (const f of resolved) f.error = error;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}
