#!/bin/bash
# A program that throws: a clear error, a failed update, and what was
# created before the error kept in the state.
. "$(dirname "$0")/lib.sh" "$@"
node_program throws
run stack init dev
FAIL=1 run up --yes --skip-preview
[ "$RC" != 0 ] || fail "a throwing program's update succeeded"
expect_out "the program failed on purpose" "the error is shown"
expect_out "failed with an unhandled exception" "said as Pulumi says it"
expect_out "update failed" "the update fails"
state_json
case "$STATE" in *"RandomPet::kept"*) ;; *) fail "kept resource lost: $STATE" ;; esac
case "$STATE" in *"RandomPet::later"*) fail "resource after the error: $STATE" ;; esac

run up --yes
expect_rc 0 "up after fixing"
expect_out "+ 1 created" "only the missing resource"

FAIL=1 run up --yes --skip-preview
[ "$RC" != 0 ] || fail "second throwing update succeeded"
state_json
case "$STATE" in *"RandomPet::later"*) ;;
  *) fail "a failed program deleted what it did not register: $STATE" ;; esac

# A program folder without its packages: one line naming npm install.
rm "$T/throws/node_modules"
run up --yes
[ "$RC" != 0 ] || fail "up without node_modules succeeded"
expect_out "run \`npm install\` there" "missing packages explained"
finish
