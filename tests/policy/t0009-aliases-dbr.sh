#!/bin/bash
# A pack sees what Pulumi sends it of aliases and deleteBeforeReplace:
# to Analyze and AnalyzeStack, a resource's aliases are those its state
# keeps (step_generator.go: the one alias it was found under, new.Aliases /
# v.GetAliases()); AnalyzeStack gets each registration's
# deleteBeforeReplace from its goal (AnalyzeResources: goal.DeleteBeforeReplace),
# sent only when the program set it. The pack (packs/inspect) reports what it
# saw as JSON in advisory violations, read back from the --json events.
. "$(dirname "$0")/lib.sh" "$@"
program() { # name [alias]
  cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
resources:
  $1:
    type: random:RandomPet
    properties:
      length: 2
    options:
      deleteBeforeReplace: true
${2:+      aliases:
        - $2}
  plain:
    type: random:RandomPet
  kept:
    type: random:RandomPet
    options:
      deleteBeforeReplace: false
YAML
}
seen_py='
seen = {}
for e in events():
    p = e.get("policyEvent")
    if p:
        seen[(p["policyName"], name(p["resourceUrn"]))] = json.loads(p["message"].splitlines()[-1])
'
run stack init dev
program old
run up --yes --skip-preview
expect_rc 0 "up"
export_state
OLD=$(python3 -c 'import json,sys; print([r["urn"] for r in json.load(open(sys.argv[1]))["deployment"]["resources"] if r["urn"].endswith("::old")][0])' "$T/export.json")

program new "$OLD"
run up --yes --skip-preview --json --policy-pack "$PACKS/inspect"
expect_rc 0 "up of the renamed resource with the inspecting pack"
check "aliases and deleteBeforeReplace reach the pack" "
$seen_py
new, st_new = seen[('resource-seen', 'new')], seen[('stack-seen', 'new')]
assert new['aliases'] == ['$OLD'], new
assert new['deleteBeforeReplace'] is True, new
assert st_new['aliases'] == ['$OLD'], st_new
assert st_new['deleteBeforeReplace'] is True, st_new
plain, kept = seen[('stack-seen', 'plain')], seen[('stack-seen', 'kept')]
assert plain['aliases'] == [] and 'deleteBeforeReplace' not in plain, plain
assert kept['deleteBeforeReplace'] is False, kept
"

# Found under its own URN the next time: no alias in the state, none sent.
run up --yes --skip-preview --json --policy-pack "$PACKS/inspect"
expect_rc 0 "up again"
check "no alias once found under its own URN" "
$seen_py
assert seen[('resource-seen', 'new')]['aliases'] == [], seen[('resource-seen', 'new')]
assert seen[('stack-seen', 'new')]['aliases'] == [], seen[('stack-seen', 'new')]
assert seen[('stack-seen', 'new')]['deleteBeforeReplace'] is True
"
finish
