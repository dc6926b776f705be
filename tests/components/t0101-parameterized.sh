#!/usr/bin/env bash
# A parameterized package: the plugin paramprov (provider/paramprov.js)
# parameterized into the package `veggies` by a Node.js program's
# RegisterPackage (programs/veggies). The engine sends Parameterize to the
# plugin before its first use, the package's resources and functions are
# served by it, and its default provider records the parameterization in
# the state as Pulumi does (`version` the package's; the plugin's name and
# version and the value in base64 under `__internal`). refresh and destroy
# load the provider again from the state alone.
. "$(dirname "$0")/lib.sh" "$@"
program veggies
run stack init dev
expect_rc 0 "stack init"

run up --yes
expect_rc 0 "up"
expect_out "+ 2 created" "up creates the stack and the resource (its default provider is not counted)"
run stack output --json
expect_out '"servedBy": "veggies@2.0.0: carrots"' "the resource is served by the parameterized plugin"
expect_out '"asked": "leaf"' "the package's function answers"
state_json
python3 - "$STATE" <<'PY' || fail "the state records the parameterization as Pulumi does"
import base64, json, sys
res = json.loads(sys.argv[1])["deployment"]["resources"]
by = {r["urn"].split("::")[-1]: r for r in res}
prov = by["default_2_0_0"]
assert prov["type"] == "pulumi:providers:veggies", prov
internal = prov["inputs"]["__internal"]
assert prov["inputs"]["version"] == "2.0.0", prov
assert internal["name"] == "paramprov" and internal["version"] == "1.0.0", internal
assert base64.b64decode(internal["parameterization"]) == b"carrots", internal
assert "__internal" not in prov.get("outputs", {}), prov
veg = by["veg"]
assert veg["type"] == "veggies:index:Veggie", veg
assert veg["provider"].startswith(prov["urn"] + "::"), veg
assert veg["outputs"]["servedBy"] == "veggies@2.0.0: carrots", veg
PY

run up --yes
expect_rc 0 "a second up"
expect_out "2 unchanged" "a second up changes nothing"

run config set kind stem
run preview --diff
expect_rc 0 "preview --diff"
expect_out "+-veggies:index:Veggie: (replace)" "a new kind replaces the resource"

run refresh --yes
expect_rc 0 "refresh (the provider loaded from the state, parameterized again)"

run destroy --yes
expect_rc 0 "destroy"
expect_out "- 2 deleted" "destroy deletes the resource and the stack"
no_orphans "after destroy"
finish
