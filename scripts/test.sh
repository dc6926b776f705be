#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite, each test once in the
# tree where it checks most:
#   build-asan  AddressSanitizer + UBSan, -Dwerror    the tests that run
#               mostly our C code: every unit test, the CLI scripts, the
#               conformance (--parallel 8), crash, fuzz and soak runners,
#               language L1; of the suites driven by Node.js programs and
#               plugins (nodejs, automation, plugins, components, policy)
#               one test each
#   build       debug, -Dwerror=true                  what the ASan tree
#               leaves out: the Node.js-driven suites in full, language
#               L2, the conformance at --parallel 1 (SQLite) and 8
#               (file://), the two final states compared, the PostgreSQL
#               and file:// (diy) runs
#   build-tsan  ThreadSanitizer, -Dwerror             suite "tsan": every test
#                                                     that starts threads
#   build-fuzz  clang, -Dfuzz=true, -Dwerror          suite "fuzz": each
#               libFuzzer target on its corpus, then a few seconds of new
#               inputs (tests/fuzz/meson.build)
# The debug tree's tests run in the background beside the other trees'
# builds and tests (two lanes): see "Suite time" in docs/reliability.md.
# `meson test -C build` by hand still runs every test of that tree (the
# longer crash, fuzz and soak counts of the debug tree among them).
# The PostgreSQL backend's tests start private servers of their own
# (tests/pg/pgtest.py); the end-to-end ones (suite "postgres") run in the
# debug tree only.
# Why the sanitizer tree runs one test of each Node.js-driven suite: their
# time goes to node (starting the SDK, the provider plugins, the policy
# packs), not to our C code, and the C paths they reach (the resource
# monitor, the gRPC transport, the plugin host, the engine events) are the
# same in every test of a suite; the unit tests of those layers (monitor,
# rpc with test_rpc_node's real gRPC peer, plugin) run there in full.
# Running them all took most of the suite's wall time for little more to
# check; the debug tree runs every one of them. Language L2 (Node.js
# plugins only) is left out for the same reason.
# Why the debug tree does not run the CLI scripts, the unit tests and the
# crash, fuzz, soak and L1 runners: the ASan tree runs the same scripts
# on the same code (also unoptimised) and sees more (memory errors, UB);
# running them twice cost a third of the suite's time.
# Exits non-zero on any failure; the last line is "N passed, N failed",
# summed over all trees (a test that times out counts as failed).
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1

./scripts/setup.sh || { echo "0 passed, 1 failed"; exit 1; }
# The Node.js packages of the gRPC tests' peer (tests/rpc), the Node.js
# programs (tests/nodejs), the test provider plugins
# (tests/plugin_processes), the Automation API tests (tests/automation),
# the language tests' providers (tests/language), the component
# provider tests (tests/components), the policy packs (tests/policy) and
# the S3-compatible server of the s3:// state tests (tests/s3) and
# Microsoft's Azure Storage emulator of the azblob:// ones (tests/azblob)
# and the console's browser tests' puppeteer-core (tests/console):
# npm ci when a lock changed. In the background, beside the debug build
# (npm waits on its cache and the disk much of the time; in a fresh
# clone six `npm ci`s, 130 s of CPU): the tests start once both are done.
npm_log=$(mktemp)
./scripts/npm-deps.sh tests/rpc tests/nodejs tests/plugin_processes \
  tests/automation tests/language tests/components \
  tests/policy tests/s3 tests/azblob tests/console >"$npm_log" 2>&1 &
npm_deps=$!

# The python3 on PATH may be a version manager's shim (pyenv's runs a
# chain of bash scripts on every start: 0.7 s of CPU, five times the
# interpreter's own start). The test scripts start python3 hundreds of
# times (checks of exported states, pseudo-terminals), so the suite puts
# the interpreter the shim resolves to first on PATH: the same Python.
pybin=$(mktemp -d)
py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
if [ -n "$py" ] && [ "$(command -v python3)" != "$py" ]; then
  ln -s "$py" "$pybin/python3"
  export PATH="$pybin:$PATH"
fi

# Three tests a core in all, half of them in each of the two lanes below
# (unless MESON_TESTTHREADS is set, then that many in each): many tests
# spend their time waiting (slow resources that are killed, Ctrl-C, the
# live display's refresh, servers and Node.js plugins starting), and at
# one a core the cores were idle a third of the time (the cli suite:
# 137 s at one a core, 79 s at two, on 2 cores). Not more: the tests are
# CPU-bound for the rest, and each more shares the cores further (their
# time limits are generous, not endless).
cores=$(nproc)
export MESON_TESTTHREADS=${MESON_TESTTHREADS:-$(((cores * 3 + 1) / 2))}

# Time limits scale with the machine (docs/reliability.md, "Test
# timeouts"): unless MINIPULUMI_TEST_TIMEOUT_MULTIPLIER is set, every
# limit (meson's, through --timeout-multiplier below, and the runners'
# own, which read the variable) is multiplied by 1 + the load average per
# core at the start, rounded up, at most 4: 1 on an idle machine, 4 with
# 6 or more other processes running on 2 cores. The limits themselves are
# set for this suite's own load (three tests a core), so only other work
# counts here; past 4 a hang would hold the run for hours (tests ran 2 to
# 3 times slower at a load average of 22 to 33).
if [ -z "${MINIPULUMI_TEST_TIMEOUT_MULTIPLIER:-}" ]; then
  load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
  MINIPULUMI_TEST_TIMEOUT_MULTIPLIER=$(awk -v l="$load" -v c="$cores" \
    'BEGIN { m = 1 + l / c; r = int(m); if (r < m) r++; print (r > 4 ? 4 : r) }')
  export MINIPULUMI_TEST_TIMEOUT_MULTIPLIER
fi
echo "test: time limits x$MINIPULUMI_TEST_TIMEOUT_MULTIPLIER" \
  "(MINIPULUMI_TEST_TIMEOUT_MULTIPLIER)"

export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# Each step appends "PASSED FAILED" to $results (the two lanes below run
# in separate processes, so no shell variable holds the totals); each
# meson test and build writes its own log under $logs.
logs=$(mktemp -d)
results=$logs/results
: >"$results"
trap 'rm -rf "$logs" "$pybin" "$npm_log"' EXIT

# configure DIR OPTION... : meson setup, or --reconfigure if DIR already
# holds a configured tree (so that re-running is idempotent).
configure() {
  local dir=$1
  shift
  if [ -f "$dir/meson-private/coredata.dat" ]; then
    meson setup --reconfigure "$dir" "$@"
  else
    meson setup "$dir" "$@"
  fi
}

# count LOG FIELD: the number on meson's "FIELD:   N" summary line in LOG.
count() {
  local n
  n=$(sed -n "s/^$2:[[:space:]]*\([0-9][0-9]*\).*/\1/p" "$1" | tail -n 1)
  echo "${n:-0}"
}

# run_tests DIR [MESON TEST ARGS...]: runs meson test, adds its Ok/Fail
# (and Timeout) counts to $results.
run_tests() {
  local dir=$1
  shift
  # One multiplier for meson's timeouts and the runners' own
  # (docs/reliability.md, "Test timeouts").
  if [ -n "${MINIPULUMI_TEST_TIMEOUT_MULTIPLIER:-}" ]; then
    set -- --timeout-multiplier "$MINIPULUMI_TEST_TIMEOUT_MULTIPLIER" "$@"
  fi
  local log
  log=$(mktemp "$logs/test.XXXXXX")
  echo "== meson test -C $dir $*"
  meson test -C "$dir" --print-errorlogs "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  local ok fail timeout
  ok=$(count "$log" Ok)
  fail=$(count "$log" Fail)
  timeout=$(count "$log" Timeout)
  fail=$((fail + timeout))
  # Nothing counted (e.g. the build failed): still report a failure.
  if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
    fail=1
  fi
  echo "$ok $fail" >>"$results"
  echo "== meson test -C $dir: $ok passed, $fail failed"
}

# build_tree DIR OPTION...: configure and build; on failure count one
# failure and return non-zero. NICE (environment) runs the build at that
# niceness, below the tests of the other lane. SUITE (environment): build
# only what that suite's tests need (scripts/suite-targets.py), for a tree
# that runs one suite: the TSan tree's tests need 307 of the 353 objects
# and none of the other unit tests' or the benchmarks' links.
build_tree() {
  local dir=$1
  shift
  local log targets=""
  log=$(mktemp "$logs/build.XXXXXX")
  echo "== building $dir"
  # (the targets are paths without spaces: $targets is split on purpose)
  # shellcheck disable=SC2086
  if configure "$dir" "$@" >"$log" 2>&1 &&
      { [ -z "${SUITE:-}" ] ||
        targets=$(python3 scripts/suite-targets.py "$dir" "$SUITE" 2>>"$log"); } &&
      nice -n "${NICE:-0}" ninja -C "$dir" $targets >>"$log" 2>&1; then
    return 0
  fi
  grep -v '^\[[0-9]*/[0-9]*\] ' "$log"
  echo "test: building $dir failed" >&2
  echo "0 1" >>"$results"
  return 1
}

# asan_node_tests: one of each Node.js-driven suite in the ASan tree (see
# the header): the richest of its kind (a component with outputs and
# secrets; the engine events stream; plugins that exit, crash, hang and
# answer garbage; Construct and Call; a policy pack that rejects and
# remediates a Node.js program's resources), and the unit test of the
# policy suite, which lane 2's --no-suite policy leaves out. In lane 1
# after the debug tree's tests (249 s of the loaded fresh-clone run,
# where lane 2 ran them and ended last). Their log:
# meson-logs/testlog-node.*, beside lane 2's.
asan_node_tests() {
  run_tests build-asan --no-rebuild --logbase testlog-node \
    nodejs-t0001-components-outputs automation-events \
    plugins-t0300-failures components-t0100-construct-call \
    policy-t0003-nodejs test_policy_schema
}

# fuzz_tree: builds the fuzz tree and runs its suite.
fuzz_tree() {
  if CC=clang-14 NICE=10 build_tree build-fuzz --buildtype=debugoptimized \
      -Dwerror=true -Dfuzz=true -Db_lundef=false; then
    run_tests build-fuzz --suite fuzz
  fi
}

# The debug tree first: its tests are the first lane.
build_tree build --buildtype=debug -Dwerror=true
debug_built=$?
wait "$npm_deps"
npm_rc=$?
cat "$npm_log"
if [ "$npm_rc" -ne 0 ]; then
  echo "test: scripts/npm-deps.sh failed" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
if [ "$debug_built" -eq 0 ]; then
  # Lane 1, in the background: the debug tree's share (see the header),
  # its output kept in a file and shown at the end. The CLI scripts on
  # PostgreSQL (suite postgres-cli) run in the ASan tree only, as the
  # other CLI scripts do. Its runners that are not is_parallel
  # (conformance, conformance-pg, -diy, crash-pg, fuzz-pg, ...) run one
  # at a time, and its tests wait for PostgreSQL servers, slow resources
  # and node processes starting: the second lane fills the cores
  # meanwhile.
  # Then the ASan tree's Node.js tests and the libFuzzer targets
  # (tests/fuzz/targets/, built by clang 14 with coverage,
  # AddressSanitizer and UBSan; scripts/fuzz.sh runs longer campaigns on
  # the same tree): in this lane, which otherwise ended 330 s before the
  # other in the loaded fresh-clone run (docs/reliability.md, "Suite
  # time", round 4).
  {
    run_tests build --suite nodejs --suite automation --suite plugins \
      --suite components --suite language-l2 --suite policy \
      --suite conformance --suite postgres --suite diy \
      --no-suite postgres-cli
    # the ASan tree's Node.js tests once lane 2 has built that tree (it
    # writes asan-built: "ok", or "done" when the build failed)
    while [ ! -f "$logs/asan-built" ]; do sleep 5; done
    [ "$(cat "$logs/asan-built")" = ok ] && asan_node_tests
    fuzz_tree
  } >"$logs/debug-lane" 2>&1 &
  debug_lane=$!
fi

# Lane 2: the other trees one after another, their builds niced below the
# first lane's tests.
if NICE=10 build_tree build-asan --buildtype=debug -Dwerror=true \
    -Db_sanitize=address,undefined -Db_lundef=false; then
  echo ok >"$logs/asan-built.tmp"
  mv "$logs/asan-built.tmp" "$logs/asan-built"
  run_tests build-asan --no-suite language-l2 --no-suite nodejs \
    --no-suite automation --no-suite plugins --no-suite components \
    --no-suite policy
  # (the debug tree failed to build: its Node.js tests in this lane)
  [ -n "${debug_lane:-}" ] || asan_node_tests
else
  echo done >"$logs/asan-built"
fi

# ThreadSanitizer for every test that starts threads (tests/meson.build
# puts each in suite "tsan"): the deployment (its generator thread and the
# worker pool), the step executor, the gRPC transport (blocking calls from
# threads), the providers called from many threads, the PostgreSQL store
# (its lease renewal thread), the plugin host (its loop thread), and the
# binary itself on the project's own conformance scenarios (X..) at
# --parallel 8.
echo "== configuring build-tsan"
tsan_log=$logs/configure-tsan
if configure build-tsan --buildtype=debug -Dwerror=true \
    -Db_sanitize=thread >"$tsan_log" 2>&1; then
  if NICE=10 SUITE=tsan build_tree build-tsan; then
    run_tests build-tsan --suite tsan
  fi
else
  cat "$tsan_log"
  echo "test: configuring build-tsan failed" >&2
  echo "0 1" >>"$results"
fi

# (the debug tree failed to build: the fuzz tree in this lane)
[ -n "${debug_lane:-}" ] || fuzz_tree

if [ -n "${debug_lane:-}" ]; then
  echo "== waiting for the debug tree's tests and the fuzz tree"
  wait "$debug_lane"
  cat "$logs/debug-lane"
fi

passed=0
failed=0
while read -r ok fail; do
  passed=$((passed + ok))
  failed=$((failed + fail))
done <"$results"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
