#!/bin/bash
# Policy packs on a YAML program: a mandatory resource policy fails the
# preview (which goes on with the resource's step, then fails, as
# Pulumi's) and the update (no step of the violating resource runs), an
# advisory one and a stack policy warn, a remediation changes the inputs
# before the step; the text (Policies:) and the --json policy events;
# --policy-pack-config turns the mandatory policy advisory and sets its
# config; two packs at once; a pack that crashes while loading.
. "$(dirname "$0")/lib.sh" "$@"
MAIN="$PACKS/main"
program() { # pet-length [second pet]
  cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
resources:
  pet:
    type: random:RandomPet
    properties:
      length: $1
  pw:
    type: random:RandomPassword
    properties:
      length: 12
YAML
  [ -n "${2:-}" ] && cat >> Pulumi.yaml <<'YAML'
  pet2:
    type: random:RandomPet
    properties:
      length: 1
      prefix: x
YAML
}
run stack init dev

# -- mandatory: the preview fails, naming the policy and the resource
program 5
run preview --policy-pack "$MAIN"
expect_rc 1 "preview with a mandatory violation"
expect_out "Policies:
    ❌ mp-test-pack@v0.0.1 (local: $MAIN)" "the pack's line"
expect_out "        - [mandatory]  pet-length  (random:index/randomPet:RandomPet: pet)
          A RandomPet has at most maxLength words.
          length 5 is more than 3" "the violation, in the pack's words"
expect_out "        - [advisory]  pet-prefix  (random:index/randomPet:RandomPet: pet)" \
  "the advisory violation too"
expect_out "        - [remediate]  no-special  (1 resource)" \
  "the remediation, counted by policy (Pulumi's summary of them)"
expect_out "error: preview failed" "the preview fails"
check "Policies: before Diagnostics:, no Resources: after a mandatory violation" '
assert out.index("Policies:") < out.index("Diagnostics:"), out
assert "Resources:" not in out, out
'

# -- the preview's event log: the violating pet's step is still
# previewed and the preview's only error is "preview failed" (a
# mandatory violation makes a resource invalid in an update only); the
# events as Pulumi's writer makes them (a violation's message ends with
# a newline; a remediation keeps its "raw" color and has its before and
# after)
run preview --policy-pack "$MAIN" --event-log "$T/preview.jsonl"
expect_rc 1 "preview --event-log with a mandatory violation"
check "the preview goes on; its events" '
ev = events(T + "/preview.jsonl")
assert ("create", "pet") in steps(ev, planning=True), steps(ev, planning=True)
errs = [e["diagnosticEvent"] for e in ev if e.get("diagnosticEvent", {}).get("severity") == "error"]
assert [(d.get("urn"), d["message"]) for d in errs] == [(None, "preview failed\n")], errs
pe = [e["policyEvent"] for e in ev if "policyEvent" in e]
mand = [p for p in pe if p["enforcementLevel"] == "mandatory"][0]
assert mand["message"] == "A RandomPet has at most maxLength words.\nlength 5 is more than 3\n", mand
assert mand["color"] == "never", mand
rem = [e["policyRemediationEvent"] for e in ev if "policyRemediationEvent" in e]
assert len(rem) == 1 and rem[0]["color"] == "raw", rem
assert rem[0]["after"]["special"] is False and rem[0]["before"].get("special") is not False, rem
assert rem[0]["before"]["length"] == 12 and rem[0]["after"]["length"] == 12, rem
'

# -- preview --json: Pulumi's PreviewDigest has no policy fields (its
# ShowPreviewDigest skips the policy events)
run preview --json --policy-pack "$MAIN"
expect_rc 1 "preview --json with a mandatory violation"
check "the digest: no policy fields" '
d = doc()
assert not [k for k in d if "olicy" in k], d.keys()
'

# -- the update: no step of the violating resource; the remediated
# password is created with special: false; the --json policy events
run up --yes --skip-preview --json --policy-pack "$MAIN"
expect_rc 1 "up with a mandatory violation"
export_state
check "pet not created, pw remediated, JSON events" '
ev = events()
pe = [e["policyEvent"] for e in ev if "policyEvent" in e]
mand = [p for p in pe if p["enforcementLevel"] == "mandatory"]
assert [p["policyName"] for p in mand] == ["pet-length"], pe
assert name(mand[0]["resourceUrn"]) == "pet", mand
assert mand[0]["policyPackName"] == "mp-test-pack", mand
assert "length 5 is more than 3" in mand[0]["message"], mand
rem = [e["policyRemediationEvent"] for e in ev if "policyRemediationEvent" in e]
assert [(r["policyName"], name(r["resourceUrn"])) for r in rem] == [("no-special", "pw")], rem
assert ("create", "pet") not in outs(ev), outs(ev)
r = res()
assert "pet" not in r, r.keys()
assert r["pw"]["inputs"]["special"] is False, r["pw"]["inputs"]
assert [e["sequence"] for e in ev] == list(range(1, len(ev) + 1)), "sequence numbers"
# sent as they happen: each before the summary, the remediation before
# its resource step; as the Go step generator bails ("resource <urn> is
# invalid", printed by no one), the violation is the only word of it: no
# error diagnostic, on the resource or the stack ("update failed")
k = kinds(ev)
assert k.index("policyEvent") < k.index("summaryEvent"), k
errs = [e["diagnosticEvent"] for e in ev if e.get("diagnosticEvent", {}).get("severity") == "error"]
assert errs == [], errs
assert [e["summaryEvent"]["result"] for e in ev if "summaryEvent" in e] == ["failed"], ev[-2:]
pw = [i for i, e in enumerate(ev) if "resourcePreEvent" in e
      and name(e["resourcePreEvent"]["metadata"]["urn"]) == "pw"]
assert k.index("policyRemediationEvent") < pw[0], k
s = [e["summaryEvent"] for e in ev if "summaryEvent" in e][0]
assert s["PolicyPacks"] == {"mp-test-pack|local|'"$MAIN"'": "0.0.1"}, s
'

# -- the same in text: the Policies: section tells it, no Diagnostics:
# (Pulumi's bail prints none), no Resources: summary; the run fails
run up --yes --skip-preview --policy-pack "$MAIN"
expect_rc 1 "up with a mandatory violation, text"
expect_out "        - [mandatory]  pet-length  (random:index/randomPet:RandomPet: pet)" \
  "the violation"
expect_not_out "Diagnostics:" "no diagnostic of the bail"
expect_not_out "update failed" "no 'update failed'"
check "nothing on stderr either" 'assert not open(T + "/err").read().strip(), open(T + "/err").read()' 
export_state
check "pet still not in the state" 'assert "pet" not in res(), res().keys()'

# -- --policy-pack-config: the mandatory policy made advisory; two packs;
# the stack policy (two pets) and the advisory one
program 5 two
echo '{"pet-length": "advisory"}' > "$T/advisory.json"
run up --yes --skip-preview --policy-pack "$MAIN" \
  --policy-pack-config "$T/advisory.json" --policy-pack "$PACKS/second"
expect_rc 0 "up with the mandatory policy made advisory"
expect_out "        - [advisory]  pet-length  (random:index/randomPet:RandomPet: pet)" \
  "reported as advisory"
expect_out "        - [advisory]  few-pets
          A stack has at most one RandomPet.
          2 pets" "the stack policy"
expect_out "    ⚠️ mp-second-pack@v0.0.1 (local: $PACKS/second)
        - [advisory]  name-not-pet  (random:index/randomPet:RandomPet: pet)" \
  "the second pack ran too"
export_state
check "pet created" 'assert "pet" in res() and "pet2" in res(), res().keys()'
check "Policies: (packs sorted) before Resources:" '
assert out.index("Policies:") < out.index("mp-second-pack@v0.0.1") < out.index("mp-test-pack@v0.0.1") < out.index("Resources:"), out
'

# -- a mandatory stack policy: the run fails before the deletes with the
# policy event and "update failed", no word of its own (Pulumi's step
# generator only marks itself errored); a stack policy at the remediate
# level is taken as mandatory, as Pulumi takes it
for lvl in mandatory remediate; do
  echo "{\"pet-length\": \"advisory\", \"few-pets\": \"$lvl\"}" > "$T/stack.json"
  run up --yes --skip-preview --policy-pack "$MAIN" --policy-pack-config "$T/stack.json"
  expect_rc 1 "a $lvl stack policy violated"
  expect_out "        - [mandatory]  few-pets
          A stack has at most one RandomPet.
          2 pets" "the stack policy's violation, mandatory ($lvl)"
  expect_out "error: update failed" "the update fails ($lvl)"
  expect_not_out "violates" "no word of its own ($lvl)"
done

# -- a resource already in the state that now violates the mandatory
# policy: the update fails before any step of it and the state keeps it
# as it was
run up --yes --skip-preview --policy-pack "$MAIN"
expect_rc 1 "up of an existing resource with a mandatory violation"
expect_out "        - [mandatory]  pet-length  (random:index/randomPet:RandomPet: pet)" \
  "the violation"
expect_not_out "Diagnostics:" "no diagnostic of the bail"
cp "$T/export.json" "$T/before.json"
export_state
check "pet kept as it was" '
before = json.load(open(T + "/before.json"))["deployment"]["resources"]
after = json.load(open(T + "/export.json"))["deployment"]["resources"]
pet = lambda rs: [r for r in rs if r["urn"].endswith("::pet")]
assert pet(before) == pet(after) and pet(after), (pet(before), pet(after))
'

# -- refresh: Pulumi lists no packs for it (no section, PolicyPacks {})
run refresh --yes --policy-pack "$MAIN"
expect_rc 0 "refresh with a pack"
expect_not_out "Policies:" "no Policies: section"
run refresh --yes --json --policy-pack "$MAIN"
check "refresh: PolicyPacks empty" '
s = [e["summaryEvent"] for e in events() if "summaryEvent" in e][0]
assert s["PolicyPacks"] == {}, s
'

# -- --show-policy-remediations: each remediation with its short diff
# instead of the count
run preview --policy-pack "$MAIN" --policy-pack-config "$T/advisory.json" \
  --show-policy-remediations
expect_rc 0 "preview --show-policy-remediations"
expect_out "        - [remediate]  no-special  (random:index/randomPassword:RandomPassword: pw) [~special]" \
  "the remediation, one by one"
expect_not_out "(1 resource)" "no count"

# -- the config schema: maxLength from the config instead of its default
echo '{"pet-length": {"maxLength": 6}}' > "$T/long.json"
run preview --policy-pack "$MAIN" --policy-pack-config "$T/long.json"
expect_rc 0 "preview with maxLength 6"
expect_not_out "pet-length" "no violation of pet-length"

# -- a pack that crashes while loading: the operation fails before any
# step, with the pack's name and its stderr
program 2
run up --yes --skip-preview --policy-pack "$PACKS/crash"
expect_rc 1 "a crashing pack"
expect_err "policy pack $PACKS/crash failed to start" "the pack named"
expect_err "mp-crash-pack: cannot load my rules" "its stderr"
expect_not_out "creating" "no step ran"
finish
