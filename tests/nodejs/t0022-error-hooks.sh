#!/bin/bash
# Error hooks (monitor/resource_hooks.c, stepexec/exec_call.c): a failed
# create, update or delete asks the resource's onError hooks, which see the
# failed operation and every error so far (newest first), whether to call
# the provider again; any hook saying yes retries. A "no" fails the step
# with the provider's error, a hook that throws fails it with the hook's,
# and the provider is called at most 100 times (Pulumi's limit). The hook
# names are kept in the state, so that a delete runs them too.
. "$(dirname "$0")/lib.sh" "$@"
node_program errhooks
export HOOK_LOG=$T/hooks.log COUNT_DIR=$T/counts
mkdir -p "$COUNT_DIR"
D=pulumi-nodejs:dynamic:Resource
count() { cat "$COUNT_DIR/$1" 2>/dev/null || echo 0; }
run stack init dev

run preview
expect_rc 0 "preview"
[ ! -s "$HOOK_LOG" ] || fail "error hooks ran in a preview: $(cat "$HOOK_LOG")"

run up --yes --skip-preview
expect_rc 0 "the create succeeds on its third try"
[ "$(count flaky.create)" = 3 ] || fail "create called $(count flaky.create) times, expected 3"
want="watch create flaky $D id=- errors=1 newest=create of flaky failed (attempt 1) newIn=v1 oldIn=- oldOut=-
record create flaky $D id=- errors=1 newest=create of flaky failed (attempt 1) newIn=v1 oldIn=- oldOut=-
watch create flaky $D id=- errors=2 newest=create of flaky failed (attempt 2) newIn=v1 oldIn=- oldOut=-
record create flaky $D id=- errors=2 newest=create of flaky failed (attempt 2) newIn=v1 oldIn=- oldOut=-"
[ "$(cat "$HOOK_LOG")" = "$want" ] || fail "the hooks' calls: $(cat "$HOOK_LOG")"
expect_out "warning: retrying create due to on-error hook request (1/100)" "first retry shown"
expect_out "warning: retrying create due to on-error hook request (2/100)" "second retry shown"
state_json
case "$STATE" in *'"id": "id-flaky"'*) ;; *) fail "flaky is not in the state: $STATE" ;; esac
case "$STATE" in *'"OnError": ['*'"watch",'*'"record"'*) ;;
  *) fail "the error hooks are not in the state: $STATE" ;; esac
# A state that names them as minipulumi did before (lowerCamel keys) is
# read the same, and written back with Pulumi's.
printf '%s\n' "$STATE" | sed 's/"OnError"/"onError"/' > "$T/old-keys.json"
run stack import --file "$T/old-keys.json"
expect_rc 0 "import a state with the old keys"
state_json
case "$STATE" in *'"OnError": ['*'"watch",'*'"record"'*) ;;
  *) fail "the old key was not read: $STATE" ;; esac

: > "$HOOK_LOG"
STEP=2 run up --yes --skip-preview
expect_rc 0 "the update succeeds on its second try"
[ "$(count flaky.update)" = 2 ] || fail "update called $(count flaky.update) times, expected 2"
expect_file "$HOOK_LOG" "record update flaky $D id=id-flaky errors=1 newest=update of flaky failed (attempt 1) newIn=v2 oldIn=v1 oldOut=v1" \
  "an update's hooks see the ID and the old and new inputs"
expect_out "retrying update due to on-error hook request (1/100)" "the retry is shown"

: > "$HOOK_LOG"
STEP=3 run up --yes --skip-preview
[ "$RC" != 0 ] || fail "a create its hook does not retry did not fail the update"
expect_out "error: create of stubborn failed (attempt 1)" "with the provider's error"
[ "$(count stubborn.create)" = 1 ] || fail "create called $(count stubborn.create) times, expected 1"
[ "$(wc -l < "$HOOK_LOG")" = 1 ] || fail "the hook ran more than once: $(cat "$HOOK_LOG")"
state_json
case "$STATE" in *"::stubborn"*) fail "the failed resource is in the state: $STATE" ;; esac

: > "$HOOK_LOG"
STEP=4 run up --yes --skip-preview
[ "$RC" != 0 ] || fail "a create that never succeeds did not fail the update"
[ "$(count forever.create)" = 100 ] || fail "create called $(count forever.create) times, expected 100"
[ "$(wc -l < "$HOOK_LOG")" = 99 ] || fail "the hook ran $(wc -l < "$HOOK_LOG") times, expected 99"
expect_file "$HOOK_LOG" "errors=99 newest=create of forever failed (attempt 99)" \
  "the hook sees every error so far"
expect_out "warning: maximum number of error hook retries (100) reached" "the limit is shown"
expect_out "error: maximum number of error hook retries reached" "and fails the step"

: > "$HOOK_LOG"
STEP=5 run up --yes --skip-preview
[ "$RC" != 0 ] || fail "a hook that throws did not fail the update"
expect_out 'error: error hooks execution failed: error hook "boom" failed: hook exploded' \
  "the hook's message is shown"
[ "$(count throws.create)" = 1 ] || fail "create called $(count throws.create) times, expected 1"
[ ! -s "$HOOK_LOG" ] || fail "a hook after the one that threw ran: $(cat "$HOOK_LOG")"

: > "$HOOK_LOG"
STEP=6 run up --yes --skip-preview
expect_rc 0 "the delete succeeds on its second try"
[ "$(count flaky.delete)" = 2 ] || fail "delete called $(count flaky.delete) times, expected 2"
expect_file "$HOOK_LOG" "record delete flaky $D id=id-flaky errors=1 newest=delete of flaky failed (attempt 1) newIn=- oldIn=v2 oldOut=v2" \
  "the delete runs the hooks the state names, with the old state"
expect_out "- 1 deleted" "flaky is deleted"
finish
