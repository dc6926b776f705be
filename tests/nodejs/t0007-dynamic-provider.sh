#!/bin/bash
# A dynamic provider (pulumi.dynamic.Resource) served by the SDK's own
# provider from node_modules: create, update through its own diff,
# replace, read (refresh), delete; configured with the stack config; a
# failing create fails the update and keeps the earlier resources.
. "$(dirname "$0")/lib.sh" "$@"
node_program dynamic
export DYN_LOG="$T/calls.log"
run stack init dev
run config set suffix '!'

run preview
expect_rc 0 "preview"
[ ! -s "$DYN_LOG" ] || fail "preview called create: $(cat "$DYN_LOG")"

run up --yes --skip-preview
expect_rc 0 "up"
expect_out 'aGreeting: "hello one!"' "create's outputs, configured from the stack config"
expect_out 'aId      : "k1-one"' "the provider's id"
expect_file "$DYN_LOG" "create one" "create a"
expect_file "$DYN_LOG" "create two" "create b"

run up --yes
expect_rc 0 "no-op up"
expect_out "3 unchanged" "the provider's diff said nothing changed (the default provider is not counted)"

: > "$DYN_LOG"
STEP=2 run up --yes
expect_rc 0 "update and replace"
expect_out '~ aGreeting: "hello one!" => "hello again uno!"' "update's outputs"
expect_file "$DYN_LOG" "update k1-one uno" "update through the provider's diff"
expect_file "$DYN_LOG" "create two" "replacement created"
expect_file "$DYN_LOG" "delete k1-two" "replaced resource deleted"
expect_out "+-" "shown as a replacement"

: > "$DYN_LOG"
STEP=2 run refresh --yes
expect_rc 0 "refresh"
expect_file "$DYN_LOG" "read k1-one" "read during refresh"
state_json
case "$STATE" in *'"seen": "refreshed"'*) ;; *) fail "read's outputs not kept: $STATE" ;; esac

: > "$DYN_LOG"
STEP=3 FAIL=1 run up --yes --skip-preview
[ "$RC" != 0 ] || fail "a failing dynamic create did not fail the update"
expect_out "dynamic create of bad failed on purpose" "the provider's error"
state_json
case "$STATE" in *"Resource::a"*) ;; *) fail "earlier resource lost: $STATE" ;; esac
case "$STATE" in *"Resource::bad"*) fail "failed resource recorded: $STATE" ;; esac

: > "$DYN_LOG"
run destroy --yes
expect_rc 0 "destroy"
expect_file "$DYN_LOG" "delete k1-one" "delete (update kept the id)"
expect_file "$DYN_LOG" "delete k2-two" "delete of what the failed update left"
finish
