// The parent repository: the main work tree whose object store and metadata every sandbox shares.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { GitCommands } from '../engine/git-commands.js';

export interface ParentRepository {
  /** Real path of the main work tree. */
  path: string;
  /** Real path of its git directory (`<path>/.git`), shared by all its worktrees. */
  gitDir: string;
  /**
   * Its object store (`<gitDir>/objects`) first, then every store that one borrows from: what a sandbox's
   * `objects/info/alternates` lists, and what containers mount read-only.
   */
  objectStores: string[];
  /** Set when the given path was a linked worktree of this parent (`git worktree add`): it works from the parent. */
  resolvedFrom?: string;
}

/** A parent as run mode finds it: with the commit its HEAD named then. */
export interface FoundParent extends ParentRepository {
  head: string;
}

export async function findParentRepository(git: GitCommands, given: string): Promise<FoundParent> {
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
    throw new Error(
      `repository-path ${given} is not a git work tree (git says: ${found.stderr.trim() || found.stdout.trim()}).`,
    );
  }
  const gitDir = await fs.realpath(commonDir);
  if (path.basename(gitDir) !== '.git') {
    throw new Error(
      `repository-path ${given} uses a git directory at ${gitDir}: only a normal clone (a work tree with its .git folder) can be a sandbox parent.`,
    );
  }
  const head = rest.find((line) => /^[0-9a-f]{40,64}$/.test(line));
  if (found.exitCode !== 0 || !head) {
    throw new Error(
      `repository-path ${given} has no commits yet: a sandbox needs at least one commit to start from.`,
    );
  }
  const parentPath = path.dirname(gitDir);
  const top = await fs.realpath(toplevel);
  return {
    path: parentPath,
    gitDir,
    head,
    objectStores: await objectStores(path.join(gitDir, 'objects')),
    resolvedFrom: top !== parentPath ? top : undefined,
  };
}

/** A store and the stores it borrows from (its `info/alternates`, followed as git does, five deep). */
export async function objectStores(store: string, depth = 0): Promise<string[]> {
  const stores = [store];
  if (depth >= 5) return stores;
  const text = await fs.readFile(path.join(store, 'info', 'alternates'), 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    const entry = line.trim();
    if (!entry || entry.startsWith('#')) continue;
    const real = await fs.realpath(path.resolve(store, entry)).catch(() => undefined);
    if (!real) continue;
    for (const found of await objectStores(real, depth + 1)) if (!stores.includes(found)) stores.push(found);
  }
  return stores;
}

async function realDirectory(given: string): Promise<string> {
  try {
    const real = await fs.realpath(given);
    if (!(await fs.stat(real)).isDirectory()) throw new Error('not a directory');
    return real;
  } catch {
    throw new Error(`repository-path ${given} does not exist or is not a directory.`);
  }
}
