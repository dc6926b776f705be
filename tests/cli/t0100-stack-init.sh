#!/bin/bash
# stack init creates and selects a stack; names are checked; the passphrase
# salt goes to Pulumi.<stack>.yaml and the store.
. "$(dirname "$0")/lib.sh" "$@"

run stack init dev
expect_rc 0 "init"
expect_out "Created stack 'dev'" "init"
expect_file Pulumi.dev.yaml "encryptionsalt: v1:" "every new stack has a salt"
run stack
expect_rc 0 "stack"
expect_out "Current stack is dev:" "init selects the stack"
run stack init dev
expect_rc 1 "duplicate"
expect_err "stack 'dev' already exists" "duplicate"
run stack init 'bad name!'
expect_rc 2 "invalid name"
expect_err "invalid stack name 'bad name!'" "invalid name"
run stack init
expect_rc 2 "no name"
run stack init other --no-select
expect_rc 0 "--no-select"
run stack
expect_out "Current stack is dev:" "--no-select keeps the selection"
run stack init --secrets-provider awskms://x third
expect_rc 2 "unsupported secrets provider"

export PULUMI_CONFIG_PASSPHRASE=correct-horse
run stack init organization/proj/prod
expect_rc 0 "qualified name"
expect_out "Created stack 'prod'" "qualified name"
expect_file Pulumi.prod.yaml "encryptionsalt: v1:" "salt written at init"
run stack export -s prod
expect_out '"salt": "v1:' "salt in the store"
salt=$(sed -n 's/^encryptionsalt: //p' Pulumi.prod.yaml)
expect_out "$salt" "the same salt in both places"

# a new stack adopts the salt already in a checked-in config file
cp Pulumi.prod.yaml Pulumi.ci.yaml
run config set --secret -s prod token s3cr3t
expect_rc 0 "secret on prod"
unset PULUMI_CONFIG_PASSPHRASE
run stack init ci
expect_rc 0 "init with an existing file"
run stack export -s ci
expect_out "$salt" "existing encryptionsalt adopted"

run stack init copy --copy-config-from nope
expect_rc 6 "copy from an unknown stack"
finish
