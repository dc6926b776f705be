#!/usr/bin/env bash
# bench/compare.sh [--runs R] [--no-p6] [--keep] COMMIT
#
# Builds COMMIT's release tree in a temporary git worktree, next to this
# checkout's own release tree (build-rel, made or brought up to date), and
# runs the P1, P3 and P6 benchmarks of docs/performance.md on both, the
# repetitions alternating between the two builds (bench.py --compare), so
# that a change in the machine's load falls on both alike. Prints each
# table with the new/old ratios of wall time, CPU and peak RSS.
#
# Run it before calling a hot-path change done (docs/performance.md). It
# is a measurement, not a test: it is in no test suite and decides no
# CI result.
#
#   --runs R   repetitions per build for P1 and P3 (default 5; P6 runs 1)
#   --no-p6    leave out P6 (100,000 resources, a few minutes)
#   --keep     keep the temporary worktree and its build (its path is
#              printed) for a next comparison or for callgrind
#
# Environment: BUILD (default build-rel) is this checkout's release tree;
# NICE (default 0) is passed to nice for the benchmark runs.
set -euo pipefail

runs=5
p6=1
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --no-p6) p6=0; shift ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "compare.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ $# -ne 1 ]; then
  echo "usage: bench/compare.sh [--runs R] [--no-p6] [--keep] COMMIT" >&2
  exit 2
fi

repo=$(git rev-parse --show-toplevel)
cd "$repo"
commit=$(git rev-parse --verify --quiet "$1^{commit}") || {
  echo "compare.sh: '$1' is not a commit of this repository" >&2
  exit 2
}
build="${BUILD:-build-rel}"
nice_level="${NICE:-0}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mp-compare-XXXXXX")
old="$tmp/tree"
cleanup() {
  if [ "$keep" = 1 ]; then
    echo "kept: $old (git worktree remove --force $old when done)"
  else
    git -C "$repo" worktree remove --force "$old" 2>/dev/null || true
    rm -rf "$tmp"
  fi
}
trap cleanup EXIT

echo "== building this checkout ($(git rev-parse --short HEAD)$(
  git diff --quiet HEAD || echo ', with uncommitted changes')) in $build"
[ -f "$build/build.ninja" ] || meson setup "$build" --buildtype=release >/dev/null
ninja -C "$build" -j2 src/cli/minipulumi >/dev/null

echo "== building $(git rev-parse --short "$commit") in $old/build-rel"
git worktree add --detach "$old" "$commit" >/dev/null 2>&1
# The source folder is named: meson would take this checkout (the
# current folder) for it.
meson setup "$old/build-rel" "$old" --buildtype=release >/dev/null
ninja -C "$old/build-rel" -j2 src/cli/minipulumi >/dev/null

bench() {
  echo
  echo "== $1"
  shift
  nice -n "$nice_level" python3 bench/bench.py --build "$build" \
    --compare "$old/build-rel" "$@"
}

# The commands of docs/performance.md's targets; the ratio columns read
# new/old, this checkout over COMMIT.
bench "P1 no-op up of 10,000 (and create)" \
  -n 10000 --parallel 0 --ops create,noop --runs "$runs"
bench "P3 create of 400 x 50 ms, --parallel 32" \
  -n 400 --latency 50 --parallel 32 --ops create --runs "$runs"
if [ "$p6" = 1 ]; then
  bench "P6 100,000: create, no-op up, destroy" \
    -n 100000 --parallel 0 --ops create,noop,destroy --runs 1
fi
