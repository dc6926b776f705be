#!/bin/bash
# A Node.js program's `import` option and refresh drift (issue 50, rules 10
# and 12; tests/conformance/scenarios/X65, X66). Import: what follows the
# Read is the provider's Check and Diff of the imported state (Pulumi's
# continueStepsFromImport): an update when the program's inputs differ,
# nothing when they match, and the "previously-imported resources" error
# when the program would replace it (a warning in preview). Refresh: the
# provider's Diff of what was read decides the result, so drift that
# shows only in a dynamic provider's outputs is `~ updated [diff: ...]`,
# an update in the summary and in the --json events.
. "$(dirname "$0")/lib.sh" "$@"
node_program drift
use_test_world
export LIVE="$T/live.json"
echo '{"box": "v1"}' >"$LIVE"
echo '{"v": "live"}' >"$MINIPULUMI_TEST_WORLD/imp-1.json"
echo '{"v": "live", "__replaceKeys": ["v"]}' >"$MINIPULUMI_TEST_WORLD/imp-2.json"
run stack init dev

run up --yes --skip-preview
expect_rc 0 "first up"

# ---- refresh: drift in the outputs only ----
run refresh --yes
expect_rc 0 "refresh without drift"
expect_not_out "updated" "nothing drifted"

echo '{"box": "v2"}' >"$LIVE"
run refresh --yes --skip-preview
expect_rc 0 "refresh with output drift"
expect_out "updated" "the box's output drift is an update"
expect_out "~ 1 updated" "counted as an update in the summary"
state_json
case "$STATE" in *'"val": "v2"'*) ;; *) fail "the read's outputs are not kept: $STATE" ;; esac

echo '{"box": "v3"}' >"$LIVE"
run refresh --yes --skip-preview --json
expect_rc 0 "refresh --json"
check "the --json events say update, with the changed key" '
ev = events()
o = [e["resOutputsEvent"]["metadata"] for e in ev if "resOutputsEvent" in e]
box = [m for m in o if name(m["urn"]) == "box"]
assert box and box[-1]["op"] == "update", box
s = [e["summaryEvent"] for e in ev if "summaryEvent" in e][0]
assert s["resourceChanges"].get("update") == 1, s
'

# ---- import ----
: >"$MINIPULUMI_TEST_WORLD/calls.jsonl"
IMPORT=differ run preview
expect_rc 0 "preview of an import whose inputs differ"
expect_not_out "inputs to import do not match" "no mismatch warning"
expect_out "import" "the import is planned"

IMPORT=differ run up --yes --skip-preview --json
expect_rc 0 "import whose inputs differ"
check "an import, then an update to the program's inputs" '
assert [s for s in steps(events()) if s[1] == "imp"] == [("import", "imp"), ("update", "imp")], steps(events())
assert ("read", "imp") in calls() and ("update", "imp") in calls(), calls()
'
export_state
check "the state holds the program's inputs and the import id" '
r = res()["imp"]
assert r["inputs"] == {"v": "mine"}, r
assert r["importID"] == "imp-1" and r["id"] == "imp-1", r
'

IMPORT=differ run up --yes --skip-preview
expect_rc 0 "the same program again"
expect_not_out "importing" "not imported again"

run destroy --yes
expect_rc 0 "destroy"
echo '{"v": "live"}' >"$MINIPULUMI_TEST_WORLD/imp-1.json"
: >"$MINIPULUMI_TEST_WORLD/calls.jsonl"
IMPORT=match run up --yes --skip-preview --json
expect_rc 0 "import whose inputs match"
check "only an import" '
assert [s for s in steps(events()) if s[1] == "imp"] == [("import", "imp")], steps(events())
assert ("update", "imp") not in calls(), calls()
'

MSG="previously-imported resources that still specify an ID may not be replaced"
IMPORT=replace run preview
expect_rc 0 "preview of an import the program would replace"
expect_out "warning: $MSG" "a warning in preview"
expect_out "v: {live} => {other}" "the replace key"

IMPORT=replace run up --yes --skip-preview
[ "$RC" != 0 ] || fail "an import the program would replace did not fail: $OUT"
expect_out "error: $MSG" "an error in up"
export_state
check "the import is recorded, with what was read" '
r = res()["rep"]
assert r["inputs"] == {"v": "live", "__replaceKeys": ["v"]}, r
assert r["importID"] == "imp-2", r
'
finish
