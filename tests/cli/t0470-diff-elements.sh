#!/bin/bash
# Arrays and objects diffed element by element, as Pulumi's display shows
# them, in `preview --diff` and in the stack's Outputs section, on a pipe
# and on a terminal: `~ tags: [` with `~ [1]: "b" => "c"` and one `-` for
# the element removed at the end, `~ nested: {` with the change inside,
# the unchanged elements of an output unmarked; an added element or key
# marked `+` line by line, a value that changes kind shown as removed and
# added. Without a detailed diff from the provider, the inputs are
# compared (only the keys it named, if any).
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
program() { # tags nested.b
  cat > Pulumi.yaml <<Y
name: proj
runtime: yaml
resources:
  r:
    type: test:Resource
    properties:
      name: n
      tags: $1
      nested:
        a: 1
        b: $2
outputs:
  tags: $1
  nested:
    a: 1
    b: $2
  plain: p
Y
}
# block: the --diff lines of resource r (after its URN, to the blank line)
BLOCK='blk = out.replace("\r", "").split("::test:index:Resource::r]\n")[1].split("\n\n")[0].split("\n")'
OUTS='sec = out.replace("\r", "").split("Outputs:\n")[1].split("\n\n")[0].split("\n")'
STRIP='import re
out = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", out)'

program '["a", "b", "x"]' 1
run stack init dev
run up --yes
expect_rc 0 "first up"

program '["a", "c"]' 2
run preview --diff
expect_rc 0 "preview --diff"
check "--diff: the changed element, the removed one, the changed key" "$BLOCK"'
assert blk == [
    "      ~ nested: {",
    "          ~ b: 1 => 2",
    "        }",
    "      ~ tags  : [",
    "          ~ [1]: \"b\" => \"c\"",
    "          - [2]: \"x\"",
    "        ]"], blk
'
run preview
expect_out "[diff: ~nested,tags]" "the Info column names the changed keys"
PREVIEW_OUTS='
assert sec == [
    "  ~ nested: {",
    "        a: 1",
    "      ~ b: 1 => 2",
    "    }",
    "  ~ tags  : [",
    "        [0]: \"a\"",
    "      ~ [1]: \"b\" => \"c\"",
    "      - [2]: \"x\"",
    "    ]"], sec
'
check "a preview's Outputs: element by element, the unchanged ones unmarked" "$OUTS$PREVIEW_OUTS"

# the same on a terminal (colored, the table drawn in place)
run_tty 60 - "-" preview
expect_rc 0 "preview on a terminal"
check "terminal: Outputs element by element" "$STRIP
$OUTS$PREVIEW_OUTS"
check "terminal: colored by op" '
assert "\x1b[33m      ~ [1]: \x1b[0m\x1b[31m\"b\"\x1b[0m\x1b[33m => \x1b[0m\x1b[32m\"c\"" in out, repr(out[-900:])
assert "\x1b[31m      - [2]: " in out, repr(out[-900:])
'
run_tty 60 - "-" preview --diff
expect_rc 0 "preview --diff on a terminal"
check "terminal: --diff element by element" "$STRIP
$BLOCK"'
assert "          ~ [1]: \"b\" => \"c\"" in blk and "          - [2]: \"x\"" in blk, blk
assert "      ~ nested: {" in blk and "          ~ b: 1 => 2" in blk, blk
'

run up --yes --skip-preview
expect_rc 0 "second up"
check "an update lists every output, the changes element by element" "$OUTS"'
assert sec == [
    "  ~ nested: {",
    "        a: 1",
    "      ~ b: 1 => 2",
    "    }",
    "    plain : \"p\"",
    "  ~ tags  : [",
    "        [0]: \"a\"",
    "      ~ [1]: \"b\" => \"c\"",
    "      - [2]: \"x\"",
    "    ]"], sec
'

# an element added at the end, a key added inside, a value changing kind
cat > Pulumi.yaml <<'Y'
name: proj
runtime: yaml
resources:
  r:
    type: test:Resource
    properties:
      name: ["n"]
      tags: ["a", "c", "y"]
      nested:
        a: 1
        b: 2
        c:
          d: 1
outputs:
  tags: ["a", "c", "y"]
  nested:
    a: 1
    b: 2
    c:
      d: 1
  plain: p
Y
run preview --diff
expect_rc 0 "preview --diff of additions"
check "--diff: additions marked line by line, a change of kind as - and +" "$BLOCK"'
assert blk == [
    "      - name  : \"n\"",
    "      + name  : [",
    "      +     [0]: \"n\"",
    "        ]",
    "      ~ nested: {",
    "          + c: {",
    "              + d: 1",
    "            }",
    "        }",
    "      ~ tags  : [",
    "          + [2]: \"y\"",
    "        ]"], blk
'
check "Outputs: the added element and key" "$OUTS"'
assert sec == [
    "  ~ nested: {",
    "        a: 1",
    "        b: 2",
    "      + c: {",
    "          + d: 1",
    "        }",
    "    }",
    "  ~ tags  : [",
    "        [0]: \"a\"",
    "        [1]: \"c\"",
    "      + [2]: \"y\"",
    "    ]"], sec
'

# No detailed diff: the test provider names the key that replaces and
# nothing else; the display compares the inputs, showing only that key.
cat > Pulumi.yaml <<'Y'
name: proj
runtime: yaml
resources:
  r:
    type: test:Resource
    properties:
      kind: k1
      other: o1
      __replaceKeys: [kind]
Y
run up --yes
expect_rc 0 "up without a detailed diff"
sed -i 's/kind: k1/kind: k2/; s/other: o1/other: o2/' Pulumi.yaml
run preview --diff
expect_rc 0 "preview --diff without a detailed diff"
check "the input diff, only the keys the provider named" "$BLOCK"'
assert blk == ["      ~ kind: \"k1\" => \"k2\""], blk
'
run preview
expect_out "[diff: ~kind]" "the Info column: the keys the provider named"
finish
