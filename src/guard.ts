// The git guard. The container mounts the parent's .git read-write (it must, to commit), so it can plant
// what the host's next git command, or the runner's next job, would trust: hooks, config (core.fsmonitor,
// filters, includeIf, credential helpers), info/attributes, a worktree's config.worktree or .git file,
// moved branches and tags. Before the command the guard opens: the parent's trusted state is recorded (in
// a host-only folder the container never sees) and the credentials are taken out of .git/config. After
// the container is gone the guard closes: every change is put back and reported as a violation.
//
// Several sandboxes of one parent run at once, so the guards of a parent share one ledger
// (guard-ledger.ts): the first to open records the trusted state and takes the credentials out, the last
// to close puts them back; the action's own changes meanwhile are announced into it (metadata-changes.ts);
// each guard opening or closing checks the parent against it (guard-checkpoint.ts), under the repository
// lock, and the commands of the guards open since the previous check are the suspects of what it finds
// (guard-attribution.ts). The commands themselves run in parallel.
//
// A guard's own record (its container, a disk sandbox's `.git` file) survives the action being killed: the
// post step, the next run on the same sandbox, or any run of the parent that finds the sandbox's lock free,
// removes the container and closes the guard.
import { renameSync, writeFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { findSecrets, stripCredentials } from './credentials.js';
import type { ContainerEngine } from './docker.js';
import type { Git } from './git.js';
import { attribute, type CheckEvent } from './guard-attribution.js';
import { checkpoint, type CheckpointResult } from './guard-checkpoint.js';
import {
  describeFileChange,
  diffStates,
  readState,
  restoreChanges,
  sha256,
  type FileRecord,
} from './guard-files.js';
import { LedgerStore, type Ledger, type OpenGuard, type Root } from './guard-ledger.js';
import { looseRefNames, readRefs } from './guard-refs.js';
import { isSandboxLocked, lockSandbox, withRepositoryLock, type Release } from './lock.js';
import { watchEntry } from './metadata-changes.js';
import type { ParentRepository } from './repository.js';
import type { SandboxLocation } from './sandbox.js';
import type { Ui } from './ui.js';
import { findWorktreeEntry, listWorktreeEntries } from './worktree-metadata.js';

export interface GuardReport {
  /** Changes a command made outside its sandbox, each undone (or saying why not). */
  violations: string[];
  /** What the guard did that is not a violation (credentials put back, HEAD detached...). */
  notes: string[];
}

/** One guard's own record, beside the ledger. */
interface GuardRecord {
  version: 2;
  created: string;
  sandbox: string;
  parentPath: string;
  gitDir: string;
  hostPath?: string;
  container?: string;
  /** A disk sandbox's `.git` file: only this sandbox's container can reach it. */
  files: FileRecord[];
}

const RECORD = 'record.json';

/** The guard's folder for one sandbox: on the host, outside everything mounted into the container. */
export function guardDirectory(location: SandboxLocation): string {
  return path.join(LedgerStore.of(location.parent.path).projectDir, location.name);
}

export class GitGuard {
  private constructor(
    readonly dir: string,
    private record: GuardRecord,
  ) {}

  private get blobs(): string {
    return path.join(this.dir, 'blobs');
  }

  private get store(): LedgerStore {
    return LedgerStore.at(path.dirname(this.dir));
  }

  /** Opens the guard: the parent checked (or its trusted state recorded) and the credentials taken out. */
  static async take(
    git: Git,
    engine: ContainerEngine,
    location: SandboxLocation,
    dir: string,
    ui: Ui,
  ): Promise<GitGuard> {
    const { parent } = location;
    for (const mounted of [parent.path, location.hostPath].filter((p): p is string => !!p)) {
      if (dir === mounted || dir.startsWith(mounted + path.sep))
        throw new Error(`The git guard's folder ${dir} is inside ${mounted}, which the container mounts.`);
    }
    if (await fs.lstat(dir).catch(() => undefined))
      throw new Error(`${dir} is left by an interrupted run and was not recovered.`);
    const entry = await findWorktreeEntry(parent.gitDir, location.worktreePath);
    if (!entry) throw new Error(`Sandbox ${location.name} has no worktree registration in ${parent.path}.`);
    await fs.mkdir(path.join(dir, 'blobs'), { recursive: true, mode: 0o700 });
    await fs.chmod(dir, 0o700);
    const gitFile = location.hostPath ? path.join(location.hostPath, '.git') : undefined;
    const guard = new GitGuard(dir, {
      version: 2,
      created: new Date().toISOString(),
      sandbox: location.name,
      parentPath: parent.path,
      gitDir: parent.gitDir,
      hostPath: location.hostPath,
      files: gitFile ? await readState(gitFile, false, path.join(dir, 'blobs')) : [],
    });
    guard.save();
    const store = guard.store;
    let opened = false;
    try {
      await withRepositoryLock(parent.gitDir, () =>
        store.withLock(async () => {
          let ledger = await store.load();
          if (ledger) ledger = await finishInterrupted(git, engine, store, ledger, ui, location.name);
          let stripped: { content: Buffer; mode?: number } | undefined;
          if (!ledger) ({ ledger, stripped } = await openLedger(git, store, parent, ui));
          else await joinLedger(git, store, ledger, location.name, ui);
          // Its own registration is watched from the first check on (one made by a run that was then
          // killed, before it could announce it, is taken as it is now).
          if (!ledger.roots.some((r) => r.path === path.join(entry.adminDir, 'gitdir')))
            await watchEntry(ledger, entry.adminDir, store.blobs);
          ledger.open = ledger.open.filter((g) => g.dir !== dir);
          ledger.open.push({
            sandbox: location.name,
            branch: location.branch,
            dir,
            adminDir: entry.adminDir,
            since: new Date().toISOString(),
            pid: process.pid,
            host: os.hostname(),
            found: [],
            notes: [],
          });
          store.save(ledger);
          opened = true;
          if (stripped) {
            // Written only once the ledger (with the original) is safely on disk.
            const configPath = path.join(parent.gitDir, 'config');
            const tmp = `${configPath}.worktree-sandbox-restore`;
            await fs.writeFile(tmp, stripped.content, { mode: stripped.mode });
            await fs.rename(tmp, configPath);
            ui.info(
              `Credentials taken out of .git/config while the command runs (${ledger.strippedKeys.join(', ')}); they are put back afterwards.`,
            );
          }
        }),
      );
    } catch (error) {
      if (!opened) await guard.discard();
      throw error;
    }
    return guard;
  }

  static async load(dir: string): Promise<GitGuard | undefined> {
    const text = await fs.readFile(path.join(dir, RECORD), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    const record = JSON.parse(text) as GuardRecord;
    return record.version === 2 ? new GitGuard(dir, record) : undefined;
  }

  /** Remembers the container's name, so that a later recovery removes it before restoring. */
  noteContainer(name: string): void {
    this.record.container = name;
    this.save();
  }

  get container(): string | undefined {
    return this.record.container;
  }

  private save(): void {
    // Synchronous (noteContainer is called from a synchronous callback); a rename, so never half-written.
    const file = path.join(this.dir, RECORD);
    writeFileSync(`${file}.tmp`, JSON.stringify(this.record), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  }

  /**
   * Checks the parent, restores and reports. With `gone` (the container is confirmed removed) the guard
   * closes; otherwise it checks and stays open, for the post step or the next run to close.
   */
  async finish(git: Git, engine: ContainerEngine, gone: boolean, ui: Ui): Promise<GuardReport> {
    const { gitDir } = this.record;
    const store = this.store;
    return withRepositoryLock(gitDir, () =>
      store.withLock(async () => {
        const report: GuardReport = { violations: await this.restoreOwnFiles(), notes: [] };
        const mine = (l?: Ledger) => l?.open.find((g) => g.dir === this.dir);
        let ledger = await store.load();
        if (mine(ledger))
          ledger = await finishInterrupted(git, engine, store, ledger!, ui, this.record.sandbox);
        const me = mine(ledger);
        if (!ledger || !me) {
          report.notes.push(
            'The git guard of this run was closed by another run of this repository, which found its sandbox lock free: that run reported what it found.',
          );
          if (gone) await this.discard();
          return report;
        }
        const others = ledger.open.filter((g) => g !== me);
        const final = gone && others.length === 0;
        const suspects = ledger.open.map((g) => g.sandbox);
        const result = await checkpoint({
          git,
          ledger,
          blobs: store.blobs,
          scratch: store.dir,
          closing: gone ? me : undefined,
          final,
          label: displacedLabel(me.sandbox),
        });
        const event: CheckEvent = { kind: gone ? 'close' : 'check', sandbox: me.sandbox };
        const share = distribute(ledger, result, suspects, event, me);
        report.violations.push(...me.found, ...share.violations);
        report.notes.push(...me.notes, ...share.notes);
        me.found = [];
        me.notes = [];
        if (gone) ledger.open = others;
        report.notes.push(...(await settle(store, ledger, final, result)));
        if (gone && others.length && ledger.strippedKeys.length)
          report.notes.push(
            `The credentials stay out of .git/config while the command of ${others.map((g) => `sandbox ${g.sandbox}`).join(', ')} runs; the last command to end puts them back.`,
          );
        if (gone) await this.discard();
        return report;
      }),
    );
  }

  /** The worktree's `.git` file of a disk sandbox, put back if its command changed it. */
  async restoreOwnFiles(): Promise<string[]> {
    const { hostPath, files, parentPath } = this.record;
    if (!hostPath || !files.length) return [];
    const changes = diffStates(files, await readState(path.join(hostPath, '.git'), false));
    const failed = await restoreChanges(changes, this.blobs, [hostPath]);
    return [
      ...changes.map((c) => describeFileChange(c, parentPath, { hostPath })),
      ...failed.map((f) => `could not put back ${f}`),
    ];
  }

  async discard(): Promise<void> {
    await fs.rm(this.dir, { recursive: true, force: true });
    // The project's folder goes with its last record (rmdir refuses while anything else is in it).
    await fs.rmdir(path.dirname(this.dir)).catch(() => undefined);
  }
}

/** The ledger of the first guard to open: the parent's trusted state, and its config without credentials. */
async function openLedger(
  git: Git,
  store: LedgerStore,
  parent: ParentRepository,
  ui: Ui,
): Promise<{ ledger: Ledger; stripped?: { content: Buffer; mode?: number } }> {
  await store.create();
  const g = parent.gitDir;
  const roots: Root[] = [
    ...['config', 'HEAD', 'index', 'objects/info/alternates', 'packed-refs'].map((f) => ({
      path: path.join(g, f),
      recursive: false,
    })),
    { path: path.join(g, 'hooks'), recursive: true },
    { path: path.join(g, 'info'), recursive: true },
  ];
  const ledger: Ledger = {
    version: 1,
    created: new Date().toISOString(),
    parentPath: parent.path,
    gitDir: g,
    roots,
    files: [],
    exposed: [],
    strippedKeys: [],
    refs: await readRefs(git, parent.path),
    looseRefs: await looseRefNames(g),
    open: [],
  };
  for (const root of roots) ledger.files.push(...(await readState(root.path, root.recursive, store.blobs)));
  for (const entry of await listWorktreeEntries(g)) await watchEntry(ledger, entry.adminDir, store.blobs);

  const config = ledger.files.find((f) => f.path === path.join(g, 'config'));
  if (config?.kind !== 'file' || !config.sha256) return { ledger };
  const result = await stripCredentials(
    git,
    path.join(store.blobs, config.sha256),
    path.join(store.dir, 'config.scratch'),
  );
  for (const secret of result.secrets) ui.mask(secret);
  if (!result.stripped.length) return { ledger };
  const hash = sha256(result.content);
  await fs.writeFile(path.join(store.blobs, hash), result.content, { mode: 0o600 });
  ledger.exposed.push({ ...config, sha256: hash });
  ledger.strippedKeys = result.stripped;
  return { ledger, stripped: { content: result.content, mode: config.mode } };
}

/** Another guard opens while some are open: what their commands changed so far is theirs, and undone. */
async function joinLedger(git: Git, store: LedgerStore, ledger: Ledger, sandbox: string, ui: Ui) {
  const config = ledger.files.find((f) => f.path === path.join(ledger.gitDir, 'config'));
  if (config?.sha256)
    for (const secret of await findSecrets(git, path.join(store.blobs, config.sha256))) ui.mask(secret);
  const suspects = await checkForOthers(git, store, ledger, { kind: 'open', sandbox });
  if (ledger.strippedKeys.length && suspects.length)
    ui.info(
      `Credentials are out of .git/config already (${ledger.strippedKeys.join(', ')}), while the command of ${suspects.map((s) => `sandbox ${s}`).join(', ')} runs; the last command to end puts them back.`,
    );
}

/** A check made for a run that is no suspect: what it finds goes to the open guards. Returns them. */
async function checkForOthers(
  git: Git,
  store: LedgerStore,
  ledger: Ledger,
  at: CheckEvent,
): Promise<string[]> {
  const suspects = ledger.open.map((g) => g.sandbox);
  const result = await checkpoint({
    git,
    ledger,
    blobs: store.blobs,
    scratch: store.dir,
    final: false,
    label: displacedLabel(at.sandbox),
  });
  distribute(ledger, result, suspects, at);
  return suspects;
}

/**
 * Before a run reads the parent to create or reuse a sandbox (the commit a new branch starts from, the
 * branch it checks out): with guards open, the parent is checked and what their commands changed is undone
 * (their runs report it), so a command cannot choose what another run builds on. Call it holding the
 * repository lock. `sandbox` is the run's own (an interrupted guard of it is left to recoverGuard). Costs
 * one `stat` when no guard is open.
 */
export async function verifyParent(
  git: Git,
  engine: ContainerEngine,
  parent: Pick<ParentRepository, 'path' | 'gitDir'>,
  sandbox: string,
  ui: Pick<Ui, 'info' | 'warning'>,
): Promise<void> {
  const store = LedgerStore.of(parent.path);
  if (!(await store.exists())) return;
  await store.withLock(async () => {
    const loaded = await store.load();
    const ledger = loaded && (await finishInterrupted(git, engine, store, loaded, ui, sandbox));
    if (!ledger) return;
    await checkForOthers(git, store, ledger, { kind: 'prepare', sandbox });
    store.save(ledger);
  });
}

/**
 * Closes the guards whose runs were interrupted (their sandbox lock is free: no live run holds it), after
 * removing their containers; their reports go to this run's log. `self`, the sandbox of the run making
 * the check, is skipped. A ledger left with no open guard has its
 * trusted state put back. Returns the ledger, or undefined when it is gone.
 */
async function finishInterrupted(
  git: Git,
  engine: ContainerEngine,
  store: LedgerStore,
  ledger: Ledger,
  ui: Pick<Ui, 'info' | 'warning'>,
  self?: string,
): Promise<Ledger | undefined> {
  for (const guard of [...ledger.open]) {
    // The run's own sandbox is left to its own recovery (recoverGuard, under its sandbox lock). A sandbox
    // lock lives in .git, where a command could remove it: the run's process must be gone too.
    if (guard.sandbox === self || isAlive(guard) || (await isSandboxLocked(ledger.gitDir, guard.sandbox)))
      continue;
    let release: Release;
    try {
      release = await lockSandbox(ledger.gitDir, guard.sandbox, 0);
    } catch {
      continue; // taken meanwhile: a live run
    }
    try {
      const record = await GitGuard.load(guard.dir);
      if (!(await ensureContainerGone(engine, record?.container))) {
        ui.warning(
          `The interrupted run on sandbox ${guard.sandbox} left its container ${record?.container}, which could not be removed: its git guard stays open.`,
        );
        continue;
      }
      ui.info(
        `The run on sandbox ${guard.sandbox} was interrupted while its command ran: its git guard is closed here.`,
      );
      const suspects = ledger.open.map((g) => g.sandbox);
      const final = ledger.open.length === 1;
      const result = await checkpoint({
        git,
        ledger,
        blobs: store.blobs,
        scratch: store.dir,
        closing: guard,
        final,
        label: displacedLabel(guard.sandbox),
      });
      const share = distribute(ledger, result, suspects, { kind: 'recover', sandbox: guard.sandbox }, guard);
      const own = record ? await record.restoreOwnFiles() : [];
      for (const v of [...guard.found, ...share.violations, ...own])
        ui.warning(`Sandbox boundary (interrupted run on sandbox ${guard.sandbox}): ${v}.`);
      ledger.open = ledger.open.filter((g) => g !== guard);
      for (const note of [...guard.notes, ...share.notes, ...(await settle(store, ledger, final, result))])
        ui.info(note);
      await fs.rm(guard.dir, { recursive: true, force: true });
      if (!(await store.exists())) return undefined;
    } finally {
      await release();
    }
  }
  if (ledger.open.length) return ledger;
  // No guard open (one was killed between its ledger's writes): nothing runs, the trusted state goes back.
  const result = await checkpoint({
    git,
    ledger,
    blobs: store.blobs,
    scratch: store.dir,
    final: true,
    label: displacedLabel('interrupted'),
  });
  for (const v of result.violations) ui.warning(`Sandbox boundary (left by an interrupted run): ${v}.`);
  for (const note of await settle(store, ledger, true, result)) ui.info(note);
  return (await store.exists()) ? ledger : undefined;
}

/**
 * Whether the process that opened `guard` still runs (this process counts as alive: another run in it may be
 * live). Known only on its own host; elsewhere the sandbox lock decides alone.
 */
function isAlive(guard: OpenGuard): boolean {
  if (guard.pid === process.pid) return true;
  if (guard.host !== os.hostname()) return false;
  try {
    process.kill(guard.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Saves the ledger, or, after the last guard's check (`final`), removes it. Kept when .git/config could
 * not be put back: it holds the only copy of the credentials, for the next run to put back.
 */
async function settle(
  store: LedgerStore,
  ledger: Ledger,
  final: boolean,
  result: CheckpointResult,
): Promise<string[]> {
  if (!final) {
    store.save(ledger);
    return [];
  }
  if (result.configFailed) {
    ledger.open = [];
    store.save(ledger);
    return [`.git/config could not be put back: its trusted copy stays in ${store.dir} for the next run.`];
  }
  await store.remove();
  return ledger.strippedKeys.length
    ? [`Put back the credentials taken out of .git/config (${ledger.strippedKeys.join(', ')}).`]
    : [];
}

/**
 * Hands what a check found to the suspects (the guards open before it; `me`'s share is returned, the
 * others keep theirs in the ledger until they close), and the notes to the sandboxes they concern.
 */
function distribute(
  ledger: Ledger,
  result: CheckpointResult,
  suspects: string[],
  at: CheckEvent,
  me?: OpenGuard,
): GuardReport {
  const mine: GuardReport = { violations: [], notes: [] };
  for (const guard of ledger.open) {
    const share = suspects.includes(guard.sandbox)
      ? result.violations.map((v) => attribute(v, guard.sandbox, suspects, at))
      : [];
    const notes = result.notes.get(guard.sandbox) ?? [];
    const to = guard === me ? mine : { violations: guard.found, notes: guard.notes };
    to.violations.push(...share);
    to.notes.push(...notes);
  }
  return mine;
}

/** Names the refs keeping what undone ref changes pointed at: when, and for which sandbox's check. */
function displacedLabel(sandbox: string): string {
  const stamp = new Date().toISOString().replace(/[-:.]/g, '');
  return `${stamp}-${sandbox.replace(/\.\./g, '-')}`;
}

/**
 * Runs `fn` (the command) under the guard: afterwards, whether it succeeded or threw, the container is
 * made sure to be gone and the guard closes and reports. It stays open when the container's removal
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
  const report = await guard.finish(git, engine, gone, ui);
  if (!gone)
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
 * Finishes the work of a run that was killed while its command ran: removes its container, closes its
 * guard and reports. Does nothing when there is no record. Throws when the container cannot be removed.
 */
export async function recoverGuard(
  git: Git,
  engine: ContainerEngine,
  dir: string,
  ui: Ui,
): Promise<GuardReport | undefined> {
  const guard = await GitGuard.load(dir);
  if (!guard) {
    // A folder without a record: the run was killed while opening it, before the container existed.
    await fs.rm(dir, { recursive: true, force: true });
    await fs.rmdir(path.dirname(dir)).catch(() => undefined);
    return undefined;
  }
  ui.info(`A run on this sandbox was interrupted while its command ran: checking what the command left.`);
  if (!(await ensureContainerGone(engine, guard.container)))
    throw new Error(
      `The container ${guard.container} of an interrupted run on this sandbox could not be removed: remove it, then run again.`,
    );
  const report = await guard.finish(git, engine, true, ui);
  for (const note of report.notes) ui.info(note);
  for (const violation of report.violations) ui.warning(`Sandbox boundary (interrupted run): ${violation}.`);
  return report;
}
