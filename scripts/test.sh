#!/usr/bin/env bash
# The test command (README, .ci/run): set-up (idempotent), then every test suite with real git and Docker.
# Extra arguments go to jest (e.g. `npm test -- --selectProjects security`; the lanes in package.json).
# Most suites wait on the engine, not on the CPU: Jest's default on a 2-core machine (one worker) leaves
# the machine idle while a container starts, so they run WORKTREE_SANDBOX_TEST_WORKERS files at a time
# (CONTRIBUTING.md, "Set-up, demo and tests"). Each test judges only what it made: files share the engine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
[ -f dist/index.js ] || npm run build
results=$(mktemp)
trap 'rm -f "$results"' EXIT
workers=()
case " $* " in
  *" --maxWorkers"* | *" -w "* | *" -w="* | *" --runInBand "* | *" -i "*) ;;
  *) workers=(--maxWorkers="${WORKTREE_SANDBOX_TEST_WORKERS:-3}") ;;
esac
status=0
NODE_OPTIONS=--experimental-vm-modules npx jest --ci --json --outputFile="$results" "${workers[@]}" "$@" || status=$?
# One plain closing line: N passed, N failed (, N skipped).
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`jest: ${r.numPassedTests} passed, ${r.numFailedTests} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$results" || true
exit "$status"
