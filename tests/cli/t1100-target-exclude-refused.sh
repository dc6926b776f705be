#!/bin/bash
# --target together with --exclude is refused by up, preview, refresh and
# destroy before anything runs, with Pulumi's flag-group error (its flags
# `target` and `exclude` are mutually exclusive; the error is unclassified:
# exit 1). --target or --exclude alone, and --target-dependents or
# --target-replace next to --exclude, are not that flag pair and run.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
  b:
    type: test:Resource
YAML
U=urn:pulumi:dev::proj::test:index:Resource
MSG="error: if any flags in the group [target exclude] are set none of the others can be; [exclude target] were all set"
run stack init dev
run up -y
expect_rc 0 "first up"
export_state
cp "$T/export.json" "$T/before.json"
rm -f "$MINIPULUMI_TEST_WORLD/calls.jsonl"

for c in "up -y" "preview" "refresh -y" "destroy -y"; do
  # shellcheck disable=SC2086
  run $c -t "$U::a" -x "$U::b"
  expect_rc 1 "$c -t -x"
  expect_err "$MSG" "$c -t -x"
  # shellcheck disable=SC2086
  run $c --exclude "$U::b" --target "$U::a" --json
  expect_rc 1 "$c --exclude --target"
  expect_err "$MSG" "$c --exclude --target"
  [ -z "$OUT" ] || fail "$c: refused runs print no events: $OUT"
done
[ ! -s "$MINIPULUMI_TEST_WORLD/calls.jsonl" ] ||
  fail "refused runs called the provider: $(cat "$MINIPULUMI_TEST_WORLD/calls.jsonl")"
export_state
cmp -s "$T/before.json" "$T/export.json" || check "refused runs changed the state" '
import json
a, b = (json.load(open(T + f))["deployment"] for f in ("/before.json", "/export.json"))
for d in (a, b):
    d["manifest"].pop("time")  # the time of the export, not of the state
assert a == b
'
run stack history --json
check "no update recorded" '
h = doc()
assert len(h) == 1, h
'

# Not the refused pair.
run preview -x "$U::b" --target-dependents
expect_rc 0 "preview -x --target-dependents"
run preview -x "$U::b" --target-replace "$U::a"
expect_rc 0 "preview -x --target-replace"
run preview -t "$U::a"
expect_rc 0 "preview -t"
finish
