#!/usr/bin/env bash
# The test command (README, .ci/run): set-up (idempotent), then every test suite with real git and Docker.
# Extra arguments go to jest (e.g. `npm test -- --selectProjects unit`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
[ -f dist/index.js ] || npm run build
results=$(mktemp)
trap 'rm -f "$results"' EXIT
status=0
NODE_OPTIONS=--experimental-vm-modules npx jest --ci --json --outputFile="$results" "$@" || status=$?
# One plain closing line: N passed, N failed (, N skipped).
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`jest: ${r.numPassedTests} passed, ${r.numFailedTests} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$results" || true
exit "$status"
