#!/bin/bash
# A remediation that answers with a diagnostic instead of properties
# (@pulumi/policy's answer when the remediation reads a value unknown in
# a preview): Pulumi's step generator reports it as an advisory
# violation, its message the diagnostic alone (no description: Pulumi's
# event carries the diagnostic as the message), and keeps the inputs; it is not
# listed as a remediation. In the update the value is known and the
# remediation changes the inputs.
. "$(dirname "$0")/lib.sh" "$@"
PACK="$PACKS/unknown"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  first:
    type: random:RandomPet
    properties:
      length: 1
  second:
    type: random:RandomPet
    properties:
      length: 1
      prefix: ${first.id}
YAML
run stack init dev
SUBJ="(random:index/randomPet:RandomPet: second)"
DIAG="can't run remediation 'prefix-upper' from policy pack 'mp-unknown-pack@v0.0.1' during preview: string value at .prefix can't be known during preview"

# -- the preview: an advisory violation, no remediation
run preview --policy-pack "$PACK" --event-log "$T/preview.jsonl"
expect_rc 0 "an advisory violation does not fail the preview"
expect_out "Policies:
    ⚠️ mp-unknown-pack@v0.0.1 (local: $PACK)
        - [advisory]  prefix-upper  $SUBJ
          $DIAG" "the diagnostic as an advisory violation"
expect_not_out "[remediate]" "not listed as a remediation"
check "a policyEvent, no policyRemediationEvent" '
ev = events(T + "/preview.jsonl")
pe = [e["policyEvent"] for e in ev if "policyEvent" in e]
assert len(pe) == 1, pe
p = pe[0]
assert p["enforcementLevel"] == "advisory" and p["policyName"] == "prefix-upper", p
assert name(p["resourceUrn"]) == "second", p
assert p["message"] == """'"$DIAG"'""" + "\n", p
assert not [e for e in ev if "policyRemediationEvent" in e], ev
'

# -- the update: the prefix is known, the remediation runs
run up --yes --skip-preview --policy-pack "$PACK"
expect_rc 0 "the update"
expect_out "        - [remediate]  prefix-upper  (1 resource)" "remediated in the update"
expect_not_out "[advisory]" "no violation then"
export_state
check "the remediated prefix" '
r = res()
assert r["second"]["inputs"]["prefix"] == r["first"]["id"].upper(), (r["first"], r["second"]["inputs"])
'
finish
