#!/bin/bash
# stack history: empty at first, JSON shape.
. "$(dirname "$0")/lib.sh" "$@"

run stack init dev
run stack history
expect_rc 0 "history"
expect_out "Stack dev has never been updated" "empty history"
run stack history --json
expect_rc 0 "history --json"
[ "$OUT" = "[]" ] || fail "empty json history: $OUT"
run stack history -s nope
expect_rc 6 "history of an unknown stack"
finish
