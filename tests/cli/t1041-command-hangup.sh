#!/bin/bash
# A hangup (the terminal closed, the ssh session dropped) is taken as
# SIGTERM: the first cancels and passes the hangup on to the commands'
# process groups (which are not the terminal's, so it would never reach
# them), the deployment records how the command ended, and the lock is
# released; a second one (when the command ignores hangups) terminates at
# once, ends the groups and leaves the step pending in the state for the
# next up. No command keeps running.
. "$(dirname "$0")/lib.sh" "$@"
# The commands inherit MP_T1041_RUN, which names this run (see t1040).
export MP_T1041_RUN="$$-$RANDOM-$T"
live() { # N: pids of this run's live (non-zombie) `sleep N` processes
  python3 - "$1" <<'PY'
import os, sys
want = b"sleep\x00" + sys.argv[1].encode() + b"\x00"
tag = b"MP_T1041_RUN=" + os.environ["MP_T1041_RUN"].encode()
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
  for n in 30111 30112; do
    for p in $(live "$n"); do kill -9 "$p" 2>/dev/null; done
  done
  rm -rf "$T"
}
trap cleanup EXIT
await() { # N none|some: waits (at most 15 s) until no `sleep N` is alive, or one is
  local i
  for ((i = 0; i < 150; i++)); do
    if [ -z "$(live "$1")" ]; then [ "$2" = none ] && return 0
    else [ "$2" = some ] && return 0; fi
    sleep 0.1
  done
  return 1
}
pending() { # expected python list of (op type, name)
  export_state
  check "$2" '
import json
d = json.load(open(T + "/export.json"))["deployment"]
p = sorted((x["type"], name(x["resource"]["urn"])) for x in d.get("pending_operations") or [])
assert p == '"$1"', p
'
}
program() { # N [PREFIX]: a command that sleeps N seconds until $T/fast exists
  cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
resources:
  slow:
    type: command:local:Command
    properties:
      create: "${2:-}[ -e '$T/fast' ] || sleep $1; echo done"
YAML
}
run stack init dev

# one hangup: cancelled, the command ended, nothing pending, no lock left
program 30111
start_bg up -f
await 30111 some || fail "'sleep 30111' never started"
kill -HUP "$BG"
wait_bg
[ "$RC" = 129 ] && fail "one hangup: minipulumi died of it"
[ "$RC" = 4 ] || [ "$RC" = 8 ] || fail "one hangup: exit 4 or 8, got $RC"
[ -z "$(live 30111)" ] || fail "one hangup: the command is still running when up returns"
await 30111 none || fail "one hangup: 'sleep 30111' is still running"
pending "[]" "one hangup: nothing pending"
touch "$T/fast"
run up -y
expect_rc 0 "the next up, after one hangup"
rm "$T/fast"

# two hangups, to a command that ignores them (as under nohup): the first
# cancels, the second terminates at once, ends the groups, and the create
# stays pending
run destroy -y
program 30112 "trap '' HUP; "
start_bg up -f
await 30112 some || fail "'sleep 30112' never started"
kill -HUP "$BG"
sleep 0.2
kill -HUP "$BG"
wait_bg
[ "$RC" = 8 ] || fail "two hangups: exit 8, got $RC"
await 30112 none || fail "two hangups: 'sleep 30112' is still running"
pending '[("creating", "slow")]' "two hangups: the create is pending"
touch "$T/fast"
run refresh -y --clear-pending-creates
expect_rc 0 "refresh clears the pending create"
run up -y
expect_rc 0 "the next up, after two hangups"
finish
