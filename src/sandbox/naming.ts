// Names of sandboxes, projects and volumes. Pure functions: the same branch always maps to the same
// sandbox, and two different branches never do.
import { createHash, randomBytes } from 'node:crypto';
import * as path from 'node:path';

export type SandboxKind = 'transient' | 'persistent';

export const TRANSIENT_PREFIX = 'exploration-';
const SLUG_MAX = 80;

export function shortHash(text: string, length = 8): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

export function transientSandboxName(random: () => Buffer = () => randomBytes(4)): string {
  return TRANSIENT_PREFIX + random().toString('hex').slice(0, 8).padEnd(8, '0');
}

/**
 * The folder-safe slug of a branch: `/` and anything outside [A-Za-z0-9._-] become `-`. When that loses
 * information (or the name could pass for a transient sandbox, or is too long) a hash of the full branch
 * name is appended after `..`, which git forbids in branch names: so a lossy slug can never equal the
 * slug of another branch, lossy or not.
 */
export function persistentSandboxName(branch: string): string {
  let slug = branch.replace(/[^A-Za-z0-9._-]/g, '-');
  let lossy = slug !== branch;
  if (slug.toLowerCase().startsWith(TRANSIENT_PREFIX)) {
    slug = `b-${slug}`;
    lossy = true;
  }
  if (slug.length > SLUG_MAX) {
    slug = slug.slice(0, SLUG_MAX);
    lossy = true;
  }
  slug = slug.replace(/^[.-]+/, '');
  return lossy ? `${slug}..${shortHash(branch)}` : slug;
}

export function classifyName(sandbox: string): SandboxKind {
  return sandbox.startsWith(TRANSIENT_PREFIX) ? 'transient' : 'persistent';
}

/** A project is the parent repository: its folder name, plus a hash of its path so two clones never share. */
export function projectName(parentPath: string): string {
  const base =
    path
      .basename(parentPath)
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .replace(/^[.-]+/, '')
      .slice(0, 40) || 'repo';
  return `${base}-${shortHash(parentPath, 6)}`;
}

export function volumeName(prefix: string, project: string, sandbox: string): string {
  return `${prefix}-${project}-${sandbox}`;
}

/** Where a volume sandbox's worktree is, inside every container that mounts it. */
export const VOLUME_MOUNT = '/sandbox';

export function diskWorktreePath(root: string, project: string, sandbox: string): string {
  return path.join(root, project, sandbox);
}
