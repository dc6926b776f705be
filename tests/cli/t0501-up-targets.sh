#!/bin/bash
# up's selection flags end to end: -t/--target, --target-dependents,
# -x/--exclude, --exclude-dependents, --replace and --target-replace, on the
# JSON events and the `stack export` contents.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
config:
  v:
    type: string
    default: v1
resources:
  a:
    type: test:Resource
    properties:
      v: ${v}
  b:
    type: test:Resource
    properties:
      v: ${a.v}
  c:
    type: test:Resource
    properties:
      v: ${v}
YAML
U=urn:pulumi:dev::proj::test:index:Resource
run stack init dev
run up -y
expect_rc 0 "first up"

# state_is A B C: the stack's v of a, b, c.
state_is() {
  export_state
  check "$4: state" '
r = res()
got = [r[n]["outputs"]["v"] for n in ("a", "b", "c")]
assert got == ["'"$1"'", "'"$2"'", "'"$3"'"], got
'
}
# changed OPS...: the non-same, non-planning steps of the last --json run.
changed() {
  check "$1: steps" '
ev = events()
got = sorted(s for s in steps(ev) if s[0] not in ("same",))
assert got == sorted('"$2"'), got
'
}

run up -y --json -c v=v2 -t "$U::a"
expect_rc 0 "up -t a"
changed "-t a" '[("update", "a")]'
state_is v2 v1 v1 "-t a"

run up -y --json -t "$U::a" --target-dependents
expect_rc 0 "up -t a --target-dependents"
changed "--target-dependents" '[("update", "b")]'
state_is v2 v2 v1 "--target-dependents"

run up -y --json -c v=v3 -x "$U::a"
expect_rc 0 "up -x a"
changed "-x a" '[("update", "c")]'
state_is v2 v2 v3 "-x a"

run up -y --json -c v=v4 -x "$U::c" -x "$U::a" --exclude-dependents
expect_rc 0 "up -x a -x c --exclude-dependents"
changed "--exclude-dependents" '[]'
state_is v2 v2 v3 "--exclude-dependents"

export_state
cid=$(python3 -c 'import json,sys; print([r["id"] for r in json.load(open(sys.argv[1]))["deployment"]["resources"] if r["urn"].endswith("::c")][0])' "$T/export.json")
run up -y --json --target-replace "$U::c"
expect_rc 0 "up --target-replace c"
check "--target-replace: c alone is replaced" '
ev = events()
got = sorted(set(s for s in steps(ev) if s[0] != "same"))
assert got == [("create-replacement", "c"), ("delete-replaced", "c"), ("replace", "c")], got
'
export_state
check "c has a new id and the new v" '
r = res()
assert r["c"]["id"] != "'"$cid"'", r["c"]
assert r["c"]["outputs"]["v"] == "v4" and r["a"]["outputs"]["v"] == "v2", r
'
[ -e "$MINIPULUMI_TEST_WORLD/$cid.json" ] && fail "the replaced c is deleted from the world"

run up -y --json --replace "$U::b"
expect_rc 0 "up --replace b"
check "--replace b: b replaced, a updated" '
ev = events()
got = sorted(set(s for s in steps(ev) if s[0] != "same"))
assert ("replace", "b") in got and ("update", "a") in got, got
assert not any(n == "c" for _, n in got), got
'
state_is v4 v4 v4 "--replace"

run up -y -t "$U::nope"
[ "$RC" != 0 ] || fail "a target that names no resource fails"
expect_out "Target '$U::nope' could not be found in the stack" "the error names the target"
finish
