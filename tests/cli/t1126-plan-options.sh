#!/bin/bash
# Update plans keep the options Pulumi's plan checks beyond the inputs
# (pkg/resource/deploy/plan.go checkGoal): custom timeouts, the alias
# URNs a registration asks for, and each property's dependencies. The
# plan file carries them under Pulumi's names; `up --plan` refuses a
# program that changed one of them, before any step, in Pulumi's words.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world

# program A B_TIMEOUT ALIAS: two sources with the same value, and a
# resource whose properties take them in the order A names.
program() {
  local first=$1 second=$2 timeout=$3 alias=$4
  cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    properties:
      n: 1
  b:
    type: test:Resource
    properties:
      n: 1
  c:
    type: test:Resource
    properties:
      x: \${$first.n}
      y: \${$second.n}
    options:
      customTimeouts:
        create: $timeout
$alias
YAML
}
ALIAS='      aliases:
        - urn:pulumi:dev::proj::test:index:Resource::old-c'

program a b 2m ""
run stack init dev
run preview --save-plan "$T/plan.json"
expect_rc 0 "preview --save-plan"
check "the plan keeps c's timeouts and property dependencies as Pulumi names them" "
g = doc(T + '/plan.json')['resourcePlans']['urn:pulumi:dev::proj::test:index:Resource::c']['goal']
assert g['customTimeouts'] == {'create': 120}, g.get('customTimeouts')
pd = g['propertyDependencies']
assert pd['x'] == ['urn:pulumi:dev::proj::test:index:Resource::a'], pd
assert pd['y'] == ['urn:pulumi:dev::proj::test:index:Resource::b'], pd
assert 'aliases' not in g, g
"

# A changed timeout.
program a b 3m ""
run up --plan "$T/plan.json" --yes --skip-preview
expect_rc 1 "a timeout other than the planned one"
expect_out "test:index:Resource::c violates plan: create timeout changed (expected 120)" "Pulumi's message"
export_state
check "nothing of c ran" "assert 'c' not in res(), list(res())"

# The same values from swapped sources: the inputs and the set of
# dependencies are those planned, each property's are not.
program b a 2m ""
run up --plan "$T/plan.json" --yes --skip-preview
expect_rc 1 "properties fed by other resources"
expect_out "c violates plan: dependencies for x changed: added urn:pulumi:dev::proj::test:index:Resource::b; deleted urn:pulumi:dev::proj::test:index:Resource::a" "names the property"

# An alias the plan did not have.
program a b 2m "$ALIAS"
run up --plan "$T/plan.json" --yes --skip-preview
expect_rc 1 "an added alias"
expect_out "c violates plan: aliases changed: added urn:pulumi:dev::proj::test:index:Resource::old-c" "names it"

# The program as planned.
program a b 2m ""
run up --plan "$T/plan.json" --yes --skip-preview
expect_rc 0 "the planned program"
export_state
check "c was created" "assert res()['c']['inputs'] == {'x': 1, 'y': 1}, res()['c']"

# A plan with the alias, applied with it.
program a b 2m "$ALIAS"
run preview --save-plan "$T/plan2.json"
expect_rc 0 "a plan with an alias"
check "the plan names the alias" "
g = doc(T + '/plan2.json')['resourcePlans']['urn:pulumi:dev::proj::test:index:Resource::c']['goal']
assert g['aliases'] == ['urn:pulumi:dev::proj::test:index:Resource::old-c'], g.get('aliases')
"
run up --plan "$T/plan2.json" --yes --skip-preview
expect_rc 0 "applied with the alias"

# Registered outputs (the stack's here) are held to the plan too.
program a b 2m ""
printf 'outputs:\n  o: 1\n' >> Pulumi.yaml
run preview --save-plan "$T/plan3.json"
expect_rc 0 "a plan with a stack output"
check "the plan keeps the outputs' change" "
g = doc(T + '/plan3.json')['resourcePlans']['urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev']['goal']
assert g['outputDiff'] == {'adds': {'o': 1}}, g['outputDiff']
"
sed -i 's/^  o: 1$/  o: 2/' Pulumi.yaml
run up --plan "$T/plan3.json" --yes --skip-preview
expect_rc 1 "an output other than the planned one"
expect_out "resource violates plan: properties changed: ++o[{1}!={2}]" "Pulumi's checkOutputs"
export_state
check "the stack's outputs stay" "assert 'o' not in (res()['proj-dev'].get('outputs') or {}), res()['proj-dev']"
sed -i 's/^  o: 2$/  o: 1/' Pulumi.yaml
run up --plan "$T/plan3.json" --yes --skip-preview
expect_rc 0 "the planned output"
export_state
check "the output applied" "assert res()['proj-dev']['outputs'] == {'o': 1}, res()['proj-dev']"

# A plan file whose timeouts are not numbers.
python3 - "$T/plan2.json" "$T/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['resourcePlans']['urn:pulumi:dev::proj::test:index:Resource::c']['goal']['customTimeouts'] = {'create': '2m'}
json.dump(d, open(sys.argv[2], 'w'))
PY
run up --plan "$T/bad.json" --yes
expect_rc 2 "timeouts that are not numbers"
expect_err "invalid plan file '$T/bad.json': urn:pulumi:dev::proj::test:index:Resource::c: a custom timeout is not a number of seconds" "says where"
finish
