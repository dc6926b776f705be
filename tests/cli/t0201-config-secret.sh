#!/bin/bash
# config set --secret: `secure: v1:...` encrypted with the stack's
# passphrase; [secret] unless shown; wrong or missing passphrase errors.
. "$(dirname "$0")/lib.sh" "$@"

export PULUMI_CONFIG_PASSPHRASE=open-sesame
run stack init dev
unset PULUMI_CONFIG_PASSPHRASE
run config set --secret password hunter2
expect_rc 2 "secret without a passphrase"
expect_err "PULUMI_CONFIG_PASSPHRASE" "names the variable"

export PULUMI_CONFIG_PASSPHRASE=open-sesame
run config set --secret password hunter2
expect_rc 0 "set --secret"
expect_file Pulumi.dev.yaml "encryptionsalt: v1:" "salt made at init"
expect_file Pulumi.dev.yaml "    secure: v1:" "secure value"
grep -q hunter2 Pulumi.dev.yaml && fail "plaintext in the file"
run config
expect_out "password  [secret]" "masked"
run config --show-secrets
expect_out "password  hunter2" "shown"
run config --json
expect_out '"secret": true' "json secret"
expect_not_out "hunter2" "json masked"
run config get password
[ "$OUT" = "hunter2" ] || fail "get decrypts: $OUT"
run config set --secret --plaintext x y
expect_rc 2 "--secret with --plaintext"

unset PULUMI_CONFIG_PASSPHRASE
echo open-sesame > ../pass.txt
export PULUMI_CONFIG_PASSPHRASE_FILE=$T/pass.txt
run config get password
[ "$OUT" = "hunter2" ] || fail "passphrase from a file: $OUT"
unset PULUMI_CONFIG_PASSPHRASE_FILE

export PULUMI_CONFIG_PASSPHRASE=wrong
run config get password
expect_rc 2 "wrong passphrase"
expect_err "incorrect passphrase" "wrong passphrase"
run config
expect_rc 0 "listing needs no passphrase"
finish
