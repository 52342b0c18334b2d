// Every input is read and validated here, once, into typed settings. Nothing past this module reads an
// input. An error names the input and what it accepts, and is raised before anything is created.
import * as os from 'node:os';
import * as path from 'node:path';
import type { Limits } from '../engine/container-args.js';
import type { EngineName } from '../engine/engine.js';
import { runsInContainer } from '../engine/host-paths.js';
import { envEntries, type EnvEntry } from './env-input.js';
import { defaultBotIdentity, parseIdentity, type GitIdentity } from './identity.js';
import {
  boolean,
  branchInput,
  CHOICES,
  image,
  InputError,
  list,
  number,
  oneOf,
  optionalPattern,
  pathInput,
  revisionInput,
  size,
  triggerCommand,
  labelTrigger,
  assigneeTrigger,
  issueBranchPrefix,
  volumePrefix,
  withDefaults,
  type Choice,
  type InputReader,
} from './inputs.js';
import type { NetworkPolicy } from '../network/policy.js';
import { networkInput } from './network-input.js';
import { pullRequestInputs, type PullRequestSettings } from './pull-request-input.js';

export { CHOICES, InputError, withDefaults, type EnvEntry, type InputReader, type PullRequestSettings };
export { RESERVED_ENV } from './env-input.js';
import type { Isolation } from '../sandbox/layout.js';

export type { Isolation };

export type CleanupPolicy = Choice<'cleanup'>;

/** `secret-scan`: what a finding in what leaves a run does (src/run/secret-gate.ts). */
export type SecretScanMode = Choice<'secret-scan'>;

export type ContainerLimits = Limits;

/** Who commits: `Name <email>` (settings/identity.ts parses and defaults it). */
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
  /** Before a push, a saved patch or a posted reply: stop it (`block`), warn, or do not scan. */
  secretScan: SecretScanMode;
  limits: ContainerLimits;
  /**
   * `network` and `credentials`. With an allow-list or audit, `limits.network` is `none`: the command's
   * container is only ever joined to the proxy's (src/network/), never to a network of its own.
   */
  network: NetworkPolicy;
  /** The most a sandbox's changes may weigh when they come back (the bundle's bytes). */
  maxImportBytes: number;
  /** Author and committer of the commits the action and the command make (`author`, `committer`). */
  author: GitIdentity;
  committer: GitIdentity;
  trigger: TriggerSettings;
  pullRequest: PullRequestSettings;
}

/** `pull-request: true`: a pushed branch that no open pull request has as its head gets one. */

export interface TriggerSettings {
  /** e.g. `/fix`; empty: the run is not comment-triggered. */
  command: string;
  allowedAssociations: string[];
  allowedBots: string[];
  /** workflow_dispatch: the pull request to work on (0: none). */
  prNumber: number;
  /** `pull-request-bot: true`: pull_request, pull_request_target and push events start the bot. */
  pullRequestBot: boolean;
  /** `issues` events: the label (`labeled`) and the login (`assigned`) that start a run; empty: none. */
  labelTrigger: string;
  assigneeTrigger: string;
  /** An issue's branch: this prefix and the issue's number. */
  issueBranchPrefix: string;
}

export interface ReapSettings extends CommonSettings {
  mode: 'reap';
  headlessExpiryDays: number;
  branchExpiryDays: number;
  orphanExpiryDays: number;
  dryRun: boolean;
  /** 0: no limit. */
  maxRemovals: number;
  force: boolean;
  /** Empty: nothing is archived. */
  archiveDir: string;
  /** Image of the helper containers that look into volume sandboxes (sh, git, du, tar). */
  image: string;
}

export type Settings = RunSettings | ReapSettings;

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

export function parseSettings(given: InputReader, env: NodeJS.ProcessEnv = process.env): Settings {
  const read = withDefaults(given);
  const mode = oneOf(read, 'mode');
  const common: CommonSettings = {
    engine: oneOf(read, 'engine'),
    worktreeRoot: pathInput(read, 'worktree-root') ?? defaultWorktreeRoot(env),
    volumePrefix: volumePrefix(read),
    token: read('token').trim(),
  };
  return mode === 'run' ? { ...common, ...parseRun(read, env) } : { ...common, ...parseReap(read) };
}

function parseRun(read: InputReader, env: NodeJS.ProcessEnv): Omit<RunSettings, keyof CommonSettings> {
  const command = read('command');
  if (!command.trim()) throw new InputError('command', command, 'a shell command (required in run mode)');
  const network = networkInput(read);
  return {
    mode: 'run',
    command,
    image: image(read),
    isolation: oneOf(read, 'isolation'),
    branch: branchInput(read, 'branch'),
    base: revisionInput(read, 'base'),
    repositoryPath: pathInput(read, 'repository-path') ?? path.resolve(env.GITHUB_WORKSPACE || process.cwd()),
    cleanup: oneOf(read, 'cleanup'),
    env: envEntries(read, env),
    timeoutMinutes: number(read, 'timeout-minutes', { min: 0, integer: false }),
    lockTimeoutMinutes: number(read, 'lock-timeout-minutes', { min: 0, integer: false }),
    allowFailure: boolean(read, 'allow-failure'),
    push: boolean(read, 'push'),
    commitMessage: read('commit-message').trim(),
    secretScan: oneOf(read, 'secret-scan'),
    limits: {
      memory: optionalPattern(read, 'memory', /^\d+(\.\d+)?[bkmg]?$/i, 'a size such as 512m or 2g'),
      cpus: optionalPattern(read, 'cpus', /^(\d+(\.\d+)?|\.\d+)$/, 'a positive number such as 1.5'),
      pidsLimit: number(read, 'pids-limit', { min: 1, integer: true }),
      network: network.mode === 'bridge' ? 'bridge' : 'none',
      readOnlyRootfs: boolean(read, 'read-only-rootfs'),
    },
    network,
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
      labelTrigger: labelTrigger(read),
      assigneeTrigger: assigneeTrigger(read),
      issueBranchPrefix: issueBranchPrefix(read),
    },
    pullRequest: pullRequestInputs(read),
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

/**
 * The default root of disk sandboxes: the user's cache folder; but when the action runs in a container
 * (a job container, a runner pod beside a Docker-in-Docker engine), that folder is the container's own and
 * the engine does not see it (or, in a job container, it lies under RUNNER_TEMP, emptied after each job):
 * then a folder beside the workspaces in the runner's work folder (`<work>/_worktree-sandbox/worktrees`,
 * RUNNER_TEMP being `<work>/_temp`), which the engine is given and which outlives the job for the reaper.
 */
export function defaultWorktreeRoot(
  env: NodeJS.ProcessEnv,
  inContainer: boolean = runsInContainer(),
): string {
  if (inContainer && env.RUNNER_TEMP && path.isAbsolute(env.RUNNER_TEMP))
    return path.join(path.dirname(path.resolve(env.RUNNER_TEMP)), '_worktree-sandbox', 'worktrees');
  const cache =
    env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : path.join(env.HOME || os.homedir(), '.cache');
  return path.join(cache, 'worktree-sandbox', 'worktrees');
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
