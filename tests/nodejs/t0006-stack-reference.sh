#!/bin/bash
# pulumi.StackReference reads another stack's outputs from the same store
# (the engine's pulumi:pulumi:StackReference); secrets stay secret.
. "$(dirname "$0")/lib.sh" "$@"
node_program components
run stack init dev
run config set greeting hello
run config set --secret token s3cr3t
run up --yes --skip-preview
expect_rc 0 "up of the referenced stack"

node_program stackref
run stack init ref
# --show-reads: the reference is a read step, hidden by default
OTHER_STACK=organization/components/dev run up --yes --show-reads
expect_rc 0 "up with a stack reference"
expect_out "pulumi:pulumi:StackReference organization/components/dev" "the read"
expect_out 'theirGreeting: "hello"' "a plain output read"
expect_out "theirToken   : [secret]" "a secret output stays secret"
expect_not_out "s3cr3t" "secret never shown"
state_json
case "$STATE" in *s3cr3t*) fail "the referenced secret is stored in plain text" ;; esac
case "$STATE" in *'"secretOutputNames"'*) ;; *) fail "no secretOutputNames: $STATE" ;; esac
run stack output --show-secrets theirToken
expect_out "s3cr3t" "the secret decrypts"

# --show-reads: the reference is a read step, hidden by default
OTHER_STACK=organization/components/dev run up --yes --show-reads
expect_rc 0 "second up"
expect_not_out "created" "nothing new"

OTHER_STACK=organization/components/nosuch run up --yes
[ "$RC" != 0 ] || fail "a reference to a missing stack succeeded"
expect_out 'unknown stack "organization/components/nosuch"' "missing stack named"
finish
