#!/bin/bash
# What the engine sends a pack beside a resource's properties, as Pulumi's
# marshalResourceOptions and marshalProvider send it: its options
# (protect, ignoreChanges, additionalSecretOutputs, customTimeouts,
# deleteBeforeReplace, parent), its provider resource (type, name, URN) to
# Analyze and AnalyzeStack, and its dependencies and property
# dependencies to AnalyzeStack. The pack (packs/inspect) reports what it
# saw as JSON in advisory violations, read back from the --json events.
. "$(dirname "$0")/lib.sh" "$@"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  prov:
    type: pulumi:providers:random
  pet:
    type: random:RandomPet
    properties:
      length: 2
    options:
      provider: ${prov}
      protect: true
      ignoreChanges: [prefix]
      additionalSecretOutputs: [separator]
      deleteBeforeReplace: true
      customTimeouts:
        create: 2m
  other:
    type: random:RandomPet
    properties:
      prefix: ${pet.id}
    options:
      dependsOn:
        - ${pet}
YAML
run stack init dev
run up --yes --skip-preview --json --policy-pack "$PACKS/inspect"
expect_rc 0 "up with the inspecting pack"
check "options, provider and dependencies reach the pack" '
ev = events()
seen = {}
for e in ev:
    p = e.get("policyEvent")
    if p:
        seen[(p["policyName"], name(p["resourceUrn"]))] = json.loads(p["message"].splitlines()[-1])
pet, other = seen[("resource-seen", "pet")], seen[("resource-seen", "other")]
assert pet["protect"] is True and pet["ignoreChanges"] == ["prefix"], pet
assert pet["additionalSecretOutputs"] == ["separator"], pet
assert pet["customTimeouts"]["createSeconds"] == 120, pet
assert pet["deleteBeforeReplace"] is True, pet
assert pet["parent"].endswith("pulumi:pulumi:Stack::proj-dev"), pet
assert pet["provider"]["type"] == "pulumi:providers:random", pet
assert pet["provider"]["name"] == "prov", pet
assert pet["provider"]["urn"].endswith("::pulumi:providers:random::prov"), pet
assert other["protect"] is False and "deleteBeforeReplace" not in other, other
assert other["provider"]["name"] == "default", other
st_pet, st_other = seen[("stack-seen", "pet")], seen[("stack-seen", "other")]
assert st_pet["provider"]["name"] == "prov" and st_pet["protect"] is True, st_pet
assert st_other["dependencies"] == ["pet"], st_other
assert [d["name"] for d in st_other["propertyDependencies"]["prefix"]] == ["pet"], st_other
'
finish
