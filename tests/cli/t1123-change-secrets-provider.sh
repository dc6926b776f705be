#!/bin/bash
# minipulumi stack change-secrets-provider passphrase: a new passphrase and
# salt; the config's secrets (top level and nested) and the state's are
# encrypted again, the old passphrase no longer opens them; the new one is
# read from standard input without a terminal and asked twice on one;
# other providers are refused by name.
. "$(dirname "$0")/lib.sh" "$@"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
config:
  pw:
    type: string
resources:
  pet:
    type: random:RandomPet
outputs:
  hidden:
    fn::secret: ${pw}
YAML
run stack init dev
run config set --secret pw s3cret
run config set --secret --path 'nested.inner' deep
run up --yes
expect_rc 0 "up"
OLD_SALT=$(grep encryptionsalt Pulumi.dev.yaml)

echo "new-passphrase" | "$M" stack change-secrets-provider passphrase \
  >"$T/out" 2>"$T/err"
RC=$? OUT=$(<"$T/out") ERR=$(<"$T/err")
expect_rc 0 "rotation from standard input"
expect_out "Migrating old configuration and state to new secrets provider" "Pulumi's words"
[ "$(grep encryptionsalt Pulumi.dev.yaml)" != "$OLD_SALT" ] || fail "the salt did not change"
grep -q 's3cret\|deep' Pulumi.dev.yaml && fail "a secret is in plaintext"

export PULUMI_CONFIG_PASSPHRASE=new-passphrase
run config get pw
expect_out "s3cret" "the config secret opens with the new passphrase"
run config get --path nested.inner
expect_out "deep" "so does the nested one"
run stack output hidden --show-secrets
expect_out "s3cret" "the state's secret too"
run preview --expect-no-changes
expect_rc 0 "nothing changed"
run stack export
expect_not_out "s3cret" "the exported state keeps its secret encrypted"

PULUMI_CONFIG_PASSPHRASE=cli-test-passphrase run config get pw
expect_rc 2 "the old passphrase"
expect_err "incorrect passphrase" "no longer works"

# On a terminal: asked twice.
run_tty 30 "third,third" "new passphrase" stack change-secrets-provider passphrase
expect_rc 0 "rotation on a terminal"
expect_out "Enter your new passphrase to protect config/secrets" "the first question"
expect_out "Re-enter your new passphrase to confirm" "the second"
PULUMI_CONFIG_PASSPHRASE=third run config get pw
expect_out "s3cret" "the third passphrase works"

run stack change-secrets-provider 'awskms://alias/x?region=us-east-1'
expect_rc 2 "a provider minipulumi lacks"
expect_err "minipulumi has the passphrase provider only" "says which it has"
finish
