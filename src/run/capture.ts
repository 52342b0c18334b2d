// After the command: inside a helper container (never on the host), what is left uncommitted is captured
// (a real commit on the sandbox branch with `push: true`, else a snapshot commit that moves no ref), and
// the sandbox's commits that the parent lacks leave as one git bundle on the helper's standard output.
// The host writes at most `maxBytes` of it to a private file, then stops the helper: a command that wrote
// gigabytes cannot fill the runner's disk.
// ADR 0003 (docs/adr/0003-only-a-bundle-crosses-back.md).
import type { EngineCommands } from '../engine/engine-commands.js';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { SNAPSHOT_REF } from '../sandbox/bookkeeping.js';
import { ClearedTraps, TRAP_GUARD, type ClearedTrap } from '../sandbox/git-traps.js';
import { sandboxHelper, whereIs, type Sandbox } from '../sandbox/layout.js';
import type { Identity } from '../settings/settings.js';
import { sandboxText } from '../ui/sandbox-text.js';

/**
 * $1 work tree, $2 branch (empty: transient), $3 commit leftovers (1/0), $4 message, $5 this run's token
 * for framed lines on stderr, $6 commits the parent has (hex, space separated). Positional only.
 */
export const CAPTURE_SCRIPT = `set -eu
${TRAP_GUARD}
wt="$1"; branch="$2"; commit="$3"; message="$4"; token="$5"; exclude="$6"
cd -- "$wt"
# What git opens to write (and then delete) the snapshot's ref is cleared of traps first (git-traps.ts).
clear_git_traps "$token" ${SNAPSHOT_REF} ${SNAPSHOT_REF}.lock logs/${SNAPSHOT_REF} packed-refs packed-refs.lock
git rev-parse --verify --quiet HEAD >/dev/null || { echo "worktree-sandbox: the sandbox has no commit at HEAD" >&2; exit 3; }
# A run is activity, whether or not it changed anything: the reaper reads the work tree folder's time.
touch -c -- "$wt" 
head_ref=$(git symbolic-ref --quiet HEAD || true)
# Everything is staged into an index of our own, never through the sandbox's: a lock a killed command
# left there (index.lock, HEAD.lock) stops neither the snapshot nor the real commit.
index=$(mktemp /tmp/worktree-sandbox-index.XXXXXX)
real_index=$(git rev-parse --git-path index)
if [ -f "$real_index" ]; then cp -- "$real_index" "$index"; else rm -f -- "$index"; fi
GIT_INDEX_FILE="$index" git add -A >&2
tree=$(GIT_INDEX_FILE="$index" git write-tree)
committed=0
stale=0
if [ "$commit" = 1 ] && [ -n "$branch" ] && [ "$head_ref" = "refs/heads/$branch" ] &&
   [ "$tree" != "$(git rev-parse --verify HEAD^{tree})" ]; then
  # So is what moving the branch opens: its lock and log, HEAD's (the branch is HEAD's), the index's copy.
  clear_git_traps "$token" HEAD.lock logs/HEAD "refs/heads/$branch.lock" "logs/refs/heads/$branch" index.worktree-sandbox
  old=$(git rev-parse --verify HEAD)
  # Moving the branch locks it and HEAD (its reflog). No git can run in the sandbox while the helper does:
  # a lock there now was left by a killed git, and would stop the commit the run was asked for.
  for lock in "$(git rev-parse --git-path HEAD.lock)" "$(git rev-parse --git-path "refs/heads/$branch.lock")"; do
    if [ -e "$lock" ]; then rm -f -- "$lock"; stale=$((stale + 1)); fi
  done
  new=$(git commit-tree "$tree" -p "$old" -m "$message")
  git update-ref -m "worktree-sandbox: commit of uncommitted work" "refs/heads/$branch" "$new" "$old"
  # The work tree is the new commit now: so is the sandbox's index (replaced in one step; a stale
  # index.lock is left for the command's git).
  cp -- "$index" "$real_index.worktree-sandbox" && mv -f -- "$real_index.worktree-sandbox" "$real_index"
  committed=1
fi
rm -f -- "$index"
snapshot=$(git commit-tree "$tree" -p HEAD -m 'worktree-sandbox: snapshot of uncommitted work')
git update-ref ${SNAPSHOT_REF} "$snapshot"
printf '%s head-ref %s\\n' "$token" "$head_ref" >&2
printf '%s head %s\\n' "$token" "$(git rev-parse --verify HEAD)" >&2
if [ -n "$branch" ]; then printf '%s branch %s\\n' "$token" "$(git rev-parse --verify --quiet "refs/heads/$branch" || true)" >&2; fi
printf '%s committed %s\\n' "$token" "$committed" >&2
printf '%s stale-locks %s\\n' "$token" "$stale" >&2
set -- HEAD ${SNAPSHOT_REF}
if [ -n "$branch" ] && git show-ref --verify --quiet "refs/heads/$branch"; then set -- "$@" "refs/heads/$branch"; fi
for sha in $exclude; do set -- "$@" "^$sha"; done
status=0
git bundle create --quiet - "$@" || status=$?
git update-ref -d ${SNAPSHOT_REF} || true
exit $status
`;

export interface CaptureOptions {
  image: string;
  /** With `push: true`: leftovers become a real commit on the sandbox branch. */
  commit?: { message: string };
  author: Identity;
  committer: Identity;
  /** Commits the parent already has: the bundle stops there. */
  exclude: string[];
  maxBytes: number;
  /** Whose time limit applies (time-limits.ts): after a run, or the reaper's archive. */
  work: 'capture' | 'archive-capture';
}

export interface Captured {
  /** The bundle (a file only the runner can read) and the private folder holding it. */
  bundle: string;
  dir: string;
  /** What HEAD was in the sandbox: `refs/heads/<branch>`, or empty when detached. */
  headRef: string;
  /** HEAD's and the branch's commits as the helper said: only used where the bundle leaves a ref out. */
  headSha: string;
  branchSha: string;
  /** The commits the bundle stops at (the parent has them). */
  exclude: string[];
  committed: boolean;
  /** Stale git locks (HEAD's, the branch's) removed so that the leftovers could be committed. */
  staleLocks: number;
  /** What the helper removed from the sandbox's `.git` before its git wrote there (git-traps.ts). */
  cleared: ClearedTrap[];
  bytes: number;
}

export class ImportLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportLimitError';
  }
}

export async function captureSandbox(
  engine: EngineCommands,
  sandbox: Sandbox,
  options: CaptureOptions,
): Promise<Captured> {
  for (const sha of options.exclude)
    if (!/^[0-9a-f]{40,64}$/.test(sha)) throw new Error(`Not a commit id: ${sha}`);
  const token = randomBytes(16).toString('hex');
  const traps = new ClearedTraps(options.work === 'capture' ? 'capture' : 'archive', token);
  const name = `worktree-sandbox-capture-${randomBytes(4).toString('hex')}`;
  const dir = await fs.mkdtemp(path.join(process.env.RUNNER_TEMP || os.tmpdir(), 'worktree-sandbox-import-'));
  const bundle = path.join(dir, 'sandbox.bundle');
  const framed = new Map<string, string>();
  const { author, committer } = options;
  const spec = sandboxHelper(
    sandbox,
    options.image,
    {
      name: 'capture',
      text: CAPTURE_SCRIPT,
      args: [
        sandbox.worktreePath,
        sandbox.branch,
        options.commit ? '1' : '0',
        options.commit?.message ?? '',
        token,
        options.exclude.join(' '),
      ],
    },
    {
      name,
      workdir: sandbox.worktreePath,
      env: {
        GIT_AUTHOR_NAME: author.name,
        GIT_AUTHOR_EMAIL: author.email,
        GIT_COMMITTER_NAME: committer.name,
        GIT_COMMITTER_EMAIL: committer.email,
      },
    },
  );
  try {
    const result = await engine.runHelper(
      spec,
      {
        work: options.work,
        where: `${sandbox.name} (${whereIs(sandbox)})`,
        consequence:
          options.work === 'capture'
            ? 'nothing was imported; the sandbox is kept as it is'
            : 'nothing was archived; the sandbox is kept as it is',
      },
      {
        stdoutFile: { path: bundle, maxBytes: options.maxBytes },
        onLine: (line, stream) => {
          if (stream !== 'stderr' || !line.startsWith(`${token} `) || traps.take(line)) return;
          const [key, ...rest] = line.slice(token.length + 1).split(' ');
          if (!framed.has(key)) framed.set(key, rest.join(' '));
        },
      },
    );
    if (result.overLimit) {
      // runHelper removed the container.
      throw new ImportLimitError(
        `The sandbox's changes are larger than max-import-size (${options.maxBytes} bytes): nothing was imported into the parent repository, and the sandbox ${sandbox.name} is kept as it is.`,
      );
    }
    if (result.exitCode !== 0) {
      // The helper's last words: git's, and whatever the sandbox's own filters or hooks printed before
      // them (on the same line when they printed no newline), so escaped and bounded.
      const said = sandboxText(
        result.stderrTail
          .filter((l) => !l.startsWith(token))
          .slice(-3)
          .join(' ')
          .trim(),
      );
      throw new Error(await captureFailure(sandbox, result.exitCode, said));
    }
    return {
      bundle,
      dir,
      headRef: framed.get('head-ref') ?? '',
      headSha: framed.get('head') ?? '',
      branchSha: framed.get('branch') ?? '',
      exclude: options.exclude,
      committed: framed.get('committed') === '1',
      staleLocks: Number(framed.get('stale-locks')) || 0,
      cleared: traps.list,
      bytes: result.stdoutBytes,
    };
  } catch (error) {
    await fs.rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * git only says it could not write an object: the snapshot of uncommitted work is written in the sandbox
 * itself, so say where (its folder or volume), how much room is left, and that nothing was lost.
 */
async function captureFailure(sandbox: Sandbox, exitCode: number, said: string): Promise<string> {
  const failed = `Could not capture the changes of ${sandbox.name} (exit ${exitCode}): ${said}`;
  if (!/no space left|disk quota exceeded|unable to write|short write|write error/i.test(said)) return failed;
  const stats =
    sandbox.isolation === 'disk' ? await fs.statfs(sandbox.hostPath).catch(() => undefined) : undefined;
  const free = stats ? `, ${Math.floor((stats.bavail * stats.bsize) / 1024)} KiB free` : '';
  return `Capturing the changes of ${sandbox.name} needs room in ${whereIs(sandbox)} for a snapshot of its uncommitted work, and writing it failed (No space left on device?${free}): nothing was imported; the sandbox is kept as it is, its commits included. Free some room there and run again. (git, exit ${exitCode}: ${said})`;
}
