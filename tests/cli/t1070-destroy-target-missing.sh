#!/bin/bash
# destroy --target / --exclude naming nothing in the stack fails as up and
# refresh do (`no resource named '<urn>' found`,
# docs/behaviour.md, "Error texts"), in the
# preview and with --skip-preview, and deletes nothing.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    properties:
      v: 1
YAML
U=urn:pulumi:dev::proj::test:index:Resource
run stack init dev
run up -y
expect_rc 0 "up"

run destroy -y --target "$U::nothing"
expect_rc 1 "destroy --target of a missing URN"
expect_out "no resource named '$U::nothing' found" "destroy names the missing target"

run destroy -f -y --target "$U::nothing"
expect_rc 1 "destroy -f --target of a missing URN"
expect_out "no resource named '$U::nothing' found" "destroy -f names the missing target"

run destroy --preview-only --target "$U::nothing"
expect_rc 1 "destroy --preview-only --target of a missing URN"
expect_out "no resource named '$U::nothing' found" "the preview names it"

run destroy -y --exclude "$U::nothing"
expect_rc 1 "destroy --exclude of a missing URN"
expect_out "no resource named '$U::nothing' found" "destroy names the missing exclude"

export_state
check "nothing was deleted" 'assert "a" in res(), sorted(res())'
[ "$(grep -c '"op":"delete"' "$MINIPULUMI_TEST_WORLD/calls.jsonl")" = 0 ] ||
  fail "no Delete call reached the provider"

run destroy -y --target "$U::a"
expect_rc 0 "destroy --target of an existing URN still works"
finish
