#!/bin/bash
# Resource hooks (monitor/resource_hooks.c): before and after create,
# update and delete, of a custom resource and of a component, with the URN's name, the ID, inputs and outputs known
# at that moment; the delete hooks are kept in the state and run when the
# program no longer declares the resource; a failing "before" hook fails
# its step. Hooks do not run in a preview (none is registered onDryRun).
. "$(dirname "$0")/lib.sh" "$@"
node_program hooks
export CALLS_LOG=$T/calls.log
P=random:index/randomPet:RandomPet
run stack init dev

run preview
expect_rc 0 "preview"
[ ! -s "$CALLS_LOG" ] || fail "hooks ran in a preview: $(cat "$CALLS_LOG")"

run up --yes --skip-preview
expect_rc 0 "create"
id1=$(sed -n 's/^afterCreate pet .* id=\([^ ]*\) .*/\1/p' "$CALLS_LOG")
[ -n "$id1" ] || fail "afterCreate has no ID: $(cat "$CALLS_LOG")"
want="beforeCreate pet $P id=- newIn=1 oldIn=- newOut=- oldOut=-
afterCreate pet $P id=$id1 newIn=1 oldIn=- newOut=1 oldOut=-"
[ "$(grep " pet " "$CALLS_LOG")" = "$want" ] || fail "create hooks: $(cat "$CALLS_LOG")"
expect_file "$CALLS_LOG" "afterCreate box test:index:Box id=- newIn=1" "a component's hooks run too"
state_json
case "$STATE" in *'"resourceHooks"'*'"BeforeDelete"'*) ;;
  *) fail "the hooks are not in the state: $STATE" ;; esac

: > "$CALLS_LOG"
STEP=2 run up --yes --skip-preview
expect_rc 0 "replace the pet, update the box"
grep " pet " "$CALLS_LOG" | cut -d' ' -f1 | tr '\n' ' ' > "$T/order"
[ "$(cat "$T/order")" = "beforeCreate afterCreate beforeDelete afterDelete " ] ||
  fail "a replacement runs the create hooks, then the delete hooks of the old: $(cat "$CALLS_LOG")"
expect_file "$CALLS_LOG" "beforeCreate pet $P id=- newIn=2 oldIn=- newOut=- oldOut=-" \
  "the replacement's create hooks see only the new inputs"
[ "$(grep " box " "$CALLS_LOG" | cut -d' ' -f1 | tr '\n' ' ')" = "beforeUpdate afterUpdate " ] ||
  fail "an update runs the update hooks: $(cat "$CALLS_LOG")"
expect_file "$CALLS_LOG" "beforeUpdate box test:index:Box id=- newIn=2 oldIn=1" \
  "the update hooks see the old and new inputs"
expect_file "$CALLS_LOG" "beforeDelete pet $P id=$id1 newIn=- oldIn=1 newOut=- oldOut=1" \
  "the delete hooks see the old state"

: > "$CALLS_LOG"
STEP=3 run up --yes --skip-preview
expect_rc 0 "delete"
expect_out "- 2 deleted" "the pet and the box are deleted"
[ "$(grep " pet " "$CALLS_LOG" | cut -d' ' -f1 | tr '\n' ' ')" = "beforeDelete afterDelete " ] ||
  fail "the delete hooks from the state ran: $(cat "$CALLS_LOG")"

: > "$CALLS_LOG"
STEP=4 run up --yes --skip-preview
[ "$RC" != 0 ] || fail "a failing beforeCreate hook did not fail the update"
expect_out 'before hook "fails" failed' "the hook's failure is shown"
expect_out "not today" "with the program's message"
state_json
case "$STATE" in *"::bad"*) fail "the failed resource was created: $STATE" ;; esac
finish
