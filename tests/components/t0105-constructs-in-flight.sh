#!/usr/bin/env bash
# More Constructs and Calls in flight than the engine has pool threads:
# twelve remote components registered at once with --parallel 1 (libuv's
# pool at its smallest, four threads), each Construct waiting for its
# children's Check and Create, which run on that pool. A Construct or Call
# that held a pool thread while the provider answered stalled the update
# for good once four were in flight; they wait on the loop instead
# (src/deploy/components.c), as Pulumi's engine waits for them on a
# goroutine of their own.
. "$(dirname "$0")/lib.sh" "$@"
program herd
run stack init dev
expect_rc 0 "stack init"
run config set count 12
# A bound far above the update's length (seconds), so that a stall fails
# this test instead of waiting for the suite's timeout.
timeout "$(limit 900)" "$M" up --yes --parallel 1 </dev/null >"$T/out" 2>"$T/err"
RC=$?
OUT=$(cat "$T/out")
ERR=$(cat "$T/err")
[ "$RC" -ne 124 ] || fail "the update stalled with twelve Constructs in flight"
expect_rc 0 "up with twelve components in flight"
expect_out "+ 37 created" "the stack, the twelve components and their 24 children"
run stack output messages --json
for i in 0 5 11; do
  expect_out "\"hi from pet$i\"" "the method of pet$i answers"
done
run destroy --yes
expect_rc 0 "destroy"
no_orphans "after destroy"
finish
