#!/bin/bash
# Policy packs on a Node.js program (its packages from tests/nodejs): the
# mandatory violation fails the preview and the update, without a step
# of the violating resource; the remediation reaches the created
# password; within the limit the update succeeds.
. "$(dirname "$0")/lib.sh" "$@"
NODE_MODULES=$(realpath "$PACKS/../../nodejs/node_modules")
[ -d "$NODE_MODULES/@pulumi/random" ] ||
  { echo "FAIL: run scripts/npm-deps.sh tests/nodejs" >&2; exit 1; }
cp -r "$PACKS/../programs/nodejs" "$T/js"
ln -s "$NODE_MODULES" "$T/js/node_modules"
cd "$T/js" || exit 1
run stack init dev

run preview --policy-pack "$PACKS/main"
expect_rc 1 "preview with a mandatory violation"
expect_out "        - [mandatory]  pet-length  (random:index/randomPet:RandomPet: pet)" \
  "the violation"
expect_out "error: preview failed" "the preview fails"

run up --yes --skip-preview --policy-pack "$PACKS/main"
[ "$RC" != 0 ] || fail "up with a mandatory violation succeeded"
expect_not_out "pet created" "no step of the pet"

LENGTH=2 run up --yes --skip-preview --policy-pack "$PACKS/main"
expect_rc 0 "up within the limit"
expect_out "        - [remediate]  no-special  (1 resource)" "the remediation"
run stack output special
expect_out "false" "the password was made without special characters"
finish
