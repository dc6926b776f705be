#!/bin/bash
# Outside a project folder a fully qualified stack name names its project,
# as Pulumi's DIY backends parse it without Pulumi.yaml (the Automation
# API's inline programs run commands so): stack ls --project, stack export
# -s, stack output -s (secrets decrypted with the passphrase), stack
# history -s and stack rm <org>/<project>/<stack>. A short name there is
# still "no Pulumi.yaml". Also on a file:// folder (MP_TEST_DIY).
. "$(dirname "$0")/lib.sh" "$@"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
outputs:
  plain: hello
  hidden:
    fn::secret: s3cr3t-value
YAML
run stack init dev
run up --yes
expect_rc 0 "up in the project"
run stack init prod
mkdir -p "$T/elsewhere"
cd "$T/elsewhere"

run stack ls --project proj
expect_rc 0 "stack ls --project outside the project"
expect_out "dev" "stack ls --project lists dev"
expect_out "prod" "stack ls --project lists prod"

run stack export -s organization/proj/dev
expect_rc 0 "stack export -s org/proj/dev"
check "the export is dev's" 'd = doc(); assert any(r["type"] == "pulumi:pulumi:Stack" for r in d["deployment"]["resources"]), d'
case "$OUT" in *s3cr3t-value*) fail "export shows the secret" ;; esac

run stack output -s organization/proj/dev
expect_rc 0 "stack output outside the project"
expect_out "hello" "the plain output"
expect_out "[secret]" "the secret output hidden"
run stack output -s organization/proj/dev --show-secrets hidden
expect_rc 0 "stack output --show-secrets outside the project"
[ "$OUT" = "s3cr3t-value" ] || fail "the secret decrypted with the passphrase: $OUT"
[ -e "$T/elsewhere/Pulumi.dev.yaml" ] && fail "a stack file was written outside the project"

run stack history -s organization/proj/dev
expect_rc 0 "stack history outside the project"
expect_out "update" "history lists the update"

# a short name has no project to name
run stack export -s dev
expect_rc 1 "a short name outside a project"
expect_err "no Pulumi.yaml project file found" "short name message"
run stack rm organization/proj/nope --yes
expect_rc 6 "stack rm of a missing stack"
expect_err "no stack named 'nope' found" "missing stack message"

# stack rm leaves the files here alone (there is no project folder)
echo keep >"$T/elsewhere/Pulumi.prod.yaml"
run stack rm organization/proj/prod --yes
expect_rc 0 "stack rm org/proj/prod outside the project"
expect_out "Stack 'prod' has been removed!" "stack rm message"
[ -e "$T/elsewhere/Pulumi.prod.yaml" ] || fail "stack rm removed a file outside the project"
run stack rm organization/proj/dev --yes --force
expect_rc 0 "stack rm --force of a stack with resources"
run stack ls --project proj
expect_not_out "prod" "prod is gone"
expect_not_out "dev" "dev is gone"
finish
