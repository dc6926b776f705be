#!/bin/bash
# minipulumi stack graph: Pulumi's DOT (node numbering in URN order, an
# edge from each dependency to its dependent labelled with the properties
# that carry it, child -> parent edges, the colours and flags), and
# --format svg|png rendered by Graphviz's `dot`, with a clear error when
# `dot` is missing.
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
      w: ${a.v}
    options:
      parent: ${a}
YAML
P=urn:pulumi:dev::proj
run stack init dev
run up --yes
expect_rc 0 "up"

run stack graph g.dot
expect_rc 0 "stack graph"
expect_out 'Wrote stack dependency graph to `g.dot`' "the message"
# Nodes in URN order (bytewise, as Go sorts): the default provider, the
# stack, then b before a, since b's type is qualified by its parent's
# ("Resource$test..." sorts before "Resource::a").
cat > want.dot <<DOT
strict digraph {
    Resource0 [label="$P::pulumi:providers:test::default"];
    Resource1 [label="$P::pulumi:pulumi:Stack::proj-dev"];
    Resource2 [label="$P::test:index:Resource\$test:index:Resource::b"];
    Resource2 -> Resource3 [color = "#AA6639"];
    Resource3 [label="$P::test:index:Resource::a"];
    Resource3 -> Resource1 [color = "#AA6639"];
    Resource3 -> Resource2 [color = "#246C60", label = "v, w"];
}
DOT
diff -u want.dot g.dot || fail "the DOT differs from Pulumi's"

run stack graph g2.dot --ignore-parent-edges --short-node-name \
  --dependency-edge-color red --dot-fragment 'rankdir="LR";'
expect_rc 0 "flags"
cat > want2.dot <<'DOT'
strict digraph {
rankdir="LR";
    Resource0 [label="default"];
    Resource1 [label="proj-dev"];
    Resource2 [label="b"];
    Resource3 [label="a"];
    Resource3 -> Resource2 [color = "red", label = "v, w"];
}
DOT
diff -u want2.dot g2.dot || fail "flags: the DOT differs"

run stack graph g3.dot --ignore-dependency-edges --parent-edge-color blue
grep -q 'Resource3 -> Resource1 \[color = "blue"\];' g3.dot ||
  fail "parent edge colour"
grep -q '#246C60' g3.dot && fail "dependency edges were not ignored"

# Rendered pictures, when Graphviz is installed.
if command -v dot >/dev/null; then
  run stack graph g.svg --format svg
  expect_rc 0 "svg"
  grep -q '<svg' g.svg || fail "not an SVG"
  grep -q '>a</text>\|::a</text>' g.svg || fail "the SVG lacks node a"
  run stack graph g.png --format png
  expect_rc 0 "png"
  [ "$(head -c 4 g.png | tail -c 3)" = PNG ] || fail "not a PNG"
  ls g.png.dot-* 2>/dev/null && fail "the temporary DOT file was left"
fi
# Without `dot` on PATH: a clear error, no file.
PATH=/nonexistent "$M" stack graph none.png --format png </dev/null \
  >"$T/out" 2>"$T/err"
RC=$? ERR=$(<"$T/err")
expect_rc 1 "no graphviz"
expect_err "needs Graphviz's \`dot\` command" "names what is missing"
expect_err "apt-get install graphviz" "says what to do"
[ -e none.png ] && fail "a file was written without graphviz"

run stack graph x.gif --format gif
expect_rc 2 "unknown format"
expect_err 'unknown --format "gif": expected dot, svg or png' "format error"
run stack graph
expect_rc 2 "no file name"
finish
