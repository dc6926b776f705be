#!/usr/bin/env bash
# A fuzzing campaign: builds the fuzz tree (build-fuzz: clang, -Dfuzz=true)
# and runs each libFuzzer target of tests/fuzz/ in turn, one process at a
# time, from its corpus (tests/fuzz/corpus/<target>/):
#   scripts/fuzz.sh [--runs N | --seconds S] [TARGET...]
# Default: 1,000,000 executions per target, every target. Prints one line
# per target: executions, coverage (libFuzzer's cov: edges and ft:
# features at the end) and the crash input if one was found. New inputs
# go to build-fuzz/fuzz-campaign/<target>/ (not into the corpus: minimise
# and add by hand what should stay); crash inputs to
# build-fuzz/fuzz-artifacts/. docs/reliability.md records the campaigns.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

limit=(-runs=1000000)
targets=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs) limit=(-runs="$2"); shift 2 ;;
    --seconds) limit=(-max_total_time="$2"); shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done

./scripts/setup.sh || exit 1
if [ ! -f build-fuzz/meson-private/coredata.dat ]; then
  CC=clang-14 meson setup build-fuzz --buildtype=debugoptimized -Dwerror=true \
    -Dfuzz=true -Db_lundef=false || exit 1
fi
ninja -C build-fuzz || exit 1

if [ ${#targets[@]} -eq 0 ]; then
  for d in tests/fuzz/corpus/*/; do targets+=("$(basename "$d")"); done
fi

status=0
mkdir -p build-fuzz/fuzz-artifacts
printf '%-20s %10s %8s %8s  %s\n' target executions cov ft crash
for t in "${targets[@]}"; do
  work=build-fuzz/fuzz-campaign/$t
  log=build-fuzz/fuzz-campaign/$t.log
  mkdir -p "$work"
  build-fuzz/tests/fuzz/"$t" "${limit[@]}" -timeout=20 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="build-fuzz/fuzz-artifacts/$t-" \
    "$work" "tests/fuzz/corpus/$t" >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  crash=$(sed -n 's/.*Test unit written to //p' "$log" | tail -n 1)
  [ "$rc" -ne 0 ] && status=1
  printf '%-20s %10s %8s %8s  %s\n' "$t" "${runs:-?}" "${cov:-?}" "${ft:-?}" \
    "${crash:-none}"
done
exit "$status"
