#!/usr/bin/env bash
# A Pulumi YAML component provider (programs/yamlprov/yamlcomp: a plugin
# folder whose PulumiPlugin.yaml says `runtime: yaml` and declares a
# component), named by the program's Pulumi.yaml `packages:` and served
# in-process by the embedded YAML host: the schema it answers makes
# yamlcomp:Greeter a component, Construct runs the component's body (a
# RandomPet and a command, its inputs as variables, an input's default, a
# secret input) with the component as their parent and their names
# prefixed by the component's, so that two instances do not collide;
# pulumi.organization, project and stack are the program's; the outputs
# and their dependencies come back to the program; a no-op up changes
# nothing; a new input replaces a child; a missing required input fails
# the Construct with the place in PulumiPlugin.yaml and leaves the state as
# it was; destroy deletes the children before their component; no plugin
# process is started for the package.
. "$(dirname "$0")/lib.sh" "$@"
program yamlprov
run stack init dev
expect_rc 0 "stack init"

run preview
expect_rc 0 "preview"
expect_out "+ 9 to create" "preview plans the stack, first, two components with two children each, and after"

run up --yes
expect_rc 0 "up"
expect_out "+ 9 created" "up creates the stack, first, two components with two children each, and after"
expect_out "yamlcomp:index:Greeter greeter created" "the component is registered under the schema's token"
expect_out "random:index:RandomPet greeter-pet created" "a child is named after its component"
expect_out "random:index:RandomPet second-pet created" "so is the second component's"
run stack output --json --show-secrets
expect_out '"where": "organization/yamlprov/dev"' "pulumi.organization, project and stack are the program's"
expect_out '"greeting": "hello a"' "an input is a variable of the body"
expect_out '"note": "hush"' "an input's default"
PET=$(echo "$OUT" | sed -n 's/.*"petName": "\(.*\)".*/\1/p')
case "$PET" in a-*) ;; *) fail "the pet has the prefix and the default separator: $OUT" ;; esac
expect_out "\"echoed\": \"$PET\"" "one child uses the other's output"
expect_out "\"after\": \"$PET\"" "a resource of the program uses the component's output"
case "$OUT" in *'"secondPet": "b_'*) ;; *) fail "the second component's own inputs: $OUT" ;; esac
run stack output --json
expect_out '"note": "[secret]"' "a secret input stays secret in the component's outputs"
state_json
python3 - "$STATE" <<'PY' || fail "the state of the components and their children"
import json, sys
res = json.loads(sys.argv[1])["deployment"]["resources"]
by = {r["urn"].split("::")[-1]: r for r in res if not r["type"].startswith("pulumi:providers:")}
comp = by["greeter"]
assert comp["type"] == "yamlcomp:index:Greeter" and not comp.get("custom"), comp
assert comp["parent"].endswith("pulumi:pulumi:Stack::yamlprov-dev"), comp
assert comp["inputs"] == {"prefix": "a"}, comp["inputs"]
assert "ciphertext" in comp["outputs"]["note"], comp["outputs"]
assert by["first"]["urn"] in comp.get("dependencies", []), comp
for c in ("greeter", "second"):
    for child in ("pet", "echo"):
        r = by[c + "-" + child]
        assert r["parent"] == by[c]["urn"], r
        assert r["custom"], r
        assert r["urn"].split("::")[-2].startswith("yamlcomp:index:Greeter$"), r["urn"]
assert by["greeter-pet"]["urn"] in by["greeter-echo"]["dependencies"], by["greeter-echo"]
assert comp["urn"] in by["after"]["dependencies"], by["after"]
provs = [r for r in res if r["type"] == "pulumi:providers:yamlcomp"]
assert len(provs) == 1, provs
PY
no_orphans "a YAML component provider starts no process"

run up --yes
expect_rc 0 "a second up"
expect_out "9 unchanged" "a second up changes nothing"

sed -i 's/      prefix: b$/      prefix: c/' Pulumi.yaml
run up --yes
expect_rc 0 "up with a new input"
expect_out "random:index:RandomPet second-pet replaced" "a new input replaces the child that uses it"
expect_not_out "greeter-pet replaced" "the other component's children stay"
run stack output secondPet
case "$OUT" in c_*) ;; *) fail "the replaced child's output reaches the program: $OUT" ;; esac

# A component without its required input: its Construct fails with the
# place of the declaration, and nothing else changes.
state_json
BEFORE=$STATE
sed -i 's/^resources:$/resources:\n  broken:\n    type: yamlcomp:Greeter/' Pulumi.yaml
run up --yes
[ "$RC" -ne 0 ] || fail "a missing required input fails the update"
case "$OUT$ERR" in *"constructing yamlcomp:index:Greeter: "*"/yamlcomp/PulumiPlugin.yaml:9:7: missing required input 'prefix'"*) ;;
  *) fail "the message names the input and where it is declared: $OUT $ERR" ;; esac
state_json
python3 - "$BEFORE" "$STATE" <<'PY' || fail "a failed Construct leaves the state as it was"
import json, sys
a, b = (sorted(r["urn"] for r in json.loads(s)["deployment"]["resources"]) for s in sys.argv[1:3])
assert a == b, (a, b)
PY
cp "$COMP_DIR/programs/yamlprov/Pulumi.yaml" Pulumi.yaml
sed -i 's/      prefix: b$/      prefix: c/' Pulumi.yaml

run destroy --yes
expect_rc 0 "destroy"
expect_out "- 9 deleted" "destroy deletes everything"
child=$(echo "$OUT" | grep -n "greeter-pet deleted" | cut -d: -f1)
comp=$(echo "$OUT" | grep -n "yamlcomp:index:Greeter greeter deleted" | cut -d: -f1)
[ -n "$child" ] && [ -n "$comp" ] && [ "$child" -lt "$comp" ] ||
  fail "the children are deleted before their component: $OUT"
finish
