#!/bin/bash
# stack select switches stacks; unknown stacks exit 6; -c creates.
. "$(dirname "$0")/lib.sh" "$@"

run stack select dev
expect_rc 6 "unknown stack"
expect_err "no stack named 'dev' found" "unknown stack"
run stack init dev
run stack init prod
run stack select dev
expect_rc 0 "select"
run stack
expect_out "Current stack is dev:" "selected"
run stack select -c staging
expect_rc 0 "select --create"
expect_out "Created stack 'staging'" "select --create"
run stack
expect_out "Current stack is staging:" "created and selected"
run stack select --create prod
expect_rc 0 "select --create of an existing stack"
run stack
expect_out "Current stack is prod:" "existing selected"
run stack select
expect_rc 2 "no name"
# stack unselect (Pulumi's words), then no stack is current; a second
# unselect says nothing
run stack unselect
expect_rc 0 "unselect"
expect_out "Stack was unselected" "Pulumi's words"
run stack output
expect_rc 1 "nothing selected after unselect"
expect_err "no stack selected" "says so"
run stack unselect
expect_rc 0 "unselect with nothing selected"
[ -z "$OUT" ] || fail "a second unselect printed: $OUT"
run stack select prod
run stack
expect_out "Current stack is prod:" "selectable again"
finish
