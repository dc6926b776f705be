#!/bin/bash
# pulumi:pulumi:StackReference declared as a resource in Pulumi YAML is
# read, as Pulumi YAML registers it (a ReadResource whose id is the `name`
# property, the resource's key when absent) and Pulumi's builtin provider
# reads it: the other stack's outputs, secrets staying secret. The
# language conformance test l1-stack-reference, restated.
. "$(dirname "$0")/lib.sh" "$@"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
variables:
  hidden:
    fn::secret: s3cr3t
outputs:
  plain: hello
  secret: ${hidden}
YAML
run stack init dev
run up --yes
expect_rc 0 "up of the referenced stack"

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  ref:
    type: pulumi:pulumi:StackReference
    properties:
      name: organization/proj/dev
  dev:
    type: pulumi:pulumi:StackReference
outputs:
  plain: ${ref.outputs["plain"]}
  secret: ${ref.outputs["secret"]}
  same: ${dev.outputs["plain"]}
  secret_unsecret:
    fn::unsecret: ${ref.outputs["secret"]}
YAML
run stack init other
run up --yes --show-reads # the reads are hidden without it
expect_rc 0 "up with stack references"
expect_out "read" "the references are read"
expect_not_out "read, never created" "not created"
run stack output --json --show-secrets
for want in '"plain": "hello"' '"secret": "s3cr3t"' '"same": "hello"' \
    '"secret_unsecret": "s3cr3t"'; do
  expect_out "$want" "stack output"
done
run stack output secret
expect_out "[secret]" "the secret output stays secret"
# fn::unsecret of a secret output read from the other stack: plain (the
# check Pulumi added to l1-stack-reference in pulumi#22711, which Pulumi
# YAML's program of the test does not have)
run stack output secret_unsecret
expect_out "s3cr3t" "fn::unsecret of the referenced secret is plain"
expect_not_out "[secret]" "fn::unsecret of the referenced secret is plain"
run stack export
echo "$OUT" | python3 -c '
import json, sys
res = json.load(sys.stdin)["deployment"]["resources"]
refs = {r["urn"].split("::")[-1]: r for r in res if r["type"] == "pulumi:pulumi:StackReference"}
assert refs["ref"]["id"] == "organization/proj/dev", refs["ref"]
assert refs["ref"].get("external") is True, refs["ref"]
assert refs["ref"]["outputs"]["secretOutputNames"] == ["secret"], refs["ref"]
assert refs["dev"]["inputs"] == {"name": "dev"}, refs["dev"]
' || fail "the read stack references in the state: $OUT"
run up --yes
expect_rc 0 "second up"
expect_not_out "created" "nothing new"

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  ref:
    type: pulumi:pulumi:StackReference
    properties:
      name: 3
YAML
run up --yes
[ "$RC" != 0 ] || fail "a name that is not a string was accepted"
expect_out "'name' property must be a string" "the error names the property"
finish
