#!/usr/bin/env bash
# Wall time of `minipulumi up --parallel 32 --skip-preview` of N resources
# (default 1000) served by the test provider plugin (tests/plugin_processes,
# over gRPC, a Node.js process) against the same program on the built-in
# `test` provider, RUNS times each (default 3), each into a fresh stack.
#
#   bench/bench_plugins.sh BUILD_DIR [N] [RUNS]
#
# Needs tests/plugin_processes/node_modules
# (scripts/npm-deps.sh tests/plugin_processes).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
M=$(realpath "$1/src/cli/minipulumi")
N=${2:-1000}
RUNS=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PATH="$root/tests/plugin_processes/bin:$PATH"
export PULUMI_CONFIG_PASSPHRASE=bench HOME="$work/home"
mkdir -p "$HOME"

program() { # type value-key
  echo "name: bench"
  echo "runtime: yaml"
  echo "resources:"
  for i in $(seq 1 "$N"); do
    printf '  r%d:\n    type: %s\n    properties:\n      %s: v%d\n' \
      "$i" "$1" "$2" "$i"
  done
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

one() { # label type key
  local times=()
  for run in $(seq 1 "$RUNS"); do
    local d="$work/$1-$run"
    mkdir -p "$d" && cd "$d"
    program "$2" "$3" >Pulumi.yaml
    export MINIPULUMI_BACKEND_URL="$d/state.db" MINIPULUMI_TEST_WORLD="$d/world"
    export TESTPROV_STATE="$d/world"
    mkdir -p "$d/world"
    "$M" stack init dev >/dev/null
    local t0 t1
    t0=$(date +%s.%N)
    "$M" up --yes --skip-preview --parallel 32 >"$d/up.log" 2>&1 ||
      { echo "up failed:"; tail -20 "$d/up.log"; exit 1; }
    t1=$(date +%s.%N)
    times+=("$(echo "$t1 - $t0" | bc)")
  done
  printf '%s: %s resources, runs %s s, median %s s\n' "$1" "$N" \
    "${times[*]}" "$(printf '%s\n' "${times[@]}" | median)"
}

one plugin testprov:index:Item value
one builtin test:index:Resource value
