#!/bin/bash
# Ctrl-C (SIGINT) during `up`: once, the running steps finish and are
# recorded, nothing new starts, exit 8, and the state exports and imports
# again; twice, the process exits at once and the interrupted step is left
# as a pending operation.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    properties:
      __latencyMs: 2500
  b:
    type: test:Resource
    properties:
      v: ${a.id}
YAML
now() { date +%s.%N; }
run stack init dev

# once
start_bg up -f --json --event-log "$T/events.jsonl"
wait_call create a
sleep 0.2
kill -INT "$BG"
t0=$(now)
wait_bg
t1=$(now)
expect_rc 8 "up after one Ctrl-C"
expect_err "^C received; cancelling. If you would like to terminate immediately, press ^C again.
Note that terminating immediately may lead to orphaned resources and other inconsistencies." "the notice, with the warning of an update"
check "one Ctrl-C: the running create finished, nothing new started" '
ev = events()
st = steps(ev)
assert ("create", "a") in outs(ev), outs(ev)
assert not any(n == "b" for _, n in st), st
sm = [e["summaryEvent"] for e in ev if "summaryEvent" in e][-1]
assert sm["result"] == "canceled", sm
d = [e["diagnosticEvent"]["message"] for e in ev if "diagnosticEvent" in e]
assert any("update canceled" in m for m in d), d
assert kinds(ev)[-1] == "cancelEvent", kinds(ev)[-3:]
'
python3 -c "import sys; sys.exit(0 if float(sys.argv[2]) - float(sys.argv[1]) > 0.5 else 1)" "$t0" "$t1" ||
  fail "one Ctrl-C waits for the running create"
export_state
check "state after one Ctrl-C" '
import json
r = res()
assert "a" in r and r["a"]["id"], sorted(r)
assert "b" not in r, sorted(r)
d = json.load(open(T + "/export.json"))["deployment"]
assert not d.get("pending_operations"), d.get("pending_operations")
'
[ -f "$MINIPULUMI_TEST_WORLD/$(python3 -c 'import json,sys; print([r["id"] for r in json.load(open(sys.argv[1]))["deployment"]["resources"] if r["urn"].endswith("::a")][0])' "$T/export.json").json" ] ||
  fail "a exists in the world"
cp "$T/export.json" "$T/cancelled.json"
run stack import --file "$T/cancelled.json"
expect_rc 0 "the exported state imports again"
run stack history --json
check "history after a cancel" 'assert doc()[0]["result"] in ("failed", "canceled"), doc()[0]'
run up -y --json
expect_rc 0 "up after the cancel"
check "the next up creates only b" '
st = [s for s in steps(events()) if s[0] != "same"]
assert st == [("create", "b")], st
'

# twice
run stack init two
: >"$MINIPULUMI_TEST_WORLD/calls.jsonl"
start_bg up -f -s two
wait_call create a
sleep 0.2
kill -INT "$BG"
sleep 0.2
kill -INT "$BG"
t0=$(now)
wait_bg
t1=$(now)
[ "$RC" != 0 ] || fail "two Ctrl-C: non-zero exit"
[ "$RC" -lt 128 ] || fail "two Ctrl-C: exits by itself, not killed by the signal (status $RC)"
python3 -c "import sys; sys.exit(0 if float(sys.argv[2]) - float(sys.argv[1]) < 1.2 else 1)" "$t0" "$t1" ||
  fail "two Ctrl-C exit at once"
grep -q "^\^C received; terminating" "$T/bg.err" || fail "the second ^C's line: $(cat "$T/bg.err")"
export_state -s two
check "two Ctrl-C: the interrupted create is a pending operation" '
import json
d = json.load(open(T + "/export.json"))["deployment"]
p = [(x["type"], name(x["resource"]["urn"])) for x in d.get("pending_operations") or []]
assert p == [("creating", "a")], p
assert "b" not in res() and "a" not in res(), sorted(res())
'
run stack import -s two --file "$T/export.json"
expect_rc 0 "import after two Ctrl-C"
expect_err "removing pending operation 'creating' on 'urn:pulumi:two::proj::test:index:Resource::a' from snapshot" "import drops pending operations as Pulumi does"
# SIGTERM (a CI runner stopping the job) is taken as Pulumi takes it: the
# first cancels with its own words, the second terminates.
run stack init term
: >"$MINIPULUMI_TEST_WORLD/calls.jsonl"
start_bg up -f -s term
wait_call create a
sleep 0.2
kill -TERM "$BG"
wait_bg
expect_rc 8 "up after SIGTERM"
grep -q "^SIGTERM received; cancelling. If you would like to terminate immediately, send SIGTERM again.$" "$T/bg.err" ||
  fail "SIGTERM's notice: $(cat "$T/bg.err")"
grep -q "update canceled" "$T/bg.out" || fail "the cancel is reported: $(cat "$T/bg.out")"
run stack init term2
: >"$MINIPULUMI_TEST_WORLD/calls.jsonl"
start_bg preview -s term2
for _ in $(seq 100); do
  grep -q '"op":"check","urn":"[^"]*::a"' "$MINIPULUMI_TEST_WORLD/calls.jsonl" && break
  sleep 0.05
done
kill -TERM "$BG"
sleep 0.2
kill -TERM "$BG"
wait_bg
[ "$RC" != 0 ] && [ "$RC" -lt 128 ] || fail "two SIGTERMs: exits by itself (status $RC)"
grep -q "^SIGTERM received; terminating" "$T/bg.err" || fail "the second SIGTERM's line: $(cat "$T/bg.err")"
grep -q "orphaned" "$T/bg.err" && fail "a preview has no warning about orphaned resources"
finish
