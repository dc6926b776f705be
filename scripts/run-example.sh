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

# The main job: `up` of the random + local file example into a SQLite state
# store kept under the project folder, then its stack outputs.
run_main_job() {
  local mp="$PWD/build/src/cli/minipulumi" dir="$PWD/examples/random-file"
  mkdir -p "$dir/.minipulumi"
  export MINIPULUMI_BACKEND_URL="sqlite://$dir/.minipulumi/state.db"
  export PULUMI_CONFIG_PASSPHRASE="${PULUMI_CONFIG_PASSPHRASE-minipulumi-example}"
  "$mp" version
  "$mp" -C "$dir" stack select dev --create --non-interactive
  "$mp" -C "$dir" up --yes --non-interactive
  "$mp" -C "$dir" stack output
}

run_main_job
