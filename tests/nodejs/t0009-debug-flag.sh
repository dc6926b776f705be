#!/bin/bash
# -d/--debug shows the program's debug-level messages (pulumi.log.debug),
# which are hidden otherwise; info messages are shown either way.
. "$(dirname "$0")/lib.sh" "$@"
node_program debuglog
run stack init dev
run preview
expect_rc 0 "preview"
expect_out "an info line from the program" "info shown"
case "$OUT" in *"a debug line"*) fail "debug shown without -d: $OUT" ;; esac
run preview -d
expect_rc 0 "preview -d"
expect_out "a debug line from the program" "debug shown with -d"
run up --yes --debug
expect_rc 0 "up --debug"
expect_out "a debug line from the program" "debug shown with --debug"
finish
