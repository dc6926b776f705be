#!/bin/bash
# A run killed (SIGKILL) during a slow create or update leaves pending
# operations; the next up warns about them as Pulumi does; refresh
# --skip-pending-creates keeps pending creates, --clear-pending-creates
# drops them (not both at once), and other pending operations go with the
# next deployment.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
cat > Pulumi.yaml <<'YAML'
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
      v: ${v}
      __latencyMs: 500
YAML
W=$MINIPULUMI_TEST_WORLD
pending() { # expected python list of (type, name)
  export_state
  check "$2" '
import json
d = json.load(open(T + "/export.json"))["deployment"]
p = sorted((x["type"], name(x["resource"]["urn"])) for x in d.get("pending_operations") or [])
assert p == '"$1"', p
'
}
run stack init dev
start_bg up -f
wait_call create slow
sleep 0.2
kill -KILL "$BG"
wait_bg
pending '[("creating", "slow")]' "the killed create is pending"

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
pending '[("creating", "slow")]' "a pending create stays until a refresh resolves it"

run refresh -y --skip-pending-creates --clear-pending-creates
expect_rc 2 "both pending-create flags"
expect_err "cannot set both --skip-pending-creates and --clear-pending-creates" "the message"
run refresh -y --skip-pending-creates
expect_rc 0 "refresh --skip-pending-creates"
pending '[("creating", "slow")]' "--skip-pending-creates keeps them"
run refresh -y --clear-pending-creates --json
expect_rc 0 "refresh --clear-pending-creates"
pending '[]' "--clear-pending-creates drops them"
run up -y
expect_rc 0 "up after the clear"
expect_not_out "pending operations" "no more warning"

# a killed update: `updating` is pending; the next up warns and drops it
: >"$W/calls.jsonl"
start_bg up -f -c v=two
wait_call update slow
sleep 0.2
kill -KILL "$BG"
wait_bg
pending '[("updating", "slow")]' "the killed update is pending"
run up -y
expect_rc 0 "up after the killed update"
expect_out "interrupted while updating" "the warning names the update"
pending '[]' "the next deployment drops pending updates"
export_state
check "the update was made" 'assert res()["slow"]["outputs"]["v"] == "two", res()["slow"]'
finish
