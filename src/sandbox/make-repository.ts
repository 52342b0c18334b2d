// Making a sandbox's repository: one script, run on the host in a folder made just for it (no container
// has written there yet), or in a helper container inside a fresh volume. The new repository borrows the
// parent's object store (`objects/info/alternates`): nothing is copied.
// ADR 0001 (docs/adr/0001-sandbox-is-a-repository-of-its-own.md).
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { currentIdentity } from '../engine/container-args.js';
import type { EngineCommands } from '../engine/engine-commands.js';
import type { GitCommands } from '../engine/git-commands.js';
import { volumeLabels } from '../engine/labels.js';
import { runStreaming } from '../engine/proc.js';
import { startFailureHint } from '../engine/start-failure.js';
import { TimeLimitError, timeLimitMs } from '../engine/time-limits.js';
import { writeParentNote } from './bookkeeping.js';
import { sandboxHelper, whereIs, type DiskSandbox, type Sandbox, type VolumeSandbox } from './layout.js';
import { removeDiskFolders } from './remove.js';

/** What a new sandbox starts from, all read from the parent under its lock. */
export interface Seed {
  start: string;
  /** origin/<branch> in the parent, offered inside as the sandbox's own origin/<branch>. */
  upstream?: string;
  /** The origin URL without credentials, for the sandbox's own `origin` remote. */
  originUrl: string;
}

/**
 * Makes the repository: $1 work tree, $2 home, $3 start commit, $4 branch (empty: detached), $5 upstream
 * commit (may be empty), $6 origin URL (may be empty), $7 the object store to borrow. Positional
 * arguments only: nothing is spliced into the script. The checkout is git's own, sequential: its parallel
 * workers (`checkout.workers=0`) did not pay here and took twice the CPU (ADR 0011).
 */
export const INIT_SCRIPT = `set -eu
wt="$1"; home="$2"; start="$3"; branch="$4"; upstream="$5"; origin="$6"; store="$7"
mkdir -p -- "$home"
git init --quiet --template= -- "$wt"
printf '%s\\n' "$store" > "$wt/.git/objects/info/alternates"
cd -- "$wt"
git config gc.auto 0
if [ -n "$origin" ]; then
  git config remote.origin.url "$origin"
  git config remote.origin.fetch '+refs/heads/*:refs/remotes/origin/*'
fi
if [ -n "$branch" ]; then
  git update-ref "refs/heads/$branch" "$start"
  git symbolic-ref HEAD "refs/heads/$branch"
  if [ -n "$upstream" ]; then
    git update-ref "refs/remotes/origin/$branch" "$upstream"
    git config "branch.$branch.remote" origin
    git config "branch.$branch.merge" "refs/heads/$branch"
  fi
else
  git update-ref --no-deref HEAD "$start"
fi
git reset --hard --quiet
`;

function initArgs(sandbox: Sandbox, seed: Seed): string[] {
  return [
    sandbox.worktreePath,
    sandbox.homePath,
    seed.start,
    sandbox.branch,
    seed.upstream ?? '',
    seed.originUrl,
    sandbox.parent.objectStores[0],
  ];
}

/** The project folder and its note of the parent, then the sandbox's new, empty folder (repository lock held). */
export async function makeDiskFolder(sandbox: DiskSandbox, recover: boolean): Promise<void> {
  const projectDir = path.dirname(sandbox.hostPath);
  await fs.mkdir(projectDir, { recursive: true });
  await writeParentNote(projectDir, sandbox.parent);
  if (recover) await removeDiskFolders(sandbox);
  // The folder is new (mkdir fails if anything appeared meanwhile, and then nothing is removed): no
  // container has written in it yet. What is made from here on is ours to remove if it fails.
  await fs.mkdir(sandbox.hostPath);
}

/** The init script on the host, in the folder makeDiskFolder made; the caller removes it if this throws. */
export async function createOnDisk(git: GitCommands, sandbox: DiskSandbox, seed: Seed): Promise<void> {
  const projectDir = path.dirname(sandbox.hostPath);
  const limitMs = timeLimitMs('create');
  const result = await runStreaming('sh', ['-c', INIT_SCRIPT, 'init-sandbox', ...initArgs(sandbox, seed)], {
    cwd: projectDir,
    // The runner's own git configuration stays out too: the checkout applies no filter it defines (a
    // start commit may hold a sandbox's work, .gitattributes and all).
    env: git.scriptEnv({ GIT_CONFIG_GLOBAL: '/dev/null', XDG_CONFIG_HOME: '/nonexistent' }),
    timeLimitMs: limitMs,
  });
  if (result.timedOut) throw new TimeLimitError('create', whereIs(sandbox), limitMs, NOT_CREATED, true);
  if (result.exitCode === 0) return;
  throw new Error(await creationFailure(projectDir, result.stderrTail.join('\n')));
}

const NOT_CREATED = 'the sandbox was not created, and what was made of it is removed';

/** As root only to hand the fresh volume to the runner's user; then the same script as that user. */
const VOLUME_SCRIPT = `set -eu
uid="$1"; gid="$2"; recover="$3"; init="$4"; wt="$5"; shift 5
as_user() {
  if [ "$uid" = 0 ]; then "$@"
  elif command -v setpriv >/dev/null 2>&1; then setpriv --reuid="$uid" --regid="$gid" --clear-groups "$@"
  else chroot --userspec="$uid:$gid" / "$@"; fi
}
chown "$uid:$gid" /sandbox
if [ -e "$wt" ] || [ -L "$wt" ]; then
  if [ "$recover" = 1 ] || [ -z "$(ls -A "$wt")" ]; then
    rm -rf -- "$wt"
  else
    echo "worktree-sandbox: $wt holds files but the parent repository has no record of it; refusing to overwrite them" >&2
    exit 3
  fi
fi
as_user sh -c "$init" init-sandbox "$wt" "$@"
`;

export async function createInVolume(
  engine: EngineCommands,
  sandbox: VolumeSandbox,
  seed: Seed,
  image: string,
  recover: boolean,
  /** Whether the volume is there (create.ts asked the engine, under this run's sandbox lock). */
  present: boolean,
): Promise<void> {
  if (!present)
    await engine.createVolume(sandbox.volume, volumeLabels({ ...sandbox, parentPath: sandbox.parent.path }));
  const id = currentIdentity();
  const [wt, ...rest] = initArgs(sandbox, seed);
  const result = await engine.runHelper(
    sandboxHelper(
      sandbox,
      image,
      {
        name: 'create-sandbox',
        text: VOLUME_SCRIPT,
        args: [String(id.uid), String(id.gid), recover ? '1' : '0', INIT_SCRIPT, wt, ...rest],
      },
      { user: '0:0', capAdd: ['CHOWN', 'SETUID', 'SETGID', 'SYS_CHROOT', 'DAC_OVERRIDE', 'FOWNER'] },
    ),
    { work: 'create', where: `${sandbox.name} (${whereIs(sandbox)})`, consequence: NOT_CREATED },
  );
  if (result.exitCode !== 0) {
    const said = (result.stderrTail.length ? result.stderrTail : result.outputTail).join('\n').trim();
    // A helper that never started (an image without `sh`, ...): the engine's words, then what to do.
    throw new Error(
      `Could not create the sandbox in volume ${sandbox.volume}: ${said || `exit ${result.exitCode}`}${startFailureHint(said)}`,
    );
  }
}

/** git only says it could not write a file: say where, and how much room is left once it cleaned up. */
async function creationFailure(dir: string, message: string): Promise<string> {
  if (!/unable to write|no space left|write error|short write|could not write/i.test(message))
    return `Could not create the sandbox: ${message.trim()}`;
  const stats = await fs.statfs(dir).catch(() => undefined);
  const free = stats ? `, ${Math.floor((stats.bavail * stats.bsize) / 1024)} KiB free now` : '';
  return `Writing the sandbox under ${dir} failed (No space left on device?${free}): the sandbox was not created.`;
}
