#!/bin/bash
# minipulumi state move: resources move with their children to another
# stack of the project, their provider copied; dependencies that cross the
# stacks are broken and listed in Pulumi's words; --yes or a terminal
# confirmation; the destination's next `up` sees them as its own.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
export PULUMI_CONFIG_PASSPHRASE=p
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  comp:
    type: test:Resource
    properties:
      v: 1
  kid:
    type: test:Resource
    properties:
      v: 2
    options:
      parent: ${comp}
  user:
    type: test:Resource
    properties:
      v: ${comp.v}
  stay:
    type: test:Resource
    properties:
      v: 4
YAML
run stack init dev
run up --yes
expect_rc 0 "up"
run stack init prod
run stack select dev
U=urn:pulumi:dev::proj::test:index:Resource

run state move "$U::comp"
expect_rc 2 "no --source or --dest"
expect_err "at least one of --source or --dest must be provided" "Pulumi's text"
run state move --dest prod "urn:pulumi:dev::proj::pulumi:providers:test::default"
expect_rc 1 "a provider"
expect_err "cannot move providers. Only resources can be moved, and providers will be included automatically" "Pulumi's text"
run state move --dest prod "$U::ghost"
expect_rc 1 "nothing to move"
expect_out "warning: Resource $U::ghost not found in source stack" "the warning"
expect_err "no resources found to move" "Pulumi's text"
run state move --dest prod "$U::comp"
expect_rc 2 "no --yes without a terminal"

run_tty 20 no "[yes/no]" state move --dest prod "$U::comp"
expect_out "Planning to move the following resources from organization/proj/dev to organization/proj/prod:" "the plan"
expect_out "Confirmation denied, not proceeding with the state move" "declined"

run state move --dest prod "$U::comp" --yes
expect_rc 0 "move"
expect_out "  - $U::comp" "comp listed"
expect_out "  - urn:pulumi:dev::proj::test:index:Resource\$test:index:Resource::kid" "its child listed"
expect_out "The following resources remaining in organization/proj/dev have dependencies on resources moved to organization/proj/prod:" "broken dependencies"
expect_out "  - $U::user has a dependency on $U::comp" "user's dependency"
expect_out "  - $U::user (v) has a property dependency on $U::comp" "and its property dependency"
expect_out "Successfully moved resources from organization/proj/dev to organization/proj/prod" "done"

export_state
check "dev keeps user and stay, without the dependency" '
r = res()
assert "user" in r and "stay" in r and "test-provider" in r, sorted(r)
assert "comp" not in r and "kid" not in r, sorted(r)
assert r["user"].get("dependencies", []) == [], r["user"]
'
export_state --stack prod
check "prod has its root, a copy of the provider, comp and its child" '
r = res()
assert "comp" in r and "kid" in r and "test-provider" in r, sorted(r)
assert r["comp"]["urn"] == "urn:pulumi:prod::proj::test:index:Resource::comp", r["comp"]
assert r["kid"]["parent"] == r["comp"]["urn"], r["kid"]
assert r["comp"]["parent"] == "urn:pulumi:prod::proj::pulumi:pulumi:Stack::proj-prod", r["comp"]
assert r["comp"]["provider"].startswith("urn:pulumi:prod::proj::pulumi:providers:test::default"), r["comp"]
'
run state move --source prod --dest dev "urn:pulumi:prod::proj::test:index:Resource::comp" --yes
expect_rc 0 "and back"
run state move --dest prod "$U::comp" --yes
expect_rc 0 "again: the provider already there is reused"
run stack select prod
: >"$MINIPULUMI_TEST_WORLD/calls.jsonl"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  comp:
    type: test:Resource
    properties:
      v: 1
  kid:
    type: test:Resource
    properties:
      v: 2
    options:
      parent: ${comp}
YAML
run up --yes
expect_rc 0 "up in prod"
expect_not_out "created" "the moved resources are prod's own"
check "no create or delete in prod" '
assert not [c for c in calls() if c[0] in ("create", "delete")], calls()
'
finish
