#!/usr/bin/env bash
# Sets up, builds and runs minipulumi's main job.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

./scripts/setup.sh

# quietly DESCRIPTION COMMAND...: runs COMMAND, showing its output only if
# it fails.
quietly() {
  local what=$1 out
  shift
  if ! out=$("$@" 2>&1); then
    printf '%s\n' "$out" >&2
    echo "run-example: $what failed" >&2
    exit 1
  fi
}

if [ -f build/meson-private/coredata.dat ]; then
  quietly "configuring build" meson setup --reconfigure build
else
  quietly "configuring build" meson setup build
fi
quietly "building build" ninja -C build

# The main job. This is the one place to change when the example project
# becomes runnable (e.g. `./build/src/cli/minipulumi up --cwd examples/...`).
run_main_job() {
  ./build/src/cli/minipulumi version
}

run_main_job
