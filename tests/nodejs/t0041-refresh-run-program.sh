#!/bin/bash
# refresh --run-program with components (Pulumi's step_generator.go
# continueStepsFromRefresh in refreshMode: a component flows on to its
# ordinary step, so a new one is created and a changed one updated with
# the outputs it registers; a custom resource the state lacks is a skipped
# create, never created).
. "$(dirname "$0")/lib.sh" "$@"
node_program refreshprog
run stack init dev
REFRESHPROG_VERSION=1 run up --yes --skip-preview
expect_rc 0 "up"
state_json
BEFORE=$STATE

export REFRESHPROG_VERSION=2
export REFRESHPROG_RUNS="$T/runs.txt"
run refresh --run-program --yes --skip-preview
expect_rc 0 "refresh --run-program"
# Pulumi runs the program once, as the refresh (pkg/engine/refresh.go
# RefreshV2: the update source with the refresh's own DryRun), so its side
# effects happen once and it is told this is not a preview.
runs=$(cat "$REFRESHPROG_RUNS")
[ "$runs" = "v2 dryRun=false" ] || fail "the program's runs were: $runs (want one, not a preview)"
unset REFRESHPROG_RUNS
expect_out "test:index:Box" "the components are shown"
# Pulumi runs the program once: its log message is shown once.
n=$(printf '%s\n' "$OUT" | grep -c "refreshprog ran v2" || true)
[ "$n" = 1 ] || fail "the program's log message was shown $n times, not once"
state_json
echo "$STATE" | python3 -c '
import json, sys
before = json.loads(sys.argv[1])["deployment"]["resources"]
res = json.load(sys.stdin)["deployment"]["resources"]
by = {r["urn"].split("::")[-1]: r for r in res}
assert "second" in by, "the new component is not recorded: %s" % sorted(by)
assert by["second"]["outputs"] == {"label": "new"} or by["second"]["outputs"].get("label") == "new", by["second"]
assert "second-word" not in by, "the refresh created a custom resource"
assert by["first"]["outputs"]["label"] == "v2", by["first"]
assert by["first"]["inputs"]["label"] == "v2", by["first"]
old_word = [r for r in before if r["urn"].endswith("::first-word")][0]
assert by["first-word"]["id"] == old_word["id"], "the pet was replaced"
urns = [r["urn"] for r in res]
assert urns.index(by["first"]["urn"]) < urns.index(by["first-word"]["urn"]), urns
st = [r for r in res if r["type"] == "pulumi:pulumi:Stack"][0]
assert st["outputs"].get("secondLabel") == "new", st
' "$BEFORE" || fail "refresh --run-program did not record what the program registered"

run up --yes
expect_rc 0 "up after the refresh"
expect_out "+ 1 created" "only the second component's child is created"
finish
