#!/bin/bash
# up --refresh --run-program runs the program once, as Pulumi's update with
# RefreshProgram (deployment_executor.go Execute skips its up-front refresh;
# step_generator.go generateSteps reads each registered custom resource
# that has an old state, then continueStepsFromRefresh diffs the program's
# inputs against what it read, and creates what the read found gone; what
# the program no longer registers is deleted as recorded, unread).
. "$(dirname "$0")/lib.sh" "$@"
node_program uprefresh
export LIVE="$T/live.json" CALLS="$T/calls.txt"
echo '{}' >"$LIVE"
run stack init dev
run up --yes --skip-preview
expect_rc 0 "first up"

# Out of band: a drifts, b is gone; the program drops c.
python3 -c '
import json, sys
l = json.load(open(sys.argv[1])); l["a"] = "drifted"; del l["b"]
json.dump(l, open(sys.argv[1], "w"))' "$LIVE"
export DROP_C=1

: >"$CALLS"
run preview --refresh --run-program
expect_rc 0 "preview --refresh --run-program"
calls=$(cat "$CALLS")
[ "$(grep -c '^run' "$CALLS")" = 1 ] || fail "preview ran the program more than once: $calls"
grep -qx 'run dryRun=true' "$CALLS" || fail "the preview's run is not a preview: $calls"
grep -qx 'read c' "$CALLS" && fail "the dropped resource was read: $calls"
expect_out "+ 1 to create" "the preview creates what the read found gone"
expect_out "~ 1 to update" "the preview updates the drifted resource"
expect_out "- 1 to delete" "the preview deletes the dropped resource"

: >"$CALLS"
run up --refresh --run-program --yes --skip-preview
expect_rc 0 "up --refresh --run-program"
calls=$(cat "$CALLS")
[ "$(grep -c '^run' "$CALLS")" = 1 ] || fail "the program ran more than once: $calls"
grep -qx 'run dryRun=false' "$CALLS" || fail "the run is a preview: $calls"
for want in 'read a' 'read b' 'update a' 'create b' 'delete c'; do
  grep -qx "$want" "$CALLS" || fail "no '$want' in: $calls"
done
grep -qx 'read c' "$CALLS" && fail "the dropped resource was read: $calls"
# The reads come before the update of a and the create of b.
python3 -c '
import sys
c = open(sys.argv[1]).read().split("\n")
assert c.index("read a") < c.index("update a"), c
assert c.index("read b") < c.index("create b"), c' "$CALLS" || fail "order: $calls"
expect_out "refresh" "the refresh steps are shown"
expect_out "1 created" "b is created"
expect_out "1 updated" "a is updated back"
expect_out "1 deleted" "c is deleted"
state_json
echo "$STATE" | python3 -c '
import json, sys
res = json.load(sys.stdin)["deployment"]["resources"]
by = {r["urn"].split("::")[-1]: r for r in res}
assert "c" not in by, sorted(by)
assert by["a"]["outputs"]["val"] == "v1", by["a"]
assert by["b"]["outputs"]["val"] == "v1", by["b"]' || fail "state: $STATE"
python3 -c '
import json, sys
assert json.load(open(sys.argv[1])) == {"a": "v1", "b": "v1"}' "$LIVE" || fail "live: $(cat "$LIVE")"

# up with its preview: one run for the preview, one for the update.
: >"$CALLS"
run up --refresh --run-program --yes
expect_rc 0 "up --refresh --run-program with its preview"
runs=$(grep '^run' "$CALLS" | tr '\n' ' ')
[ "$runs" = "run dryRun=true run dryRun=false " ] || fail "runs: $runs"
finish
