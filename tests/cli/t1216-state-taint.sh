#!/bin/bash
# minipulumi state taint / untaint (pkg/cmd/pulumi/state/state_taint.go,
# state_untaint.go): the `taint` bit in the checkpoint, and the next up
# replacing a tainted resource (the step generator forces a replacement
# for it) with a new state that is no longer tainted.
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
  b:
    type: test:Resource
    properties:
      v: 2
YAML
U=urn:pulumi:dev::proj::test:index:Resource
run stack init dev
run up --yes
expect_rc 0 "up"

run state taint
expect_rc 2 "no URN without a terminal"
expect_err "Must supply <resource URN> unless minipulumi is run interactively" "Pulumi's words"
run state taint --all "$U::a"
expect_rc 2 "taint has no --all"
expect_err "unknown flag: --all" "taint --all"
run state taint -y "$U::zz"
expect_rc 1 "unknown URN"
expect_err "No such resource \"$U::zz\" exists in the current state" "not found"

run state taint -s dev -y "$U::a" "$U::b"
expect_rc 0 "taint"
expect_out "2 resources tainted" "Pulumi's count"
export_state
check "both tainted" 'assert res()["a"].get("taint") and res()["b"].get("taint"), res()'
run state untaint --yes "$U::b"
expect_rc 0 "untaint one"
expect_out "1 resources untainted" "untaint count"
export_state
check "b untainted" 'assert res()["a"].get("taint") and not res()["b"].get("taint"), res()'

# the next up replaces the tainted a only; its new state is not tainted
: > "$MINIPULUMI_TEST_WORLD/calls.jsonl"
run up --yes --json
expect_rc 0 "up after taint"
check "a replaced, b same" '
s = steps(events())
assert ("replace", "a") in s or ("create-replacement", "a") in s, s
assert ("same", "b") in s, s
assert ("create", "a") in calls() and ("delete", "a") in calls(), calls()
assert not [c for c in calls() if c[1] == "b" and c[0] in ("create", "delete")], calls()'
export_state
check "a no longer tainted" 'assert not res()["a"].get("taint"), res()["a"]'
run up --yes --json
check "nothing to do after the replacement" '
assert all(op == "same" for op, n in steps(events())), steps(events())'

# untaint --all
run state taint -y "$U::a" "$U::b"
run state untaint --all -y
expect_rc 0 "untaint --all"
expect_out "All resources untainted" "untaint --all words"
export_state
check "none tainted" 'assert not any(r.get("taint") for r in res().values()), res()'
finish
