#!/bin/bash
# Refresh shows drift as Pulumi does: a resource whose read state differs
# is `~ update [diff: ~content]` (the summary `~ 1 to update`), --diff and
# the prompt's `details` print the change, and the preview's --json step
# says op "update" with a detailedDiff; an unchanged one stays `refresh`.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  r:
    type: test:Resource
    properties:
      content: hello
  calm:
    type: test:Resource
    properties:
      content: still
YAML
run stack init dev
run up --yes
expect_rc 0 "up"
drift() { # new content
  python3 - "$MINIPULUMI_TEST_WORLD" "$1" <<'PY'
import json, os, sys
world, content = sys.argv[1], sys.argv[2]
for f in os.listdir(world):
    if not f.endswith(".json"): continue
    p = os.path.join(world, f)
    d = json.load(open(p))
    if d.get("content") in ("hello", "drifted"):
        d["content"] = content
        d["__read"] = {"inputs": {"content": content}}
        json.dump(d, open(p, "w"))
PY
}
drift drifted

run refresh --preview-only
expect_rc 0 "refresh preview"
expect_out " ~  test:index:Resource r update [diff: ~content]" "the drifted resource"
expect_not_out "calm update" "the unchanged one"
expect_out "~ 1 to update" "summary"
run refresh --preview-only --diff
expect_out '~ content: "hello" => "drifted"' "--diff prints the change"
run refresh --preview-only --json
check "--json: op update with a detailedDiff" '
st = {name(s["urn"]): s for s in doc()["steps"]}
assert st["r"]["op"] == "update", st["r"]
assert st["r"]["detailedDiff"] == {"content": {"kind": "update", "inputDiff": True}}, st["r"]
assert st["calm"]["op"] == "refresh", st["calm"]
'
run_tty 30 "details,no" "Do you want to perform this refresh?" refresh
check "details on the prompt prints the change" '
import re
text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out)
assert "~ content: \"hello\" => \"drifted\"" in text, text[-1500:]
'
run refresh --yes --skip-preview
expect_rc 0 "refresh"
expect_out " ~  test:index:Resource r updated" "updated row"
expect_out "[diff: ~content]" "with its diff"
expect_out "~ 1 updated" "summary"
run refresh --preview-only
expect_not_out "update" "the state now holds what was read"
finish
