#!/bin/bash
# Ctrl-C reaches a plugin as Cancel: a Create that hangs until its plugin
# is cancelled ends after one Ctrl-C; the update is cancelled (exit 8), no
# plugin process is left, and the next up converges.
. "$(dirname "$0")/lib.sh" "$@"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: testprov:index:Item
    properties:
      value: aaa
YAML
run stack init dev
TESTPROV_HANG=a start_bg up -y --skip-preview
for ((i = 0; i < 600; i++)); do
  [ -f "$TESTPROV_STATE/hanging-a" ] && break
  sleep 0.05
done
[ -f "$TESTPROV_STATE/hanging-a" ] || fail "the Create of a did not start"
kill -INT "$BG"
wait_bg
expect_rc 8 "up after one Ctrl-C"
[ -f "$TESTPROV_STATE/cancelled" ] || fail "the plugin got Cancel"
expect_out "cancelled by the engine" "the Create failed as the plugin said"
no_orphans "after Ctrl-C"
run up -y --skip-preview
expect_rc 0 "the next up"
expect_out "+ 1 created" "creates a"
finish
