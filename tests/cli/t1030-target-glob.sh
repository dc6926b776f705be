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
  timeout "$(limit 10)" "$M" "$@" </dev/null >"$T/out" 2>"$T/err"
  RC=$?
  OUT=$(cat "$T/out")
  ERR=$(cat "$T/err")
}

stars='********************************'
# changed: the steps of the last --json run that are not `same`.
changed() {
  check "$1" '
got = sorted(s for s in steps(events()) if s[0] != "same")
assert got == sorted('"$2"'), got
'
}
# A glob that matches nothing is no error (Pulumi checks only literal
# names); what matters here is that the answer comes at once.
for flag in --target --exclude --replace; do
  trun up -y --json "$flag" "${stars}Z"
  expect_rc 0 "up $flag with 32 stars and no match"
  changed "$flag matching nothing changes nothing" '[]'
done

trun up -y --json --replace "**::${stars}a"
expect_rc 0 "up --replace matching the long name"
check "--replace with stars replaced only the long-named resource" '
got = sorted(set(n for op, n in steps(events()) if op != "same"))
assert got == ["'"$long"'"], got
'

trun up -y --json --target "urn:pulumi:*::proj::**${stars}a" -c v=2
expect_rc 0 "up --target matching the long name"

single='*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a'
trun refresh -y --json --target "urn:pulumi:dev::proj::test:index:Resource::${single}Z"
expect_rc 0 "refresh --target with single stars and no match"
check "the refresh read nothing" '
assert [s for s in steps(events()) if s[0] == "refresh"] == [], steps(events())
'
trun refresh -y --json --target "urn:pulumi:dev::proj::test:index:Resource::${single}"
expect_rc 0 "refresh --target with single stars matching the long name"
check "the refresh read the long-named resource only" '
got = [n for op, n in steps(events()) if op == "refresh"]
assert got == ["'"$long"'"], got
'
finish
