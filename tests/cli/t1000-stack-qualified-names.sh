#!/bin/bash
# Stack references as Pulumi's diy backends read them: `<stack>`,
# `organization/<stack>` and `organization/<project>/<stack>`. A project
# other than the current one is refused with Pulumi's message (exit 1) by
# every command that takes -s/--stack or a stack name, and nothing is done
# to either project's stack; another organization is refused too.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
write_project() { # dir name
  mkdir -p "$1"
  cat > "$1/Pulumi.yaml" <<YAML
name: $2
runtime: yaml
resources:
  r:
    type: test:Resource
    properties:
      v: $2
outputs:
  who: \${r.v}
YAML
}
write_project "$T/projA" projA
write_project "$T/projB" projB
run_in "$T/projB" stack init prod
run_in "$T/projB" up -y
expect_rc 0 "projB up"
cd "$T/projA"
run stack init prod
run up -y
expect_rc 0 "projA up"

# resources PROJECT: the number of resources in PROJECT's prod stack.
resources() {
  (cd "$T/$1" && "$M" stack export -s prod </dev/null) |
    python3 -c 'import json,sys; print(len(json.load(sys.stdin)["deployment"].get("resources") or []))'
}
[ "$(resources projA)" = 3 ] || fail "projA/prod has 3 resources"
[ "$(resources projB)" = 3 ] || fail "projB/prod has 3 resources"

msg='provided project name "projB" doesn'"'"'t match Pulumi.yaml'
# The issue's case: destroy from projA's folder naming projB's stack.
run destroy -s organization/projB/prod --yes
expect_rc 1 "destroy -s organization/projB/prod"
expect_err "$msg" "destroy names the other project"
[ "$(resources projA)" = 3 ] || fail "projA/prod was not destroyed"
[ "$(resources projB)" = 3 ] || fail "projB/prod was not destroyed"

for c in "up --yes" preview "refresh --yes" "destroy --yes" config \
         "config set k v" "config get k" "config rm k" "stack output" \
         "stack export" "stack history" "cancel --yes" "stack rm --yes" \
         "stack select" "stack rename other"; do
  run $c -s organization/projB/prod
  expect_rc 1 "$c -s organization/projB/prod"
  expect_err "$msg" "$c -s organization/projB/prod"
done
for c in "stack select" "stack rm --yes" "cancel --yes" "stack init"; do
  run $c organization/projB/prod
  expect_rc 1 "$c organization/projB/prod"
  expect_err "$msg" "$c organization/projB/prod"
done
run stack select -c organization/projB/new
expect_rc 1 "stack select -c organization/projB/new"
expect_err "$msg" "select --create"
run stack rename organization/projB/moved
expect_rc 1 "stack rename into projB"
expect_err "$msg" "rename"
run stack init organization/projA/copy --copy-config-from organization/projB/prod
expect_rc 1 "stack init --copy-config-from organization/projB/prod"
expect_err "$msg" "--copy-config-from"
[ -f Pulumi.other.yaml ] && fail "no config file was renamed"
run stack ls --json
check "projA's stacks are unchanged" '
assert sorted(s["name"] for s in doc()) == ["prod"], doc()
'
[ "$(resources projA)" = 3 ] || fail "projA/prod still has its resources"
[ "$(resources projB)" = 3 ] || fail "projB/prod still has its resources"

run stack output -s acme/prod
expect_rc 1 "another organization"
expect_err "organization name must be 'organization'" "another organization"
run stack output -s a/b/c/d
expect_rc 2 "four parts"
expect_err "invalid stack name 'a/b/c/d'" "four parts"

# The accepted forms all name projA/prod.
for s in prod organization/prod organization/projA/prod /prod organization//prod; do
  run stack output who -s "$s"
  expect_rc 0 "stack output -s $s"
  [ "$OUT" = projA ] || fail "stack output -s $s: got '$OUT'"
done
run stack select organization/projA/prod
expect_rc 0 "select organization/projA/prod"
run stack init organization/projA/second
expect_rc 0 "init organization/projA/second"
expect_out "Created stack 'second'" "the short name is used"
run stack rename organization/projA/third -s second
expect_rc 0 "rename to organization/projA/third"
expect_out "Renamed second to third" "rename"
run destroy -s organization/projA/prod --yes
expect_rc 0 "destroy -s organization/projA/prod"
[ "$(resources projA)" = 0 ] || fail "projA/prod destroyed"
[ "$(resources projB)" = 3 ] || fail "projB/prod untouched"
finish
