#!/usr/bin/env bash
# node_modules from the lock file. `npm ci` first; the registry mirror of this workplace lacks some
# other-platform optional packages (e.g. @unrs/resolver-binding-android-*), which makes `npm ci` refuse a
# lock file that `npm install` accepts: then fall back to `npm install` with the same lock file.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! npm ci --no-audit --no-fund --loglevel=error >"$log" 2>&1; then
  echo "[install] npm ci refused the lock file ($(grep -m1 -o 'Missing: [^ ]*' "$log" || echo 'see npm output')...); falling back to npm install" >&2
  npm install --no-audit --no-fund --loglevel=error
fi
