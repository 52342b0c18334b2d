// A tree bomb: a commit whose three small trees name `a * b * c` long paths (40 * 40 * 96 = 153,600
// paths of ~610 bytes; a pack of a few kilobytes). Built with `git mktree`, so it costs nothing to make
// and nothing to carry: only what reads every path pays for it. A shell script, so that a sandboxed
// command can make it too (it commits on HEAD in the current repository). With `sparse`, the index then
// holds every path, none checked out (skip-worktree): the work tree's snapshot is the bomb too, so that
// it counts as changed files, not as uncommitted deletions.

/** The paths the default bomb names. */
export const TREE_BOMB_PATHS = 40 * 40 * 96;

export function treeBombScript(
  options: { a?: number; b?: number; c?: number; nameLength?: number; sparse?: boolean } = {},
) {
  const { a = 40, b = 40, c = 96, nameLength = 200, sparse = false } = options;
  const checkout = sparse
    ? `git config core.sparseCheckout true
sparse=$(git rev-parse --git-path info/sparse-checkout)
mkdir -p "$(dirname "$sparse")"
echo /nothing-checked-out > "$sparse"
git update-index -q --refresh || true
git read-tree -mu HEAD
`
    : '';
  return `set -eu
pad=$(printf '%0${nameLength}d' 0)
blob=$(echo bomb | git hash-object -w --stdin)
C=$(i=0; while [ $i -lt ${c} ]; do i=$((i+1)); printf '100644 blob %s\\t%s\\n' "$blob" "c$i$pad"; done | git mktree)
B=$(i=0; while [ $i -lt ${b} ]; do i=$((i+1)); printf '040000 tree %s\\t%s\\n' "$C" "b$i$pad"; done | git mktree)
A=$(i=0; while [ $i -lt ${a} ]; do i=$((i+1)); printf '040000 tree %s\\t%s\\n' "$B" "a$i$pad"; done | git mktree)
commit=$(git commit-tree "$A" -p HEAD -m 'a tree bomb')
git update-ref -m bomb HEAD "$commit"
${checkout}`;
}
