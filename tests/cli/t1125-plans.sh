#!/bin/bash
# Update plans (X49 has the refusals): a secret input is kept in the plan
# file encrypted with the stack's secrets provider, never as text, and
# comes back from it (`up --plan` applies it; a changed secret is refused
# without its value in the message); a plan file that cannot be read or
# is not a plan is refused, naming it, and the state is left as it was.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
SECRET=plan-secret-5d2e9a
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
config:
  pw:
    type: string
    secret: true
resources:
  res:
    type: test:Resource
    properties:
      s: ${pw}
      n: 1
YAML
run stack init dev
run config set --secret pw "$SECRET"
expect_rc 0 "config set --secret"

run preview --save-plan "$T/plan.json"
expect_rc 0 "preview --save-plan"
[ -s "$T/plan.json" ] || fail "no plan file written"
grep -q "$SECRET" "$T/plan.json" && fail "the secret is in the plan file as text"
expect_file "$T/plan.json" '"4dabf18193072939515e22adb298388d":' "a secret value in the plan"
expect_file "$T/plan.json" '"ciphertext":' "its ciphertext"
expect_file "$T/plan.json" '"resourcePlans":' "Pulumi's DeploymentPlanV1"
expect_file "$T/plan.json" '"steps":' "the planned steps"

run up --plan "$T/plan.json" --yes
expect_rc 0 "up --plan applies the plan"
export_state --show-secrets
check "the secret reached the state" "
s = res()['res']['inputs']['s']
assert s['plaintext'] == '\"$SECRET\"', s
"

# A secret changed after the plan: refused, its values not shown.
run config set --secret pw "$SECRET-2"
run preview --save-plan "$T/plan2.json"
expect_rc 0 "preview of the changed secret"
grep -q "$SECRET" "$T/plan2.json" && fail "the new secret is in the plan file as text"
run config set --secret pw "$SECRET-3"
run up --plan "$T/plan2.json" --yes --skip-preview
expect_rc 1 "a secret other than the planned one"
expect_out "violates plan: properties changed: ~~s[{[secret]}!={[secret]}]" "Pulumi's message"
expect_not_out "$SECRET" "no secret in the message"
run config set --secret pw "$SECRET-2"
run up --plan "$T/plan2.json" --yes --skip-preview
expect_rc 0 "the planned secret"

# Files that are no plan.
export_state
cp "$T/export.json" "$T/before.json"
run up --plan "$T/nosuch.json" --yes
expect_rc 2 "a missing plan file"
expect_err "could not read the plan file '$T/nosuch.json'" "names the file"
echo '{"resourcePlans": {"urn:x": {"steps": ["explode"]}}}' > "$T/bad.json"
run up --plan "$T/bad.json" --yes
expect_rc 2 "a step that is no operation"
expect_err "invalid plan file '$T/bad.json': urn:x: a step is not an operation Pulumi knows" "says what is wrong"
echo 'not json' > "$T/bad2.json"
run up --plan "$T/bad2.json" --yes
expect_rc 2 "not JSON"
expect_err "invalid plan file '$T/bad2.json': not a JSON object" "says so"
export_state
check "a refused plan leaves the state" "
before = doc(T + '/before.json')['deployment']['resources']
assert doc(T + '/export.json')['deployment']['resources'] == before
"
finish
