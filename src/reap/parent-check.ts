// Is a sandbox's history safe without it? Every object its HEAD and refs name must be one the PARENT has,
// reachable from the parent's branches, tags or remote-tracking refs: not merely from the parent's records
// of its sandboxes (`refs/worktree-sandbox/...`), which go with the sandbox. Asked of the parent only (the
// host's own repository) in two git processes per parent, whatever the number of sandboxes; the object
// names come from the sandboxes as data and are checked to be bare hexadecimal names before git sees them.
import type { Git } from '../engine/git.js';
import type { ParentRepository } from '../sandbox/repository.js';
import { OID } from './sandbox-files.js';

export interface NamedObjects {
  key: string;
  headOid: string;
  /** Everything the sandbox's HEAD and refs name (HEAD included). */
  named: readonly string[];
}

export interface ParentVerdict {
  /** The tree of HEAD's commit, when the parent has that commit. */
  headTree?: string;
  /** True: some commit the sandbox names is not saved in the parent (or the parent lacks it). */
  unsaved?: boolean;
  error?: string;
}

export async function checkAgainstParent(
  git: Git,
  parent: ParentRepository,
  sandboxes: readonly NamedObjects[],
): Promise<Map<string, ParentVerdict>> {
  const verdicts = new Map<string, ParentVerdict>();
  const valid = sandboxes.filter((s) => {
    const bad = [s.headOid, ...s.named].find((oid) => !OID.test(oid));
    if (bad !== undefined)
      verdicts.set(s.key, {
        error: `it names an object that is no object name: ${JSON.stringify(bad.slice(0, 80))}`,
      });
    return bad === undefined;
  });
  if (valid.length === 0) return verdicts;

  const objects = [...new Set(valid.flatMap((s) => s.named))];
  const heads = [...new Set(valid.map((s) => s.headOid))];
  const asked = [...objects, ...heads.map((h) => `${h}^{tree}`)];
  const found = await git.exec(parent.path, ['cat-file', '--batch-check'], {
    input: Buffer.from(`${asked.join('\n')}\n`),
  });
  const lines = found.stdout.split('\n');
  if (found.exitCode !== 0 || lines.length < asked.length) {
    const error = `git cat-file failed in the parent: ${firstLine(found.stderr) || `exit ${found.exitCode}`}`;
    for (const s of valid) verdicts.set(s.key, { error });
    return verdicts;
  }
  const types = new Map<string, string>();
  objects.forEach((oid, i) => types.set(oid, batchType(lines[i], oid)));
  const trees = new Map<string, string>();
  heads.forEach((head, i) => {
    const [tree, type] = lines[objects.length + i].split(' ');
    if (type === 'tree' && OID.test(tree)) trees.set(head, tree);
  });

  // Commits and tags the parent has: which of them are reachable from no branch, tag or remote?
  const walkable = objects.filter((oid) => types.get(oid) === 'commit' || types.get(oid) === 'tag');
  let unreachable = new Set<string>();
  if (walkable.length) {
    const list = await git.exec(
      parent.path,
      ['rev-list', '--stdin', '--not', '--branches', '--tags', '--remotes'],
      {
        input: Buffer.from(`${walkable.join('\n')}\n`),
      },
    );
    if (list.exitCode !== 0) {
      const error = `git rev-list failed in the parent: ${firstLine(list.stderr) || `exit ${list.exitCode}`}`;
      for (const s of valid) verdicts.set(s.key, { error });
      return verdicts;
    }
    unreachable = new Set(list.stdout.split('\n').filter(Boolean));
  }
  const peeled = await peelTags(
    git,
    parent,
    walkable.filter((oid) => types.get(oid) === 'tag'),
  );

  for (const s of valid) {
    const verdict: ParentVerdict = {
      headTree: types.get(s.headOid) === 'commit' ? trees.get(s.headOid) : undefined,
    };
    for (const oid of s.named) {
      const type = types.get(oid);
      if (type === 'missing') verdict.unsaved = true;
      else if (type === 'commit') verdict.unsaved ||= unreachable.has(oid);
      else if (type === 'tag') {
        const commit = peeled.get(oid);
        if (commit === undefined)
          verdict.error ??= `a tag it names (${oid.slice(0, 12)}) could not be followed`;
        else verdict.unsaved ||= unreachable.has(commit);
      } else
        verdict.error ??= `a ref names ${oid.slice(0, 12)}, which is ${type === 'odd' ? 'not understood' : `a ${type}`}`;
    }
    verdicts.set(s.key, verdict);
  }
  return verdicts;
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
  git: Git,
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
