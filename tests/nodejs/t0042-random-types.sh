#!/bin/bash
# The built-in `random` provider serves every resource type of the
# installed @pulumi/random (4.21): the program walks the package's exports
# and creates one of each (RandomShuffle, RandomUuid4 and RandomUuid7
# among them), as pulumi-random would.
. "$(dirname "$0")/lib.sh" "$@"
node_program randomall
run stack init dev
run up --yes
expect_rc 0 "up of every random type"
expect_not_out "unknown resource type" "no type is refused"
run stack output --json
echo "$OUT" | python3 -c '
import json, re, sys
o = json.load(sys.stdin)
assert len(o["types"]) >= 10, o["types"]
s = o["shuffled"]
assert len(s) == 2 and len(set(s)) == 2 and set(s) <= {"a", "b", "c"}, s
hexre = "[0-9a-f]{8}-[0-9a-f]{4}-%s[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"
assert re.fullmatch(hexre % "4", o["uuid4"]), o["uuid4"]
assert re.fullmatch(hexre % "7", o["uuid7"]), o["uuid7"]
' || fail "the random types answered wrongly: $OUT"
run preview
expect_rc 0 "preview"
expect_out "unchanged" "a second look changes nothing"
expect_not_out "to create" "nothing to create"
run destroy --yes
expect_rc 0 "destroy"
finish
