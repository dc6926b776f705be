#!/bin/bash
# The options the resource monitor carries from a Node.js program (issue
# 12): resource references as inputs, retainOnDelete, deletedWith,
# replaceOnChanges, import and custom timeouts, on the built-in `test`
# provider (whose calls are logged) and @pulumi/command.
. "$(dirname "$0")/lib.sh" "$@"
node_program moreopts
use_test_world
run stack init dev

run up --yes
expect_rc 0 "up"
expect_out "+ 7 created" "first up"
state_json
check "a resource used as an input is stored as a reference" '
d = json.loads(out)["deployment"]["resources"]
by = {name(r["urn"]): r for r in d}
t = by["user"]["inputs"]["target"]
assert t["4dabf18193072939515e22adb298388d"] == "5cf8f73096256a8f31e491e813e4eb8e", t
assert name(t["urn"]) == "pet" and t["id"] == by["pet"]["id"], t
'
# The SDK cannot rebuild a test:index:Resource, so it reads the ID.
run stack output --json
check "the program reads the reference back as the ID" '
o = json.loads(out)
assert o["userTarget"] == o["petId"] and o["petId"], o
'

: >"$MINIPULUMI_TEST_WORLD/calls.jsonl"
echo '{"v": "i"}' >"$MINIPULUMI_TEST_WORLD/ext-1.json"
STEP=2 run up --yes
expect_rc 0 "second up"
expect_out "= 1 imported" "import"
expect_out "+-1 replaced" "replaceOnChanges replaces"
check "retained and deletedWith resources are not deleted by the provider" '
c = calls()
assert ("delete", "owner") in c, c
assert ("delete", "kept") not in c, c
assert ("delete", "owned") not in c, c
assert ("read", "imp") in c, c
assert ("create", "roc") in c and ("delete", "roc") in c, c
'
state_json
check "the dropped resources left the state; the import is recorded" '
d = json.loads(out)["deployment"]["resources"]
by = {name(r["urn"]): r for r in d}
assert "kept" not in by and "owned" not in by and "owner" not in by, sorted(by)
assert by["imp"]["id"] == "ext-1" and by["imp"].get("importID") == "ext-1", by["imp"]
'
ls "$MINIPULUMI_TEST_WORLD" >"$T/world.txt"
kept=$(grep -c . "$T/world.txt")
[ "$kept" -ge 7 ] || fail "the retained object was removed from the world: $(cat "$T/world.txt")"

STEP=3 run up --yes
[ "$RC" != 0 ] || fail "a command past its custom create timeout succeeded"
expect_out "timed out" "the custom timeout reached the provider"

run destroy --yes
expect_rc 0 "destroy"
finish
