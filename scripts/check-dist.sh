#!/usr/bin/env bash
# Rebuilds the bundles (action and CLI) into a scratch folder and compares them with the committed dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
npx ncc build src/action/index.ts -o "$scratch" --license licenses.txt >/dev/null
npx ncc build src/cli/main.ts -o "$scratch/cli" --license licenses.txt >/dev/null
if ! diff -r --brief dist "$scratch" >/dev/null; then
  echo "dist/ is not the bundle of the current source; run 'npm run build' and commit dist/." >&2
  diff -r --brief dist "$scratch" >&2 || true
  exit 1
fi
echo "dist/ matches the source."
