// Every input is read and validated here, once, into typed settings. Nothing past this module reads an
// input. An error names the input and what it accepts, and is raised before anything is created.
import * as os from 'node:os';
import * as path from 'node:path';
import { ACTION_DEFAULTS } from './action-defaults.js';
import type { Limits } from './engine/container-args.js';
import { ENGINE_ENV, type EngineName } from './engine/engine.js';
import { defaultBotIdentity, parseIdentity, type GitIdentity } from './github/identity.js';
import type { Isolation } from './sandbox/layout.js';

export type { Isolation };

export type InputReader = (name: string) => string;
export type CleanupPolicy = 'auto' | 'always' | 'never';

export interface EnvEntry {
  name: string;
  value: string;
}

export type ContainerLimits = Limits;

/** Who commits: `Name <email>` (github/identity.ts parses and defaults it). */
export type Identity = GitIdentity;

interface CommonSettings {
  engine: EngineName;
  worktreeRoot: string;
  volumePrefix: string;
  token: string;
}

export interface RunSettings extends CommonSettings {
  mode: 'run';
  command: string;
  image: string;
  isolation: Isolation;
  /** Empty: a transient sandbox. Checked against git's rules by `validateBranchNames`. */
  branch: string;
  base: string;
  repositoryPath: string;
  cleanup: CleanupPolicy;
  env: EnvEntry[];
  timeoutMinutes: number;
  lockTimeoutMinutes: number;
  allowFailure: boolean;
  push: boolean;
  commitMessage: string;
  limits: ContainerLimits;
  /** The most a sandbox's changes may weigh when they come back (the bundle's bytes). */
  maxImportBytes: number;
  /** Author and committer of the commits the action and the command make (`author`, `committer`). */
  author: GitIdentity;
  committer: GitIdentity;
  trigger: TriggerSettings;
  pullRequest: PullRequestSettings;
}

/** `pull-request: true`: a pushed branch that no open pull request has as its head gets one. */
export interface PullRequestSettings {
  open: boolean;
  title: string;
  body: string;
  draft: boolean;
  labels: string[];
}

export interface TriggerSettings {
  /** e.g. `/fix`; empty: the run is not comment-triggered. */
  command: string;
  allowedAssociations: string[];
  allowedBots: string[];
  /** workflow_dispatch: the pull request to work on (0: none). */
  prNumber: number;
  /** `pull-request-bot: true`: pull_request, pull_request_target and push events start the bot. */
  pullRequestBot: boolean;
}

export interface ReapSettings extends CommonSettings {
  mode: 'reap';
  headlessExpiryDays: number;
  branchExpiryDays: number;
  orphanExpiryDays: number;
  dryRun: boolean;
  maxRemovals: number;
  force: boolean;
  archiveDir: string;
  /** Image of the helper containers that look into volume sandboxes (sh, git, du, tar). */
  image: string;
}

export type Settings = RunSettings | ReapSettings;

export class InputError extends Error {
  constructor(input: string, value: string, accepted: string) {
    super(`Invalid input '${input}': ${JSON.stringify(value)}. Accepted: ${accepted}.`);
    this.name = 'InputError';
  }
}

export const ASSOCIATIONS = [
  'OWNER',
  'MEMBER',
  'COLLABORATOR',
  'CONTRIBUTOR',
  'FIRST_TIMER',
  'FIRST_TIME_CONTRIBUTOR',
  'MANNEQUIN',
  'NONE',
];

/**
 * An input as the runner hands it over: empty means action.yml's default (the runner fills defaults in
 * for the action; the CLI and tests get them here, from the one place they are written).
 */
export function withDefaults(read: InputReader): InputReader {
  return (name) => {
    const raw = read(name);
    return raw.trim() ? raw : (ACTION_DEFAULTS[name] ?? '');
  };
}

export function parseSettings(given: InputReader, env: NodeJS.ProcessEnv = process.env): Settings {
  const read = withDefaults(given);
  const mode = oneOf(read, 'mode', ['run', 'reap'] as const);
  const common: CommonSettings = {
    engine: oneOf(read, 'engine', ['docker', 'podman'] as const),
    worktreeRoot: pathInput(read, 'worktree-root') ?? defaultWorktreeRoot(env),
    volumePrefix: volumePrefix(read),
    token: read('token').trim(),
  };
  return mode === 'run' ? { ...common, ...parseRun(read, env) } : { ...common, ...parseReap(read) };
}

function parseRun(read: InputReader, env: NodeJS.ProcessEnv): Omit<RunSettings, keyof CommonSettings> {
  const command = read('command');
  if (!command.trim()) throw new InputError('command', command, 'a shell command (required in run mode)');
  return {
    mode: 'run',
    command,
    image: image(read),
    isolation: oneOf(read, 'isolation', ['container', 'disk'] as const),
    branch: branchInput(read, 'branch'),
    base: revisionInput(read, 'base'),
    repositoryPath: pathInput(read, 'repository-path') ?? path.resolve(env.GITHUB_WORKSPACE || process.cwd()),
    cleanup: oneOf(read, 'cleanup', ['auto', 'always', 'never'] as const),
    env: envEntries(read, env),
    timeoutMinutes: number(read, 'timeout-minutes', { min: 0, integer: false }),
    lockTimeoutMinutes: number(read, 'lock-timeout-minutes', { min: 0, integer: false }),
    allowFailure: boolean(read, 'allow-failure'),
    push: boolean(read, 'push'),
    commitMessage: read('commit-message').trim(),
    limits: {
      memory: optionalPattern(read, 'memory', /^\d+(\.\d+)?[bkmg]?$/i, 'a size such as 512m or 2g'),
      cpus: optionalPattern(read, 'cpus', /^(\d+(\.\d+)?|\.\d+)$/, 'a positive number such as 1.5'),
      pidsLimit: number(read, 'pids-limit', { min: 1, integer: true }),
      network: oneOf(read, 'network', ['bridge', 'none'] as const),
      readOnlyRootfs: boolean(read, 'read-only-rootfs'),
    },
    maxImportBytes: size(read, 'max-import-size'),
    author: identity(read, 'author', env),
    committer: identity(read, 'committer', env),
    trigger: {
      command: triggerCommand(read),
      allowedAssociations: list(read, 'allowed-associations').map((a) => {
        const upper = a.toUpperCase();
        if (!ASSOCIATIONS.includes(upper))
          throw new InputError('allowed-associations', a, ASSOCIATIONS.join(', '));
        return upper;
      }),
      allowedBots: list(read, 'allowed-bots'),
      prNumber: number(read, 'pr-number', { min: 1, integer: true }),
      pullRequestBot: boolean(read, 'pull-request-bot'),
    },
    pullRequest: pullRequestInputs(read),
  };
}

function pullRequestInputs(read: InputReader): PullRequestSettings {
  const open = boolean(read, 'pull-request');
  if (open && !boolean(read, 'push'))
    throw new InputError(
      'pull-request',
      'true',
      'true only with push: true (a pull request needs a pushed branch)',
    );
  const title = read('pull-request-title').trim() || 'Changes made in worktree-sandbox';
  if (CONTROL.test(title) || title.length > 256)
    throw new InputError('pull-request-title', title, 'one line of at most 256 characters');
  const body = read('pull-request-body');
  if (body.length > 60000)
    throw new InputError('pull-request-body', `${body.slice(0, 40)}...`, 'at most 60000 characters');
  const labels = read('pull-request-labels')
    .split(/[,\n]/)
    .map((l) => l.trim())
    .filter(Boolean);
  for (const label of labels)
    if (CONTROL.test(label) || label.length > 50)
      throw new InputError(
        'pull-request-labels',
        label,
        'label names of at most 50 characters, separated by commas or newlines',
      );
  return {
    open,
    title,
    body: body.trim() ? body : 'Automated changes made by worktree-sandbox.',
    draft: boolean(read, 'pull-request-draft'),
    labels: [...new Set(labels)],
  };
}

function identity(read: InputReader, name: string, env: NodeJS.ProcessEnv): GitIdentity {
  const raw = read(name);
  if (!raw.trim()) return defaultBotIdentity(env.GITHUB_SERVER_URL);
  const parsed = parseIdentity(raw);
  if (!parsed) throw new InputError(name, raw, 'Name <email>, such as Fix Bot <fix-bot@example.com>');
  return parsed;
}

function parseReap(read: InputReader): Omit<ReapSettings, keyof CommonSettings> {
  const days = (name: string) => number(read, name, { min: 1, integer: true });
  const branchExpiryDays = days('branch-expiry-days');
  const orphanExpiryDays = days('orphan-expiry-days');
  if (orphanExpiryDays < branchExpiryDays) {
    throw new InputError(
      'orphan-expiry-days',
      String(orphanExpiryDays),
      `whole days ≥ branch-expiry-days (${branchExpiryDays}): orphans are never removed sooner than persistent sandboxes`,
    );
  }
  return {
    mode: 'reap',
    headlessExpiryDays: days('headless-expiry-days'),
    branchExpiryDays,
    orphanExpiryDays,
    dryRun: boolean(read, 'dry-run'),
    maxRemovals: number(read, 'max-removals', { min: 0, integer: true }),
    force: boolean(read, 'force'),
    archiveDir: pathInput(read, 'archive-dir') ?? '',
    image: image(read),
  };
}

export function defaultWorktreeRoot(env: NodeJS.ProcessEnv): string {
  const cache =
    env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : path.join(env.HOME || os.homedir(), '.cache');
  return path.join(cache, 'worktree-sandbox', 'worktrees');
}

/** The host-only state folder (the git guards' records: guard-ledger.ts). Never mounted into a container. */
export function defaultStateDir(env: NodeJS.ProcessEnv): string {
  const state =
    env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME)
      ? env.XDG_STATE_HOME
      : path.join(env.HOME || os.homedir(), '.local', 'state');
  return path.join(state, 'worktree-sandbox');
}

function oneOf<T extends string>(read: InputReader, name: string, values: readonly T[]): T {
  const raw = read(name).trim();
  const found = values.find((v) => v === raw.toLowerCase());
  if (!found) throw new InputError(name, raw, values.join(', '));
  return found;
}

function boolean(read: InputReader, name: string): boolean {
  const raw = read(name).trim();
  if (!raw) return false;
  if (/^true$/i.test(raw)) return true;
  if (/^false$/i.test(raw)) return false;
  throw new InputError(name, raw, 'true or false');
}

function number(read: InputReader, name: string, rule: { min: number; integer: boolean }): number {
  const raw = read(name).trim();
  if (!raw) return 0; // an input whose default is empty: none
  const pattern = rule.integer ? /^\d+$/ : /^(\d+(\.\d+)?|\.\d+)$/;
  const value = Number(raw);
  if (!pattern.test(raw) || !Number.isFinite(value) || value < rule.min || value > 1e9) {
    const kind = rule.integer ? 'a whole number' : 'a number';
    throw new InputError(name, raw, `${kind} ≥ ${rule.min}`);
  }
  return value;
}

const UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

function size(read: InputReader, name: string): number {
  const raw = read(name).trim();
  const match = /^(\d+(?:\.\d+)?)([bkmg]?)$/i.exec(raw);
  const value = match ? Math.floor(Number(match[1]) * UNITS[match[2].toLowerCase()]) : NaN;
  if (!match || !Number.isFinite(value) || value < 1024)
    throw new InputError(name, raw, 'a size of at least 1k, such as 512m or 2g');
  return value;
}

function optionalPattern(
  read: InputReader,
  name: string,
  pattern: RegExp,
  accepted: string,
): string | undefined {
  const raw = read(name).trim();
  if (!raw) return undefined;
  if (!pattern.test(raw)) throw new InputError(name, raw, accepted);
  return raw;
}

function list(read: InputReader, name: string): string[] {
  const raw = read(name).trim();
  if (!raw) return [];
  return raw
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what this rejects
const CONTROL = /[\u0000-\u001f\u007f]/;

function pathInput(read: InputReader, name: string): string | undefined {
  const raw = read(name);
  if (!raw.trim()) return undefined;
  if (CONTROL.test(raw))
    throw new InputError(name, raw, 'a path without control characters (newlines, tabs, NUL)');
  return path.resolve(raw.trim());
}

function image(read: InputReader): string {
  const raw = read('image').trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9._\-/:@]*$/.test(raw) || raw.length > 512) {
    throw new InputError(
      'image',
      raw,
      'an image reference such as debian:bookworm or ghcr.io/owner/image:tag',
    );
  }
  return raw;
}

function volumePrefix(read: InputReader): string {
  const raw = read('volume-prefix').trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/.test(raw)) {
    throw new InputError(
      'volume-prefix',
      raw,
      'letters, digits, _ . - (starting with a letter or digit, at most 63 characters)',
    );
  }
  return raw;
}

/** A first, pure check of a branch name; git's own rules are applied by `validateBranchNames`. */
function branchInput(read: InputReader, name: string): string {
  const raw = read(name);
  const value = raw.trim();
  if (!value) return '';
  if (CONTROL.test(raw) || value.startsWith('-') || value.length > 255 || value.includes('\ufffd')) {
    throw new InputError(
      name,
      raw,
      "a branch name valid for 'git check-ref-format --branch' (at most 255 characters)",
    );
  }
  return value.replace(/^refs\/heads\//, '');
}

function revisionInput(read: InputReader, name: string): string {
  const raw = read(name);
  const value = raw.trim();
  if (!value) return '';
  if (CONTROL.test(raw) || value.startsWith('-') || value.length > 255) {
    throw new InputError(name, raw, 'a commit, branch or tag name');
  }
  return value;
}

function triggerCommand(read: InputReader): string {
  const raw = read('trigger').trim();
  if (!raw) return '';
  if (!/^\/?[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(raw))
    throw new InputError('trigger', raw, 'one word such as /fix');
  return raw;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Variables the action sets itself in the container; a user entry may not override them. */
export const RESERVED_ENV = [
  'SANDBOX_NAME',
  'SANDBOX_KIND',
  'SANDBOX_BRANCH',
  'SANDBOX_WORKTREE',
  'SANDBOX_PARENT',
  'SANDBOX_PROMPT_FILE',
];

function envEntries(read: InputReader, env: NodeJS.ProcessEnv): EnvEntry[] {
  const entries: EnvEntry[] = [];
  for (const line of read('env').split(/\r?\n/)) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    const eq = line.indexOf('=');
    const name = (eq < 0 ? line : line.slice(0, eq)).trim();
    if (!ENV_NAME.test(name))
      throw new InputError('env', line, 'lines of NAME or NAME=value, NAME made of letters, digits and _');
    if (RESERVED_ENV.includes(name))
      throw new InputError('env', line, `a name other than ${RESERVED_ENV.join(', ')} (set by the action)`);
    if (entries.some((e) => e.name === name)) throw new InputError('env', line, 'each NAME at most once');
    const value = eq < 0 ? (env[name] ?? '') : line.slice(eq + 1);
    // A value of several lines reaches the container by name through the engine CLI's environment, where
    // it may never stand in for one of the CLI's own variables.
    if (/[\r\n]/.test(value) && ENGINE_ENV.includes(name))
      throw new InputError(
        'env',
        name,
        `a name other than ${ENGINE_ENV.join(', ')} for a value of several lines`,
      );
    entries.push({ name, value });
  }
  return entries;
}

/** Applies git's own branch-name rules (`git check-ref-format --branch`) once git is at hand. */
export async function validateBranchNames(
  settings: RunSettings,
  isValid: (name: string) => Promise<boolean>,
): Promise<void> {
  if (settings.branch && !(await isValid(settings.branch))) {
    throw new InputError(
      'branch',
      settings.branch,
      "a branch name valid for 'git check-ref-format --branch'",
    );
  }
}
