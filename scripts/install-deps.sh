#!/usr/bin/env bash
# node_modules exactly as the lock files say: the project's, and test/node24's (the Node 24 binary the
# end-to-end and command-line tests run the bundle with; an optional dependency, so on a platform other
# than linux-x64 npm skips it). `npm ci` refuses a lock file that misses anything: keep it that way.
set -euo pipefail
cd "$(dirname "$0")/.."
npm ci --no-audit --no-fund --loglevel=error
npm ci --prefix test/node24 --no-audit --no-fund --loglevel=error
