#!/bin/bash
# A minipulumi killed outright (SIGKILL) can end nothing itself: its
# commands' process groups are ended by a watchdog each (SIGTERM, then
# SIGKILL), as its plugins die with it. The step stays pending in the
# state, and the next refresh or up handles it.
. "$(dirname "$0")/lib.sh" "$@"
# The commands inherit MP_T1042_RUN, which names this run (see t1040).
export MP_T1042_RUN="$$-$RANDOM-$T"
live() { # N: pids of this run's live (non-zombie) `sleep N` processes
  python3 - "$1" <<'PY'
import os, sys
want = b"sleep\x00" + sys.argv[1].encode() + b"\x00"
tag = b"MP_T1042_RUN=" + os.environ["MP_T1042_RUN"].encode()
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
  for n in 30121 30122; do
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

program 30121
start_bg up -f
await 30121 some || fail "'sleep 30121' never started"
kill -KILL "$BG"
wait_bg
await 30121 none || fail "SIGKILL: 'sleep 30121' is still running"
pending '[("creating", "slow")]' "SIGKILL: the create is pending"
touch "$T/fast"
run refresh -y --clear-pending-creates
expect_rc 0 "refresh clears the pending create"
run up -y
expect_rc 0 "the next up"
expect_out "+ 1 created" "the command runs again"
rm "$T/fast"

# a command that ignores SIGTERM is killed after the grace period
run destroy -y
program 30122 "trap '' TERM; "
start_bg up -f
await 30122 some || fail "'sleep 30122' never started"
kill -KILL "$BG"
wait_bg
await 30122 none || fail "SIGKILL, SIGTERM ignored: 'sleep 30122' is still running"
finish
