#!/usr/bin/env bash
# The main job, on a fresh machine: set-up, then a demo that sandboxes a repository, runs a command in the
# container and shows the outcome (see scripts/demo.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
[ -f dist/index.js ] || npm run build
exec node scripts/demo.mjs "$@"
