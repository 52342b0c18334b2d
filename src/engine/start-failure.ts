// Why a container did not start, in words a user can act on: the engine's stderr matched against the usual
// reasons (rootless Podman's set-up, an image without `sh`, a command that is not there). Pure.
export type StartFailureKind =
  | 'runtime-dir'
  | 'no-tun'
  | 'network-helper-missing'
  | 'no-subids'
  | 'newuidmap-missing'
  | 'keep-id-rootful'
  | 'command-not-found'
  | 'command-not-executable'
  | 'network-setup'
  | 'no-shell';

export interface StartFailure {
  kind: StartFailureKind;
  /** What went wrong, one sentence. */
  message: string;
  /** What to do about it, one sentence. */
  hint: string;
}

const NETWORK_NONE = 'Set `network: none` (CLI: `--network none`) if the command needs no network.';

/**
 * A message with a hint for the usual reasons a (rootless) container does not start, from the engine's
 * stderr; undefined when the text is none of them. Pure.
 */
export function explainStartFailure(stderr: string): StartFailure | undefined {
  // Podman's log lines escape the quotes inside msg="..." with a backslash: the patterns take both forms.
  // Before the OCI patterns: runc reports an unusable runtime folder as "OCI permission denied" (exit 126).
  let m = /XDG_RUNTIME_DIR directory \\?"([^"\\]*)\\?" is not owned by the current user/.exec(stderr);
  if (m || /path in \$XDG_RUNTIME_DIR must be writable/.test(stderr)) {
    return {
      kind: 'runtime-dir',
      message: m
        ? `Rootless Podman's runtime folder ${m[1]} (XDG_RUNTIME_DIR) is not owned by the user.`
        : `Rootless Podman's runtime folder (XDG_RUNTIME_DIR) is missing or not writable by the user.`,
      hint: 'Point XDG_RUNTIME_DIR at a folder the user owns with mode 700 (normally /run/user/<uid>, made at login by systemd-logind).',
    };
  }
  m = /\/dev\/net\/tun\\?"?\): ([A-Za-z ]+)/.exec(stderr);
  if (m) {
    return {
      kind: 'no-tun',
      message: `Rootless networking failed: slirp4netns cannot open /dev/net/tun (${m[1].trim()}).`,
      hint: `${NETWORK_NONE} Otherwise the host must give the user a readable and writable /dev/net/tun.`,
    };
  }
  m =
    /could not find (slirp4netns|pasta)/.exec(stderr) ??
    /unable to find network with name or ID (slirp4netns|pasta)/.exec(stderr);
  if (m) {
    return {
      kind: 'network-helper-missing',
      message: `Rootless networking needs ${m[1]}, which ${m[0].startsWith('could') ? 'is not installed' : 'this Podman does not know'}.`,
      hint: `${NETWORK_NONE} Otherwise install slirp4netns (or passt, for Podman 4.4 and later).`,
    };
  }
  m = /no sub([ug]id) ranges found for user \\?"([^"\\]*)\\?"/.exec(stderr);
  if (m) {
    return {
      kind: 'no-subids',
      message: `The user ${m[2]} has no subordinate ${m[1]}s: rootless Podman maps only that one id, and images with other owners fail.`,
      hint: `Add ranges to /etc/subuid and /etc/subgid (usermod --add-subuids 100000-165535 --add-subgids 100000-165535 ${m[2]}), then run \`podman system migrate\`.`,
    };
  }
  m = /(newuidmap|newgidmap)\\?": executable file not found/.exec(stderr);
  if (m) {
    return {
      kind: 'newuidmap-missing',
      message: `Rootless Podman needs ${m[1]}, which is not installed.`,
      hint: 'Install newuidmap and newgidmap (Debian and Ubuntu: the uidmap package), then run `podman system migrate`.',
    };
  }
  if (/keep-id is only supported in rootless mode/.test(stderr)) {
    return {
      kind: 'keep-id-rootful',
      message: 'Podman runs rootful here, and rootful Podman refuses --userns=keep-id.',
      hint: 'Derive the user namespace arguments from the detected engine mode (rootful: none).',
    };
  }
  // Docker's `--init` (tini) starts, then cannot exec the command: `[FATAL tini (7)] exec sh failed: No
  // such file or directory` (exit 127): the same failure, one step later.
  m =
    /exec: \\?"([^"\\]*)\\?": executable file not found in \$PATH/.exec(stderr) ??
    /\[FATAL tini \(\d+\)\] exec (\S+) failed: No such file or directory/.exec(stderr);
  if (m || /OCI runtime attempted to invoke a command that was not found/.test(stderr)) {
    const command = m?.[1];
    return {
      kind: 'command-not-found',
      message:
        command === 'sh'
          ? 'The image has no `sh`: the container could not start (exit 127).'
          : `The container could not start: ${command ? `\`${command}\`` : 'its command'} is not in the image (exit 127).`,
      hint: 'Use an image with `sh` and `git` (input `image`).',
    };
  }
  m = /exec: \\?"([^"\\]*)\\?": permission denied/.exec(stderr);
  if (m || /OCI permission denied/.test(stderr)) {
    return {
      kind: 'command-not-executable',
      message: `The container could not start: ${m ? `\`${m[1]}\`` : 'its command'} is not executable (exit 126).`,
      hint: 'Check the image (input `image`): the command and `sh` must be executable files in it.',
    };
  }
  // Less precise words for the same two failures, from engines and versions that say less.
  if (/\/dev\/net\/tun|slirp4netns|pasta|setting up network|netns/i.test(stderr)) {
    return {
      kind: 'network-setup',
      message: 'The engine could not set up the network.',
      hint: `With rootless Podman and no /dev/net/tun: ${NETWORK_NONE}`,
    };
  }
  if (/executable file not found|no such file or directory.*sh|"sh": /i.test(stderr)) {
    return {
      kind: 'no-shell',
      message: 'The image has no `sh`.',
      hint: 'The command runs with `sh -c`: use an image with `sh` and `git` (input `image`).',
    };
  }
  return undefined;
}

/** ` (what went wrong. What to do.)` for a known start failure, to follow the engine's words; else ''. */
export function startFailureHint(stderr: string): string {
  const explained = explainStartFailure(stderr);
  return explained ? ` (${explained.message} ${explained.hint})` : '';
}
