#!/usr/bin/env bash
# The test command (README, .ci/run): set-up (idempotent), then every test suite with real git and Docker.
# Extra arguments go to jest (e.g. `npm test -- --selectProjects unit`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
[ -f dist/index.js ] || npm run build
NODE_OPTIONS=--experimental-vm-modules exec npx jest --ci "$@"
