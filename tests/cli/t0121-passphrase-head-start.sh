#!/bin/bash
# The deploying commands start deriving the passphrase's key from a guess
# at the stack (the head of Pulumi.yaml, --stack or the selected stack, the
# store's salt) before the project is loaded. The guess never decides:
# whichever stack the command runs on, its own salt unlocks it, a wrong
# passphrase is refused before any step, and a Pulumi.yaml whose `name:`
# comes late (no guess) or a store that does not exist yet change nothing.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    properties:
      v: 1
YAML
PULUMI_CONFIG_PASSPHRASE=first run stack init dev
expect_rc 0 "dev, with one passphrase"
PULUMI_CONFIG_PASSPHRASE=second run stack init other
expect_rc 0 "other, with another"
PULUMI_CONFIG_PASSPHRASE=first run stack select dev
expect_rc 0 "dev selected"

# --stack names the other stack: its salt, not the selected one's
PULUMI_CONFIG_PASSPHRASE=second run up --yes -s other
expect_rc 0 "up -s other with its passphrase"
PULUMI_CONFIG_PASSPHRASE=second run up --yes -s organization/proj/other
expect_rc 0 "the long form of the name"
expect_out "2 unchanged" "a no-op"
# the selected stack with the other's passphrase: refused before any step
rm -f "$MINIPULUMI_TEST_WORLD/calls.jsonl"
PULUMI_CONFIG_PASSPHRASE=second run up --yes
expect_rc 2 "the selected stack with another stack's passphrase"
expect_err "incorrect passphrase" "named"
check "no provider call" 'assert calls() == [], calls()'
PULUMI_CONFIG_PASSPHRASE=first run up --yes
expect_rc 0 "the selected stack with its own"
check "its steps ran" 'assert ("create", "a") in calls(), calls()'

# `name:` after a long section: no guess, the same result
{
  echo "runtime: yaml"
  echo "resources:"
  for i in $(seq 1 60); do
    printf '  r%d:\n    type: test:Resource\n    properties:\n      v: %d\n' "$i" "$i"
  done
  echo "name: proj"
} > Pulumi.yaml
PULUMI_CONFIG_PASSPHRASE=first run up --yes
expect_rc 0 "up with a late name"
expect_out "60 created" "the new resources"
PULUMI_CONFIG_PASSPHRASE=second run preview
expect_rc 2 "a wrong passphrase, no guess"
expect_err "incorrect passphrase" "still named"

# a store that does not exist yet: the guess makes no file, the command
# reports the missing stack as before
MINIPULUMI_BACKEND_URL="$T/none/state.db" PULUMI_CONFIG_PASSPHRASE=first run up --yes
expect_rc 1 "no store"
[ -e "$T/none/state.db" ] && fail "no store file made"
finish
