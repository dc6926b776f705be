#!/bin/bash
# minipulumi import TYPE NAME ID / --file: existing objects are read from
# their provider and join the stack's state (protected unless
# --protect=false), nothing else changes (the stack's outputs neither), and
# the YAML block printed (or written with --out) makes the program match.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  keep:
    type: test:Resource
    properties:
      v: 1
outputs:
  k: ${keep.v}
YAML
run stack init dev
run up --yes
expect_rc 0 "up"
W=$MINIPULUMI_TEST_WORLD
echo '{"color": "blue", "size": 3}' >"$W/ext-7.json"

: >"$W/calls.jsonl"
run import test:index:Resource thing ext-7 --yes
expect_rc 0 "import"
cp "$T/out" "$T/import.out"
expect_out "Previewing import (dev)" "the preview's header"
expect_out "Importing (dev)" "the import's header"
expect_out " =  test:index:Resource thing imported" "the row"
expect_out "= 1 imported" "summary"
expect_out "Please copy the following code into your Pulumi application." "Pulumi's words"
expect_out "Please note that the imported resources are marked as protected." "protect is said"
expect_out "resources:
  thing:
    type: test:index:Resource
    properties:
      color: blue
      size: 3
    options:
      protect: true" "the YAML block"
export_state
check "thing is in the state, read from its provider; keep is untouched" '
r = res()
assert r["thing"]["id"] == "ext-7" and r["thing"]["protect"], r["thing"]
assert r["thing"]["inputs"] == {"color": "blue", "size": 3}, r["thing"]
assert r["keep"]["outputs"]["v"] == 1, r["keep"]
'
run stack output k
[ "$OUT" = "1" ] || fail "the stack outputs stay: $OUT"
check "no provider call changed anything else" '
assert [c for c in calls() if c[0] in ("create", "update", "delete")] == [], calls()
assert ("read", "thing") in calls(), calls()
'
# the printed block makes the program match the stack
sed -n '/^resources:$/,$p' "$T/import.out" | tail -n +2 >"$T/block"
python3 - "$T/block" <<'PY'
import sys
block = open(sys.argv[1]).read()
text = open("Pulumi.yaml").read().replace("outputs:\n", block + "outputs:\n")
open("Pulumi.yaml", "w").write(text)
PY
run preview
expect_rc 0 "preview with the generated code"
expect_not_out "to update" "no change"
expect_not_out "to delete" "no delete"
expect_out "3 unchanged" "everything the same"

# an import file, unprotected, the code written to a file
echo '{"n": 1}' >"$W/f-1.json"
echo '{"n": 2}' >"$W/f-2.json"
cat >"$T/imports.json" <<'J'
{"resources": [
  {"type": "test:index:Resource", "name": "one", "id": "f-1"},
  {"type": "test:index:Resource", "name": "two", "id": "f-2"}
]}
J
run import --file "$T/imports.json" --protect=false --yes --skip-preview --out "$T/code.yaml"
expect_rc 0 "import --file"
expect_out "= 2 imported" "both"
expect_not_out "Please copy" "--out takes the code"
expect_file "$T/code.yaml" "  two:" "the code file"
export_state
check "both imported, unprotected" '
r = res()
assert r["one"]["id"] == "f-1" and not r["one"].get("protect"), r["one"]
assert r["two"]["inputs"] == {"n": 2}, r["two"]
'

run import test:index:Resource ghost nope --yes --skip-preview
[ "$RC" != 0 ] || fail "importing an object that does not exist succeeded"
expect_out "resource 'nope' does not exist" "Pulumi's text"
export_state
check "nothing was added" 'assert "ghost" not in res(), sorted(res())'
run import test:index:Resource x y --file "$T/imports.json"
expect_rc 2 "inline and a file"
run import test:index:Resource x
expect_rc 2 "TYPE NAME ID incomplete"
finish
