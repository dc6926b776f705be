#!/bin/bash
# The replacementTrigger resource option (step_generator.go
# shouldTriggerReplace): the state keeps the trigger; a value that differs
# from the stored one replaces without asking the provider's Diff and with
# no diff keys; the same value, a first trigger or a trigger taken away
# does not; secretness alone is no change; an unknown one replaces in a
# preview.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world

# program OPTIONS [EXTRA]: r with OPTIONS (YAML under `options:`), and
# `plain` with none; EXTRA is more resources.
program() {
  cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
resources:
  r:
    type: test:Resource
    properties:
      n: 1
    options:
      protect: false
${1:-}
  plain:
    type: test:Resource
    properties:
      n: 1
${2:-}
YAML
}
ops_of() { # the ops of r in the last run's events, as a python list literal
  echo "[op for op, n in steps(events()) if n == 'r']"
}

program "      replacementTrigger: one"
run stack init dev
run up -y --json
expect_rc 0 "up with a trigger"
export_state
check "the state keeps the trigger; a resource without one has none" "
assert res()['r']['replacementTrigger'] == 'one', res()['r']
assert 'replacementTrigger' not in res()['plain'], res()['plain']
"
id1=$(python3 -c "import json;print([r['id'] for r in json.load(open('$T/export.json'))['deployment']['resources'] if r['urn'].endswith('::r')][0])")

: > "$T/world/calls.jsonl"
run up -y --json
expect_rc 0 "up with the same trigger"
check "the same trigger is no change" "assert $(ops_of) == ['same'], $(ops_of)"

program "      replacementTrigger: two"
: > "$T/world/calls.jsonl"
run up -y --json
expect_rc 0 "up with a changed trigger"
check "a changed trigger replaces, with no diff keys and no Diff call" "
ops = $(ops_of)
assert ops == ['create-replacement', 'replace', 'delete-replaced'], ops
for e in events():
    md = e.get('resourcePreEvent', {}).get('metadata', {})
    if md.get('urn', '').endswith('::r'):
        assert not md.get('keys') and not md.get('diffs'), md
assert ('diff', 'r') not in calls(), calls()
assert [n for op, n in steps(events()) if op != 'same'] == ['r'] * 3
"
export_state
check "the state has the new trigger and a new id" "
assert res()['r']['replacementTrigger'] == 'two', res()['r']
assert res()['r']['id'] != '$id1', res()['r']
"

program ""
run up -y --json
expect_rc 0 "up with the trigger taken away"
check "a trigger taken away is no change" "assert $(ops_of) == ['same'], $(ops_of)"
export_state
check "and the state has none" "assert 'replacementTrigger' not in res()['r'], res()['r']"

program "      replacementTrigger: three"
run up -y --json
expect_rc 0 "up with a trigger given again"
check "a first trigger is no change" "assert $(ops_of) == ['same'], $(ops_of)"

program "      replacementTrigger:
        fn::secret: three"
run up -y --json
expect_rc 0 "up with the same trigger made secret"
check "secretness alone is no change" "assert $(ops_of) == ['same'], $(ops_of)"
export_state
check "the secret trigger is stored encrypted" "
t = res()['r']['replacementTrigger']
assert t['4dabf18193072939515e22adb298388d'] == '1b47061264138c4ac30d75fd1eb44270', t
assert 'ciphertext' in t and 'three' not in json.dumps(t), t
"

# A trigger from a resource created in the same deployment is unknown in
# the preview: a replace.
program "      replacementTrigger: \${fresh.id}" "  fresh:
    type: test:Resource
    properties:
      n: 2"
run preview --json
expect_rc 0 "preview with an unknown trigger"
check "an unknown trigger replaces in the preview" "
ops = [s['op'] for s in doc()['steps'] if name(s['urn']) == 'r']
assert 'replace' in ops, ops
"
finish
