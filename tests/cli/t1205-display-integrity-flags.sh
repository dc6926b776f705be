#!/bin/bash
# Issue 37: --show-reads (read steps shown in the display, hidden by
# default as Pulumi's display hides them), -e/--emoji (Pulumi's emoji in
# its messages) and --disable-integrity-checking (stack import takes a
# snapshot that fails the integrity check, as Pulumi skips it; an
# operation refuses such a snapshot without the flag).
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    properties:
      content: hello
outputs:
  aid: ${a.id}
YAML
run stack init dev
run up --yes
expect_rc 0 "up"
run stack output aid
AID=$OUT
cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    properties:
      content: hello
  seen:
    type: test:Resource
    get:
      id: $AID
outputs:
  got: \${seen.content}
YAML

# --show-reads: the read step of `seen` has a line; without it, none
run up --yes
expect_rc 0 "up with a read"
expect_out "got: \"hello\"" "the read's outputs"
case "$OUT" in *" seen "*) fail "a read shown without --show-reads: $OUT" ;; esac
run up --yes --show-reads
expect_rc 0 "up --show-reads"
echo "$OUT" | grep -Eq "test:index:Resource +seen +read" ||
  fail "the read shown with --show-reads: $OUT"
run preview --show-reads
echo "$OUT" | grep -Eq "test:index:Resource +seen +read" ||
  fail "preview --show-reads: $OUT"

# -e/--emoji: stack graph's line has Pulumi's magnifying glass
run stack graph "$T/g.dot"
expect_out "Wrote stack dependency graph to" "stack graph"
case "$OUT" in *$'\xf0\x9f\x94\x8d'*) fail "an emoji without -e: $OUT" ;; esac
run stack graph -e "$T/g.dot"
expect_out $'\xf0\x9f\x94\x8d Wrote stack dependency graph to' "stack graph -e"
run --emoji stack graph "$T/g.dot"
expect_out $'\xf0\x9f\x94\x8d Wrote' "--emoji before the command"

# --disable-integrity-checking: a snapshot whose resource names a parent
# it lacks is refused by stack import, and taken with the flag
export_state
python3 - "$T/export.json" "$T/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
res = d["deployment"]["resources"]
a = [r for r in res if r["urn"].endswith("::a")][0]
a["parent"] = "urn:pulumi:dev::proj::test:Resource::nowhere"
json.dump(d, open(sys.argv[2], "w"))
PY
run stack import --file "$T/bad.json"
expect_rc 1 "stack import of a bad snapshot"
expect_err "state file contains errors" "the integrity check"
run stack import --file "$T/bad.json" --disable-integrity-checking
expect_rc 0 "stack import --disable-integrity-checking"
export_state
grep -q "::nowhere" "$T/export.json" || fail "the snapshot imported as is"
# an operation refuses that snapshot as Pulumi does, unless told not to
# check it
run preview
expect_rc 1 "preview of a snapshot that fails the check"
expect_err "snapshot integrity failure; refusing to use it: " "Pulumi's words"
expect_err "nowhere" "what fails"
run up -y
expect_rc 1 "up of a snapshot that fails the check"
export_state
grep -q "::nowhere" "$T/export.json" || fail "the refused up left the snapshot as it was"
run preview --disable-integrity-checking
case "$ERR" in *"snapshot integrity failure"*) fail "checked with the flag: $ERR" ;; esac
finish
