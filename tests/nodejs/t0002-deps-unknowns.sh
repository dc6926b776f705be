#!/bin/bash
# Dependencies through outputs and dependsOn; a first preview shows the
# outputs that depend on resources as unknown.
. "$(dirname "$0")/lib.sh" "$@"
node_program deps
run stack init dev

run preview
expect_rc 0 "preview"
expect_out "firstResult: output<string>" "an output of a resource to create"
expect_out "secondId   : output<string>" "derived from an unknown"
expect_out 'known      : "plain"' "a known output"
expect_out "+ 4 to create" "the plan (the default provider is not counted)"

run up --yes --skip-preview
expect_rc 0 "up"
SECOND=$(echo "$OUT" | sed -n 's/.*secondId *: *"\(.*\)"/\1/p')
[ -n "$SECOND" ] || fail "no secondId output: $OUT"
expect_out "viaUrn     : \"$SECOND\"" "a resource read back by URN"
state_json
echo "$STATE" | python3 -c '
import json, sys
rs = {r["urn"].split("::")[-1]: r for r in json.load(sys.stdin)["deployment"]["resources"]}
first = rs["first"]["urn"]
second = rs["second"]
assert first in second["dependencies"], second
assert second["propertyDependencies"]["prefix"] == [first], second
assert rs["second"]["urn"] in rs["third"]["dependencies"], rs["third"]
assert rs["second"]["id"].startswith(rs["first"]["outputs"]["result"]), rs
' || fail "dependencies not recorded: $STATE"
run destroy --yes
expect_rc 0 "destroy"
finish
