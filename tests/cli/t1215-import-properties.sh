#!/bin/bash
# Issue 37: import --properties name1,name2 (and an import file's
# per-resource "properties"), as Pulumi's import step takes them: of the
# inputs that the provider's Read returns, only the named ones become the
# imported resource's inputs; its outputs are all of what was read.
# Without them every input is kept.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources: {}
YAML
run stack init dev
W=$MINIPULUMI_TEST_WORLD
for n in 1 2 3; do
  echo '{"color": "blue", "size": 3, "shape": "round"}' >"$W/ext-$n.json"
done

run import test:index:Resource all ext-1 --yes --protect=false
expect_rc 0 "import without --properties"
run import test:index:Resource some ext-2 --yes --protect=false --properties color --properties size,nope
expect_rc 0 "import --properties"
cat >"$T/imports.json" <<'JSON'
{"resources": [{"type": "test:index:Resource", "name": "file", "id": "ext-3",
                "properties": ["shape"]}]}
JSON
run import --file "$T/imports.json" --yes --protect=false
expect_rc 0 "import --file with properties"
export_state
check "the inputs kept, the outputs whole" '
r = res()
assert sorted(r["all"]["inputs"]) == ["color", "shape", "size"], r["all"]["inputs"]
assert sorted(r["some"]["inputs"]) == ["color", "size"], r["some"]["inputs"]
assert sorted(r["file"]["inputs"]) == ["shape"], r["file"]["inputs"]
for n in ("all", "some", "file"):
    o = r[n]["outputs"]
    assert o["color"] == "blue" and o["size"] == 3 and o["shape"] == "round", o
'

echo '{"resources": [{"type": "test:index:Resource", "name": "x", "id": "ext-3", "properties": "shape"}]}' >"$T/bad.json"
run import --file "$T/bad.json" --yes
expect_rc 2 "properties that are not a list"
expect_err "\"properties\" must be a list of property names" "the message"
run import --file "$T/imports.json" --yes --properties color
expect_rc 2 "--properties with an import file"
finish
