// The git guard. The container mounts the parent's .git read-write (it must, to commit), so it can plant
// what the host's next git command, or the runner's next job, would trust: hooks, config (core.fsmonitor,
// filters, includeIf, credential helpers), info/attributes, a worktree's config.worktree or .git file,
// moved branches and tags. Before the command the guard records all of it (in a host-only folder the
// container never sees) and takes credentials out of .git/config; after the container is gone, before any
// other host git command, it puts everything back and reports every change as a violation.
//
// The record survives the action being killed: the post step, or the next run on the same sandbox,
// finds it and finishes the job (removing the container first).
import { renameSync, writeFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { parseConfigList, stripCredentials } from './credentials.js';
import type { ContainerEngine } from './docker.js';
import type { Git } from './git.js';
import {
  diffStates,
  readState,
  restoreChanges,
  sha256,
  type FileChange,
  type FileRecord,
} from './guard-files.js';
import {
  applyRefFixes,
  DISPLACED_NAMESPACE,
  looseRefNames,
  planRefFixes,
  readRefs,
  removeLooseRef,
  type RefRecord,
} from './guard-refs.js';
import { isSandboxLocked } from './lock.js';
import type { SandboxLocation } from './sandbox.js';
import type { Ui } from './ui.js';
import { findWorktreeEntry, listWorktreeEntries } from './worktree-metadata.js';

export interface GuardReport {
  /** Changes the command made outside its sandbox, each undone (or saying why not). */
  violations: string[];
  /** What the guard did that is not a violation (credentials put back, HEAD detached...). */
  notes: string[];
}

interface Root {
  path: string;
  recursive: boolean;
}

interface Manifest {
  version: 1;
  created: string;
  sandbox: string;
  parentPath: string;
  gitDir: string;
  adminDir: string;
  ownBranch: string;
  hostPath?: string;
  container?: string;
  roots: Root[];
  files: FileRecord[];
  /** Where what the container should find differs from what is restored (.git/config without credentials). */
  expected: FileRecord[];
  strippedKeys: string[];
  refs: RefRecord[];
  looseRefs: string[];
  /** Other sandboxes in use by live runs when the command started, and their branches. */
  inUse: Array<{ sandbox: string; branch: string }>;
}

const ADMIN_FILES = ['config.worktree', 'gitdir', 'commondir', 'locked'];
const MANIFEST = 'manifest.json';

/** The guard's folder for one sandbox: on the host, outside everything mounted into the container. */
export function guardDirectory(stateDir: string, location: SandboxLocation): string {
  return path.join(stateDir, 'guard', location.project, location.name);
}

function headBranch(head: string): string | undefined {
  const m = /^ref: refs\/heads\/(.+)\n?$/.exec(head);
  return m?.[1];
}

export class GitGuard {
  private constructor(
    readonly dir: string,
    private manifest: Manifest,
  ) {}

  private get blobs(): string {
    return path.join(this.dir, 'blobs');
  }

  /** Records what the container could change, then takes the credentials out of .git/config. */
  static async take(git: Git, location: SandboxLocation, dir: string, ui: Ui): Promise<GitGuard> {
    const { parent } = location;
    for (const mounted of [parent.path, location.hostPath].filter((p): p is string => !!p)) {
      if (dir === mounted || dir.startsWith(mounted + path.sep))
        throw new Error(`The git guard's folder ${dir} is inside ${mounted}, which the container mounts.`);
    }
    if (await fs.lstat(dir).catch(() => undefined))
      throw new Error(`${dir} is left by an interrupted run and was not recovered.`);
    await fs.mkdir(path.join(dir, 'blobs'), { recursive: true, mode: 0o700 });
    await fs.chmod(dir, 0o700);
    const entry = await findWorktreeEntry(parent.gitDir, location.worktreePath);
    if (!entry) throw new Error(`Sandbox ${location.name} has no worktree registration in ${parent.path}.`);

    const g = parent.gitDir;
    const roots: Root[] = [
      ...['config', 'HEAD', 'index', 'objects/info/alternates', 'packed-refs'].map((f) => ({
        path: path.join(g, f),
        recursive: false,
      })),
      { path: path.join(g, 'hooks'), recursive: true },
      { path: path.join(g, 'info'), recursive: true },
      ...ADMIN_FILES.map((f) => ({ path: path.join(entry.adminDir, f), recursive: false })),
    ];
    if (location.hostPath) roots.push({ path: path.join(location.hostPath, '.git'), recursive: false });
    const inUse: Manifest['inUse'] = [];
    for (const other of await listWorktreeEntries(g)) {
      if (other.adminDir === entry.adminDir) continue;
      const sandbox = path.basename(path.dirname(other.gitFile));
      if (await isSandboxLocked(g, sandbox)) {
        const head = await fs.readFile(path.join(other.adminDir, 'HEAD'), 'utf8').catch(() => '');
        inUse.push({ sandbox, branch: headBranch(head) ?? '' });
      } else {
        roots.push(...ADMIN_FILES.map((f) => ({ path: path.join(other.adminDir, f), recursive: false })));
      }
    }
    const blobs = path.join(dir, 'blobs');
    const files: FileRecord[] = [];
    for (const root of roots) files.push(...(await readState(root.path, root.recursive, blobs)));
    const manifest: Manifest = {
      version: 1,
      created: new Date().toISOString(),
      sandbox: location.name,
      parentPath: parent.path,
      gitDir: g,
      adminDir: entry.adminDir,
      ownBranch: location.branch,
      hostPath: location.hostPath,
      roots,
      files,
      expected: [],
      strippedKeys: [],
      refs: await readRefs(git, parent.path),
      looseRefs: await looseRefNames(g),
      inUse,
    };

    const configPath = path.join(g, 'config');
    const config = files.find((f) => f.path === configPath);
    let stripped: Buffer | undefined;
    if (config?.kind === 'file') {
      const result = await stripCredentials(git, configPath, path.join(dir, 'config.scratch'));
      for (const secret of result.secrets) ui.mask(secret);
      if (result.stripped.length) {
        stripped = result.content;
        const hash = sha256(stripped);
        await fs.writeFile(path.join(blobs, hash), stripped, { mode: 0o600 });
        manifest.expected.push({ ...config, sha256: hash });
        manifest.strippedKeys = result.stripped;
      }
    }
    const guard = new GitGuard(dir, manifest);
    guard.save();
    if (stripped) {
      // Written only once the record (with the original) is safely on disk.
      const tmp = `${configPath}.worktree-sandbox-restore`;
      await fs.writeFile(tmp, stripped, { mode: config!.mode });
      await fs.rename(tmp, configPath);
      ui.info(
        `Credentials taken out of .git/config while the command runs (${manifest.strippedKeys.join(', ')}); they are put back afterwards.`,
      );
    }
    return guard;
  }

  static async load(dir: string): Promise<GitGuard | undefined> {
    const text = await fs.readFile(path.join(dir, MANIFEST), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    return new GitGuard(dir, JSON.parse(text) as Manifest);
  }

  /** Remembers the container's name, so that a later recovery removes it before restoring. */
  noteContainer(name: string): void {
    this.manifest.container = name;
    this.save();
  }

  get container(): string | undefined {
    return this.manifest.container;
  }

  private save(): void {
    // Synchronous (noteContainer is called from a synchronous callback); a rename, so never half-written.
    const file = path.join(this.dir, MANIFEST);
    writeFileSync(`${file}.tmp`, JSON.stringify(this.manifest), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  }

  /**
   * Compares, restores and reports. Call only once the container is gone. Pure file operations come
   * first: no git command runs on the parent before its config, hooks and info/ are back.
   */
  async restore(git: Git): Promise<GuardReport> {
    const m = this.manifest;
    const violations: string[] = [];
    const notes: string[] = [];
    const after: FileRecord[] = [];
    for (const root of m.roots) after.push(...(await readState(root.path, root.recursive)));
    const packedRefs = path.join(m.gitDir, 'packed-refs');
    const trackedFiles = (records: FileRecord[]) => records.filter((r) => r.path !== packedRefs);
    const expected = trackedFiles(m.files).map((f) => m.expected.find((e) => e.path === f.path) ?? f);
    const unexpected = diffStates(expected, trackedFiles(after));
    const configPath = path.join(m.gitDir, 'config');
    const configDetail = unexpected.some((c) => c.path === configPath)
      ? await this.describeConfigChange(git, configPath)
      : '';
    const roots = [m.gitDir, ...(m.hostPath ? [m.hostPath] : [])];
    const failed = await restoreChanges(
      diffStates(trackedFiles(m.files), trackedFiles(after)),
      this.blobs,
      roots,
    );
    for (const change of unexpected) violations.push(this.describeFileChange(change, configDetail));
    for (const f of failed) violations.push(`could not put back ${f}`);
    if (m.strippedKeys.length && !failed.some((f) => f.startsWith(configPath)))
      notes.push(`Put back the credentials taken out of .git/config (${m.strippedKeys.join(', ')}).`);

    let refsNow: RefRecord[];
    try {
      refsNow = await readRefs(git, m.parentPath);
    } catch (error) {
      // An unreadable packed-refs: put the recorded one back, then read again.
      violations.push(
        `the refs could not be read (${(error as Error).message.split('\n')[0]}): packed-refs restored`,
      );
      await restoreChanges(
        diffStates(
          m.files.filter((f) => f.path === packedRefs),
          await readState(packedRefs, false),
        ),
        this.blobs,
        roots,
      );
      refsNow = await readRefs(git, m.parentPath);
    }
    const stillInUse: string[] = [];
    for (const { sandbox, branch } of m.inUse)
      if (branch && (await isSandboxLocked(m.gitDir, sandbox))) stillInUse.push(branch);
    const fixes = planRefFixes(m.refs, refsNow, { ownBranch: m.ownBranch, branchesInUse: stillInUse });
    const stamp = m.created.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
    const applied = await applyRefFixes(
      git,
      m.parentPath,
      m.gitDir,
      fixes,
      `${stamp}-${m.sandbox.replace(/\.\./g, '-')}`,
    );
    violations.push(...applied.done, ...applied.failed.map((f) => `could not undo: ${f}`));
    const listed = new Set([...m.looseRefs, ...m.refs.map((r) => r.name), ...refsNow.map((r) => r.name)]);
    for (const name of await looseRefNames(m.gitDir)) {
      if (listed.has(name) || name.startsWith(DISPLACED_NAMESPACE)) continue;
      const removed = await removeLooseRef(m.gitDir, name);
      violations.push(
        `unreadable ref file ${name} was created: ${removed ? 'deleted' : 'could not be deleted'}`,
      );
    }
    const detached = await this.detachFromRestoredRef(fixes);
    if (detached) notes.push(detached);
    return { violations, notes };
  }

  /** The sandbox's HEAD on a ref just put back would silently point at other commits: detach it where it was. */
  private async detachFromRestoredRef(fixes: ReturnType<typeof planRefFixes>): Promise<string | undefined> {
    const headFile = path.join(this.manifest.adminDir, 'HEAD');
    const head = await fs.readFile(headFile, 'utf8').catch(() => '');
    const target = /^ref: (\S+)/.exec(head)?.[1];
    const fix = fixes.find((f) => f.name === target && f.displaced && !f.displaced.startsWith('ref: '));
    if (!fix) return undefined;
    const tmp = `${headFile}.worktree-sandbox-restore`;
    await fs.writeFile(tmp, `${fix.displaced}\n`);
    await fs.rename(tmp, headFile);
    return `The sandbox's HEAD was on ${target}, which was put back: HEAD is now detached at ${fix.displaced!.slice(0, 12)}, so its work stays checked out.`;
  }

  private describeFileChange(change: FileChange, configDetail: string): string {
    const m = this.manifest;
    let where = path.relative(m.parentPath, change.path);
    if (m.hostPath && change.path.startsWith(m.hostPath + path.sep))
      where = `the worktree's ${path.relative(m.hostPath, change.path)}`;
    const verb = { added: 'was added', removed: 'was removed', changed: 'was changed' }[change.change];
    const undo = { added: 'removed', removed: 'restored', changed: 'restored' }[change.change];
    const detail = change.path === path.join(m.gitDir, 'config') && configDetail ? ` (${configDetail})` : '';
    return `${where} ${verb} by the command${detail}: ${undo}`;
  }

  /** Which config keys the command added, removed or changed (read with git from a copy, includes off). */
  private async describeConfigChange(git: Git, configPath: string): Promise<string> {
    const m = this.manifest;
    const current = await fs.lstat(configPath).catch(() => undefined);
    if (!current?.isFile()) return current ? 'replaced by something other than a file' : 'deleted';
    const copy = path.join(this.dir, 'config.after');
    await fs.copyFile(configPath, copy);
    const read = async (file: string) => {
      const out = await git.exec('/', ['config', '--file', file, '--no-includes', '--null', '--list']);
      return parseConfigList(out.stdout);
    };
    const expected =
      m.expected.find((e) => e.path === configPath) ?? m.files.find((f) => f.path === configPath);
    const before = expected?.sha256 ? await read(path.join(this.blobs, expected.sha256)) : [];
    const after = await read(copy);
    await fs.rm(copy, { force: true });
    const flat = (entries: typeof before) =>
      new Map(
        [...new Set(entries.map((e) => e.key))].map((k) => [
          k,
          entries
            .filter((e) => e.key === k)
            .map((e) => e.value)
            .join('\n'),
        ]),
      );
    const b = flat(before);
    const a = flat(after);
    const parts: string[] = [];
    for (const key of new Set([...b.keys(), ...a.keys()])) {
      if (!b.has(key)) parts.push(`${key} added`);
      else if (!a.has(key)) parts.push(`${key} removed`);
      else if (b.get(key) !== a.get(key)) parts.push(`${key} changed`);
    }
    return parts.join(', ') || 'formatting only';
  }

  async discard(): Promise<void> {
    await fs.rm(this.dir, { recursive: true, force: true });
    // The project's folder goes with its last record (rmdir refuses while another sandbox has one).
    await fs.rmdir(path.dirname(this.dir)).catch(() => undefined);
  }
}

/**
 * Runs `fn` (the command) under the guard: afterwards, whether it succeeded or threw, the container is
 * made sure to be gone and the guard restores and reports. The record is kept when the container's removal
 * cannot be confirmed (engine unreachable), for the post step or the next run.
 */
export async function runGuarded<T>(
  guard: GitGuard,
  git: Git,
  engine: ContainerEngine,
  ui: Ui,
  fn: () => Promise<T>,
): Promise<{ value: T; guard: GuardReport }> {
  let value: T | undefined;
  let failure: { error: unknown } | undefined;
  try {
    value = await fn();
  } catch (error) {
    failure = { error };
  }
  const report = await finishGuard(guard, git, engine, ui);
  if (failure) throw failure.error;
  return { value: value as T, guard: report };
}

async function finishGuard(guard: GitGuard, git: Git, engine: ContainerEngine, ui: Ui): Promise<GuardReport> {
  const gone = await ensureContainerGone(engine, guard.container);
  const report = await guard.restore(git);
  if (gone) await guard.discard();
  else
    report.violations.push(
      `the container ${guard.container} could not be confirmed removed (is the engine reachable?): the git guard checks again in the post step or the next run`,
    );
  for (const note of report.notes) ui.info(note);
  for (const violation of report.violations) ui.warning(`Sandbox boundary: ${violation}.`);
  return report;
}

async function ensureContainerGone(engine: ContainerEngine, container?: string): Promise<boolean> {
  if (!container) return true;
  if ((await engine.containerExists(container)) === false) return true;
  await engine.removeContainer(container);
  return (await engine.containerExists(container)) === false;
}

/**
 * Finishes the work of a run that was killed while its command ran: removes its container, restores and
 * reports. Does nothing when there is no record. Throws when the container cannot be removed.
 */
export async function recoverGuard(
  git: Git,
  engine: ContainerEngine,
  dir: string,
  ui: Ui,
): Promise<GuardReport | undefined> {
  const guard = await GitGuard.load(dir);
  if (!guard) {
    // A folder without a record: the run was killed while taking it, before the container existed.
    await fs.rm(dir, { recursive: true, force: true });
    return undefined;
  }
  ui.info(`A run on this sandbox was interrupted while its command ran: checking what the command left.`);
  if (!(await ensureContainerGone(engine, guard.container)))
    throw new Error(
      `The container ${guard.container} of an interrupted run on this sandbox could not be removed: remove it, then run again.`,
    );
  const report = await guard.restore(git);
  await guard.discard();
  for (const note of report.notes) ui.info(note);
  for (const violation of report.violations) ui.warning(`Sandbox boundary (interrupted run): ${violation}.`);
  return report;
}
