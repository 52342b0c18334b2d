// The git CLI as the rest of the action sees it: intention-revealing methods, one process each, that Git
// carries out (git.ts). A caller that needs only a few of them can take `Pick<GitCommands, ...>`, and its
// spec a fake.
import type { ProcResult, StreamOptions, StreamResult } from './proc.js';
import type { HostWork } from './time-limits.js';

/** An object name as git prints it: SHA-1 (40 hex digits) or SHA-256 (64). */
export const OID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/**
 * For every diff-like command (diff, format-patch): no external diff or textconv program that a
 * repository's attributes could name, and no rename detection (its memory grows with the square of the
 * paths).
 */
export const NO_EXTERNAL_DIFF = ['--no-ext-diff', '--no-textconv', '--no-renames'] as const;

export interface GitExecOptions {
  /** Extra config for this call only (e.g. credentials for a push). Never visible on the command line. */
  config?: ReadonlyArray<readonly [string, string]>;
  env?: Record<string, string>;
  /** Written to git's standard input (e.g. object names for `cat-file --batch-check`). */
  input?: Buffer;
  /** Which time limit applies (time-limits.ts); default `git`, a local command. */
  work?: Extract<HostWork, 'git' | 'git-fetch' | 'git-push' | 'git-import'>;
  /** What the command is for, for the error when its time limit runs out; default: where it ran. */
  purpose?: string;
}

export interface ObjectReader {
  /** An object's type and size (undefined: no such object). */
  info(oid: string): Promise<{ type: string; size: number } | undefined>;
  /** An object's type and content (undefined: no such object). Check its size with `info` first. */
  read(oid: string): Promise<{ type: string; body: Buffer } | undefined>;
  close(): Promise<void>;
}

/** One object `readSmallObjects` found: its name, type and content. */
export interface SmallObject {
  oid: string;
  type: string;
  body: Buffer;
}

export interface GitCommands {
  /** git in `cwd`: the result whatever the exit code; a ProcTimeLimitError when its limit runs out. */
  exec(cwd: string, args: readonly string[], options?: GitExecOptions): Promise<ProcResult>;
  /** git in `cwd`: its stdout; a GitError for a non-zero exit. */
  run(cwd: string, args: readonly string[], options?: GitExecOptions): Promise<string>;
  /** git in `cwd` with its output streamed (bounded memory). */
  stream(
    cwd: string,
    args: readonly string[],
    options?: Omit<StreamOptions, 'cwd' | 'env'> & { config?: ReadonlyArray<readonly [string, string]> },
  ): Promise<StreamResult>;
  objectReader(cwd: string, timeoutMs: number): Promise<ObjectReader>;
  readSmallObjects(
    cwd: string,
    names: readonly string[],
    maxBytes: number,
  ): Promise<Map<string, SmallObject | null> | undefined>;
  /** Environment for a script that calls git itself (the same hardening). */
  scriptEnv(extra?: Record<string, string>): Record<string, string>;
  isValidBranchName(name: string): Promise<boolean>;
  refExists(cwd: string, ref: string): Promise<boolean>;
  readRefs(cwd: string, refs: readonly string[]): Promise<Map<string, string>>;
  resolveCommit(cwd: string, rev: string): Promise<string | undefined>;
  fetchCommit(cwd: string, remote: string, ref: string, purpose: string): Promise<string>;
  remoteUrl(cwd: string, remote: string): Promise<string | undefined>;
}
