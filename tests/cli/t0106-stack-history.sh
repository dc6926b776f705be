#!/bin/bash
# stack history: empty at first; Pulumi's text (Version, UpdateKind,
# Status, Message, "+C-D~U S Updated <when> took <duration>"), relative
# or --full-dates, newest first, --page-size/--page; the JSON shape.
. "$(dirname "$0")/lib.sh" "$@"

run stack init dev
run stack history
expect_rc 0 "history"
expect_out "Stack has never been updated" "empty history"
run stack history --json
expect_rc 0 "history --json"
[ "$OUT" = "[]" ] || fail "empty json history: $OUT"
run stack history -s nope
expect_rc 6 "history of an unknown stack"

cat >Pulumi.yaml <<'Y'
name: proj
runtime: yaml
resources:
  pet:
    type: random:RandomPet
Y
run up --yes -m "first one"
expect_rc 0 "up"
run up --yes
run stack history
expect_rc 0 "history after two updates"
check "Pulumi's layout, newest first" '
import re
blocks = out.strip().split("\n\n")
assert len(blocks) == 2, blocks
b2, b1 = [b.split("\n") for b in blocks]
assert b2[:4] == ["Version: 2", "UpdateKind: update", "Status: succeeded", "Message: "], b2
assert b1[:4] == ["Version: 1", "UpdateKind: update", "Status: succeeded", "Message: first one"], b1
assert re.fullmatch(r"\+2-0~0 0 Updated (now|[0-9]+ seconds? ago) took [0-9]+s", b1[4]), b1[4]
assert re.fullmatch(r"\+0-0~0 [0-9]+ Updated (now|[0-9]+ seconds? ago) took [0-9]+s", b2[4]), b2[4]
'
run stack history --full-dates --page-size 1 --page 2
check "--full-dates, one page of one" '
import re
lines = out.strip().split("\n")
assert lines[0] == "Version: 1", lines
assert re.fullmatch(r"\+2-0~0 0 Updated \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4} \w+ took \d+s", lines[4]), lines[4]
'
run stack history --page 3 --page-size 1
expect_out "No stack updates found on page '3'" "past the last page"
run stack history --json --page-size 1
check "JSON: one page" 'h = doc(); assert len(h) == 1 and h[0]["version"] == 2, h'
finish
