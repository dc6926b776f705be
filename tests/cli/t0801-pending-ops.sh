#!/bin/bash
# A run killed (SIGKILL) during a slow create or update leaves pending
# operations; the next up warns about them as Pulumi does; refresh
# --skip-pending-creates keeps pending creates, --clear-pending-creates
# drops them (not both at once), and other pending operations go with the
# next deployment.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
# slow's create and update wait for $T/go (the test provider's __waitFile),
# which is there but while a run is to be killed in one of them: the kill
# lands inside the call however loaded the machine is, and no other call
# waits (a __latencyMs of 1.5 s in every call of slow, previews, diffs
# and reads too, was 60 s of this test's sleeping).
touch "$T/go"
cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
config:
  v:
    type: string
    default: one
resources:
  fast:
    type: test:Resource
  slow:
    type: test:Resource
    properties:
      v: \${v}
      __waitFile: $T/go
    options:
      dependsOn:
        - \${fast}
YAML
W=$MINIPULUMI_TEST_WORLD
# Each kill follows the slow call's start at once, while it waits for
# $T/go. slow waits for fast, so fast's create is recorded before slow's
# starts: run side by side, a loaded machine could leave fast pending too
# (a second prompt that the terminal case does not answer).
# kill_in OP ARGS...: `up ARGS` in the background, killed in OP of slow.
kill_in() {
  local op=$1
  shift
  rm -f "$T/go"
  : >"$W/calls.jsonl"
  start_bg up "$@"
  wait_call "$op" slow
  kill -KILL "$BG"
  wait_bg
  touch "$T/go"
}
run stack init dev
kill_in create -f
expect_pending '[("creating", "slow")]' "the killed create is pending"

run up -y --json
expect_rc 0 "up after the kill"
check "the warning about pending operations" '
d = [e["diagnosticEvent"] for e in events() if "diagnosticEvent" in e]
w = [x for x in d if x["severity"] == "warning" and "pending operations" in x["message"]]
assert w, d
m = w[0]["message"]
assert m.startswith("Attempting to deploy or update resources with 1 pending operations from previous deployment.\n"), m
assert "  * urn:pulumi:dev::proj::test:index:Resource::slow, interrupted while creating\n" in m, m
assert "refresh" in m, m
'
run up -y
expect_out "warning: Attempting to deploy or update resources with 1 pending operations from previous deployment." "the warning in the display"
expect_pending '[("creating", "slow")]' "a pending create stays until a refresh resolves it"

run refresh -y --skip-pending-creates --clear-pending-creates
expect_rc 2 "both pending-create flags"
expect_err "cannot set both --skip-pending-creates and --clear-pending-creates" "the message"
run refresh -y --skip-pending-creates
expect_rc 0 "refresh --skip-pending-creates"
expect_pending '[("creating", "slow")]' "--skip-pending-creates keeps them"
run refresh -y --clear-pending-creates --json
expect_rc 0 "refresh --clear-pending-creates"
expect_pending '[]' "--clear-pending-creates drops them"
run up -y
expect_rc 0 "up after the clear"
expect_not_out "pending operations" "no more warning"

# a killed update: `updating` is pending; the next up warns and drops it
kill_in update -f -c v=two
expect_pending '[("updating", "slow")]' "the killed update is pending"
run up -y
expect_rc 0 "up after the killed update"
expect_out "interrupted while updating" "the warning names the update"
expect_pending '[]' "the next deployment drops pending updates"
export_state
check "the update was made" 'assert res()["slow"]["outputs"]["v"] == "two", res()["slow"]'

# Pending creates resolved by hand, as Pulumi's refresh offers: a known ID
# with --import-pending-creates URN ID, or on a terminal the choice of
# clear, skip or import for each one.
kill_create() { # stack
  kill_in create -f -s "$1"
}
run stack init imp
kill_create imp
U=urn:pulumi:imp::proj::test:index:Resource::slow
echo '{"v": "one", "made": "by hand"}' >"$W/by-hand.json"
run refresh -y -s imp --import-pending-creates "$U" --import-pending-creates by-hand \
  --import-pending-creates urn:pulumi:imp::proj::test:index:Resource::nope --import-pending-creates x
expect_rc 0 "refresh --import-pending-creates"
expect_err 'warning: "urn:pulumi:imp::proj::test:index:Resource::nope" did not correspond to a pending create' "an unknown URN"
export_state -s imp
check "the pending create became the resource, read from its provider" '
import json
d = json.load(open(T + "/export.json"))["deployment"]
assert not d.get("pending_operations"), d.get("pending_operations")
r = res()["slow"]
assert r["id"] == "by-hand" and r["outputs"]["made"] == "by hand", r
'
run refresh -y -s imp --import-pending-creates "$U"
expect_rc 2 "an odd number of values"

run stack init ask
kill_create ask
run_tty 30 "maybe,clear" "Choose clear, skip or import:" refresh -y -s ask
expect_rc 0 "refresh on a terminal"
check "on a terminal: Pulumi options, asked again on a wrong answer" '
assert out.count("Options for pending CREATE of urn:pulumi:ask::proj::test:index:Resource::slow") == 2, out[-2000:]
assert "clear (the CREATE failed; remove the pending CREATE)" in out
assert "import (the CREATE succeeded; provide a resource ID and complete the CREATE operation)" in out
'
export_state -s ask
check "clear dropped it" '
import json
d = json.load(open(T + "/export.json"))["deployment"]
assert not d.get("pending_operations"), d.get("pending_operations")
assert "slow" not in res(), sorted(res())
'

# A create-before-delete replacement killed in the create of the new copy:
# the pending create has the URN of the live prior copy. Completing it
# marks that copy for deletion, as the finished step would have (found by
# the soak, tests/soak/run.py), and the next up deletes it.
sed -i 's/^      __waitFile: \(.*\)$/      __waitFile: \1\n      __replaceKeys: [v]/' Pulumi.yaml
run stack init rep
run up -y -s rep
expect_rc 0 "up of the replaceable resource"
kill_in create -f -s rep -c v=three
U=urn:pulumi:rep::proj::test:index:Resource::slow
echo '{"v": "three", "__waitFile": "'"$T/go"'", "__replaceKeys": ["v"]}' >"$W/by-hand-2.json"
run refresh -y -s rep --import-pending-creates "$U" --import-pending-creates by-hand-2
expect_rc 0 "refresh completing the replacement's create"
export_state -s rep
check "the prior copy is marked for deletion, the new one is live" '
import json
d = json.load(open(T + "/export.json"))["deployment"]
assert not d.get("pending_operations"), d.get("pending_operations")
s = [(x["id"], bool(x.get("delete"))) for x in d["resources"] if name(x["urn"]) == "slow"]
assert len(s) == 2 and s[0][1] and s[1] == ("by-hand-2", False), s
'
run up -y -s rep -c v=three
expect_rc 0 "the next up"
export_state -s rep
check "it deleted the prior copy" '
import json
d = json.load(open(T + "/export.json"))["deployment"]
s = [(x["id"], bool(x.get("delete"))) for x in d["resources"] if name(x["urn"]) == "slow"]
assert s == [("by-hand-2", False)], s
'
finish
