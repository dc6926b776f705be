#!/bin/bash
# command:local:Command runs each command in its own process group and
# ends the whole group — SIGTERM, then SIGKILL after a grace period — when
# the command times out (customTimeouts) or the user presses Ctrl-C twice:
# the shell's `sleep` (a grandchild) does not keep running, even when it
# ignores SIGTERM.
. "$(dirname "$0")/lib.sh" "$@"
# Each case uses its own `sleep 3010N` so that the processes can be told
# apart (and ended by id should the test fail). The commands inherit
# MP_T1040_RUN, which names this run: another run of this script on the
# same machine (a second worktree's suite) has sleeps of the same
# numbers, which are neither counted nor killed here.
export MP_T1040_RUN="$$-$RANDOM-$T"
live() { # N: pids of this run's live (non-zombie) `sleep 3010N` processes
  python3 - "$1" <<'PY'
import os, sys
want = b"sleep\x00" + sys.argv[1].encode() + b"\x00"
tag = b"MP_T1040_RUN=" + os.environ["MP_T1040_RUN"].encode()
for p in os.listdir("/proc"):
    if not p.isdigit():
        continue
    try:
        cmd = open("/proc/%s/cmdline" % p, "rb").read()
        state = open("/proc/%s/stat" % p).read().rsplit(")", 1)[1].split()[0]
        env = open("/proc/%s/environ" % p, "rb").read().split(b"\x00")
    except OSError:
        continue
    if cmd.startswith(want) and state != "Z" and tag in env:
        print(p)
PY
}
cleanup() {
  local n p
  for n in 30101 30102 30103 30104; do
    for p in $(live "$n"); do kill -9 "$p" 2>/dev/null; done
  done
  rm -rf "$T"
}
trap cleanup EXIT
# await N none|some: waits (at most 15 s) until no `sleep N` is alive, or
# one is. Returns 0 when it happened.
await() {
  local i
  for ((i = 0; i < 150; i++)); do
    if [ -z "$(live "$1")" ]; then [ "$2" = none ] && return 0
    else [ "$2" = some ] && return 0; fi
    sleep 0.1
  done
  return 1
}
gone() { # N WHAT
  await "$1" none || fail "$2: 'sleep $1' is still running (pids $(live "$1"))"
}
started() { # N
  await "$1" some || fail "'sleep $1' never started"
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
[ -z "$(live 30101)" ] || fail "timeout: the grandchild sleep is gone when up returns"
gone 30101 "timeout"

# A group that ignores SIGTERM is killed after the grace period.
program "trap '' TERM; sleep 30102; echo done" 1s
run up -y
expect_rc 4 "a command that times out and ignores SIGTERM"
[ -z "$(live 30102)" ] || fail "SIGTERM ignored: the sleep is gone when up returns"
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
