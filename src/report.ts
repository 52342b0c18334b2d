// What a run changed, read from the worktree by one script (on the host for disk sandboxes, in a helper
// container for volumes, where the host cannot see the files). With `commit`, leftovers are committed first.
import type { Git } from './git.js';
import type { ContainerEngine } from './docker.js';
import type { GitIdentity } from './github/identity.js';
import { runInWorktree, type SandboxLocation } from './sandbox.js';

export interface WorktreeReport {
  headSha: string;
  /** The branch HEAD is on now (empty when detached). */
  currentBranch: string;
  /** Commits since the run started. */
  commits: number;
  /** Files changed since the run started, committed or not (untracked included). */
  changedFiles: string[];
  /** Uncommitted changes now (tracked, or untracked and not ignored). */
  uncommitted: string[];
  diffStat: string;
  /** Commits since the run started that no remote has. */
  unpushedCommits: number;
  /** Set when `commit` asked for a commit and one was made. */
  committed: boolean;
}

export const BOT_IDENTITY = {
  name: 'github-actions[bot]',
  email: '41898282+github-actions[bot]@users.noreply.github.com',
};

const SEP = '\u0000@@ws:';

// Positional arguments only: $1 start commit, $2 commit (1/0), $3 message. Nothing is spliced in.
export const INSPECT_SCRIPT = `set -u
start="$1"; commit="$2"; message="$3"
mark() { printf '\\000@@ws:%s\\000' "$1"; }
committed=0
if [ "$commit" = 1 ] && [ -n "$(git status --porcelain --untracked-files=all --ignore-submodules=dirty)" ]; then
  git add -A >&2 && git commit --quiet --no-verify -m "$message" >&2 || { echo "worktree-sandbox: commit failed" >&2; exit 3; }
  committed=1
fi
mark committed; echo "$committed"
mark head; git rev-parse --verify HEAD
mark branch; git symbolic-ref --quiet --short HEAD || true
mark commits; git rev-list --count "$start..HEAD"
mark status; git status --porcelain=v1 -z --untracked-files=all --ignore-submodules=dirty
mark names; git diff --no-ext-diff --no-textconv --ignore-submodules=dirty --no-renames --name-only -z "$start" --
mark stat; git diff --no-ext-diff --no-textconv --ignore-submodules=dirty --stat=120 "$start" --
mark unpushed; git rev-list --count HEAD --not "$start" --remotes
mark end
`;

export function parseInspectOutput(stdout: string): WorktreeReport {
  const sections = new Map<string, string>();
  const parts = stdout.split(SEP);
  for (const part of parts.slice(1)) {
    const nul = part.indexOf('\u0000');
    sections.set(part.slice(0, nul), part.slice(nul + 1));
  }
  if (!sections.has('end')) throw new Error('The worktree report is incomplete.');
  const get = (name: string) => sections.get(name) ?? '';
  const zList = (text: string) => text.split('\u0000').filter(Boolean);
  // porcelain v1 -z: "XY path" entries; a rename/copy is followed by its source as an extra entry.
  const uncommitted: string[] = [];
  const entries = zList(get('status'));
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    uncommitted.push(entry.slice(3));
    if (entry[0] === 'R' || entry[0] === 'C') i++;
  }
  const untracked = entries.filter((e) => e.startsWith('??')).map((e) => e.slice(3));
  const changed = new Set([...zList(get('names')), ...untracked]);
  const stat = get('stat').trimEnd();
  const untrackedStat = untracked.map((f) => ` ${f} (new, untracked)`).join('\n');
  return {
    committed: get('committed').trim() === '1',
    headSha: get('head').trim(),
    currentBranch: get('branch').trim(),
    commits: Number(get('commits').trim()) || 0,
    changedFiles: [...changed].sort(),
    uncommitted,
    diffStat: [stat, untrackedStat].filter(Boolean).join('\n'),
    unpushedCommits: Number(get('unpushed').trim()) || 0,
  };
}

export async function inspectWorktree(
  git: Git,
  engine: ContainerEngine,
  location: SandboxLocation,
  image: string,
  startSha: string,
  commit?: { message: string; author?: GitIdentity; committer?: GitIdentity },
): Promise<WorktreeReport> {
  const author = commit?.author ?? BOT_IDENTITY;
  const committer = commit?.committer ?? BOT_IDENTITY;
  const env = {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_COMMITTER_NAME: committer.name,
    GIT_COMMITTER_EMAIL: committer.email,
  };
  const args = [startSha, commit ? '1' : '0', commit?.message ?? ''];
  const result = await runInWorktree(git, engine, location, image, INSPECT_SCRIPT, args, env);
  if (result.exitCode !== 0) {
    throw new Error(
      `Could not read the sandbox ${location.name}: ${result.stderr.trim() || `exit ${result.exitCode}`}`,
    );
  }
  return parseInspectOutput(result.stdout);
}

export function holdsWork(report: WorktreeReport): boolean {
  return report.uncommitted.length > 0 || report.unpushedCommits > 0;
}
