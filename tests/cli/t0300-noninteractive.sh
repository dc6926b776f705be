#!/bin/bash
# Without a terminal (or with CI or --non-interactive), up, refresh,
# destroy, stack rm and cancel need --yes: exit 2.
. "$(dirname "$0")/lib.sh" "$@"
MSG="--yes must be passed in to proceed when running in non-interactive mode"

run stack init dev
for c in up refresh destroy; do
  run $c
  expect_rc 2 "$c without --yes"
  expect_err "$MSG" "$c without --yes"
  run $c --non-interactive
  expect_rc 2 "$c --non-interactive"
done
CI=true run up
expect_rc 2 "CI set"
run cancel
expect_rc 2 "cancel without --yes"
expect_err "$MSG" "cancel"
run cancel --yes
expect_rc 0 "cancel --yes with no update running"
expect_out "has no update in progress" "cancel --yes"
run up --json
expect_rc 2 "--json is never interactive"
finish
