#!/usr/bin/env bash
# Sets up, builds and runs minipulumi's main job.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

./scripts/setup.sh
if [ -f build/meson-private/coredata.dat ]; then
  meson setup --reconfigure build >/dev/null
else
  meson setup build >/dev/null
fi
ninja -C build >/dev/null

# The main job. This is the one place to change when the example project
# becomes runnable (e.g. `./build/src/cli/minipulumi up --cwd examples/...`).
run_main_job() {
  ./build/src/cli/minipulumi version
}

run_main_job
