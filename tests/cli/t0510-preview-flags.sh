#!/bin/bash
# preview end to end: selection flags (-t, --target-dependents, -x,
# --exclude-dependents, --replace, --target-replace), --diff, --json (one
# PreviewDigest document) and --expect-no-changes; a preview changes
# neither the state nor the world.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
export PULUMI_CONFIG_PASSPHRASE=pp
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
config:
  v:
    type: string
    default: v1
resources:
  a:
    type: test:Resource
    properties:
      v: ${v}
      __replaceKeys: [k]
      k: 1
  b:
    type: test:Resource
    properties:
      v: ${a.v}
  c:
    type: test:Resource
    properties:
      v: ${v}
      pw:
        fn::secret: s3cr3t-${v}
YAML
U=urn:pulumi:dev::proj::test:index:Resource
run stack init dev
run preview --json
expect_rc 0 "preview --json of a new stack"
check "digest of a new stack" '
d = doc()
assert set(d) >= {"config", "steps", "duration", "changeSummary"}, list(d)
assert d["config"] == {"proj:v": "v1"}, d["config"]
ops = sorted((s["op"], name(s["urn"])) for s in d["steps"])
assert ops == [("create", "a"), ("create", "b"), ("create", "c"), ("create", "default"), ("create", "proj-dev")], ops
assert d["changeSummary"] == {"create": 4}, d["changeSummary"]
assert isinstance(d["duration"], int) and d["duration"] > 0, d["duration"]
c = [s for s in d["steps"] if s["urn"].endswith("::c")][0]
assert c["newState"]["inputs"]["pw"] == "[secret]", c["newState"]
assert c["newState"]["type"] == "test:index:Resource" and c["newState"]["custom"] is True
assert c["provider"].startswith("urn:pulumi:dev::proj::pulumi:providers:test::default::")
'
python3 -c '
import json, sys
c = [json.loads(l) for l in open(sys.argv[1])]
bad = [x for x in c if x["op"] in ("create", "update", "delete") and not x["preview"]]
sys.exit(1 if bad else 0)' "$MINIPULUMI_TEST_WORLD/calls.jsonl" || fail "preview called create outside preview"
run stack export
expect_not_out '"urn"' "no resources in the state after a preview"

run up -y
expect_rc 0 "up"
export_state --show-secrets
cp "$T/export.json" "$T/before.json"

run preview --expect-no-changes
expect_rc 0 "preview --expect-no-changes without changes"
run preview --expect-no-changes -c v=v2
expect_rc 7 "preview --expect-no-changes with changes"
expect_out "~ 3 to update" "the changes are shown"

run preview --json --diff
check "digest with changed config" '
d = doc()
ops = sorted((s["op"], name(s["urn"])) for s in d["steps"])
assert ops == [("same", "proj-dev"), ("update", "a"), ("update", "b"), ("update", "c")], ops
a = [s for s in d["steps"] if s["urn"].endswith("::a")][0]
assert a["diffReasons"] == ["v"], a
assert a["detailedDiff"] == {"v": {"kind": "update", "inputDiff": True}}, a["detailedDiff"]
assert a["oldState"]["inputs"]["v"] == "v1" and a["newState"]["inputs"]["v"] == "v2", a
c = [s for s in d["steps"] if s["urn"].endswith("::c")][0]
assert c["oldState"]["inputs"]["pw"] == "[secret]" and c["newState"]["inputs"]["pw"] == "[secret]", c
assert d["changeSummary"] == {"same": 1, "update": 3}, d["changeSummary"]
'

run preview --diff
expect_rc 0 "preview --diff"
expect_out '~ v: "v1" => "v2"' "--diff property change"
expect_out "~ pw: [secret] => [secret]" "--diff masks secrets"
expect_out "[urn=$U::a]" "--diff names the urn"
run preview --diff --show-secrets
expect_out '~ pw: "s3cr3t-v1" => "s3cr3t-v2"' "--diff --show-secrets"

run preview --json -t "$U::a"
check "-t a" '
ops = sorted((s["op"], name(s["urn"])) for s in doc()["steps"] if s["op"] != "same")
assert ops == [("update", "a")], ops
'
run preview --json -t "$U::a" --target-dependents
check "-t a --target-dependents" '
ops = sorted((s["op"], name(s["urn"])) for s in doc()["steps"] if s["op"] != "same")
assert ops == [("update", "a"), ("update", "b")], ops
'
run preview --json -x "$U::a"
check "-x a" '
ops = sorted((s["op"], name(s["urn"])) for s in doc()["steps"] if s["op"] != "same")
assert ops == [("update", "c")], ops
'
run preview --json -x "$U::c" --exclude-dependents -x "$U::a"
check "-x a -x c --exclude-dependents" '
ops = sorted((s["op"], name(s["urn"])) for s in doc()["steps"] if s["op"] != "same")
assert ops == [], ops
'
run preview --json --replace "$U::b"
check "--replace b" '
d = doc()
ops = sorted((s["op"], name(s["urn"])) for s in d["steps"] if s["op"] != "same")
assert ops == [("replace", "b"), ("update", "a"), ("update", "c")], ops
b = [s for s in d["steps"] if s["urn"].endswith("::b")][0]
assert b["replaceReasons"] == ["id"], b
assert d["changeSummary"]["replace"] == 1, d["changeSummary"]
'
run preview --json --target-replace "$U::b"
check "--target-replace b" '
ops = sorted((s["op"], name(s["urn"])) for s in doc()["steps"] if s["op"] != "same")
assert ops == [("replace", "b")], ops
'
run preview --target-replace "$U::b"
expect_out " +- test:index:Resource b replace" "replace row"
expect_out "+-1 to replace" "replace summary"
run preview --json -c k=2
check "a key in __replaceKeys replaces" '
d = doc()
a = [s for s in d["steps"] if s["urn"].endswith("::a")]
assert [s["op"] for s in a] == ["update"], a
' # k is not config: the program's k stays 1, so a is only updated
run preview -t "$U::nope"
[ "$RC" != 0 ] || fail "preview -t of a missing resource fails"

export_state --show-secrets
cmp -s "$T/before.json" "$T/export.json" || check "previews changed nothing" '
import json
a = json.load(open(T + "/before.json"))["deployment"]["resources"]
b = json.load(open(T + "/export.json"))["deployment"]["resources"]
assert a == b
'
finish
