#!/bin/bash
# A hangup (the terminal closed, the ssh session dropped) is taken as
# SIGTERM: the first cancels and passes the hangup on to the commands'
# process groups (which are not the terminal's, so it would never reach
# them), the deployment records how the command ended, and the lock is
# released; a second one (when the command ignores hangups) terminates at
# once, ends the groups and leaves the step pending in the state for the
# next up. No command keeps running.
. "$(dirname "$0")/lib.sh" "$@"
kill_sleeps_at_exit 30111 30112
run stack init dev

# one hangup: cancelled, the command ended, nothing pending, no lock left
sleepy_program 30111
start_bg up -f
await_sleeps 30111 some || fail "'sleep 30111' never started"
kill -HUP "$BG"
wait_bg
[ "$RC" = 129 ] && fail "one hangup: minipulumi died of it"
[ "$RC" = 4 ] || [ "$RC" = 8 ] || fail "one hangup: exit 4 or 8, got $RC"
[ -z "$(live_sleeps 30111)" ] || fail "one hangup: the command is still running when up returns"
await_sleeps 30111 none || fail "one hangup: 'sleep 30111' is still running"
expect_pending "[]" "one hangup: nothing pending"
touch "$T/fast"
run up -y
expect_rc 0 "the next up, after one hangup"
rm "$T/fast"

# two hangups, to a command that ignores them (as under nohup): the first
# cancels, the second terminates at once, ends the groups, and the create
# stays pending
run destroy -y
sleepy_program 30112 "trap '' HUP; "
start_bg up -f
await_sleeps 30112 some || fail "'sleep 30112' never started"
kill -HUP "$BG"
sleep 0.2
kill -HUP "$BG"
wait_bg
[ "$RC" = 8 ] || fail "two hangups: exit 8, got $RC"
await_sleeps 30112 none || fail "two hangups: 'sleep 30112' is still running"
expect_pending '[("creating", "slow")]' "two hangups: the create is pending"
touch "$T/fast"
run refresh -y --clear-pending-creates
expect_rc 0 "refresh clears the pending create"
run up -y
expect_rc 0 "the next up, after two hangups"
finish
