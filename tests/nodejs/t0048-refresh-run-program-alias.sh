#!/bin/bash
# refresh --run-program with a component registered under an alias of its
# recorded URN (Pulumi's step_generator.go generateSteps finds the old
# state through the aliases for every registration, then
# continueStepsFromRefresh lets a component flow on to its ordinary step:
# the component is recorded under its new URN, the old one is gone, no new
# component is created, and its custom child, aliased through its parent,
# is refreshed under its new URN).
. "$(dirname "$0")/lib.sh" "$@"
node_program refreshprog
run stack init dev
REFRESHPROG_VERSION=1 run up --yes --skip-preview
expect_rc 0 "up"
state_json
BEFORE=$STATE

REFRESHPROG_VERSION=3 run refresh --run-program --yes --skip-preview
expect_rc 0 "refresh --run-program"
expect_not_out "+ 1 created" "the renamed component is not created anew"
state_json
echo "$STATE" | python3 -c '
import json, sys
before = json.loads(sys.argv[1])["deployment"]["resources"]
res = json.load(sys.stdin)["deployment"]["resources"]
names = sorted(r["urn"].split("::")[-1] for r in res)
assert "first" not in names, "the recorded component is kept beside the renamed one: %s" % names
assert "renamed" in names, "the renamed component is not recorded: %s" % names
assert "first-word" not in names and "renamed-word" in names, names
old_word = [r for r in before if r["urn"].endswith("::first-word")][0]
word = [r for r in res if r["urn"].endswith("::renamed-word")][0]
assert word["id"] == old_word["id"], "the pet was replaced"
box = [r for r in res if r["urn"].endswith("::renamed")][0]
assert word["parent"] == box["urn"], (word["parent"], box["urn"])
assert box["outputs"].get("label") == "v3", box
' "$BEFORE" || fail "refresh --run-program did not follow the component's alias"

REFRESHPROG_VERSION=3 run preview
expect_rc 0 "preview after the refresh"
expect_not_out "create" "nothing left to create"
expect_not_out "delete" "nothing left to delete"
finish
