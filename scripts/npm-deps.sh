#!/usr/bin/env bash
# Installs the Node.js test peers' packages with `npm ci`, one folder at a
# time (default: tests/rpc and tests/plugin_processes). Idempotent and
# quick when nothing changed: a folder whose node_modules was installed
# from the same package-lock.json (its hash is kept in
# node_modules/.mp-lock-hash) is skipped.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

dirs=("$@")
[ ${#dirs[@]} -eq 0 ] && dirs=(tests/rpc tests/plugin_processes)

if ! command -v npm >/dev/null 2>&1; then
  echo "npm-deps: npm not found; run scripts/setup.sh" >&2
  exit 1
fi

for dir in "${dirs[@]}"; do
  lock="$dir/package-lock.json"
  stamp="$dir/node_modules/.mp-lock-hash"
  want=$(sha256sum "$lock" | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    continue
  fi
  echo "npm-deps: npm ci in $dir"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  echo "$want" >"$stamp"
done
