#!/bin/bash
# A provider plugin written with @pulumi/pulumi/provider, found on PATH:
# create (with fn::invoke, a secret and logs), update through its own
# Diff, replace and delete-before-replace, refresh drift, destroy; the
# state and the plugin's world agree at each step, and no plugin process
# outlives a command.
. "$(dirname "$0")/lib.sh" "$@"

program() { # value-of-a key-of-a key-of-b
  cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
config:
  tok:
    type: string
variables:
  shout:
    fn::invoke:
      function: testprov:index:echo
      arguments:
        text: $1
      return: upper
resources:
  a:
    type: testprov:index:Item
    properties:
      value: \${shout}
      key: $2
  b:
    type: testprov:index:Item
    properties:
      value: bee
      key: $3
      dbr: true
      secret: \${tok}
outputs:
  len: \${a.length}
  sec: \${b.secret}
  seen: \${b.secretSeen}
YAML
}

program hello ka kb
run stack init dev
run config set --secret tok s3cr3t
expect_rc 0 "config set --secret"
run preview
expect_rc 0 "preview"
expect_out "+ 3 to create" "preview plans the stack and two items (the default provider is not counted)"
[ "$(world_count)" = 0 ] || fail "preview changed the world"
run up -y --skip-preview
expect_rc 0 "up creates"
expect_out "len : 5" "the output computed by the plugin (HELLO from the invoke)"
expect_out "sec : [secret]" "a secret input comes back as a secret output"
expect_out 'seen: "wrapped"' "the plugin (acceptSecrets) got the secret as a secret"
expect_out "testprov log: created a" "Engine.Log from the plugin is shown"
expect_out "testprov: creating " "the plugin's stderr is shown"
[ "$(world_count)" = 2 ] || fail "two items in the world: $(ls "$TESTPROV_STATE")"
grep -q HELLO "$TESTPROV_STATE"/a-*.json || fail "a's value is the invoke's answer"
grep -q s3cr3t "$TESTPROV_STATE"/b-*.json || fail "b holds the secret's value"
export_state
grep -q s3cr3t "$T/export.json" && fail "the secret is in plain text in the state"
no_orphans "after up"

# update through the plugin's Diff: the value changes, the id stays
ida=$(ls "$TESTPROV_STATE" | grep '^a-')
program bye ka kb
run up -y --skip-preview
expect_rc 0 "up updates"
expect_out "~ 1 updated" "one update"
[ -f "$TESTPROV_STATE/$ida" ] || fail "the update kept a's id"
grep -q BYE "$TESTPROV_STATE/$ida" || fail "a was updated in place"

# replace (create before delete) and delete-before-replace
program bye ka2 kb2
run up -y --skip-preview
expect_rc 0 "up replaces"
expect_out "+-2 replaced" "both items replaced"
[ -f "$TESTPROV_STATE/$ida" ] && fail "the old a was deleted"
[ "$(world_count)" = 2 ] || fail "two items after the replace"
[ -f "$TESTPROV_STATE/by-key-ka" ] && fail "the old key of a was released"
[ -f "$TESTPROV_STATE/by-key-kb2" ] || fail "b has its new key"

# drift behind the engine's back: refresh records it, up puts it back
fa=$(ls "$TESTPROV_STATE"/a-*.json)
python3 -c "import json;d=json.load(open('$fa'));d['value']='drifted';json.dump(d,open('$fa','w'))"
run refresh -y --skip-preview
expect_rc 0 "refresh"
expect_out "~ 1 updated" "refresh sees a's drift"
export_state
grep -q drifted "$T/export.json" || fail "the drift is in the state"
run up -y --skip-preview
expect_rc 0 "up after drift"
expect_out "~ 1 updated" "up puts a back"
grep -q BYE "$fa" || fail "a is back to the program's value"
run up -y --skip-preview
expect_out "3 unchanged" "then nothing changes"

run destroy -y --skip-preview
expect_rc 0 "destroy"
[ "$(world_count)" = 0 ] || fail "destroy deleted the items: $(ls "$TESTPROV_STATE")"
no_orphans "after destroy"
finish
