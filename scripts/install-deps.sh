#!/usr/bin/env bash
# node_modules exactly as the lock file says. `npm ci` refuses a lock file that misses anything, even an
# optional package of another platform: keep it that way (no fallback to `npm install`).
set -euo pipefail
cd "$(dirname "$0")/.."
npm ci --no-audit --no-fund --loglevel=error
