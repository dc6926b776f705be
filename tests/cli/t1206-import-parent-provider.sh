#!/bin/bash
# Issue 37: import --parent name=urn and --provider name=urn, as Pulumi's
# import takes them: the stack's resources are registered first, unchanged,
# as Pulumi's import registers them; the imported resource is a child of
# that parent (its
# URN and its state say so) and is read through that provider resource;
# a spec that is not name=urn, or names nothing in the stack, is refused
# before anything is written.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  prov:
    type: pulumi:providers:test
  keep:
    type: test:Resource
    properties:
      v: 1
YAML
run stack init dev
run up --yes
expect_rc 0 "up"
W=$MINIPULUMI_TEST_WORLD
echo '{"color": "blue"}' >"$W/ext-1.json"
KEEP=urn:pulumi:dev::proj::test:index:Resource::keep
PROV=urn:pulumi:dev::proj::pulumi:providers:test::prov

run import test:index:Resource thing ext-1 --yes --parent "keep=$KEEP" --provider "prov=$PROV"
expect_rc 0 "import --parent --provider"
expect_out "= 1 imported" "imported"
export_state
check "the child and its provider" '
r = res()
t = r["thing"]
assert t["urn"] == "urn:pulumi:dev::proj::test:index:Resource$test:index:Resource::thing", t["urn"]
assert t["parent"] == "'"$KEEP"'", t.get("parent")
assert t["provider"].startswith("'"$PROV"'::"), t.get("provider")
assert t["outputs"]["color"] == "blue", t
'

# refused: not name=urn, nothing of that URN, a provider that is not one
resources() { python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["deployment"]["resources"], sort_keys=True))' "$T/export.json"; }
before=$(resources)
run import test:index:Resource other ext-1 --yes --parent "$KEEP"
expect_rc 2 "--parent without a name"
expect_err "expected name=urn" "the form"
run import test:index:Resource other ext-1 --yes --parent "p=urn:pulumi:dev::proj::test:index:Resource::nope"
expect_rc 2 "--parent naming nothing"
expect_err "--parent: no resource 'urn:pulumi:dev::proj::test:index:Resource::nope' in stack 'dev'" "what is missing"
run import test:index:Resource other ext-1 --yes --provider "k=$KEEP"
expect_rc 2 "--provider naming a plain resource"
expect_err "--provider: no provider resource" "not a provider"
run import --file "$T/none.json" --parent "keep=$KEEP"
expect_rc 2 "--parent with --file"
export_state
[ "$(resources)" = "$before" ] || fail "a refused import changed the state"
finish
