#!/bin/bash
# Transforms (monitor/transforms.c): a stack transform, a component's
# transform that reaches its child, a resource's own transform that
# changes its options, and an invoke transform, in Pulumi's order: the
# resource's own, then its ancestors', then the stack's.
. "$(dirname "$0")/lib.sh" "$@"
node_program transforms
export CALLS_LOG=$T/calls.log
run stack init dev
run up --yes --skip-preview
expect_rc 0 "up"
expect_out "+ 4 created" "the stack, the box, its kid and own"
calls=$(cat "$CALLS_LOG")
order() { # first second description
  a=$(grep -n -x -m1 "$1" "$CALLS_LOG" | cut -d: -f1)
  b=$(grep -n -x -m1 "$2" "$CALLS_LOG" | cut -d: -f1)
  [ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ] ||
    fail "$3: '$1' before '$2' in: $calls"
}
order "box box parent=yes" "stack box" "the box's own transform (its parent is the stack), then the stack's"
order "box kid parent=yes" "stack kid" "the parent's transform, then the stack's"
order "own own" "stack own" "the resource's own transform, then the stack's"
expect_file "$CALLS_LOG" "invoke command:local:run" "the invoke transform ran"
[ "$(grep -c -x 'stack kid' "$CALLS_LOG")" = 1 ] || fail "one call per registration: $calls"
case "$calls" in *"stack dev"*|*"stack transforms-dev"*) fail "the stack resource was transformed: $calls" ;; esac
expect_out "ownLength: 12" "the own transform changed the inputs"
expect_out "ran      : \"transformed\"" "the invoke transform changed the arguments"
state_json
python3 - "$STATE" <<'PY' || fail "state"
import json, sys
res = {r["urn"].split("::")[-1]: r for r in json.loads(sys.argv[1])["deployment"]["resources"]}
kid = res["kid"]
assert kid["inputs"]["length"] == 3 and kid["inputs"]["separator"] == "_", kid["inputs"]
assert len(kid["id"].split("_")) == 3, kid
assert res["own"]["inputs"]["length"] == 12, res["own"]
assert res["own"].get("retainOnDelete") is True, res["own"]
PY

: > "$CALLS_LOG"
run preview
expect_rc 0 "preview"
expect_out "4 unchanged" "the transformed program is unchanged"
expect_file "$CALLS_LOG" "stack kid" "transforms run in preview too"

STEP=2 run up --yes --skip-preview
[ "$RC" != 0 ] || fail "a throwing transform did not fail the update"
expect_out "transform of random:index/randomPet:RandomPet 'boom' failed" "the failure names the resource"
expect_out "no pets today" "with the program's message"
state_json
case "$STATE" in *"::boom"*) fail "the resource was registered: $STATE" ;; esac
finish
