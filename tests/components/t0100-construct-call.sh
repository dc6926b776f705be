#!/usr/bin/env bash
# A remote component from a component provider written with the Node.js
# SDK's provider library (provider/index.js), used by a Node.js program:
# Construct makes the component and its children (a RandomPet of the
# built-in random provider and a command) on the program's monitor; a
# method goes through Call; outputs, dependencies and secrets cross the
# boundary; a rename with an alias and a new input replaces one child; a
# Construct that throws fails the update with the provider's message and
# leaves the state as it was; refresh and destroy work on the children; no
# plugin process is left.
. "$(dirname "$0")/lib.sh" "$@"
program consumer
run stack init dev
expect_rc 0 "stack init"

run up --yes
expect_rc 0 "up"
expect_out "+ 4 created" "up creates the stack, the component and its two children"
run stack output --json --show-secrets
expect_out '"message": "hello from pet"' "a method's answer (Call) comes back"
expect_out '"secretMessage": "psst from pet"' "a secret argument's answer"
expect_out '"note": "hush"' "a secret input comes back as the component's output"
run stack output --json
expect_out '"secretMessage": "[secret]"' "Call keeps a secret answer secret"
expect_out '"note": "[secret]"' "Construct keeps a secret output secret"
PET=$(echo "$OUT" | sed -n 's/.*"petName": "\(.*\)".*/\1/p')
expect_out "\"echoed\": \"$PET\"" "the command child echoes the pet child's name"
state_json
python3 - "$STATE" <<'PY' || fail "the state of the component and its children"
import json, sys
res = json.loads(sys.argv[1])["deployment"]["resources"]
by = {r["urn"].split("::")[-1]: r for r in res}
comp = by["pet"]
assert comp["type"] == "petcomp:index:Pet" and not comp.get("custom"), comp
assert comp["parent"].endswith("pulumi:pulumi:Stack::consumer-dev"), comp
for child in ("petchild", "echochild"):
    assert by[child]["parent"] == comp["urn"], by[child]
assert by["petchild"]["urn"] in by["echochild"]["dependencies"], by["echochild"]
assert by["default"]["type"].startswith("pulumi:providers:"), by["default"]
assert any(r["type"] == "pulumi:providers:petcomp" for r in res), res
PY

run up --yes
expect_rc 0 "a second up"
expect_out "4 unchanged" "a second up changes nothing"

run config set prefix b
run preview --diff
expect_rc 0 "preview --diff"
expect_out "+-random:index/randomPet:RandomPet: (replace)" "a new prefix replaces the pet child"
expect_out 'prefix: "a" => "b"' "preview --diff shows the child's changed input"

run config set name pet2
run config set oldName pet
run up --yes
expect_rc 0 "up after a rename with an alias"
expect_out "random:index:RandomPet petchild replaced" "the pet child is replaced"
expect_not_out "petcomp:index:Pet pet deleted" "the aliased component is not deleted"
state_json
case "$STATE" in *"petcomp:index:Pet::pet2"*) ;; *) fail "the component has its new name: $STATE" ;; esac
python3 - "$STATE" <<'PY' || fail "the old component is gone: $STATE"
import json, sys
res = json.loads(sys.argv[1])["deployment"]["resources"]
assert not [r for r in res if r["urn"].endswith("petcomp:index:Pet::pet")], res
PY
run stack output message
expect_out "hello from pet2" "the method sees the renamed component"

BEFORE=$STATE
PETCOMP_THROW=1 run up --yes
[ "$RC" -ne 0 ] || fail "a Construct that throws fails the update"
case "$OUT$ERR" in *"petcomp: the pet ran away"*) ;; *) fail "the provider's message is shown: $OUT $ERR" ;; esac
state_json
python3 - "$BEFORE" "$STATE" <<'PY' || fail "a failed Construct leaves the state as it was"
import json, sys
a, b = (sorted(r["urn"] for r in json.loads(s)["deployment"]["resources"]) for s in sys.argv[1:3])
assert a == b, (a, b)
PY

run refresh --yes
expect_rc 0 "refresh"

run destroy --yes
expect_rc 0 "destroy"
expect_out "- 4 deleted" "destroy deletes the stack, the component and its children"
# Children go before their component.
first_child=$(echo "$OUT" | grep -n "child deleted" | head -1 | cut -d: -f1)
comp=$(echo "$OUT" | grep -n "petcomp:index:Pet pet2 deleted" | cut -d: -f1)
[ -n "$first_child" ] && [ -n "$comp" ] && [ "$first_child" -lt "$comp" ] ||
  fail "the children are deleted before the component: $OUT"
no_orphans "after destroy"
finish
