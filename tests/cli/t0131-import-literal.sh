#!/bin/bash
# minipulumi import with hostile names, IDs and values: each reaches the
# engine as written (no `${...}` evaluated, nothing read as YAML), and the
# generated block, pasted into the program, reads back as the same
# resources: the next up changes nothing.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
W=$MINIPULUMI_TEST_WORLD
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
config:
  greeting: hello
resources:
  keep:
    type: test:Resource
    properties:
      v: 1
YAML
run stack init dev
run up --yes
expect_rc 0 "up"

# an ID holding ${...}: the object of that ID, not of its evaluation
echo '{"v": "the named one"}' >"$W/pre-\${greeting}-post.json"
echo '{"v": "the evaluated one"}' >"$W/pre-hello-post.json"
run import test:index:Resource named 'pre-${greeting}-post' --yes --generate-code=false
expect_rc 0 "import of an ID with \${...}"
export_state
check "the ID is the one given" '
r = res()
assert r["named"]["id"] == "pre-${greeting}-post", r["named"]
assert r["named"]["inputs"] == {"v": "the named one"}, r["named"]
'
run state unprotect 'urn:pulumi:dev::proj::test:index:Resource::named' --yes
run state delete 'urn:pulumi:dev::proj::test:index:Resource::named' --yes
expect_rc 0 "the imported resource leaves the state"

# names, IDs and values of every kind, through an import file
python3 - "$W" "$T/imports.json" <<'PY'
import json, sys
world, path = sys.argv[1:]
names = ["*star", "&amp", "#hash", "null", "123", "a: b", "with space",
         " leading", "trailing ", "quo\"te", "it's", "${keep.v}", "- dash",
         "!tag", "[x]", "{y}", "true", "~", "%pct", "@at", "`tick`", "a#b c",
         "multi\nline"]
value = {"s": "${keep.v} #not a comment &a *b \"dq\" 'sq'\n  next line",
         "lead": "  two spaces", "n": "null", "num": "123", "t": "yes",
         "list": ["${x}", "$${y}", "- item", "? q"], "obj": {"k: v": "#", "${k}": "*"}}
res = []
for i, n in enumerate(names):
    rid = "id-%d ${greeting} #&* \"q\"" % i
    json.dump(value, open("%s/%s.json" % (world, rid), "w"))
    res.append({"type": "test:index:Resource", "name": n, "id": rid})
json.dump({"resources": res}, open(path, "w"))
PY
run import --file "$T/imports.json" --yes --skip-preview --out "$T/code.yaml"
expect_rc 0 "import of hostile names"
export_state
check "every name and ID as given, every value as read" '
import json
want = json.load(open("'"$T"'/imports.json"))["resources"]
r = res()
for w in want:
    got = r[w["name"]]
    assert got["id"] == w["id"], (w, got["id"])
    assert got["inputs"]["s"].startswith("${keep.v} #not"), got["inputs"]
    assert got["inputs"]["list"][1] == "$${y}", got["inputs"]
'
# the generated block, pasted into the program, is what the stack holds
python3 - "$T/code.yaml" <<'PY'
import sys
block = open(sys.argv[1]).read()
assert block.startswith("resources:\n"), block
text = open("Pulumi.yaml").read() + block[len("resources:\n"):]
open("Pulumi.yaml", "w").write(text)
PY
: >"$W/calls.jsonl"
run up --yes --expect-no-changes
expect_rc 0 "up with the generated code changes nothing"
expect_out "25 unchanged" "every resource the same"
check "no provider call changed anything" '
assert [c for c in calls() if c[0] in ("create", "update", "delete")] == [], calls()
'
finish
