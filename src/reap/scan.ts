// Finding every sandbox on the machine, with the facts the decisions need and nothing that takes a git
// process: disk sandboxes are the folders `<root>/<project>/<sandbox>` whose `.git` is a file (a linked
// worktree); volume sandboxes are the volumes labelled `worktree-sandbox.managed=true` whose name starts
// with `<volume-prefix>-` (the prefix scopes a reaper: other tenants' volumes are not even looked at).
// Anything else under the root is reported as not a sandbox, and never deleted.
//
// The filesystem is read with synchronous calls on purpose: a scan is tens of thousands of tiny metadata
// reads, where a promise per call costs more than the call itself.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LABEL_PREFIX, MANAGED_LABEL, type ContainerEngine } from '../engine/engine.js';
import { volumeName, volumeWorktreePath } from '../sandbox/naming.js';
import { INITIALIZING, listWorktreeEntries, type WorktreeEntry } from '../worktree-metadata.js';
import { lastActivity, parseTimestamp } from './age.js';
import type { SandboxIdentity } from './decide.js';

export interface ParentRef {
  /** The main work tree (or the bare repository). */
  path: string;
  /** Its git directory, shared by all its worktrees (where the locks and `worktrees/<id>` live). */
  gitDir: string;
}

export interface ScannedSandbox extends SandboxIdentity {
  /** Set for entries that are not sandboxes. */
  notSandbox?: string;
  /** The parent as recorded by the sandbox (its `.git` file, or the volume's label). */
  parent?: ParentRef;
  /** Set when the parent is gone or unreadable: git can check nothing. */
  orphan?: string;
  /** Its own registration in the parent (admin folder), verified to point back at it. */
  entry?: WorktreeEntry;
  /** The parent is there but holds no registration of this sandbox: no check can run. */
  unregistered?: string;
  lastActivityMs?: number;
  /** Volume: its `created` label (epoch ms), an activity signal that never moves. */
  createdMs?: number;
  /** Disk: the folder (a real path under the real root). */
  hostPath?: string;
  /** Volume: its name. */
  volume?: string;
  /** Volume: its `branch` label (empty for a transient sandbox), for display: a decision never reads it. */
  branchLabel?: string;
}

export interface ScanResult {
  sandboxes: ScannedSandbox[];
  /** Problems that did not stop the scan (e.g. the container engine could not be asked). */
  warnings: string[];
  /** The real path of the root (disk sandboxes' paths are under it). */
  root: string;
}

export interface ScanOptions {
  worktreeRoot: string;
  volumePrefix: string;
  /** Undefined: volumes are not scanned. */
  engine?: ContainerEngine;
}

export const VOLUME_LABEL_KEYS = ['project', 'sandbox', 'kind', 'branch', 'parent', 'created'].map(
  (k) => `${LABEL_PREFIX}.${k}`,
);

/** Sandbox names as this action makes them: no path separators, never `.` or `..`. */
const SANDBOX_NAME = /^(?!\.\.?$)[A-Za-z0-9._-]+$/;

export async function scanSandboxes(options: ScanOptions): Promise<ScanResult> {
  const parents = new ParentCache();
  const root = realRootOrSelf(options.worktreeRoot);
  const warnings: string[] = [];
  const sandboxes = scanDisk(root, parents, warnings);
  if (options.engine) {
    try {
      sandboxes.push(...(await scanVolumes(options.engine, options.volumePrefix, parents)));
    } catch (error) {
      warnings.push(`Volume sandboxes were not scanned: ${(error as Error).message}`);
    }
  }
  return { sandboxes, warnings, root };
}

function realRootOrSelf(root: string): string {
  try {
    return fs.realpathSync(root);
  } catch {
    return path.resolve(root);
  }
}

// ---- disk ---------------------------------------------------------------------------------------------

function scanDisk(root: string, parents: ParentCache, warnings: string[]): ScannedSandbox[] {
  const found: ScannedSandbox[] = [];
  const listed = (dir: string) => {
    try {
      return fs.readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (dir !== root || code !== 'ENOENT') warnings.push(`Cannot list ${dir} (${code}): not scanned.`);
      return [];
    }
  };
  for (const project of listed(root)) {
    const projectDir = path.join(root, project.name);
    if (!project.isDirectory()) {
      found.push(foreign(projectDir, project.name, '', describeType(project)));
      continue;
    }
    for (const child of listed(projectDir)) {
      const hostPath = path.join(projectDir, child.name);
      if (!child.isDirectory()) {
        found.push(foreign(hostPath, project.name, child.name, describeType(child)));
        continue;
      }
      const gitFile = path.join(hostPath, '.git');
      const st = lstat(gitFile);
      if (!st || !st.isFile()) {
        const why = !st
          ? 'no .git file (not a linked worktree)'
          : st.isDirectory()
            ? '.git is a folder (a repository of its own, not a linked worktree)'
            : '.git is not a regular file';
        found.push(foreign(hostPath, project.name, child.name, why));
        continue;
      }
      found.push(diskSandbox(hostPath, project.name, child.name, gitFile, parents));
    }
  }
  return found;
}

function foreign(where: string, project: string, name: string, why: string): ScannedSandbox {
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

function describeType(dirent: fs.Dirent): string {
  if (dirent.isSymbolicLink()) return 'a symbolic link (never followed)';
  if (dirent.isFile()) return 'a file, where only sandbox folders belong';
  return 'not a folder';
}

function diskSandbox(
  hostPath: string,
  project: string,
  sandbox: string,
  gitFile: string,
  parents: ParentCache,
): ScannedSandbox {
  const base: ScannedSandbox = {
    key: `disk:${hostPath}`,
    sandbox,
    project,
    isolation: 'disk',
    where: hostPath,
    hostPath,
  };
  const rootMtime = lstat(hostPath)?.mtimeMs;
  const adminDir = readGitFile(gitFile, hostPath);
  if (!adminDir) {
    return { ...base, orphan: 'its .git file names no repository', lastActivityMs: rootMtime };
  }
  const located = locateParent(adminDir, parents);
  const status = located ? parents.status(located.gitDir) : 'its .git file names no worktree folder';
  const parent = located ?? undefined;
  if (status !== 'present') return { ...base, parent, orphan: status, lastActivityMs: rootMtime };
  const registered = readRegistration(adminDir);
  const signals = [rootMtime, ...adminSignals(adminDir)];
  if (!registered) {
    return {
      ...base,
      parent,
      unregistered: `its registration in ${parent!.path} is gone`,
      lastActivityMs: lastActivity(signals),
    };
  }
  if (!samePath(path.dirname(registered.gitFile), hostPath)) {
    return {
      ...base,
      parent,
      unregistered: `its registration in ${parent!.path} belongs to ${path.dirname(registered.gitFile)}`,
      lastActivityMs: lastActivity(signals),
    };
  }
  return { ...base, parent, entry: registered, lastActivityMs: lastActivity(signals) };
}

/** The admin folder a worktree's `.git` file points to (`gitdir: <path>`, relative to the worktree or absolute). */
function readGitFile(gitFile: string, worktree: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(gitFile, 'utf8');
  } catch {
    return undefined;
  }
  const target = /^gitdir: (.+)$/m.exec(text)?.[1]?.trim();
  return target ? path.resolve(worktree, target) : undefined;
}

/** The parent of an admin folder `<gitDir>/worktrees/<id>`: from its `commondir`, else from the path. */
function locateParent(adminDir: string, parents: ParentCache): ParentRef | undefined {
  // git makes every admin folder as `<common dir>/worktrees/<id>`; `commondir` says so too, and is read
  // only for a layout git did not make.
  let gitDir: string | undefined;
  if (path.basename(path.dirname(adminDir)) === 'worktrees') gitDir = path.dirname(path.dirname(adminDir));
  else {
    try {
      const common = fs.readFileSync(path.join(adminDir, 'commondir'), 'utf8').trim();
      if (common) gitDir = path.resolve(adminDir, common);
    } catch {
      /* no parent to be found */
    }
  }
  return gitDir ? parents.ref(gitDir) : undefined;
}

function readRegistration(adminDir: string): WorktreeEntry | undefined {
  try {
    const gitFile = fs.readFileSync(path.join(adminDir, 'gitdir'), 'utf8').trim();
    return { id: path.basename(adminDir), adminDir, gitFile };
  } catch {
    return undefined;
  }
}

/** Activity recorded in a worktree's admin folder: the folder itself, its index, HEAD and HEAD's reflog. */
export function adminSignals(adminDir: string): Array<number | undefined> {
  return [
    stat(adminDir)?.mtimeMs,
    stat(path.join(adminDir, 'index'))?.mtimeMs,
    stat(path.join(adminDir, 'HEAD'))?.mtimeMs,
    stat(path.join(adminDir, 'logs', 'HEAD'))?.mtimeMs,
  ];
}

/** The newest activity of a scanned sandbox now (re-read just before removal). */
export function currentActivity(sandbox: ScannedSandbox): number | undefined {
  const signals: Array<number | undefined> = [];
  if (sandbox.hostPath) signals.push(lstat(sandbox.hostPath)?.mtimeMs);
  signals.push(sandbox.createdMs);
  if (sandbox.entry) signals.push(...adminSignals(sandbox.entry.adminDir));
  return lastActivity(signals);
}

function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return false;
  }
}

// ---- volumes ------------------------------------------------------------------------------------------

async function scanVolumes(
  engine: ContainerEngine,
  prefix: string,
  parents: ParentCache,
): Promise<ScannedSandbox[]> {
  const volumes = await engine.listVolumes(`${MANAGED_LABEL}=true`, VOLUME_LABEL_KEYS);
  const found: ScannedSandbox[] = [];
  for (const { name, labels } of volumes) {
    if (!name.startsWith(`${prefix}-`)) continue;
    const label = (key: string) => labels[`${LABEL_PREFIX}.${key}`];
    const project = label('project') ?? '';
    const sandbox = label('sandbox') ?? '';
    const base: ScannedSandbox = {
      key: `volume:${name}`,
      sandbox,
      project,
      isolation: 'container',
      where: name,
      volume: name,
      branchLabel: label('branch'),
    };
    if (!SANDBOX_NAME.test(sandbox) || !project) {
      found.push({ ...base, notSandbox: 'its labels name no sandbox and project' });
      continue;
    }
    // A longer prefix that starts with ours (another tenant) makes names that do not match their labels.
    if (volumeName(prefix, project, sandbox) !== name) continue;
    const created = parseTimestamp(label('created'));
    base.createdMs = created;
    const parentPath = label('parent');
    if (!parentPath || !path.isAbsolute(parentPath)) {
      found.push({ ...base, orphan: 'its labels name no parent repository', lastActivityMs: created });
      continue;
    }
    const parent = parents.ref(path.join(parentPath, '.git'));
    const status = parents.status(parent.gitDir);
    if (status !== 'present') {
      found.push({ ...base, parent, orphan: status, lastActivityMs: created });
      continue;
    }
    const entry = await parents.volumeEntry(parent.gitDir, name, sandbox);
    if (!entry) {
      found.push({
        ...base,
        parent,
        unregistered: `${parent.path} holds no registration of it`,
        lastActivityMs: created,
      });
      continue;
    }
    found.push({
      ...base,
      parent,
      entry,
      lastActivityMs: lastActivity([created, ...adminSignals(entry.adminDir)]),
    });
  }
  return found;
}

// ---- parents ------------------------------------------------------------------------------------------

type ParentStatus = 'present' | string;

/** Each parent is looked at once, however many sandboxes it has. */
class ParentCache {
  private readonly statuses = new Map<string, ParentStatus>();
  private readonly refs = new Map<string, ParentRef>();
  private readonly entries = new Map<string, WorktreeEntry[]>();

  /** One object per parent, shared by all its sandboxes. */
  ref(gitDir: string): ParentRef {
    let ref = this.refs.get(gitDir);
    if (!ref) {
      ref = { gitDir, path: path.basename(gitDir) === '.git' ? path.dirname(gitDir) : gitDir };
      this.refs.set(gitDir, ref);
    }
    return ref;
  }

  status(gitDir: string): ParentStatus {
    let status = this.statuses.get(gitDir);
    if (status === undefined) {
      status = parentStatus(gitDir);
      this.statuses.set(gitDir, status);
    }
    return status;
  }

  /** The registration of a volume sandbox: locked with its volume's name, or (while initializing) by path. */
  async volumeEntry(gitDir: string, volume: string, sandbox: string): Promise<WorktreeEntry | undefined> {
    const entries = await this.entriesOf(gitDir);
    const byLock = entries.find((e) => e.locked === `worktree-sandbox volume ${volume}`);
    if (byLock) return byLock;
    const gitFile = `${volumeWorktreePath(sandbox)}/.git`;
    return entries.find(
      (e) =>
        e.gitFile === gitFile && (e.locked === undefined || e.locked === '' || e.locked === INITIALIZING),
    );
  }

  private async entriesOf(gitDir: string): Promise<WorktreeEntry[]> {
    let list = this.entries.get(gitDir);
    if (!list) {
      list = await listWorktreeEntries(gitDir);
      this.entries.set(gitDir, list);
    }
    return list;
  }
}

function parentStatus(gitDir: string): ParentStatus {
  const where = path.basename(gitDir) === '.git' ? path.dirname(gitDir) : gitDir;
  try {
    fs.accessSync(gitDir, fs.constants.R_OK | fs.constants.X_OK);
    fs.accessSync(path.join(gitDir, 'HEAD'), fs.constants.R_OK);
    fs.accessSync(path.join(gitDir, 'objects'), fs.constants.R_OK | fs.constants.X_OK);
    return 'present';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return `its parent repository ${where} is gone`;
    return `its parent repository ${where} is unreadable (${code})`;
  }
}

// ---- small fs helpers ---------------------------------------------------------------------------------

function lstat(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function stat(p: string): fs.Stats | undefined {
  try {
    return fs.statSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
