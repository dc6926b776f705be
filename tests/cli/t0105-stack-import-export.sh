#!/bin/bash
# stack import/export: round trip, pending operations dropped with a
# warning, other stacks and broken states refused unless --force, secrets.
. "$(dirname "$0")/lib.sh" "$@"
export PULUMI_CONFIG_PASSPHRASE=pass-phrase

SIG='"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270"'
STACK_URN='urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev'
cat > good.json <<JSON
{"version": 3, "deployment": {
  "manifest": {"time": "2025-01-02T03:04:05Z", "magic": "", "version": ""},
  "resources": [
    {"urn": "$STACK_URN", "custom": false, "type": "pulumi:pulumi:Stack",
     "outputs": {"greeting": "hi", "count": 3, "token": {$SIG, "plaintext": "\"s3cr3t\""}}},
    {"urn": "urn:pulumi:dev::proj::pulumi:providers:random::default", "custom": true,
     "id": "p-1", "type": "pulumi:providers:random", "parent": "$STACK_URN"}
  ],
  "pending_operations": [
    {"resource": {"urn": "urn:pulumi:dev::proj::random:index/randomPet:RandomPet::pet",
                  "custom": true, "type": "random:index/randomPet:RandomPet"},
     "type": "creating"}
  ]}}
JSON
sed 's/urn:pulumi:dev::/urn:pulumi:prod::/g' good.json > other.json
sed 's/"urn:pulumi:dev::proj::pulumi:providers:random::default"/"not-a-urn"/' good.json > nourn.json
sed 's/urn:pulumi:dev::proj::/urn:pulumi:dev::elsewhere::/g' good.json > otherproj.json
sed 's/"parent": "[^"]*"/"parent": "urn:pulumi:dev::proj::x:y:Z::gone"/' good.json > broken.json

run stack init dev
run stack export
expect_rc 0 "export of an empty stack"
expect_out '"version": 3' "export envelope"
expect_out '"deployment"' "export envelope"

run stack import --file other.json
expect_rc 1 "resources of another stack"
expect_err "is from a different stack (prod != dev)" "another stack"
run stack import --file nourn.json
expect_rc 1 "an entry whose URN is no URN"
expect_err "resource 'not-a-urn' has an invalid URN" "... named"
expect_err "pass --force to import it anyway" "... and --force offered"
run stack import --file broken.json
expect_rc 1 "integrity failure"
expect_err "state file contains errors:" "integrity failure"
run stack output
expect_out "No output values currently in this stack" "refused imports changed nothing"

run stack import --file good.json
expect_rc 0 "import"
expect_out "Import complete." "import"
expect_err "removing pending operation 'creating' on 'urn:pulumi:dev::proj::random:index/randomPet:RandomPet::pet' from snapshot" "pending dropped"

run stack output
expect_rc 0 "stack output"
expect_out "Current stack outputs (3):" "outputs"
expect_out "greeting  hi" "string output"
expect_out "count     3" "number output"
expect_out "token     [secret]" "secret masked"
run stack output --show-secrets
expect_out "token     s3cr3t" "secret shown"
run stack output greeting
expect_rc 0 "one output"
[ "$OUT" = "hi" ] || fail "one output printed raw: $OUT"
run stack output --json
expect_out '"token": "[secret]"' "json masks secrets"
expect_out '"count": 3' "json number"
run stack output nope
expect_rc 1 "unknown output"
expect_err "current stack does not have output property 'nope'" "unknown output"

run stack export --file out.json
expect_rc 0 "export to a file"
expect_file out.json '"ciphertext": "v1:' "secrets encrypted in the export"
expect_file out.json '"type": "passphrase"' "secrets provider exported"
grep -q pending_operations out.json && fail "pending operations were dropped"
run stack export --show-secrets
expect_out '"plaintext": "\"s3cr3t\""' "export --show-secrets"

# the export imports back (with its ciphertext) into a fresh stack
sed 's/urn:pulumi:dev::/urn:pulumi:qa::/g; s/proj-dev/proj-qa/g' out.json > qa.json
run stack init qa
run stack import --file qa.json
expect_rc 0 "re-import of an export"
run stack output --show-secrets token
[ "$OUT" = "s3cr3t" ] || fail "secret survives export/import: $OUT"

# --force imports what the checks refuse (the store's own write check,
# on in the test suite, would refuse it)
run stack select dev
saved=${MINIPULUMI_VERIFY_WRITES-}
unset MINIPULUMI_VERIFY_WRITES
run stack import --force --file broken.json
[ -n "$saved" ] && export MINIPULUMI_VERIFY_WRITES=$saved
expect_rc 0 "--force imports a broken state"
run stack import --file other.json -f
expect_rc 0 "--force imports another stack's state"
expect_err "warning: resource 'urn:pulumi:prod::proj::pulumi:pulumi:Stack::proj-dev' is from a different stack (prod != dev)" "... with a warning"
# as in Pulumi, only the stack part of a URN is checked: another project's
# resources are imported (the next up of this project would delete them)
run stack import --file otherproj.json
expect_rc 0 "another project's URNs, as Pulumi"

# a wrong passphrase is a clear error
export PULUMI_CONFIG_PASSPHRASE=wrong
run stack output -s qa --show-secrets
[ "$RC" -ne 0 ] || fail "wrong passphrase must fail"
expect_err "passphrase" "wrong passphrase"
finish
