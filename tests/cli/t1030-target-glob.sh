#!/bin/bash
# --target, --exclude and --replace globs with many stars: the matcher runs
# in time linear in the URN's length, so patterns that make a backtracking
# matcher run for minutes answer at once (each command is guarded by
# `timeout 10`; the assertions are on the results).
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
long=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
resources:
  $long:
    type: test:Resource
    properties:
      v: 1
  other:
    type: test:Resource
    properties:
      v: 2
YAML
run stack init dev
run up -y
expect_rc 0 "first up"

# trun CMD...: `run` under `timeout 10`.
trun() {
  timeout 10 "$M" "$@" </dev/null >"$T/out" 2>"$T/err"
  RC=$?
  OUT=$(cat "$T/out")
  ERR=$(cat "$T/err")
}

stars='********************************'
trun up -y --target "${stars}Z"
expect_rc 1 "up --target with 32 stars and no match"
expect_out "Target '${stars}Z' could not be found in the stack." "unknown target"

trun preview --json --target "${stars}a"
expect_rc 0 "preview --target with 32 stars matching the long name"

trun up -y --exclude "${stars}Z"
expect_rc 1 "up --exclude with no match"
expect_out "Target '${stars}Z' could not be found" "unknown exclude"

trun up -y --replace "${stars}Z"
expect_rc 1 "up --replace with no match"
expect_out "Target '${stars}Z' could not be found" "unknown replace"

trun up -y --json --replace "**::${stars}a"
expect_rc 0 "up --replace matching the long name"
check "--replace with stars replaced only the long-named resource" '
st = [s for s in steps(events()) if s[0] not in ("same",)]
assert all(n != "other" for _, n in st), st
assert ("replace", "'"$long"'") in st, st
'

single='*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a'
trun refresh -y --target "urn:pulumi:dev::proj::test:index:Resource::${single}Z"
expect_rc 1 "refresh --target with single stars and no match"
expect_out "no resource named 'urn:pulumi:dev::proj::test:index:Resource::${single}Z' found" "unknown refresh target"
finish
