// Is a sandbox's history safe without it? Every object its HEAD and refs name must be one the PARENT has,
// reachable from what the parent has saved (src/sandbox/saved.ts: its remote-tracking refs and tags; its
// branches too only when it has no remote): not merely from the parent's records of its sandboxes
// (`refs/worktree-sandbox/...`), which go with the sandbox. Asked of the parent only (the host's own
// repository) in two git processes per parent, whatever the number of sandboxes: one reads the objects
// (with HEAD's `.gitignore` files the caller needs), one walks. The walk is skipped when every commit
// named is one that the parent's remote-tracking refs or tags name, read as data. The configuration (has
// it a remote?) is read, and the walk asked again with its branches, only when the refs that save a
// commit in every parent leave something unsaved. The object names come from the sandboxes as data and
// are checked to be bare hexadecimal names before git sees them.
import type { ParentRepository } from '../sandbox/repository.js';
import { ALWAYS_SAVING, savedRefs } from '../sandbox/saved.js';
import { OID, type GitCommands } from '../engine/git-commands.js';
import { readSavingTips } from '../sandbox/sandbox-files.js';
import { GITIGNORE_MAX, type ReadObjects } from './ignored.js';

/**
 * Objects read with their content in the parent check's one git process: commits and tags are far
 * smaller; a `.gitignore` is read only within this (ignored.ts).
 */
const OBJECT_MAX = GITIGNORE_MAX;

/** Unsaved commits counted per sandbox up to this many; past it, the count is a lower bound. */
export const MAX_COUNTED = 10_000;

export interface NamedObjects {
  key: string;
  headOid: string;
  /** Everything the sandbox's HEAD and refs name (HEAD included). */
  named: readonly string[];
}

export interface ParentVerdict {
  /** The tree of HEAD's commit, when the parent has that commit. */
  headTree?: string;
  /** Set when some commit the sandbox names is not saved in the parent (or the parent lacks it). */
  unsaved?: { count: number; atLeast?: boolean };
  /**
   * Whether the parent has a remote (its branches then do not save anything); read only when something
   * is unsaved.
   */
  hasRemote?: boolean;
  error?: string;
}

export interface ParentAnswers {
  verdicts: Map<string, ParentVerdict>;
  /** The objects `alsoRead` named (null: the parent has none of that name), when read with the rest. */
  read?: ReadObjects;
}

/**
 * `alsoRead`: more objects the caller wants read (`<tree>:<path>` names of small files: HEAD's
 * `.gitignore` files), in the same git process where every object is small.
 */
export async function checkAgainstParent(
  git: GitCommands,
  parent: ParentRepository,
  sandboxes: readonly NamedObjects[],
  alsoRead: readonly string[] = [],
): Promise<ParentAnswers> {
  const verdicts = new Map<string, ParentVerdict>();
  const valid = sandboxes.filter((s) => {
    const bad = [s.headOid, ...s.named].find((oid) => !OID.test(oid));
    if (bad !== undefined)
      verdicts.set(s.key, {
        error: `it names an object that is no object name: ${JSON.stringify(bad.slice(0, 80))}`,
      });
    return bad === undefined;
  });
  if (valid.length === 0) return { verdicts };

  const objects = [...new Set(valid.flatMap((s) => s.named))];
  const heads = [...new Set(valid.map((s) => s.headOid))];
  const facts = await objectFacts(git, parent, objects, heads, alsoRead);
  if ('error' in facts) {
    for (const s of valid) verdicts.set(s.key, { error: facts.error });
    return { verdicts };
  }
  const { types, trees, read } = facts;

  // Commits and tags the parent has: which commits do they reach that nothing saved reaches? With each
  // such commit's parents, so that every sandbox's own commits can be counted from the one answer.
  const walkable = objects.filter((oid) => types.get(oid) === 'commit' || types.get(oid) === 'tag');
  const unsavedFrom = async (revs: readonly string[]): Promise<Map<string, string[]> | { error: string }> => {
    const graph = new Map<string, string[]>();
    if (!walkable.length) return graph;
    const list = await git.exec(parent.path, ['rev-list', '--stdin', '--parents', '--not', ...revs], {
      input: Buffer.from(`${walkable.join('\n')}\n`),
    });
    if (list.exitCode !== 0)
      return {
        error: `git rev-list failed in the parent: ${firstLine(list.stderr) || `exit ${list.exitCode}`}`,
      };
    for (const line of list.stdout.split('\n')) {
      const [commit, ...parents] = line.split(' ');
      if (commit) graph.set(commit, parents);
    }
    return graph;
  };
  // What saves a commit in every parent first. Only when that leaves a commit unsaved (or the parent lacks
  // one) is the configuration read: a parent with no remote counts its branches too, walked again. Where
  // every commit named is itself what a remote-tracking ref or tag names (read as data: a stale
  // sandbox's branch that was pushed as it is, or a HEAD at origin's), nothing is left to walk.
  const lacking = objects.some((oid) => types.get(oid) === 'missing');
  let unsavedGraph = atSavingTips(parent, walkable, types, lacking)
    ? new Map<string, string[]>()
    : await unsavedFrom(ALWAYS_SAVING);
  let hasRemote: boolean | undefined;
  if (!('error' in unsavedGraph) && (unsavedGraph.size > 0 || lacking)) {
    const saved = await savedRefs(git, parent.path);
    hasRemote = saved.hasRemote;
    if (!saved.hasRemote) unsavedGraph = await unsavedFrom(saved.revs);
  }
  if ('error' in unsavedGraph) {
    for (const s of valid) verdicts.set(s.key, { error: unsavedGraph.error });
    return { verdicts, read };
  }
  const peeled = await peelTags(
    git,
    parent,
    walkable.filter((oid) => types.get(oid) === 'tag'),
  );

  for (const s of valid) {
    const verdict: ParentVerdict = {
      headTree: types.get(s.headOid) === 'commit' ? trees.get(s.headOid) : undefined,
      hasRemote,
    };
    let missing = 0;
    const tips: string[] = [];
    for (const oid of s.named) {
      const type = types.get(oid);
      if (type === 'missing') missing++;
      else if (type === 'commit') tips.push(oid);
      else if (type === 'tag') {
        const commit = peeled.get(oid);
        if (commit === undefined)
          verdict.error ??= `a tag it names (${oid.slice(0, 12)}) could not be followed`;
        else tips.push(commit);
      } else
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
async function objectFacts(
  git: GitCommands,
  parent: ParentRepository,
  objects: readonly string[],
  heads: readonly string[],
  alsoRead: readonly string[],
): Promise<
  { types: Map<string, string>; trees: Map<string, string>; read?: ReadObjects } | { error: string }
> {
  const types = new Map<string, string>();
  const trees = new Map<string, string>();
  const oids = [...new Set([...objects, ...heads])];
  const atOnce = await git.readSmallObjects(parent.path, [...new Set([...oids, ...alsoRead])], OBJECT_MAX);
  if (atOnce) {
    for (const oid of oids) {
      const object = atOnce.get(oid);
      types.set(oid, object === null ? 'missing' : object?.oid === oid ? object.type : 'odd');
      if (object?.type !== 'commit') continue;
      const tree = /^tree ([0-9a-f]+)\n/.exec(object.body.toString('latin1', 0, 100))?.[1];
      if (tree && OID.test(tree)) trees.set(oid, tree);
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
    if (type === 'tree' && OID.test(tree)) trees.set(head, tree);
  });
  return { types, trees };
}

/** True when every object to walk is a commit that the parent's remote-tracking refs or tags name. */
function atSavingTips(
  parent: ParentRepository,
  walkable: readonly string[],
  types: ReadonlyMap<string, string>,
  lacking: boolean,
): boolean {
  if (lacking || !walkable.length || walkable.some((oid) => types.get(oid) !== 'commit')) return false;
  const tips = readSavingTips(parent.gitDir);
  return !!tips && walkable.every((oid) => tips.has(oid));
}

/**
 * The commits of `graph` (commit to parents: the unsaved commits, closed under their unsaved parents) that
 * `tips` reach, counted up to `limit`.
 */
export function countReachable(
  graph: ReadonlyMap<string, readonly string[]>,
  tips: readonly string[],
  limit: number,
): { count: number; stopped: boolean } {
  const seen = new Set<string>();
  const pending = tips.filter((t) => graph.has(t));
  while (pending.length) {
    const commit = pending.pop()!;
    if (seen.has(commit)) continue;
    if (seen.size >= limit) return { count: seen.size, stopped: true };
    seen.add(commit);
    for (const p of graph.get(commit) ?? []) if (graph.has(p) && !seen.has(p)) pending.push(p);
  }
  return { count: seen.size, stopped: false };
}

/** `<oid> <type> <size>` or `<oid> missing`. */
function batchType(line: string | undefined, oid: string): string {
  const [name, type] = (line ?? '').split(' ');
  if (type === 'missing') return 'missing';
  if (name !== oid || !type) return 'odd';
  return type;
}

/**
 * rev-list peels a tag to its commit and prints the commit: the commits annotated tags point to. A tag
 * that does not end at a commit (a tagged tree or blob) gets no entry.
 */
async function peelTags(
  git: GitCommands,
  parent: ParentRepository,
  tags: readonly string[],
): Promise<Map<string, string>> {
  const peeled = new Map<string, string>();
  if (tags.length === 0) return peeled;
  const out = await git.exec(parent.path, ['cat-file', '--batch-check'], {
    input: Buffer.from(`${tags.map((t) => `${t}^{commit}`).join('\n')}\n`),
  });
  if (out.exitCode !== 0) return peeled;
  out.stdout
    .split('\n')
    .slice(0, tags.length)
    .forEach((line, i) => {
      const [commit, type] = line.split(' ');
      if (type === 'commit' && OID.test(commit)) peeled.set(tags[i], commit);
    });
  return peeled;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}
