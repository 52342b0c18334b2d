// Reuse: a sandbox is taken as it is, uncommitted work and all. What origin has of its branch that the
// sandbox was not shown yet is offered inside as its `origin/<branch>` (a remote-tracking ref), never
// forced into its work tree. The ref is written by a helper container: the host writes nothing into a
// sandbox once a command has run there.
import type { EngineCommands } from '../engine/engine-commands.js';
import type { GitCommands } from '../engine/git-commands.js';
import { sandboxRefs } from './bookkeeping.js';
import { sandboxHelper, whereIs, type PreparedSandbox } from './layout.js';

const OFFER_SCRIPT = `set -eu
cd -- "$1"
git update-ref "refs/remotes/origin/$2" "$3"
`;

/** Returns what was offered (a commit), or undefined when origin has nothing new for the branch. */
export async function offerUpstream(
  git: GitCommands,
  engine: EngineCommands,
  sandbox: PreparedSandbox,
  image: string,
): Promise<string | undefined> {
  const upstream = sandbox.upstreamNew;
  if (!sandbox.reused || !sandbox.branch || !upstream) return undefined;
  const { parent } = sandbox;
  const refs = sandboxRefs(sandbox);
  // A hostile sandbox can make the helper's git hang (a FIFO where it writes the ref's log): the helper
  // runs under its time limit, and running out fails the run with a TimeLimitError naming the sandbox.
  const result = await engine.runHelper(
    sandboxHelper(sandbox, image, {
      name: 'offer',
      text: OFFER_SCRIPT,
      args: [sandbox.worktreePath, sandbox.branch, upstream],
    }),
    {
      work: 'offer',
      where: `${sandbox.name} (${whereIs(sandbox)})`,
      consequence: `origin/${sandbox.branch} was not offered inside, and the sandbox is left as it is`,
    },
  );
  if (result.exitCode !== 0) return undefined; // the sandbox's own business (its repository may be broken)
  await git.run(parent.path, ['update-ref', '-m', 'worktree-sandbox: offered', '--', refs.offered, upstream]);
  return upstream;
}
