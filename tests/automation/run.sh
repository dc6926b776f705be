#!/bin/bash
# tests/automation/run.js with its packages checked: run.sh MINIPULUMI
# [CASE-PREFIX...] (scripts/npm-deps.sh tests/automation installs them).
DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ ! -f "$DIR/node_modules/@pulumi/pulumi/package.json" ]; then
  echo "FAIL: $DIR/node_modules is not installed; run" \
       "scripts/npm-deps.sh tests/automation" >&2
  exit 1
fi
exec node "$DIR/run.js" "$@"
