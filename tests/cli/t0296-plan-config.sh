#!/bin/bash
# The plan file keeps the stack's config (DeploymentPlanV1 `config`, as
# Pulumi's SerializePlan writes Plan.Config: `<ns>:<key>` to the value, a
# secret as its `{"secure": ...}` ciphertext, never as text). `up --plan`
# does not compare it, as Pulumi does not (pkg/cmd/pulumi/operations/up.go
# only hands the plan's resource plans to the engine): a config change
# that changes no input applies; one that changes an input is refused by
# the input check.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
SECRET=plan-config-secret-7c1f
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
config:
  n:
    type: integer
  unused:
    type: string
resources:
  res:
    type: test:Resource
    properties:
      n: ${n}
YAML
run stack init dev
run config set n 1
run config set unused one
run config set --secret pw "$SECRET"
run preview --save-plan "$T/plan.json"
expect_rc 0 "preview --save-plan"
grep -q "$SECRET" "$T/plan.json" && fail "the secret is in the plan file as text"
check "the plan keeps the config" "
p = doc('$T/plan.json')
c = p['config']
assert c['proj:n'] == '1' and c['proj:unused'] == 'one', c
assert set(c['proj:pw']) == {'secure'} and c['proj:pw']['secure'], c
assert list(p).index('config') == list(p).index('manifest') + 1, list(p)
"

# A config value no input uses changed: not compared, the plan applies.
run config set unused two
run up --plan "$T/plan.json" --yes --skip-preview
expect_rc 0 "a config change that changes no input"

# One that changes an input: refused by the input check.
run config set n 2
run preview --save-plan "$T/plan2.json"
expect_rc 0 "preview of n=2"
run config set n 3
run up --plan "$T/plan2.json" --yes --skip-preview
expect_rc 1 "a config change that changes an input"
expect_out "violates plan: properties changed: ~~n[{2}!={3}]" "Pulumi's message"

# A stack with no config: no `config` in the plan (omitempty).
rm -f Pulumi.dev.yaml
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
YAML
run preview --save-plan "$T/plan3.json"
expect_rc 0 "preview without config"
check "no config key" "
assert 'config' not in doc('$T/plan3.json')
"
finish
