#!/usr/bin/env bash
# Two remote components whose provider registers children with the same
# URN: the second registration fails (Duplicate resource URN), the
# deployment stops, and the Constructs still in flight (the provider's SDK
# never answers the one whose child was refused) are ended as Pulumi's
# engine ends them, by cancelling the monitor's calls, instead of holding
# the run for good (src/plugin/relay.c).
. "$(dirname "$0")/lib.sh" "$@"
program herd
run stack init dev
expect_rc 0 "stack init"
run config set count 2
run config set sameChildNames true
for cmd in preview "up --yes"; do
  # A bound far above the run's length (seconds): a stall fails here.
  timeout -s KILL 900 "$M" $cmd --parallel 1 </dev/null >"$T/out" 2>"$T/err"
  RC=$?
  OUT=$(cat "$T/out")
  ERR=$(cat "$T/err")
  [ "$RC" -ne 137 ] || fail "$cmd stalled on the Construct in flight"
  [ "$RC" -ne 0 ] || fail "$cmd succeeded with duplicate URNs"
  expect_out "Duplicate resource URN" "$cmd names the duplicate"
done
no_orphans "after the failed update"
finish
