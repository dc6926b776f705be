#!/bin/bash
# A minipulumi killed outright (SIGKILL) can end nothing itself: its
# commands' process groups are ended by a watchdog each (SIGTERM, then
# SIGKILL), as its plugins die with it. The step stays pending in the
# state, and the next refresh or up handles it.
. "$(dirname "$0")/lib.sh" "$@"
kill_sleeps_at_exit 30121 30122
run stack init dev

sleepy_program 30121
start_bg up -f
await_sleeps 30121 some || fail "'sleep 30121' never started"
kill -KILL "$BG"
wait_bg
await_sleeps 30121 none || fail "SIGKILL: 'sleep 30121' is still running"
expect_pending '[("creating", "slow")]' "SIGKILL: the create is pending"
touch "$T/fast"
run refresh -y --clear-pending-creates
expect_rc 0 "refresh clears the pending create"
run up -y
expect_rc 0 "the next up"
expect_out "+ 1 created" "the command runs again"
rm "$T/fast"

# a command that ignores SIGTERM is killed after the grace period
run destroy -y
sleepy_program 30122 "trap '' TERM; "
start_bg up -f
await_sleeps 30122 some || fail "'sleep 30122' never started"
kill -KILL "$BG"
wait_bg
await_sleeps 30122 none || fail "SIGKILL, SIGTERM ignored: 'sleep 30122' is still running"
finish
