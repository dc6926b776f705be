#!/bin/bash
# A failing create: exit 4, resOpFailedEvent, the failure in Diagnostics;
# without --continue-on-error nothing new starts after the failure, with it
# the independent resources are still created and the failed one's
# dependents are skipped.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  bad:
    type: test:Resource
    properties:
      __failOn: [create]
  dep:
    type: test:Resource
    properties:
      v: ${bad.id}
  late:
    type: test:Resource
    properties:
      v: ${slow.id}
  slow:
    type: test:Resource
    properties:
      __latencyMs: 500
YAML
run stack init dev
run up -y
expect_rc 4 "a failed create"
expect_out "create failed intentionally" "the provider's message"
expect_out "Diagnostics:" "diagnostics section"
expect_out "test:index:Resource bad **creating failed**" "the failed row"
export_state
check "the running create finished and was recorded, nothing new started" '
r = res()
assert "slow" in r, sorted(r)
assert "bad" not in r and "dep" not in r, sorted(r)
assert "late" not in r, sorted(r)
'
run stack history --json
check "history result" 'assert doc()[0]["result"] == "failed", doc()[0]'

run stack init coe
run up -y --continue-on-error --json
expect_rc 4 "--continue-on-error still exits 4"
check "--continue-on-error events" '
ev = events()
f = [e["resOpFailedEvent"] for e in ev if "resOpFailedEvent" in e]
assert len(f) == 1 and name(f[0]["metadata"]["urn"]) == "bad", f
assert f[0]["metadata"]["op"] == "create", f
d = [e["diagnosticEvent"] for e in ev if "diagnosticEvent" in e]
assert any("create failed intentionally" in x["message"] and x["severity"] == "error" for x in d), d
st = steps(ev)
assert ("create", "slow") in st and ("create", "late") in st, st
assert not any(n == "dep" for _, n in st), st
sm = [e["summaryEvent"] for e in ev if "summaryEvent" in e][-1]
assert sm["result"] == "failed", sm
'
export_state
check "state after --continue-on-error" '
r = res()
assert "slow" in r and "late" in r, sorted(r)
assert "bad" not in r and "dep" not in r, sorted(r)
assert r["late"]["inputs"]["v"] == r["slow"]["id"]
'
finish
