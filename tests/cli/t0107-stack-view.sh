#!/bin/bash
# minipulumi stack: Pulumi's stack view: `Current stack resources (N):` as a
# TYPE/NAME tree (children under their parent), -u/--show-urns and
# -i/--show-ids on the lines below each row, `Current stack outputs (N):`,
# and --show-name.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
run stack init dev
run stack
expect_rc 0 "an empty stack"
expect_out "Current stack is dev:" "header"
expect_out "    No updates yet; run \`minipulumi up\`" "no update yet"
expect_out "Current stack resources (0):
    No resources currently in this stack" "no resources"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  parent:
    type: test:Resource
    properties:
      v: 1
  child:
    type: test:Resource
    properties:
      v: 2
    options:
      parent: ${parent}
outputs:
  answer: 42
  word: hello
YAML
run up --yes
expect_rc 0 "up"
run stack
expect_rc 0 "stack"
expect_out "    Last updated: " "last update"
check "the tree" '
import re
lines = out.splitlines()
i = lines.index("Current stack resources (4):")
tree = lines[i + 1:i + 6]
assert re.fullmatch(r"    TYPE +NAME", tree[0]), tree
assert re.fullmatch(r"    pulumi:pulumi:Stack +proj-dev", tree[1]), tree
assert re.fullmatch(r"    ├─ pulumi:providers:test +default", tree[2]), tree
assert re.fullmatch(r"    └─ test:index:Resource +parent", tree[3]), tree
assert re.fullmatch(r"       └─ test:index:Resource +child", tree[4]), tree
# the NAME column is aligned
assert len({l.rstrip().rfind(" ") for l in tree[1:]}) == 1, tree
assert "URN:" not in out and "ID:" not in out, out
'
expect_out "Current stack outputs (2):
    OUTPUT  VALUE
    answer  42
    word    hello" "outputs"
run stack -u -i
check "URNs and IDs below each row" '
import re
lines = out.splitlines()
assert "    │  URN: urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev" in lines, out
assert "       │  URN: urn:pulumi:dev::proj::test:index:Resource::parent" in lines, out
assert any(re.fullmatch(r"       │  ID: \S+", l) for l in lines), out
assert "             URN: urn:pulumi:dev::proj::test:index:Resource$test:index:Resource::child" in lines, out
'
run stack --show-urns
expect_out "URN: urn:pulumi:dev::proj::test:index:Resource::parent" "--show-urns"
expect_not_out "ID: " "no IDs without -i"
run stack --show-name
[ "$OUT" = dev ] || fail "--show-name: $OUT"
finish
