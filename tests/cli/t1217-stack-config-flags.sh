#!/bin/bash
# Pulumi's flags of stack rm, stack export, config and config set-all:
#  - stack rm --remove-backups on file:// (pkg/backend/diy/state.go
#    removeStack): without it the checkpoint is kept as <stack>.json.bak
#    and .pulumi/backups/<project>/<stack> stays; with it both go; the
#    history goes either way;
#  - stack export --version: refused as by Pulumi's DIY backend (only
#    Pulumi Cloud implements SpecificDeploymentExporter);
#  - config --config-file (persistent: every config subcommand);
#  - config set-all --json (the format `config --json` prints).
. "$(dirname "$0")/lib.sh" "$@"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
outputs:
  o: 1
YAML
mkdir -p "$T/diy"
export MINIPULUMI_BACKEND_URL="file://$T/diy"
D="$T/diy/.pulumi"
for s in keep gone; do
  run stack init $s
  run up --yes -s $s
  expect_rc 0 "up $s"
  run up --yes -s $s
done
[ -n "$(ls "$D/backups/proj/keep")" ] || fail "backups were written"
run stack rm --yes --force keep
expect_rc 0 "stack rm"
[ -f "$D/stacks/proj/keep.json.bak" ] || fail "rm keeps the checkpoint as .bak"
[ -f "$D/stacks/proj/keep.json" ] && fail "rm removes the checkpoint"
[ -n "$(ls "$D/backups/proj/keep" 2>/dev/null)" ] || fail "rm keeps the backups"
[ -d "$D/history/proj/keep" ] && fail "rm removes the history"
run stack rm --yes --force --remove-backups gone
expect_rc 0 "stack rm --remove-backups"
[ -e "$D/stacks/proj/gone.json.bak" ] && fail "--remove-backups removes the .bak"
[ -e "$D/stacks/proj/gone.json" ] && fail "--remove-backups removes the checkpoint"
[ -e "$D/backups/proj/gone" ] && fail "--remove-backups removes the backups"
[ -d "$D/history/proj/gone" ] && fail "--remove-backups removes the history"
run stack ls
expect_not_out "keep" "the removed stack is not listed"

# stack export --version: Pulumi's DIY error
run stack init dev
run up --yes
run stack export --version 1
expect_rc 1 "export --version"
expect_err "does not provide the ability to export previous deployments" "Pulumi's words"

# config --config-file: every subcommand reads and writes that file
run config --config-file other.yaml set b 2
expect_rc 0 "config --config-file set"
expect_file other.yaml "proj:b" "the value in the named file"
[ -e Pulumi.dev.yaml ] && grep -q "proj:b" Pulumi.dev.yaml && fail "not in Pulumi.dev.yaml"
run config get b --config-file=other.yaml
expect_out "2" "get from the named file"
run config --config-file other.yaml --json
check "config --json from the named file" 'assert doc()["proj:b"]["value"] == "2", out'
run config --config-file
expect_rc 2 "--config-file without a value"

# config set-all --json
run config set-all --json '{"proj:a":{"value":"x","secret":false},"proj:o":{"value":"{}","objectValue":{"k":[1,2]},"secret":false},"proj:s":{"value":"hid","secret":true}}'
expect_rc 0 "set-all --json"
expect_file Pulumi.dev.yaml "secure:" "the secret encrypted"
run config --json --show-secrets
check "set-all --json values" '
d = doc()
assert d["proj:a"] == {"value": "x", "secret": False}, d
assert d["proj:o"]["objectValue"] == {"k": [1, 2]}, d
assert d["proj:s"]["value"] == "hid" and d["proj:s"]["secret"], d'
run config set-all --json '{}' --path
expect_rc 2 "--json with --path"
expect_err "--json cannot be combined with --path" "the refusal"
run config set-all --json '[1]'
expect_rc 2 "not an object"
run config set-all --json '{"proj:z":{"objectValue":{"a":1},"secret":true}}'
expect_rc 2 "a secret objectValue"
expect_err "secret objectValue" "says why"
finish
