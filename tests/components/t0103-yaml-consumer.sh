#!/usr/bin/env bash
# The remote component of t0100 (provider/index.js) used by a Pulumi YAML
# program (programs/yamlconsumer): the host asks the package's plugin for
# its schema (GetSchema), finds that petcomp:Pet (petcomp:index:Pet) is a
# component and registers it remote, so that the provider's Construct
# makes it and its children (a RandomPet and a command). Outputs,
# dependencies and secrets cross the boundary both ways; a no-op up
# changes nothing; preview --diff shows a child's change; a Construct that
# throws fails the update with the provider's message and leaves the state
# as it was; refresh and destroy work on the children, deleted before the
# component; a type the schema lacks stops the program with Pulumi YAML's
# words before anything is registered; no plugin process is left.
. "$(dirname "$0")/lib.sh" "$@"
program yamlconsumer
run stack init dev
expect_rc 0 "stack init"

run preview
expect_rc 0 "preview"
expect_out "+ 6 to create" "preview plans the stack, first, the component, its two children and after"

run up --yes --skip-preview
expect_rc 0 "up"
expect_out "+ 6 created" "up creates the stack, first, the component, its two children and after"
expect_out "petcomp:index:Pet pet created" "the component is registered under the schema's token"
run stack output --json --show-secrets
expect_out '"note": "hush"' "a secret input comes back as the component's output"
run stack output --json
expect_out '"note": "[secret]"' "Construct keeps a secret output secret"
PET=$(echo "$OUT" | sed -n 's/.*"petName": "\(.*\)".*/\1/p')
[ -n "$PET" ] || fail "the component's petName output: $OUT"
expect_out "\"echoed\": \"$PET\"" "the command child echoes the pet child's name"
expect_out "\"after\": \"$PET\"" "a resource of the program uses the component's output"
state_json
python3 - "$STATE" <<'PY' || fail "the state of the component and its children"
import json, sys
res = json.loads(sys.argv[1])["deployment"]["resources"]
by = {r["urn"].split("::")[-1]: r for r in res if not r["type"].startswith("pulumi:providers:")}
comp = by["pet"]
assert comp["type"] == "petcomp:index:Pet" and not comp.get("custom"), comp
assert comp["parent"].endswith("pulumi:pulumi:Stack::yamlconsumer-dev"), comp
# The program's resource the component's input came from.
assert by["first"]["urn"] in comp.get("dependencies", []), comp
for child in ("petchild", "echochild"):
    assert by[child]["parent"] == comp["urn"], by[child]
    assert by[child]["custom"], by[child]
assert by["petchild"]["urn"] in by["echochild"]["dependencies"], by["echochild"]
# The program's resource that used the component's output.
assert comp["urn"] in by["after"]["dependencies"], by["after"]
assert by["after"]["propertyDependencies"]["create"] == [comp["urn"]], by["after"]
note = comp["outputs"]["note"]
assert isinstance(note, dict) and "ciphertext" in note, comp["outputs"]
assert any(r["type"] == "pulumi:providers:petcomp" for r in res), res
PY

run up --yes
expect_rc 0 "a second up"
expect_out "6 unchanged" "a second up changes nothing"

run config set prefix b
run preview --diff
expect_rc 0 "preview --diff"
expect_out "+-random:index/randomPet:RandomPet: (replace)" "a new prefix replaces the pet child"
expect_out 'prefix: "a" => "b"' "preview --diff shows the child's changed input"
run up --yes --skip-preview
expect_rc 0 "up with the new prefix"
expect_out "random:index:RandomPet petchild replaced" "the pet child is replaced"
expect_not_out "petcomp:index:Pet pet deleted" "the component stays"
run stack output after
case "$OUT" in b-*) ;; *) fail "the program's resource sees the new child's name: $OUT" ;; esac

state_json
BEFORE=$STATE
PETCOMP_THROW=1 run up --yes
[ "$RC" -ne 0 ] || fail "a Construct that throws fails the update"
case "$OUT$ERR" in *"petcomp: the pet ran away"*) ;; *) fail "the provider's message is shown: $OUT $ERR" ;; esac
expect_not_out "after deleted" "a failed Construct deletes nothing"
state_json
python3 - "$BEFORE" "$STATE" <<'PY' || fail "a failed Construct leaves the state as it was"
import json, sys
a, b = (sorted(r["urn"] for r in json.loads(s)["deployment"]["resources"]) for s in sys.argv[1:3])
assert a == b, (a, b)
PY
no_orphans "after a failed Construct"

run refresh --yes
expect_rc 0 "refresh"
run up --yes
expect_rc 0 "an up after the refresh"
expect_out "6 unchanged" "nothing changed in the world"

run destroy --yes
expect_rc 0 "destroy"
expect_out "- 6 deleted" "destroy deletes the stack, first, the component, its children and after"
# Children go before their component, and the component before first.
first_child=$(echo "$OUT" | grep -n "child deleted" | head -1 | cut -d: -f1)
comp=$(echo "$OUT" | grep -n "petcomp:index:Pet pet deleted" | cut -d: -f1)
[ -n "$first_child" ] && [ -n "$comp" ] && [ "$first_child" -lt "$comp" ] ||
  fail "the children are deleted before the component: $OUT"
first=$(echo "$OUT" | grep -n "command:local:Command first deleted" | cut -d: -f1)
[ -n "$first" ] && [ "$comp" -lt "$first" ] ||
  fail "the component is deleted before the resource its input came from: $OUT"
no_orphans "after destroy"

# A type the package's schema lacks: Pulumi YAML's error, where the type
# is written, and nothing registered.
cat > Pulumi.yaml <<'YAML'
name: yamlconsumer
runtime: yaml
resources:
  first:
    type: command:local:Command
    properties:
      create: printf hush
  nope:
    type: petcomp:index:Nope
YAML
run preview
[ "$RC" -ne 0 ] || fail "a type the schema lacks fails the preview"
expect_out 'Pulumi.yaml:9:11: error resolving type of resource nope: unable to find resource type "petcomp:index:Nope" in resource provider "petcomp"' "Pulumi YAML's words, with the place"
run up --yes
[ "$RC" -ne 0 ] || fail "a type the schema lacks fails the update"
state_json
case "$STATE" in *"::first"*) fail "nothing is registered: $STATE" ;; esac
no_orphans "after a type the schema lacks"
finish
