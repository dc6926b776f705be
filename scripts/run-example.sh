#!/usr/bin/env bash
# The README's first command: installs what building minipulumi needs,
# builds the minipulumi binary and runs the main job. Each stage says what
# it does; the build shows ninja's progress lines.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

stage() { printf '\n==> %s\n' "$*"; }

stage "checking the build dependencies (scripts/setup.sh --main: apt-get, only what the build needs)"
./scripts/setup.sh --main
echo "all there"

if [ -f build/meson-private/coredata.dat ]; then
  stage "configuring the build tree (meson setup --reconfigure build)"
  meson setup --reconfigure build
else
  stage "configuring the build tree (meson setup build)"
  meson setup build
fi

# Only the binary: the tests' programs are built by scripts/test.sh.
stage "building minipulumi (ninja -C build src/cli/minipulumi; a few minutes on a small machine)"
ninja -C build src/cli/minipulumi

# The main job: `up` of the random + local file example into a SQLite state
# store kept under the project folder, then its stack outputs. The README's
# quick start goes on with this stack: the same state store and passphrase.
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

stage "running the main job: minipulumi up of examples/random-file, then its stack outputs"
echo "(state store: sqlite://$PWD/examples/random-file/.minipulumi/state.db; passphrase: \$PULUMI_CONFIG_PASSPHRASE, else minipulumi-example)"
run_main_job

stage "done: the binary is build/src/cli/minipulumi; README.md's quick start installs it and goes on with this stack"
