// git's hardened configuration and environment: what keeps a repository's own settings (which a container
// may have written) from running anything on the host: hooks, fsmonitor, pagers, external diffs, automatic
// gc that would prune live sandboxes. Host-side git gets it through Git; git run by the action's scripts
// inside helper containers through `helperGitEnv`.
import { pickEnv } from './proc.js';

/** Configuration applied to every host-side git command, above the repository's own configuration. */
export const HARDENED_GIT_CONFIG: ReadonlyArray<readonly [string, string]> = [
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  ['core.untrackedCache', 'false'],
  ['core.sshCommand', 'ssh'],
  ['core.pager', 'cat'],
  ['core.quotePath', 'false'],
  ['diff.external', ''],
  // A submodule planted by the container brings its own .git and config: never run git inside one.
  ['diff.ignoreSubmodules', 'dirty'],
  ['status.submoduleSummary', 'false'],
  ['submodule.recurse', 'false'],
  ['fetch.recurseSubmodules', 'false'],
  ['push.recurseSubmodules', 'no'],
  ['protocol.ext.allow', 'never'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['advice.detachedHead', 'false'],
  ['init.defaultBranch', 'main'],
];

/**
 * For git talking to a remote (fetch, push): an HTTP transfer that receives nothing at all for two minutes
 * is abandoned by git itself, with git's own message, before the fetch's time limit runs out. (A server
 * that is still counting objects sends keep-alive packets, so an honest slow start is not cut.)
 */
export const GIT_NETWORK_CONFIG: ReadonlyArray<readonly [string, string]> = [
  ['http.lowSpeedLimit', '1'],
  ['http.lowSpeedTime', '120'],
];

/** Config as environment variables (GIT_CONFIG_COUNT/KEY_n/VALUE_n): also reaches git run by our scripts. */
export function gitConfigEnv(extra: ReadonlyArray<readonly [string, string]> = []): Record<string, string> {
  const all = [...HARDENED_GIT_CONFIG, ...extra];
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(all.length) };
  all.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/** The same hardening for git run by the action's scripts inside helper containers (nothing secret). */
export function helperGitEnv(): Record<string, string> {
  return {
    ...gitConfigEnv(),
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: '/tmp',
    LC_ALL: 'C',
  };
}

/**
 * The environment of every host-side git command: the runner's few variables git needs, no prompt, no
 * optional locks (a read must not write), no system configuration, and the hardened configuration.
 */
export function baseGitEnv(): Record<string, string> {
  return {
    ...pickEnv(['PATH', 'HOME', 'XDG_CONFIG_HOME', 'SSH_AUTH_SOCK', 'GIT_SSH_COMMAND', 'TMPDIR']),
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    LC_ALL: 'C',
    ...gitConfigEnv(),
  };
}
