#!/bin/bash
# destroy's flags end to end on the test provider: --preview-only, -t,
# --target-dependents, -x, --exclude-dependents, -p, --continue-on-error
# (a failing delete: exit 4), --json, -y, -f and --remove.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    properties:
      v: 1
  b:
    type: test:Resource
    properties:
      v: ${a.v}
  c:
    type: test:Resource
    properties:
      v: 3
  s1:
    type: test:Resource
    properties:
      __latencyMs: 400
  s2:
    type: test:Resource
    properties:
      __latencyMs: 400
  s3:
    type: test:Resource
    properties:
      __latencyMs: 400
YAML
U=urn:pulumi:dev::proj::test:index:Resource
W=$MINIPULUMI_TEST_WORLD
run stack init dev
run up -y -p 8
expect_rc 0 "up"
nfiles() { ls "$W"/id-*.json 2>/dev/null | wc -l; }
[ "$(nfiles)" = 6 ] || fail "six resources in the world"

run destroy
expect_rc 2 "destroy without --yes and without a terminal"
run destroy --preview-only
expect_rc 0 "destroy --preview-only"
expect_out "Previewing destroy (dev)" "header"
expect_out " -  test:index:Resource a delete" "delete row"
expect_out "- 7 to delete" "summary"
[ "$(nfiles)" = 6 ] || fail "--preview-only deletes nothing"

run destroy --preview-only --json
expect_rc 0 "destroy --preview-only --json"
check "destroy preview digest" '
d = doc()
ops = sorted((s["op"], name(s["urn"])) for s in d["steps"])
assert ("delete", "a") in ops and ("delete", "s3") in ops, ops
assert d["changeSummary"] == {"delete": 7}, d["changeSummary"]
'

# -t b: b alone
run destroy -y -t "$U::b" --json
expect_rc 0 "destroy -t b"
check "-t b deletes b" '
st = [s for s in steps(events()) if s[0] != "same"]
assert st == [("delete", "b")], st
'
export_state
check "state after -t b" 'assert "b" not in res() and "a" in res(), sorted(res())'
run up -y
expect_rc 0 "b back"

# -t a without its dependent b fails; with --target-dependents both go.
run destroy -y -t "$U::a"
[ "$RC" != 0 ] || fail "destroying a target with an untargeted dependent fails"
expect_out "--target-dependents" "the error suggests --target-dependents"
export_state
check "nothing was deleted" 'assert {"a", "b"} <= set(res()), sorted(res())'
run destroy -y -t "$U::a" --target-dependents --json
expect_rc 0 "destroy -t a --target-dependents"
check "a and b deleted, dependents first" '
ev = events()
st = [s for s in steps(ev) if s[0] != "same"]
assert sorted(st) == [("delete", "a"), ("delete", "b")], st
assert st.index(("delete", "b")) < st.index(("delete", "a")), st
'
run up -y
expect_rc 0 "a and b back"

# -x c with -p 8: everything else goes, the three slow deletes at once.
: >"$W/calls.jsonl"
run destroy -y -x "$U::c" -x "$U::a" --exclude-dependents -p 8 --json
expect_rc 0 "destroy -x c -x a --exclude-dependents"
check "excluded resources stay" '
st = sorted(s for s in steps(events()) if s[0] != "same")
assert st == [("delete", "s1"), ("delete", "s2"), ("delete", "s3")], st
'
check "-p 8: the slow deletes overlap" '
import json, os
c = [json.loads(l) for l in open(os.environ["MINIPULUMI_TEST_WORLD"] + "/calls.jsonl")]
t = sorted(x["t"] for x in c if x["op"] == "delete" and name(x["urn"]) in ("s1", "s2", "s3"))
assert len(t) == 3 and t[-1] - t[0] < 300e6, t
'
export_state
check "state after -x" 'assert set(res()) == {"proj-dev", "test-provider", "a", "b", "c"}, sorted(res())'

# -p 1: one delete at a time
run up -y
: >"$W/calls.jsonl"
run destroy -y -t "$U::s1" -t "$U::s2" -t "$U::s3" -p 1
expect_rc 0 "destroy -p 1"
check "-p 1: the slow deletes do not overlap" '
import json, os
c = [json.loads(l) for l in open(os.environ["MINIPULUMI_TEST_WORLD"] + "/calls.jsonl")]
t = sorted(x["t"] for x in c if x["op"] == "delete")
assert len(t) == 3 and t[1] - t[0] >= 390e6 and t[2] - t[1] >= 390e6, t
'

# a failing delete: exit 4; --continue-on-error deletes the rest.
run up -y
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    properties:
      v: 1
      __failOn: [delete]
  b:
    type: test:Resource
    properties:
      v: ${a.v}
  c:
    type: test:Resource
    properties:
      v: 3
      __latencyMs: 300
YAML
run up -y
expect_rc 0 "up with __failOn: [delete]"
run destroy -y --continue-on-error --json
expect_rc 4 "a failing delete"
check "--continue-on-error deletes what it can" '
ev = events()
f = [e["resOpFailedEvent"]["metadata"] for e in ev if "resOpFailedEvent" in e]
assert [(m["op"], name(m["urn"])) for m in f] == [("delete", "a")], f
st = steps(ev)
assert ("delete", "b") in st and ("delete", "c") in st, st
d = [e["diagnosticEvent"]["message"] for e in ev if "diagnosticEvent" in e]
assert any("delete failed intentionally" in m for m in d), d
'
export_state
check "a stays in the state" '
r = res()
assert "a" in r and "b" not in r and "c" not in r, sorted(r)
'
run destroy -y
expect_rc 4 "the delete fails again"
expect_out "delete failed intentionally" "the message"
expect_out "**deleting failed**" "failed row"

# drop the script (an up with the flag removed), then -f and --remove
sed -i '/__failOn/d' Pulumi.yaml
run up -y
run destroy -f
expect_rc 0 "destroy -f"
expect_not_out "Previewing destroy" "-f skips the preview"
expect_out "Destroying (dev)" "header"
export_state
check "empty state" 'assert set(res()) == set(), sorted(res())'
[ "$(nfiles)" = 0 ] || fail "the world is empty: $(ls "$W")"
[ -f Pulumi.dev.yaml ] || echo "config: {}" >Pulumi.dev.yaml
run destroy -y --remove --json
expect_rc 0 "destroy --remove"
run stack ls --json
check "the stack is gone" 'assert [s for s in doc() if s["name"] == "dev"] == [], doc()'
[ -e Pulumi.dev.yaml ] && fail "--remove deletes Pulumi.dev.yaml"
finish
