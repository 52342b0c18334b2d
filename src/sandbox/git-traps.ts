// Traps in a sandbox's git folder, cleared before a helper's git writes there. The command can leave,
// where the next helper's git opens a file, something that is not a file: a FIFO (git blocks opening it,
// and so did every later run of that sandbox until its helper's time limit), a socket or a device, or a
// symbolic link (git would write through it, or find a lock taken for good). Such an entry holds no work:
// it is the sandbox's own bookkeeping, in its `.git` folder, and it is removed, never opened or followed.
//
// The removal happens where the helper runs, in its container, in the shell before its git starts: for
// a volume that container is the only one that sees the files, and for a disk sandbox the host never
// looks (no host-side read could be fooled by a link the container planted). Each helper names the paths
// its own git writes; the work tree is never touched. What git only reads (HEAD, config, info/exclude)
// and a branch's own ref (it holds the work's tip) are left as they are: removing them would not heal the
// sandbox, and the helper's time limit still ends a git that blocks there.
import { randomBytes } from 'node:crypto';
import type { Ui } from '../ui/ui.js';
import { sandboxText } from '../ui/sandbox-text.js';

/**
 * `clear_git_traps TOKEN PATH...`, run in the work tree: each PATH is relative to its `.git` folder. Each
 * component of a path is looked at without following it (`-L` first): a symbolic link, FIFO, socket or
 * device is removed and named on stderr as `TOKEN trap KIND PATH`, and nothing below it is looked at; a
 * folder is walked into; a regular file, or nothing, ends the path. A `.git` that is a link or not a
 * folder is left alone: it is not the folder this action made, and git's own errors speak for it.
 */
export const TRAP_GUARD = `clear_git_traps() {
  _gt_token="$1"; shift
  if [ -L .git ] || [ ! -d .git ]; then return 0; fi
  for _gt_rel in "$@"; do
    _gt_path=.git; _gt_rest="$_gt_rel"
    while [ -n "$_gt_rest" ]; do
      _gt_path="$_gt_path/\${_gt_rest%%/*}"
      case "$_gt_rest" in */*) _gt_rest="\${_gt_rest#*/}" ;; *) _gt_rest= ;; esac
      if [ -L "$_gt_path" ]; then _gt_kind=link
      elif [ -d "$_gt_path" ]; then continue
      elif [ ! -e "$_gt_path" ] || [ -f "$_gt_path" ]; then break
      elif [ -p "$_gt_path" ]; then _gt_kind=fifo
      elif [ -S "$_gt_path" ]; then _gt_kind=socket
      elif [ -b "$_gt_path" ] || [ -c "$_gt_path" ]; then _gt_kind=device
      else _gt_kind=other; fi
      if rm -f -- "$_gt_path" 2>/dev/null; then
        printf '%s trap %s %s\\n' "$_gt_token" "$_gt_kind" "\${_gt_path#.git/}" >&2
      fi
      break
    done
  done
}
`;

const KINDS: ReadonlyMap<string, string> = new Map([
  ['fifo', 'FIFO'],
  ['socket', 'socket'],
  ['device', 'device'],
  ['link', 'symbolic link'],
  ['other', 'special file'],
]);

/** An entry a helper removed from a sandbox's `.git` folder before its git wrote there. */
export interface ClearedTrap {
  /** What it was: a FIFO, a socket, a device, a symbolic link. */
  kind: string;
  /** Where, relative to `.git`, escaped and bounded (it may carry a branch name, and it came back from a sandbox). */
  path: string;
  /** Which helper removed it (`offer`, `capture`). */
  helper: string;
}

/**
 * The most entries kept of one helper's report: each helper names a handful of paths, and each path
 * yields one removal at most, so more than this is not the guard's report.
 */
export const MAX_CLEARED = 16;
/** The most characters of one path kept. */
const PATH_MAX_CHARS = 300;

/** Collects a helper's `TOKEN trap KIND PATH` lines (stderr), bounded in count and length. */
export class ClearedTraps {
  readonly list: ClearedTrap[] = [];

  constructor(
    private readonly helper: string,
    /** What begins the guard's lines: a fresh random token unless the helper has one for its own lines. */
    readonly token = randomBytes(16).toString('hex'),
  ) {}

  /** Takes the line if it is one of the guard's (true), else leaves it to the caller. */
  take(line: string): boolean {
    const prefix = `${this.token} trap `;
    if (!line.startsWith(prefix)) return false;
    const rest = line.slice(prefix.length);
    const space = rest.indexOf(' ');
    const kind = space > 0 ? KINDS.get(rest.slice(0, space)) : undefined;
    if (!kind) return true;
    if (this.list.length < MAX_CLEARED)
      this.list.push({ kind, path: sandboxText(rest.slice(space + 1), PATH_MAX_CHARS), helper: this.helper });
    return true;
  }
}

/** The removals in one line of text (escaped already; the job summary escapes its own characters too). */
export function describeCleared(cleared: readonly ClearedTrap[], shown = MAX_CLEARED): string {
  const named = cleared.slice(0, shown).map((t) => `${t.kind} .git/${t.path} (${t.helper})`);
  const more = cleared.length - named.length;
  return named.join('; ') + (more > 0 ? `; and ${more} more` : '');
}

/** Tells the log what was removed from the sandbox's git folder, and why. */
export function reportCleared(ui: Ui, sandboxName: string, cleared: readonly ClearedTrap[]): void {
  if (!cleared.length) return;
  ui.warning(
    `Removed from the git folder of ${sandboxName} what its git would have blocked on or written through (left there since the last run, not work): ${describeCleared(cleared)}.`,
  );
}
