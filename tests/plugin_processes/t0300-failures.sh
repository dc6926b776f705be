#!/bin/bash
# Plugins that fail: one that exits at once (its stderr in the error), one
# killed during Create, one that never answers (past the call deadline),
# one that answers garbage, and a partial failure (ErrorResourceInitFailed
# recorded with its init errors, as Pulumi records it). Each error names
# the plugin, the state stays intact, no plugin process is left, and the
# next up converges.
. "$(dirname "$0")/lib.sh" "$@"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: testprov:index:Item
    properties:
      value: aaa
  b:
    type: testprov:index:Item
    properties:
      value: bbb
YAML
run stack init dev
PLUGIN=pulumi-resource-testprov

converges() { # description
  run up -y --skip-preview
  expect_rc 0 "$1: the next up"
  export_state
  # a and b are in the state, each with its item in the world (an item
  # whose Create answer the crash lost may be there too, as in Pulumi)
  python3 - "$T/export.json" "$TESTPROV_STATE" <<'PY' || fail "$1: state and world"
import json, os, sys
d = json.load(open(sys.argv[1]))
rs = {r["urn"].split("::")[-1]: r for r in d["deployment"]["resources"]}
for n in ("a", "b"):
    assert os.path.exists(os.path.join(sys.argv[2], rs[n]["id"] + ".json")), n
PY
  run up -y --skip-preview
  expect_out "3 unchanged" "$1: then nothing to do"
  no_orphans "$1"
}

TESTPROV_START=exit run up -y --skip-preview
expect_rc 1 "a plugin that exits at once"
expect_out "could not read plugin [$PLUGINS_DIR/bin/$PLUGIN]" "the error names the plugin"
expect_out "exited with status 3" "... says how it ended"
expect_out "testprov: told to exit at once" "... and shows its stderr"
no_orphans "exit at once"
converges "after a plugin that exits at once"

run destroy -y --skip-preview
TESTPROV_CRASH=a run up -y --skip-preview
expect_rc 4 "a plugin killed during Create"
expect_out "'/pulumirpc.ResourceProvider/Create' on '$PLUGIN'" "the error names the call and the plugin"
expect_out "killed by signal 9" "... and how it ended"
export_state
grep -q '::a"' "$T/export.json" && fail "a is not in the state after the crash"
no_orphans "killed during Create"
converges "after a plugin killed during Create"

run destroy -y --skip-preview
TESTPROV_HANG=a MINIPULUMI_PLUGIN_TIMEOUT=3 run up -y --skip-preview
expect_rc 4 "a plugin that never answers"
expect_out "'/pulumirpc.ResourceProvider/Create' on '$PLUGIN'" "the error names the plugin"
expect_out "no reply within 3000 ms" "... and the deadline"
no_orphans "never answers"
converges "after a plugin that never answered"

run destroy -y --skip-preview
TESTPROV_INITFAIL=b run up -y --skip-preview
expect_rc 4 "a resource that failed to initialise"
expect_out "b did not become ready" "the plugin's message"
export_state
python3 - "$T/export.json" <<'PY' || fail "b is kept with its init errors"
import json, sys
d = json.load(open(sys.argv[1]))
rs = {r["urn"].split("::")[-1]: r for r in d["deployment"]["resources"]}
assert rs["b"]["id"].startswith("b-"), rs["b"]
assert rs["b"]["initErrors"] == ["health check failed"], rs["b"]
PY
run up -y --skip-preview
expect_rc 0 "the next up"
expect_out "~ 1 updated" "b, which failed to initialise, is updated"
export_state
grep -q initErrors "$T/export.json" && fail "the init errors are gone after the update"

# garbage: a plugin whose answers are not protobuf
cat >> Pulumi.yaml <<'YAML'
  g:
    type: garbage:index:Thing
    properties: {}
YAML
run up -y --skip-preview
expect_rc 1 "a plugin that answers garbage"
expect_out "plugin 'pulumi-resource-garbage' answered Handshake with bytes that are not a pulumirpc.ProviderHandshakeResponse message" "the error names the plugin"
export_state
grep -q '::a"' "$T/export.json" || fail "the state is intact after garbage"
no_orphans "garbage"
finish
