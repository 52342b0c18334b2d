// Reuse: a sandbox is taken as it is, uncommitted work and all. What origin has of its branch that the
// sandbox was not shown yet is offered inside as its `origin/<branch>` (a remote-tracking ref), never
// forced into its work tree. The ref is written by a helper container: the host writes nothing into a
// sandbox once a command has run there.
import type { EngineCommands } from '../engine/engine-commands.js';
import type { GitCommands } from '../engine/git-commands.js';
import { sandboxRefs } from './bookkeeping.js';
import { ClearedTraps, TRAP_GUARD, type ClearedTrap } from './git-traps.js';
import { sandboxHelper, whereIs, type PreparedSandbox } from './layout.js';

/**
 * $1 work tree, $2 branch, $3 commit, $4 token for the guard's lines. What `update-ref` opens on the way
 * (the ref, its lock, its log, and packed-refs, read to see that the name is free) is cleared of traps
 * first (git-traps.ts).
 */
const OFFER_SCRIPT = `set -eu
${TRAP_GUARD}
cd -- "$1"
ref="refs/remotes/origin/$2"
clear_git_traps "$4" "$ref" "$ref.lock" "logs/$ref" packed-refs
git update-ref "$ref" "$3"
`;

export interface Offer {
  /** What was offered (a commit), or undefined when origin has nothing new or the helper failed. */
  offered?: string;
  /** What the helper removed from the sandbox's `.git` before its git wrote there. */
  cleared: ClearedTrap[];
}

export async function offerUpstream(
  git: GitCommands,
  engine: EngineCommands,
  sandbox: PreparedSandbox,
  image: string,
): Promise<Offer> {
  const upstream = sandbox.upstreamNew;
  if (!sandbox.reused || !sandbox.branch || !upstream) return { cleared: [] };
  const { parent } = sandbox;
  const refs = sandboxRefs(sandbox);
  const traps = new ClearedTraps('offer');
  // A FIFO where the helper's git writes is removed before it starts; one where git only reads (HEAD,
  // config) would still make it hang: the helper runs under its time limit, and running out fails the
  // run with a TimeLimitError naming the sandbox.
  const result = await engine.runHelper(
    sandboxHelper(sandbox, image, {
      name: 'offer',
      text: OFFER_SCRIPT,
      args: [sandbox.worktreePath, sandbox.branch, upstream, traps.token],
    }),
    {
      work: 'offer',
      where: `${sandbox.name} (${whereIs(sandbox)})`,
      consequence: `origin/${sandbox.branch} was not offered inside, and the sandbox is left as it is`,
    },
    { onLine: (line, stream) => void (stream === 'stderr' && traps.take(line)) },
  );
  // A failure is the sandbox's own business (its repository may be broken).
  if (result.exitCode !== 0) return { cleared: traps.list };
  await git.run(parent.path, ['update-ref', '-m', 'worktree-sandbox: offered', '--', refs.offered, upstream]);
  return { offered: upstream, cleared: traps.list };
}
