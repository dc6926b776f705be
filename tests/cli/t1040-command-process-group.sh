#!/bin/bash
# command:local:Command runs each command in its own process group and
# ends the whole group — SIGTERM, then SIGKILL after a grace period — when
# the command times out (customTimeouts) or the user presses Ctrl-C twice:
# the shell's `sleep` (a grandchild) does not keep running, even when it
# ignores SIGTERM.
. "$(dirname "$0")/lib.sh" "$@"
# Each case uses its own `sleep 3010N` (lib.sh's live_sleeps tells this
# run's apart).
kill_sleeps_at_exit 30101 30102 30103 30104
gone() { # N WHAT
  await_sleeps "$1" none || fail "$2: 'sleep $1' is still running (pids $(live_sleeps "$1"))"
}
started() { # N
  await_sleeps "$1" some || fail "'sleep $1' never started"
}
program() { # CREATE [TIMEOUT]
  {
    printf 'name: proj\nruntime: yaml\nresources:\n  slow:\n'
    printf '    type: command:local:Command\n    properties:\n'
    printf '      create: %s\n' "$1"
    [ -n "${2:-}" ] && printf '    options:\n      customTimeouts:\n        create: %s\n' "$2"
  } > Pulumi.yaml
}
run stack init dev

# A timeout ends the shell and its sleep.
program "sleep 30101; echo done" 1s
run up -y
expect_rc 4 "a command that times out"
expect_out "command timed out" "the timeout is reported"
[ -z "$(live_sleeps 30101)" ] || fail "timeout: the grandchild sleep is gone when up returns"
gone 30101 "timeout"

# A group that ignores SIGTERM is killed after the grace period.
program "trap '' TERM; sleep 30102; echo done" 1s
run up -y
expect_rc 4 "a command that times out and ignores SIGTERM"
[ -z "$(live_sleeps 30102)" ] || fail "SIGTERM ignored: the sleep is gone when up returns"
gone 30102 "SIGTERM ignored"

# Ctrl-C twice: minipulumi exits at once and its commands' groups end.
program "sleep 30103; echo done"
start_bg up -f
started 30103
kill -INT "$BG"
sleep 0.2
kill -INT "$BG"
wait_bg
[ "$RC" = 8 ] || fail "two Ctrl-C: exit 8, got $RC"
gone 30103 "two Ctrl-C"

program "trap '' TERM; sleep 30104; echo done"
start_bg up -f -s dev
started 30104
kill -INT "$BG"
sleep 0.2
kill -INT "$BG"
wait_bg
[ "$RC" = 8 ] || fail "two Ctrl-C, SIGTERM ignored: exit 8, got $RC"
gone 30104 "two Ctrl-C, SIGTERM ignored"
finish
