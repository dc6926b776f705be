#!/bin/bash
# A component with children and registered outputs, stack outputs (one
# secret: encrypted in the store, [secret] on screen), config and secret
# config, the program's console output; then refresh and destroy.
. "$(dirname "$0")/lib.sh" "$@"
node_program components
run stack init dev
run config set greeting hello
run config set --secret token s3cr3t
expect_rc 0 "config set --secret"

run up --yes
expect_rc 0 "up"
expect_out "program says hello" "console.log shown as a diagnostic"
expect_out "test:index:Pair" "the component"
expect_out "random:index:RandomString left" "a child (short type name)"
expect_out "secretToken: [secret]" "secret output hidden"
expect_out "tokenLength: 6" "secret config reached the program"
expect_out 'greeting   : "hello"' "plain config"
expect_out "+ 4 created" "stack, component, two children (the default provider is not counted)"
expect_not_out "s3cr3t" "secret never shown"

state_json
case "$STATE" in *s3cr3t*) fail "the secret output is stored in plain text" ;; esac
case "$STATE" in *'"ciphertext"'*) ;; *) fail "no ciphertext in the state: $STATE" ;; esac
case "$STATE" in *'Pair$random:index/randomPet:RandomPet::right'*) ;;
  *) fail "child URN not under the component: $STATE" ;; esac
# The component's registered outputs are kept.
echo "$STATE" | python3 -c '
import json, sys
d = json.load(sys.stdin)["deployment"]["resources"]
pair = [r for r in d if r["type"] == "test:index:Pair"][0]
assert "+" in pair["outputs"]["joined"], pair
' || fail "component outputs not recorded"

run stack output secretToken
expect_out "[secret]" "stack output hides the secret"
run stack output --show-secrets secretToken
expect_out "s3cr3t" "stack output --show-secrets"

run preview
expect_rc 0 "preview"
expect_out "4 unchanged" "nothing changes"
run up --yes
expect_rc 0 "second up"
expect_out "4 unchanged" "no-op up"

run refresh --yes
expect_rc 0 "refresh"
run destroy --yes
expect_rc 0 "destroy"
expect_out "4 deleted" "destroy deletes all"
finish
