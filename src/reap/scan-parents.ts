// The parents of the sandboxes a scan finds: each looked at once (one git process for its records),
// and what its records say of each sandbox (registered, half-made, unregistered, orphan).
import type { GitCommands } from '../engine/git-commands.js';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nameFromComponent, PARENT_NOTE, REF_ROOT } from '../sandbox/bookkeeping.js';
import type { Isolation, Sandbox } from '../sandbox/layout.js';
import { classifyName, projectName } from '../sandbox/naming.js';
import { objectStores, type ParentRepository } from '../sandbox/repository.js';
import { limiter } from './parallel.js';
import { readBounded, readRecordNames } from '../sandbox/sandbox-files.js';
import type { ScannedSandbox } from './scanned-sandbox.js';
import { ParentFacts } from './linked-worktree.js';

/** What a project folder or a volume label says of the parent, and what the parent says of its sandboxes. */
export interface Owner {
  parentPath?: string;
  /** Why the parent cannot check anything (not named, gone, unreadable). */
  problem?: string;
  parent?: ParentRepository;
  records?: Map<string, 'head' | 'creating'>;
  recordsError?: string;
}

export function registration(
  owner: Owner,
  isolation: Isolation,
  name: string,
  project: string,
  locate: (parent: ParentRepository) => Sandbox,
  where: string,
): Partial<ScannedSandbox> {
  if (owner.problem || !owner.parent)
    return { parentPath: owner.parentPath, orphan: owner.problem ?? 'no parent repository' };
  const { parent } = owner;
  const facts = { parentPath: parent.path, parent };
  if (projectName(parent.path) !== project)
    return { ...facts, unregistered: `${parent.path} is not the parent of project ${project}` };
  const location = locate(parent);
  const at = location.isolation === 'disk' ? location.hostPath : location.volume;
  if (at !== where) return { ...facts, unregistered: `${parent.path} places it at ${at}` };
  if (owner.recordsError) return { ...facts, location, unregistered: owner.recordsError };
  const recorded = owner.records!.get(`${isolation === 'disk' ? 'disk' : 'volume'}/${name}`);
  if (!recorded) return { ...facts, location, unregistered: `${parent.path} holds no record of it` };
  return { ...facts, recorded, location };
}

export function plan(name: string) {
  return { sandbox: name, kind: classifyName(name), branch: '' };
}

/** Parents whose records are read at once (one git process each). */
const PARENTS_IN_FLIGHT = 8;

/**
 * Each parent is looked at once (one git process for its records), however many sandboxes it has; several
 * parents at a time.
 */
export class ParentCache {
  private readonly owners = new Map<string, Promise<Owner>>();
  private readonly linkedOwners = new Map<string, Promise<Owner>>();
  private readonly limited = limiter(PARENTS_IN_FLIGHT);
  /** What the linked worktrees of one parent share (linked-worktree.ts), read once per parent. */
  readonly linkedFacts = new ParentFacts();

  constructor(private readonly git: GitCommands) {}

  /** The parent a project folder's note names; verified: its project name is the folder's name. */
  async ownerOfProject(projectDir: string, project: string): Promise<Owner> {
    const note = readBounded(path.join(projectDir, PARENT_NOTE), 4096);
    if (!('data' in note))
      return {
        problem: `its project folder has no readable note of its parent (${'error' in note ? note.error : 'none'})`,
      };
    const parentPath = note.data.toString('utf8').trim();
    if (!path.isAbsolute(parentPath) || parentPath.includes('\n'))
      return { problem: 'its project folder has no readable note of its parent (malformed)' };
    return this.ownerOf(parentPath, project);
  }

  ownerOf(parentPath: string, project: string): Promise<Owner> {
    if (projectName(parentPath) !== project)
      return Promise.resolve({
        parentPath,
        problem: `its parent ${parentPath} is not the parent of project ${project}`,
      });
    let owner = this.owners.get(parentPath);
    if (!owner) {
      // A parent that cannot be read keeps its sandboxes (unregistered: never taken for orphans), and the
      // scan of every other parent goes on.
      owner = this.limited(() => this.look(parentPath)).catch((error: unknown): Owner => ({
        parentPath,
        parent: { path: parentPath, gitDir: path.join(parentPath, '.git'), objectStores: [] },
        recordsError: `the records of ${parentPath} could not be read: ${JSON.stringify((error as Error).message)}`,
      }));
      this.owners.set(parentPath, owner);
    }
    return owner;
  }

  /**
   * The parent a linked worktree's `.git` file names: there, and its object stores (for the helpers). No
   * git process: a linked worktree's registration is read as data (linked-worktree.ts).
   */
  linkedParent(parentPath: string): Promise<Owner> {
    let owner = this.linkedOwners.get(parentPath);
    if (!owner) {
      owner = this.limited(async () => {
        const problem = parentStatus(parentPath, path.join(parentPath, '.git'));
        if (problem) return { parentPath, problem };
        // Real paths: what the helpers mount, and what the worktree's registration is compared with.
        const real = fs.realpathSync(parentPath);
        const gitDir = path.join(real, '.git');
        const objects = await objectStores(path.join(gitDir, 'objects'));
        return { parentPath: real, parent: { path: real, gitDir, objectStores: objects } };
      });
      this.linkedOwners.set(parentPath, owner);
    }
    return owner;
  }

  private async look(parentPath: string): Promise<Owner> {
    const gitDir = path.join(parentPath, '.git');
    const status = parentStatus(parentPath, gitDir);
    if (status) return { parentPath, problem: status };
    const parent: ParentRepository = {
      path: parentPath,
      gitDir,
      objectStores: await objectStores(path.join(gitDir, 'objects')),
    };
    // Read as data where that is sure (sandbox-files.ts readRecordNames), else git lists them.
    let names = readRecordNames(gitDir);
    if (!names) {
      const out = await this.git.exec(parentPath, [
        'for-each-ref',
        '--format=%(refname)',
        '--',
        `${REF_ROOT}/`,
      ]);
      if (out.exitCode !== 0)
        return {
          parentPath,
          parent,
          recordsError: `the records of ${parentPath} could not be read: ${out.stderr.trim().split('\n')[0]}`,
        };
      names = out.stdout.split('\n');
    }
    const records = new Map<string, 'head' | 'creating'>();
    for (const line of names) {
      const match = /^refs\/worktree-sandbox\/(disk|volume)\/(.+)\/(head|creating)$/.exec(line);
      if (!match) continue;
      const key = `${match[1]}/${nameFromComponent(match[2])}`;
      if (match[3] === 'head' || !records.has(key)) records.set(key, match[3] as 'head' | 'creating');
    }
    return { parentPath, parent, records };
  }
}

/** Undefined when the parent is there; else why not. */
export function parentStatus(parentPath: string, gitDir: string): string | undefined {
  try {
    if (!fs.lstatSync(gitDir).isDirectory()) return `its parent repository ${parentPath} has no .git folder`;
    fs.accessSync(gitDir, fs.constants.R_OK | fs.constants.X_OK);
    fs.accessSync(path.join(gitDir, 'HEAD'), fs.constants.R_OK);
    fs.accessSync(path.join(gitDir, 'objects'), fs.constants.R_OK | fs.constants.X_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return `its parent repository ${parentPath} is gone`;
    return `its parent repository ${parentPath} is unreadable (${code})`;
  }
}
