#!/bin/bash
# The passphrase, as with Pulumi: without PULUMI_CONFIG_PASSPHRASE(_FILE),
# `stack init` asks for a new one twice on a terminal (no echo) and fails
# at once without one, making nothing; an operation on a stack with a salt
# asks on a terminal (again until it unlocks) or fails before any step; a
# secret typed at the `config set` prompt is not echoed.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
unset PULUMI_CONFIG_PASSPHRASE
MSG="passphrase must be set with PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE environment variables"

# no terminal: refused at once, nothing made
run stack init dev
expect_rc 1 "init without a passphrase"
expect_err "error: could not create secrets manager for new stack: $MSG" "Pulumi's words"
[ -e Pulumi.dev.yaml ] && fail "no config file left"
run stack ls
expect_not_out "dev" "no stack made"

# a terminal: asked twice without echo; a mismatch asks again
run_tty 20 first-try,second-try,open-sesame,open-sesame "passphrase to" stack init dev
expect_rc 0 "init on a terminal"
expect_out "Enter your passphrase to protect config/secrets: " "first prompt"
expect_out "Re-enter your passphrase to confirm: " "second prompt"
expect_out "passphrases do not match" "mismatch reported"
expect_out "Created stack 'dev'" "created"
check "the prompts come twice after a mismatch, the typed text never shows" '
assert out.count("Enter your passphrase to protect config/secrets") == 2, out
for typed in ("first-try", "second-try", "open-sesame"):
    assert typed not in out, (typed, out)
'
expect_file Pulumi.dev.yaml "encryptionsalt: v1:" "salt written"
PULUMI_CONFIG_PASSPHRASE=open-sesame run config set --secret pw hunter2
expect_rc 0 "the typed passphrase unlocks the salt"
PULUMI_CONFIG_PASSPHRASE=wrong run config get pw
expect_err "incorrect passphrase" "another passphrase does not"

# an operation without the passphrase and no terminal: refused before any step
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    properties:
      v: 1
YAML
run up --yes
expect_rc 2 "up without a passphrase"
expect_err "$MSG" "up names the variables"
check "no provider call" 'assert calls() == [], calls()'

# a wrong passphrase in the environment, on a stack with no secret in its
# config (so only the deployment's check can catch it): refused before any
# step and before any update is recorded, by up and by preview alike
PULUMI_CONFIG_PASSPHRASE=open-sesame run stack init other
expect_rc 0 "a second stack"
PULUMI_CONFIG_PASSPHRASE=wrong run up --yes -s other
expect_rc 2 "up with a wrong passphrase"
expect_err "incorrect passphrase" "up names it"
PULUMI_CONFIG_PASSPHRASE=wrong run preview -s other
expect_rc 2 "preview with a wrong passphrase"
expect_err "incorrect passphrase" "preview names it"
check "still no provider call" 'assert calls() == [], calls()'
PULUMI_CONFIG_PASSPHRASE=open-sesame run stack history -s other
expect_rc 0 "history"
expect_not_out "Update" "no update recorded"
PULUMI_CONFIG_PASSPHRASE=open-sesame run up --yes -s other
expect_rc 0 "the right passphrase"
check "the right one runs the steps" 'assert ("create", "a") in calls(), calls()'
PULUMI_CONFIG_PASSPHRASE=open-sesame run stack select dev

# on a terminal: asked until it unlocks
run_tty 30 wrong,open-sesame "unlock config/secrets" preview
expect_rc 0 "preview after the passphrase"
expect_out "Enter your passphrase to unlock config/secrets for stack dev" "unlock prompt"
expect_out "(set PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE to remember)" "the hint"
expect_out "incorrect passphrase" "a wrong one is refused"
expect_out "Previewing update (dev)" "the preview ran"
check "unlock is not echoed" 'assert "open-sesame" not in out, out'

# config set: a secret typed at the prompt is not echoed; a plain value is
export PULUMI_CONFIG_PASSPHRASE=open-sesame
run_tty 20 typed-secret "value: " config set --secret token
expect_rc 0 "secret at the prompt"
check "no echo" 'assert "typed-secret" not in out, out'
run config get token
[ "$OUT" = typed-secret ] || fail "the typed secret is stored: $OUT"
run_tty 20 typed-plain "value: " config set colour
expect_rc 0 "plain value at the prompt"
expect_out "typed-plain" "a plain value is echoed"
finish
