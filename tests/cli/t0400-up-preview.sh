#!/bin/bash
# preview and up end to end on a Pulumi YAML program with the built-in
# random provider: the display, stack outputs, --expect-no-changes (7),
# --diff, preview --json and up --json / --event-log.
. "$(dirname "$0")/lib.sh" "$@"
export PULUMI_CONFIG_PASSPHRASE=pp
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
config:
  len:
    type: integer
    default: 2
resources:
  pet:
    type: random:RandomPet
    properties:
      length: ${len}
  pw:
    type: random:RandomPassword
    properties:
      length: 12
outputs:
  petName: ${pet.id}
  secretPw: ${pw.result}
YAML

run stack init dev
run preview
expect_rc 0 "preview"
expect_out "Previewing update (dev)" "preview header"
expect_out " +  pulumi:pulumi:Stack proj-dev create" "stack row"
expect_out "random:index:RandomPet pet create" "resource row"
expect_out "Resources:" "summary"
expect_out "    + 3 to create" "summary counts"
expect_not_out "Duration:" "no duration in a preview"
run preview --expect-no-changes
expect_rc 7 "preview --expect-no-changes with changes"

run up --yes -m "first"
expect_rc 0 "up"
expect_out "Updating (dev)" "update header"
expect_out "pet created" "created status"
expect_out "    + 3 created" "summary"
expect_out "Outputs:" "outputs"
expect_out "secretPw: [secret]" "secret output masked"
expect_out "Duration: " "duration"
run stack output petName
expect_rc 0 "stack output after up"
[ -n "$OUT" ] || fail "pet name output"
pet=$OUT
run stack history --json
expect_out '"kind": "update"' "history kind"
expect_out '"result": "succeeded"' "history result"
expect_out '"message": "first"' "history message"
expect_out '"create": 3' "history counts"

run preview --expect-no-changes
expect_rc 0 "no changes"
expect_out "3 unchanged" "unchanged summary"
run up --yes --expect-no-changes
expect_rc 0 "up with no changes"

run preview --diff -c len=3
expect_rc 0 "preview --diff with -c"
expect_not_out " +- random:index:RandomPet pet replace" "--diff prints blocks, not progress rows"
expect_out "  pulumi:pulumi:Stack: (same)
    [urn=urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev]
    +-random:index/randomPet:RandomPet: (replace)" "Pulumi's diff blocks"
expect_out "        [urn=urn:pulumi:dev::proj::random:index/randomPet:RandomPet::pet]" "the urn line"
expect_out "~ length: " "diff detail"
expect_out "+-1 to replace" "replace summary"
expect_file Pulumi.dev.yaml "proj:len: \"3\"" "-c saved the config"

run preview --json
expect_rc 0 "preview --json"
expect_out '"steps": [' "digest steps"
expect_out '"op": "replace"' "digest op"
expect_out '"replaceReasons": [' "digest reasons"
expect_out '"changeSummary": {' "digest summary"
expect_out '"proj:len": "3"' "digest config"
expect_not_out "Previewing" "no display in JSON mode"

run up --yes --json --event-log "$T/events.jsonl" --expect-no-changes
expect_rc 7 "up --expect-no-changes after a change"
echo "$OUT" | head -1 | grep -q '^{"sequence":1,"timestamp":[0-9]*,"preludeEvent":{"config":' ||
  fail "first JSON event: $(echo "$OUT" | head -1)"
expect_out '"resourcePreEvent":{"metadata":{"op":"replace"' "resourcePreEvent"
expect_out '"resOutputsEvent"' "resOutputsEvent"
expect_out '"summaryEvent":{"maybeCorrupt":false' "summaryEvent"
expect_out '"secretPw":"[secret]"' "secrets masked in events"
[ "$(grep -c '"sequence"' "$T/events.jsonl")" -gt 5 ] || fail "event log written"
run stack output petName
[ "$OUT" != "$pet" ] || fail "the pet was replaced"
run stack output --show-secrets secretPw
[ "${#OUT}" = 12 ] || fail "secret output shown: $OUT"
finish
