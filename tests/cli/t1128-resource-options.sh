#!/bin/bash
# Resource options that are neither replacement nor deletion rules, as
# Pulumi acts on them: hideDiffs shows a changed property under one of its
# paths as `~ key (hidden)` in the --diff view (lifecycletest
# hide_diffs_test.go, its testdata diff.stdout.txt); envVarMappings is
# refused on anything but a provider resource ("envVarMappings can only
# be used with provider resources", TestEnvVarMappingsOnNonProviderFails),
# and on a provider served inside minipulumi, which has no process of its
# own to give the variables to.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world

program() { # VALUE [OPTIONS]
  cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
resources:
  r:
    type: test:Resource
    properties:
      shown: $1
      secretish: $1
      nested:
        k: $1
    options:
      hideDiffs: [secretish, nested.k]
${2:-}
YAML
}

program one
run stack init dev
run up -y
expect_rc 0 "up with hideDiffs"

program two
run up -y --diff
expect_rc 0 "up --diff with hideDiffs"
expect_out '~ shown: "one" => "two"' "a property outside hideDiffs is shown"
expect_out "~ secretish (hidden)" "a top-level hidden property"
expect_out "~ nested.k (hidden)" "a nested hidden property"
expect_not_out '"two" => ' "no hidden value is printed"
expect_not_out 'secretish: "one"' "no hidden old value is printed"

program three
run preview --diff
expect_rc 0 "preview --diff with hideDiffs"
expect_out "~ secretish (hidden)" "preview hides it too"
expect_out '~ shown: "two" => "three"' "the preview shows the rest"
expect_not_out 'secretish: "two"' "the preview prints no hidden value"

# envVarMappings on a resource that is not a provider: refused, nothing
# changes.
program two "      envVarMappings:
        FOO: BAR"
run up -y
expect_rc 1 "envVarMappings on a non-provider"
expect_out "envVarMappings can only be used with provider resources" "the refusal says why"
export_state
check "nothing changed" "assert res()['r']['inputs']['shown'] == 'two', res()['r']"


# On a provider served inside minipulumi (the built-in test provider)
# there is no process to give the variables to: refused, not dropped.
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  p:
    type: pulumi:providers:test
    options:
      envVarMappings:
        FOO: BAR
  r:
    type: test:Resource
    properties:
      shown: two
    options:
      provider: ${p}
YAML
run up -y
expect_rc 1 "envVarMappings on a built-in provider"
expect_out "envVarMappings cannot be applied" "the refusal says why"
finish
