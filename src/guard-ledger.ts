// The git guards of one parent repository share one ledger. Commands of several sandboxes of a parent run
// at the same time, and each container can write the parent's whole .git; so there is one trusted state
// per parent, not one per guard: what .git held before any of those containers started (config with its
// credentials, hooks, info/, HEAD, index, the worktrees' admin files, every ref), what the containers see
// instead (the config without credentials), and the guards whose commands may be running.
//
// The first guard to open writes the ledger, the last one to close puts the trusted state back (the
// credentials with it) and removes it. In between, every change the action itself makes to that metadata
// (a sandbox created or removed, a branch fetched, pushed, committed) is announced into it
// (metadata-changes.ts), so that no guard takes it for a command's doing.
//
// It lives on the host, in the state folder, which no container mounts, and is guarded by a lock of its
// own there: the repository lock lives in .git, where a container could break it.
import { writeFileSync, renameSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { FileRecord } from './guard-files.js';
import type { RefRecord } from './guard-refs.js';
import { withLockFile } from './lock.js';
import { projectName } from './naming.js';
import { defaultStateDir } from './settings.js';

export interface Root {
  path: string;
  recursive: boolean;
}

/** A guard whose command may be running. */
export interface OpenGuard {
  sandbox: string;
  /** The sandbox's branch (empty for a transient sandbox): its command may move it. */
  branch: string;
  /** The guard's own record: its container, the worktree's `.git` file of a disk sandbox. */
  dir: string;
  /** The sandbox's admin folder `<gitDir>/worktrees/<id>`. */
  adminDir: string;
  since: string;
  /** The process of the run that opened it, and its host: a run still alive is never taken for interrupted. */
  pid: number;
  host: string;
  /** Violations found by other runs' checks while this guard's command may have been running. */
  found: string[];
  /** What those checks did to this sandbox that is not a violation (its HEAD detached...). */
  notes: string[];
}

export interface Ledger {
  version: 1;
  created: string;
  parentPath: string;
  gitDir: string;
  /** Watched paths: .git's config, HEAD, index, hooks/, info/..., every worktree's admin files. */
  roots: Root[];
  /** Their trusted state (file contents in the ledger's blobs). */
  files: FileRecord[];
  /** Where what the containers find differs from the trusted state (.git/config without credentials). */
  exposed: FileRecord[];
  /** Credential keys taken out of .git/config (names only, for the log). */
  strippedKeys: string[];
  refs: RefRecord[];
  /** Loose ref files on disk (finds refs that for-each-ref skips: broken ones). */
  looseRefs: string[];
  open: OpenGuard[];
}

/** The files of a worktree's admin folder the guards watch (HEAD and index are its own command's). */
export const ADMIN_FILES = ['config.worktree', 'gitdir', 'commondir', 'locked'];

/** The host-only folder of the git guards' records (per user; never mounted into a container). */
export function guardStateDirectory(stateDir: string = defaultStateDir(process.env)): string {
  return path.join(stateDir, 'guard');
}

export class LedgerStore {
  private constructor(
    /** `<state>/guard/<project>`: the guards' own records are its sandbox-named subfolders. */
    readonly projectDir: string,
  ) {}

  /** The ledger of one parent. Sandbox names never start with a dot, so `.ledger` is no sandbox's. */
  static of(parentPath: string, stateDir?: string): LedgerStore {
    return LedgerStore.at(path.join(guardStateDirectory(stateDir), projectName(parentPath)));
  }

  /** The ledger beside the guards' own records in `projectDir`. */
  static at(projectDir: string): LedgerStore {
    return new LedgerStore(projectDir);
  }

  get dir(): string {
    return path.join(this.projectDir, '.ledger');
  }

  get blobs(): string {
    return path.join(this.dir, 'blobs');
  }

  private get file(): string {
    return path.join(this.dir, 'ledger.json');
  }

  /** Runs `fn` holding the ledger's lock (a sibling of the project folder, so that folder can go). */
  async withLock<T>(fn: () => Promise<T>): Promise<T> {
    return withLockFile(`${this.projectDir}.lock`, `the git guard's ledger ${this.dir}`, fn);
  }

  async exists(): Promise<boolean> {
    return fs.lstat(this.file).then(
      () => true,
      () => false,
    );
  }

  async load(): Promise<Ledger | undefined> {
    const text = await fs.readFile(this.file, 'utf8').catch(() => undefined);
    return text === undefined ? undefined : (JSON.parse(text) as Ledger);
  }

  /** Prepares an empty ledger folder (0700). */
  async create(): Promise<void> {
    await fs.rm(this.dir, { recursive: true, force: true });
    await fs.mkdir(this.blobs, { recursive: true, mode: 0o700 });
    await fs.chmod(this.projectDir, 0o700);
    await fs.chmod(this.dir, 0o700);
  }

  /** Written by rename: never half-written, whenever the process is killed. */
  save(ledger: Ledger): void {
    writeFileSync(`${this.file}.tmp`, JSON.stringify(ledger), { mode: 0o600 });
    renameSync(`${this.file}.tmp`, this.file);
  }

  async remove(): Promise<void> {
    // The record goes first: a ledger without its blobs must never be read.
    await fs.rm(this.file, { force: true });
    await fs.rm(this.dir, { recursive: true, force: true });
    await fs.rmdir(this.projectDir).catch(() => undefined);
  }
}
