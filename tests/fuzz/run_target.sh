#!/usr/bin/env bash
# Runs one libFuzzer target for the test suite (tests/fuzz/meson.build):
#   run_target.sh TARGET CORPUS SECONDS
# libFuzzer first runs every input of CORPUS (the seeds and the
# regression inputs of the crashes found), then inputs mutated from them
# until SECONDS have passed. New inputs go to a scratch folder, never into
# CORPUS; a crash's input is kept as fuzz-artifacts/<target>-crash-<sha1>
# in the current folder (the build tree). A crash exits 1: libFuzzer's
# own code, 77, would read as "skipped" to meson.
set -euo pipefail
target=$1 corpus=$2 seconds=$3
name=$(basename "$target")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p fuzz-artifacts
echo "== $name: $(ls "$corpus" | wc -l) corpus inputs, then ${seconds}s of new ones"
"$target" -artifact_prefix="fuzz-artifacts/$name-" -timeout=20 \
  -error_exitcode=1 -timeout_exitcode=1 \
  -rss_limit_mb=4096 -print_final_stats=1 -max_total_time="$seconds" \
  "$scratch" "$corpus"
