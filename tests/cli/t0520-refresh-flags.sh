#!/bin/bash
# refresh's flags end to end on the test provider: a resource changed and
# one deleted behind the engine's back; -y, -f, --preview-only, -t, -x,
# --json, --expect-no-changes, -m, and `stack export` after each.
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
      v: 2
  c:
    type: test:Resource
    properties:
      v: 3
YAML
U=urn:pulumi:dev::proj::test:index:Resource
run stack init dev
run up -y
expect_rc 0 "up"
export_state
ids=$(python3 -c 'import json,sys; r={x["urn"].split("::")[-1]: x.get("id") for x in json.load(open(sys.argv[1]))["deployment"]["resources"]}; print(r["a"], r["b"], r["c"])' "$T/export.json")
set -- $ids
ida=$1 idb=$2 idc=$3
W=$MINIPULUMI_TEST_WORLD

run refresh
expect_rc 2 "refresh without --yes and without a terminal"
run refresh -y --expect-no-changes
expect_rc 0 "nothing drifted"

# drift: a's outputs change, b is gone, c is untouched
echo '{"v":10,"extra":"x"}' >"$W/$ida.json"
rm "$W/$idb.json"
cp "$T/export.json" "$T/before.json"

run refresh --preview-only
expect_rc 0 "refresh --preview-only"
expect_out "Previewing refresh (dev)" "preview header"
expect_not_out "Refreshing (dev)" "only a preview"
expect_out "- 1 to delete" "the vanished resource"
run refresh --preview-only --expect-no-changes
expect_rc 7 "refresh --preview-only --expect-no-changes with drift"
run refresh --preview-only --json
expect_rc 0 "refresh --preview-only --json"
check "refresh preview digest" '
d = doc()
assert d["changeSummary"].get("delete") == 1, d["changeSummary"]
urns = [name(s["urn"]) for s in d["steps"]]
assert "b" in urns, urns
'
export_state
check "a preview changes nothing" '
import json
a = [(x["urn"], x.get("outputs")) for x in json.load(open(T + "/before.json"))["deployment"]["resources"]]
b = [(x["urn"], x.get("outputs")) for x in res().values()]
assert sorted(a, key=str) == sorted(b, key=str)
'

# -t c: only c is read; the drift of a and b stays unseen
: >"$W/calls.jsonl"
run refresh -y -t "$U::c" --json
expect_rc 0 "refresh -t c"
check "-t reads only the target" '
r = [n for op, n in calls("read")]
assert set(r) == {"c"}, r
'
export_state
check "state after refresh -t c" '
r = res()
assert "b" in r and r["a"]["outputs"]["v"] == 1, r
'

# -x a -x b: likewise
: >"$W/calls.jsonl"
run refresh -y -x "$U::a" -x "$U::b"
expect_rc 0 "refresh -x"
check "-x skips the excluded" '
r = [n for op, n in calls("read")]
assert set(r) == {"c"}, r
'

# -y --json -m: the drift is recorded
: >"$W/calls.jsonl"
run refresh -y --json -m "sync"
expect_rc 0 "refresh -y --json"
check "refresh events" '
ev = events()
assert kinds(ev)[0] == "preludeEvent"
st = steps(ev)
assert sorted(n for op, n in st if op == "refresh") == ["a", "b", "c", "default", "proj-dev"], st
assert sorted(n for op, n in steps(ev, planning=True) if op == "refresh") == ["a", "b", "c", "default", "proj-dev"]
sm = [e["summaryEvent"] for e in ev if "summaryEvent" in e]
assert sm[-1]["isPreview"] is False and sm[-1]["result"] == "succeeded", sm
assert sm[-1]["resourceChanges"].get("delete") == 1, sm[-1]
o = [e["resOutputsEvent"]["metadata"] for e in ev if "resOutputsEvent" in e and not e["resOutputsEvent"].get("planning")]
a = [m for m in o if name(m["urn"]) == "a"][0]
assert a["new"]["outputs"] == {"v": 10, "extra": "x"}, a
'
export_state
check "state after refresh" '
r = res()
assert "b" not in r, sorted(r)
assert r["a"]["outputs"] == {"v": 10, "extra": "x"}, r["a"]
assert r["a"]["inputs"] == {"v": 1}, r["a"]
assert r["c"]["outputs"] == {"v": 3}
'
run stack history --json
check "history" '
h = doc()
assert h[0]["kind"] == "refresh" and h[0]["message"] == "sync" and h[0]["result"] == "succeeded", h[0]
'

# -f: no preview
run refresh -f
expect_rc 0 "refresh -f"
expect_not_out "Previewing refresh" "-f skips the preview"
expect_out "Refreshing (dev)" "-f refreshes"
run refresh -y --expect-no-changes
expect_rc 0 "nothing left to refresh"

# the next up creates b again and puts a back
run up -y --json
expect_rc 0 "up after refresh"
check "up recreates b" '
st = [s for s in steps(events()) if s[0] != "same"]
assert ("create", "b") in st, st
'
run refresh -y -t "$U::nope"
[ "$RC" != 0 ] || fail "refresh -t of a missing resource fails"
finish
