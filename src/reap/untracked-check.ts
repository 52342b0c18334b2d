// Untracked entries of clean stale sandboxes judged on the host (ignored.ts), with the ignore rules the
// PARENT vouches for: the `.gitignore` blobs of the tree of each sandbox's HEAD, read from the parent's
// objects (host git on the parent only, a few processes per parent however many sandboxes), each
// checked to be the one the sandbox's index lists for that folder. Anything else: left to a helper.
import * as path from 'node:path';
import type { Git } from '../engine/git.js';
import type { ParentRepository } from '../sandbox/repository.js';
import type { UntrackedEntries } from './clean-probe.js';
import {
  GITIGNORE_MAX,
  hasOwnRules,
  ignoredRules,
  judgeUntracked,
  ruleFolders,
  type UntrackedVerdict,
} from './ignored.js';
import { OID, readBounded } from './sandbox-files.js';

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

export async function judgeUntrackedInParent(
  git: Git,
  parent: ParentRepository,
  questions: readonly UntrackedQuestion[],
): Promise<Map<string, UntrackedVerdict>> {
  const verdicts = new Map<string, UntrackedVerdict>();
  const asked = new Map<string, Blob>();
  const folders = new Map(questions.map((q) => [q.key, ruleFolders(q.untracked.unlisted)]));
  for (const q of questions)
    for (const dir of folders.get(q.key)!) asked.set(objectName(q.headTree, dir), null);
  const names = [...asked.keys()];
  const found = await git.exec(
    parent.path,
    ['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'],
    { input: Buffer.from(`${names.join('\n')}\n`) },
  );
  const lines = found.stdout.split('\n');
  if (found.exitCode !== 0 || lines.length < names.length) {
    for (const q of questions)
      verdicts.set(q.key, { unsure: 'the parent could not list its .gitignore files' });
    return verdicts;
  }
  names.forEach((name, i) => {
    const [oid, type, size] = lines[i].split(' ');
    asked.set(name, OID.test(oid) && type === 'blob' ? { oid, size: Number(size) } : null);
  });
  const texts = new Map<string, string>();
  for (const blob of new Set([...asked.values()].filter((b): b is NonNullable<Blob> => !!b))) {
    if (texts.has(blob.oid) || blob.size > GITIGNORE_MAX) continue;
    const out = await git.exec(parent.path, ['cat-file', 'blob', blob.oid]);
    if (out.exitCode === 0) texts.set(blob.oid, out.stdout);
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

/** `<tree>:<folder>/.gitignore`, as `cat-file` names it. */
function objectName(tree: string, dir: string): string {
  return `${tree}:${dir ? `${dir}/` : ''}.gitignore`;
}
