#!/bin/bash
# A stack that does not exist: exit 6, `no stack named 'x' found`.
. "$(dirname "$0")/lib.sh" "$@"

run stack init dev
for c in "up --yes" preview "refresh --yes" "destroy --yes" config "config get k" \
         "stack output" "stack export" "stack history" "cancel --yes" "stack rm --yes"; do
  run $c -s nope
  expect_rc 6 "$c -s nope"
  expect_err "no stack named 'nope' found" "$c -s nope"
done
run cancel nope --yes
expect_rc 6 "cancel nope"
# no stack selected at all
run stack rm dev --yes
run preview
expect_rc 1 "no stack selected"
expect_err "no stack selected" "no stack selected"
# no project
cd "$T" && rm -f proj/Pulumi.yaml
cd proj
run stack ls
expect_rc 1 "no project"
expect_err "no Pulumi.yaml project file found" "no project"
finish
